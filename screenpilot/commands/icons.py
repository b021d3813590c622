"""Icon-labeller commands: ``dataset icons``, ``train icons``, ``train icons-real``,
``export icons``, ``export icons-real``, ``eval icons`` and ``label-icon``.

torch, open_clip and onnxruntime are imported inside the commands.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from screenpilot.commands.common import config_from, console
from screenpilot.commands.groups import dataset_app, eval_app, export_app, train_app

_FAMILIES_HELP = "Comma-separated icon families (mdi,gmi,fa,bs,lucide,remix,fluent,ion,eva)."


def _families(text: str) -> tuple[str, ...]:
    from screenpilot.datasets.icons import ALL_FAMILIES

    return tuple(f.strip() for f in text.split(",") if f.strip()) or ALL_FAMILIES


@dataset_app.command("icons")
def dataset_icons_cmd(
    out: Path = typer.Option(..., "--out", help="Output folder."),
    families: str = typer.Option("", "--families", help=_FAMILIES_HELP + " Default: all."),
    test_family: str = typer.Option(
        "gmi", "--test-family", help="The family kept out of training (test split)."
    ),
    per_glyph: int = typer.Option(2, "--per-glyph", min=1, help="Crops rendered per glyph."),
    size: int = typer.Option(64, "--size", min=16, help="Crop size in pixels."),
    seed: int = typer.Option(0, "--seed"),
    png: bool = typer.Option(True, "--png/--no-png", help="Also write PNGs in SPLIT/LABEL/."),
) -> None:
    """Render labelled icon crops (train/val/test/unknown) from the installed icon fonts."""
    from screenpilot.datasets.icons import write_dataset

    manifest = write_dataset(
        out,
        families=_families(families),
        test_family=test_family,
        per_glyph=per_glyph,
        size=size,
        seed=seed,
        png=png,
    )
    console.print(
        f"crops per split: {json.dumps(manifest['counts'])}", highlight=False, soft_wrap=True
    )
    console.print(f"coverage: {json.dumps(manifest['coverage'])}", highlight=False, soft_wrap=True)
    console.print(f"-> {out / 'manifest.json'}", highlight=False)


@train_app.command("icons")
def train_icons_cmd(
    out: Path = typer.Option(Path("runs/icons"), "--out", help="Checkpoints and train.log."),
    steps: int = typer.Option(6000, "--steps", min=1),
    batch: int = typer.Option(128, "--batch", min=2, help="Distinct labels per batch."),
    lr: float = typer.Option(
        2e-3, "--lr", help="Peak learning rate (use ~1e-5 with --pretrained)."
    ),
    warmup: int = typer.Option(50, "--warmup", min=1, help="Linear warm-up steps."),
    pool: int = typer.Option(
        4,
        "--pool",
        min=0,
        help="Crops pre-rendered per training glyph (0 = render every crop when drawn).",
    ),
    refresh: int = typer.Option(32, "--refresh", min=0, help="Pool crops re-rendered per step."),
    input_mode: str = typer.Option(
        "auto",
        "--input-mode",
        help="auto, rgb or gray (auto: gray from scratch, rgb with --pretrained).",
    ),
    text_init_steps: int = typer.Option(
        50,
        "--text-init-steps",
        min=0,
        help="Text-only steps that spread the label "
        "embeddings before training (not with --pretrained).",
    ),
    minutes: float = typer.Option(
        0.0,
        "--minutes",
        help="Stop after this long (0 = no limit); the cosine schedule ends at the limit.",
    ),
    pretrained: Path | None = typer.Option(
        None, "--pretrained", help="Fine-tune this open_clip checkpoint."
    ),
    arch: str = typer.Option(
        "",
        "--arch",
        help="open_clip architecture of --pretrained "
        "(e.g. ViT-B-32). Default: the small icon model.",
    ),
    families: str = typer.Option("", "--families", help=_FAMILIES_HELP),
    test_family: str = typer.Option("gmi", "--test-family"),
    image_size: int = typer.Option(
        0,
        "--image-size",
        min=0,
        help="Input size override (0 = the architecture's: 32 for the icon model).",
    ),
    eval_every: int = typer.Option(250, "--eval-every", min=1),
    threads: int = typer.Option(2, "--threads", min=1),
    seed: int = typer.Option(0, "--seed"),
    resume: bool = typer.Option(False, "--resume", help="Continue from OUT/last.pt."),
) -> None:
    """Train the icon CLIP (symmetric contrastive loss, image <-> label text)."""
    from screenpilot.errors import ConfigError
    from screenpilot.training.icons import ICON_ARCH, TrainConfig, train

    if pretrained is not None and not arch:
        raise ConfigError(
            "--pretrained needs --arch (the open_clip architecture of the checkpoint)",
            hint="e.g. --arch ViT-B-32",
        )
    cfg = TrainConfig(
        out=out,
        steps=steps,
        batch=batch,
        lr=lr,
        minutes=minutes,
        pretrained=pretrained,
        arch=arch or ICON_ARCH,
        families=_families(families),
        test_family=test_family,
        eval_every=eval_every,
        threads=threads,
        seed=seed,
        resume=resume,
        image_size=image_size or None,
        warmup=warmup,
        pool=pool,
        refresh=refresh,
        input_mode=input_mode,
        text_init_steps=text_init_steps,
    )
    result = train(cfg, log=lambda line: console.print(line, highlight=False, soft_wrap=True))
    console.print(
        f"{result.steps} steps in {result.seconds / 60:.1f} min; best val top-1 "
        f"{result.best_val_top1:.3f} -> {result.checkpoint}",
        highlight=False,
    )


@train_app.command("icons-real")
def train_icons_real_cmd(
    data: Path = typer.Option(
        Path("runs/data/real_v2"),
        "--data",
        help="A `dataset harvest` output (manifest.jsonl, harvest_report.json).",
    ),
    out: Path = typer.Option(
        Path("runs/icons/real_v1"), "--out", help="Crops cache, checkpoints and train.log."
    ),
    onnx: Path = typer.Option(
        Path("models/icons.onnx"), "--onnx", help="The exported model to start from."
    ),
    steps: int = typer.Option(1000, "--steps", min=1),
    batch: int = typer.Option(128, "--batch", min=2),
    real_share: float = typer.Option(
        0.25, "--real-share", min=0.0, max=1.0, help="Share of each batch drawn from real crops."
    ),
    balance: str = typer.Option(
        "label",
        "--balance",
        help="Real crop sampling: label "
        "(every label equally often) or sqrt (1/sqrt(crops of "
        "the label)).",
    ),
    lr: float = typer.Option(1e-4, "--lr"),
    warmup: int = typer.Option(30, "--warmup", min=1),
    minutes: float = typer.Option(
        0.0, "--minutes", help="Stop after this long (0 = no limit); the cosine ends at the limit."
    ),
    copies: int = typer.Option(8, "--copies", min=0, help="Jittered cuts per real crop."),
    dev_share: float = typer.Option(
        0.25,
        "--dev-share",
        min=0.0,
        max=1.0,
        help="Share of the non-system train apps kept for choices (dev).",
    ),
    eval_every: int = typer.Option(100, "--eval-every", min=1),
    threads: int = typer.Option(1, "--threads", min=1),
    seed: int = typer.Option(0, "--seed"),
    resume: bool = typer.Option(False, "--resume", help="Continue from OUT/last.pt."),
    test_family: str = typer.Option(
        "gmi",
        "--test-family",
        help="Rendered icon family kept out of the rendered batches (scored by `eval icons "
        "--held-out`); '' = none: every family renders, Google's Material icons too.",
    ),
    resource_ids: bool = typer.Option(
        True,
        "--resource-ids/--no-resource-ids",
        help="Also cut image views with no description whose resource id names a function "
        "(vision/data/icon_resource_ids.json) in the train and dev apps; --no-resource-ids "
        "= the description crops alone (st_plain's crops).",
    ),
) -> None:
    """Fine-tune the exported icon model on real icon crops + rendered crops."""
    from screenpilot.training.icons.real import RealTuneConfig, train

    labels = onnx.with_name(onnx.stem + "_labels.json")
    cfg = RealTuneConfig(
        out=out,
        data=data,
        onnx=onnx,
        labels=labels,
        steps=steps,
        batch=batch,
        real_share=real_share,
        lr=lr,
        warmup=warmup,
        minutes=minutes,
        copies=copies,
        dev_share=dev_share,
        balance=balance,
        eval_every=eval_every,
        threads=threads,
        seed=seed,
        resume=resume,
        test_family=test_family,
        resource_ids=resource_ids,
    )
    result = train(cfg, log=lambda line: console.print(line, highlight=False, soft_wrap=True))
    console.print(json.dumps(result), highlight=False, soft_wrap=True)


@export_app.command("icons-real")
def export_icons_real_cmd(
    checkpoint: Path = typer.Option(Path("runs/icons/real_v1/best.pt"), "--checkpoint"),
    out: Path = typer.Option(Path("models/icons.onnx"), "--out", help="The ONNX image tower."),
    target_precision: float = typer.Option(0.9, "--target-precision", min=0.0, max=1.0),
    unknown_share: float = typer.Option(0.2, "--unknown-share", min=0.0, max=0.95),
    threads: int = typer.Option(1, "--threads", min=1),
) -> None:
    """Export a `train icons-real` checkpoint; recalibrate "unknown" on rendered + real
    dev crops."""
    from screenpilot.training.icons.real import export

    labels = out.with_name(out.stem + "_labels.json")
    result = export(
        checkpoint,
        out,
        labels,
        target_precision=target_precision,
        unknown_share=unknown_share,
        threads=threads,
    )
    console.print(f"-> {out}, {labels}; threshold {result['threshold']:.4f}", highlight=False)
    console.print(
        json.dumps({k: round(v, 4) for k, v in result["metrics"].items()}),
        highlight=False,
        soft_wrap=True,
    )


@export_app.command("icons")
def export_icons_cmd(
    checkpoint: Path = typer.Option(Path("runs/icons/best.pt"), "--checkpoint"),
    out: Path = typer.Option(Path("models/icons.onnx"), "--out", help="The ONNX image tower."),
    labels: Path | None = typer.Option(
        None, "--labels", help="Label embeddings (default: OUT's stem + _labels.json)."
    ),
    target_precision: float = typer.Option(
        0.9,
        "--target-precision",
        min=0.0,
        max=1.0,
        help="Precision the 'unknown' threshold holds on validation crops.",
    ),
    threads: int = typer.Option(2, "--threads", min=1),
    quantize: bool = typer.Option(
        False, "--quantize/--no-quantize", help="Store the ONNX weights as int8 (~4x smaller)."
    ),
    unknown_share: float = typer.Option(
        0.2,
        "--unknown-share",
        min=0.0,
        max=0.95,
        help="Share of out-of-vocabulary crops in the calibration mix.",
    ),
) -> None:
    """Export the image tower to ONNX with the label embeddings; calibrate and measure."""
    from screenpilot.training.icons_export import export_icons

    labels = labels or out.with_name(out.stem + "_labels.json")
    result = export_icons(
        checkpoint,
        out,
        labels,
        target_precision=target_precision,
        threads=threads,
        quantize=quantize,
        unknown_share=unknown_share,
    )
    console.print(
        f"-> {result.onnx} ({result.onnx.stat().st_size / 1e6:.1f} MB), "
        f"{result.labels}; threshold {result.threshold:.3f}",
        highlight=False,
    )
    console.print(
        json.dumps({k: round(v, 4) for k, v in result.metrics.items()}),
        highlight=False,
        soft_wrap=True,
    )


@eval_app.command("icons")
def eval_icons_cmd(
    ctx: typer.Context,
    droidbot: Path = typer.Option(
        Path("../shared/data/droidbot"),
        "--droidbot",
        help="DroidBot logs (screens + state_*.json).",
    ),
    model: Path | None = typer.Option(
        None, "--model", help="ONNX model (default: vision.icons or the shipped one)."
    ),
    dump: Path | None = typer.Option(None, "--dump", help="Write the crops here as PNGs."),
    threads: int = typer.Option(2, "--threads", min=1, help="onnxruntime threads."),
    batch: int = typer.Option(64, "--batch", min=1, help="Crops per batch for the latency figure."),
    held_out: str = typer.Option(
        "gmi",
        "--held-out",
        help="Also score rendered crops of "
        "every mapped glyph of this (held-out) icon family; '' = "
        "skip.",
    ),
    seed: int = typer.Option(202, "--seed", help="Render seed of the held-out crops."),
    real: str = typer.Option(
        "runs/data/real_v2",
        "--real",
        help="A `dataset harvest` output: also score the icon crops of "
        "its held-out apps (val_apps); '' = skip (skipped with a note "
        "when the folder is absent).",
    ),
) -> None:
    """Top-1/top-3 on real icons (ImageButton/ImageView crops with a content description
    in DroidBot logs: ``real_*``; crops of the held-out apps of a ``dataset harvest``
    output, labelled by the description table: ``heldout_real_*``; for both, what
    describe's labelling, the glyph rules before the model, makes of their boxes on their
    screens: ``real_describe_*``, ``heldout_real_describe_*``), on rendered crops
    of the held-out icon family (``held_out_*``), and the labeller's latency per crop,
    batched."""
    from screenpilot.datasets.icons import droidbot_icon_crops
    from screenpilot.training.icons.measure import measure_labeller
    from screenpilot.vision.icons import IconLabeller

    report = droidbot_icon_crops(droidbot)
    labeller = IconLabeller(_model_path(ctx, model), threads=threads, batch=batch)
    scores = measure_labeller(
        labeller,
        report,
        batch=batch,
        held_out=held_out,
        seed=seed,
        real=Path(real) if real else None,
        dump=dump,
    )
    console.print(
        json.dumps({**scores, "threads": threads}, ensure_ascii=False),
        highlight=False,
        soft_wrap=True,
    )


def _model_path(ctx: typer.Context, model: Path | None) -> Path | None:
    if model is not None:
        return model
    configured = str(config_from(ctx)["vision.icons"] or "")
    return Path(configured) if configured else None


def register(app: typer.Typer) -> None:
    """Add ``label-icon`` to the root command."""

    @app.command("label-icon")
    def label_icon_cmd(
        ctx: typer.Context,
        crops: list[Path] = typer.Argument(..., help="Icon crop image(s)."),
        top: int = typer.Option(3, "--top", min=1, help="How many labels to show."),
        model: Path | None = typer.Option(
            None, "--model", help="ONNX model (default: vision.icons or the shipped one)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print JSON lines."),
    ) -> None:
        """Label icon crops: top-k functions with probabilities ("unknown" under threshold)."""
        from screenpilot.vision.icons import IconLabeller

        labeller = IconLabeller(_model_path(ctx, model))
        for path, result in zip(crops, labeller.label(crops, top=top), strict=True):
            if as_json:
                typer.echo(
                    json.dumps(
                        {
                            "crop": str(path),
                            "label": result.label,
                            "score": result.score,
                            "top": result.top,
                        }
                    )
                )
                continue
            ranked = ", ".join(f"{name} {score:.2f}" for name, score in result.top)
            console.print(f"{path}: {result.label}  ({ranked})", highlight=False, soft_wrap=True)
