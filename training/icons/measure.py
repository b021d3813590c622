"""What ``eval icons`` measures of an exported icon labeller: top-1/top-3 on real DroidBot
crops, on rendered crops of the held-out family and on the held-out apps of a ``dataset
harvest`` output, and the latency per crop, batched. onnxruntime runs inside the
labeller."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from screenpilot.datasets.icons import RealCrop, RealCropReport

if TYPE_CHECKING:
    from PIL import Image

    from screenpilot.datasets.real_icons import RealIcon
    from screenpilot.vision.icons import IconLabeller, IconResult


class OnScreen(Protocol):
    """A labelled icon's box on its screenshot (``RealIcon``, ``RealCrop``)."""

    @property
    def screen(self) -> str: ...
    @property
    def box(self) -> tuple[int, int, int, int]: ...
    @property
    def view_class(self) -> str: ...


def measure_labeller(
    labeller: IconLabeller,
    report: RealCropReport,
    *,
    batch: int,
    held_out: str = "",
    seed: int = 202,
    real: Path | None = None,
    dump: Path | None = None,
) -> dict[str, object]:
    """Every score of ``eval icons`` (the DroidBot crops of ``report``, the family
    ``held_out`` unless empty, the harvest folder ``real`` unless ``None``), the crops
    written to ``dump`` as PNGs when given."""
    rendered = score_held_out(labeller, held_out, seed) if held_out else {}
    crops = [c.image for c in report.crops]
    results = labeller.label(crops, top=3)
    scores = score_real(report.crops, results)
    scores.update(describe_scores("real", labeller, report.crops))
    if dump:
        dump_crops(dump, report.crops, results)
    latency = latency_ms(labeller, crops, batch) if crops else 0.0
    held = score_harvest(labeller, real) if real is not None else {}
    return {
        **rendered,
        **report.summary(),
        **scores,
        **held,
        "ms_per_crop": latency,
        "batch": batch,
    }


def latency_ms(
    labeller: IconLabeller, crops: list[Image.Image], batch: int, repeats: int = 7
) -> float:
    """Median milliseconds per crop over ``repeats`` runs of one batch (decode excluded)."""
    import statistics
    import time

    sample = [crops[i % len(crops)] for i in range(batch)]
    labeller.label(sample)  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        labeller.label(sample)
        times.append((time.perf_counter() - start) * 1000 / batch)
    return round(statistics.median(times), 3)


def score_held_out(labeller: IconLabeller, family: str, seed: int) -> dict[str, object]:
    """top-1/top-3 on one crop of every mapped, drawable glyph of ``family``, rendered at
    the model's input size (as ``export icons`` measures its test split)."""
    from screenpilot.datasets import icons as icon_data
    from screenpilot.vision.icon_vocab import load_vocabulary

    glyphs = icon_data.drawable(g for g in icon_data.load_glyphs([family]) if g.label)
    images, labels = icon_data.render_set(glyphs, per_glyph=1, seed=seed, size=labeller.tower.size)
    names = load_vocabulary().names
    results = labeller.label(list(images), top=3)
    n = len(results)
    top1 = sum(r.top[0][0] == names[y] for r, y in zip(results, labels, strict=True))
    top3 = sum(
        names[y] in [name for name, _ in r.top] for r, y in zip(results, labels, strict=True)
    )
    known = sum(r.known for r in results)
    return {
        "held_out_family": family,
        "held_out_crops": n,
        "held_out_top1": round(top1 / n, 4) if n else 0.0,
        "held_out_top3": round(top3 / n, 4) if n else 0.0,
        "held_out_accepted": round(known / n, 4) if n else 0.0,
    }


def score_harvest(labeller: IconLabeller, folder: Path) -> dict[str, object]:
    """top-1/top-3 on the labelled icon crops of the held-out apps of a ``dataset
    harvest`` output (``datasets.real_icons``), and the share answered (not
    "unknown") with its precision."""
    from screenpilot.datasets import real_icons

    if not (folder / "manifest.jsonl").is_file():
        return {"heldout_real": f"skipped: {folder}/manifest.jsonl does not exist"}
    apps = set(real_icons.held_out_apps(folder))
    records = [r for r in real_icons.screens_from_manifest(folder) if r.app in apps]
    report = real_icons.CropReport()
    # crops of System UI drawn over a held-out app (the notification shade) are not the app's
    icons = [i for i in real_icons.extract(records, report=report) if i.label and i.app in apps]
    results = labeller.label([i.image for i in icons], top=3)
    n = len(icons)
    top1 = sum(r.top[0][0] == i.label for i, r in zip(icons, results, strict=True))
    top3 = sum(i.label in [name for name, _ in r.top] for i, r in zip(icons, results, strict=True))
    accepted, precision = answered([i.label or "" for i in icons], results)
    return {
        "heldout_real_crops": n,
        "heldout_real_apps": len({i.app for i in icons}),
        "heldout_real_top1": _share(top1, n),
        "heldout_real_top3": _share(top3, n),
        "heldout_real_accepted": accepted,
        "heldout_real_precision_accepted": precision,
        **describe_scores("heldout_real", labeller, icons),
        "heldout_real_unlabelled_crops": report.how["excluded"] + report.how["unmapped"],
    }


def describe_scores(
    prefix: str, labeller: IconLabeller, icons: Sequence[RealCrop] | Sequence[RealIcon]
) -> dict[str, float]:
    """How describe's labelling (:func:`describe_answers`) scores on labelled icons:
    ``PREFIX_describe_top1`` (its label, printed or not, is the truth), ``_printed`` (the
    share it prints) and ``_precision_printed`` (the share of those that are right)."""
    said = describe_answers(labeller, icons)
    truths = [i.label for i in icons]
    printed = [(t, label) for t, (label, shown) in zip(truths, said, strict=True) if shown]
    return {
        f"{prefix}_describe_top1": _share(
            sum(t == label for t, (label, _) in zip(truths, said, strict=True)), len(icons)
        ),
        f"{prefix}_describe_printed": _share(len(printed), len(icons)),
        f"{prefix}_describe_precision_printed": _share(
            sum(t == label for t, label in printed), len(printed)
        ),
    }


def describe_answers(labeller: IconLabeller, icons: Sequence[OnScreen]) -> list[tuple[str, bool]]:
    """What describe's labelling makes of each icon's box on its screen, as ``(label,
    printed)``: the label of the glyph rules (``vision.glyphrules``: three bars, dots,
    thin crosses, chevrons; printed), else the model's top-1 on the part of the box
    describe shows it (``vision.framing.model_view``), printed when above the model's
    threshold and not ruled out by the drawing (``vision.answers``; then no label). The
    box is taken as an ImageButton's button or an image view's icon, with no text read
    on it."""
    import numpy as np
    from PIL import Image

    from screenpilot.model import Box, Element, ElementKind
    from screenpilot.vision.answers import checked_answer
    from screenpilot.vision.framing import model_view
    from screenpilot.vision.glyphrules import name_drawn_glyphs

    out: list[tuple[str, bool]] = [("", False)] * len(icons)
    by_screen: dict[str, list[int]] = {}
    for k, icon in enumerate(icons):
        by_screen.setdefault(icon.screen, []).append(k)
    for screen, ks in by_screen.items():
        with Image.open(screen) as opened:
            pixels = np.asarray(opened.convert("RGB"))
        elements = [
            Element(
                id=n,
                kind=ElementKind.BUTTON if "Button" in icons[k].view_class else ElementKind.ICON,
                box=Box.of(*icons[k].box),
            )
            for n, k in enumerate(ks)
        ]
        named = name_drawn_glyphs(pixels, elements)
        todo = [n for n, e in enumerate(named) if not e.icon_label]
        boxes = [model_view(pixels, named[n].box) for n in todo]
        crops = [Image.fromarray(pixels[b.y1 : b.y2, b.x1 : b.x2]) for b in boxes]
        results = iter(labeller.label(crops, top=1) if crops else [])
        shown = iter(boxes)
        for n, k in enumerate(ks):
            if named[n].icon_label:
                out[k] = (named[n].icon_label, True)
            else:
                result, box = next(results), next(shown)
                label = checked_answer(pixels, box, result.top[0][0])
                out[k] = (label, result.known and bool(label))
    return out


def _share(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0


def answered(labels: list[str], results: list[IconResult]) -> tuple[float, float]:
    """The share of crops answered (not "unknown": what describe prints) and the share of
    those answers that are right."""
    known = [(label, r) for label, r in zip(labels, results, strict=True) if r.known]
    right = sum(r.label == label for label, r in known)
    return _share(len(known), len(labels)), _share(right, len(known))


def score_real(crops: list[RealCrop], results: list[IconResult]) -> dict[str, float]:
    """top-1/top-3 of the labeller's answers on the DroidBot crops, and the share answered
    above the "unknown" threshold with its precision."""
    n = len(crops)
    top1 = sum(r.top[0][0] == c.label for c, r in zip(crops, results, strict=True))
    top3 = sum(c.label in [name for name, _ in r.top] for c, r in zip(crops, results, strict=True))
    accepted, precision = answered([c.label for c in crops], results)
    return {
        "real_top1": _share(top1, n),
        "real_top3": _share(top3, n),
        "real_accepted": accepted,
        "real_precision_accepted": precision,
    }


def dump_crops(folder: Path, crops: list[RealCrop], results: list[IconResult]) -> None:
    """Each crop as ``NNN_LABEL_as_ANSWER.png`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, (crop, result) in enumerate(zip(crops, results, strict=True)):
        crop.image.save(folder / f"{i:03d}_{crop.label}_as_{result.top[0][0]}.png")
