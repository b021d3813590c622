"""Programming by demonstration: ``screenpilot record``, ``screenpilot demos ...`` and
``screenpilot models pull``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from screenpilot import build
from screenpilot.commands.common import DEVICE_OPTION, config_from, console, loading_model
from screenpilot.config import Config
from screenpilot.errors import ConfigError, DataError

if TYPE_CHECKING:
    from screenpilot.pbd.embed import Embedder
    from screenpilot.pbd.recorder import Recording

demos_app = typer.Typer(
    help="The demonstration store: list, show, remove, export, import, re-embed.",
    no_args_is_help=True,
)
models_app = typer.Typer(
    help="Local models (the only command that may use the network).", no_args_is_help=True
)

#: Sentence-transformers models `models pull` knows by short name.
KNOWN_MODELS = {
    "bge-small-en-v1.5": "BAAI/bge-small-en-v1.5",
    "bge-base-en-v1.5": "BAAI/bge-base-en-v1.5",
    "bge-m3": "BAAI/bge-m3",
    "all-MiniLM-L6-v2": "sentence-transformers/all-MiniLM-L6-v2",
}


def register(app: typer.Typer) -> None:
    app.command("record")(record)
    app.add_typer(demos_app, name="demos")
    app.add_typer(models_app, name="models")


def _encoder(cfg: Config) -> Embedder:
    with loading_model():
        return build.encoder(cfg)


# --- record --------------------------------------------------------------------------------
def record(
    ctx: typer.Context,
    task: str = typer.Argument(..., help='What you are about to do, e.g. "turn on wifi".'),
    device: str | None = DEVICE_OPTION,
    virtual: bool = typer.Option(
        False, "--virtual", help="Start the virtual phone and record on it."
    ),
    idle: float | None = typer.Option(
        None, help="End after this many seconds without a touch or a change (pbd.idle, 20)."
    ),
    store: bool = typer.Option(
        True, "--store/--no-store", help="Add the demonstration to the store."
    ),
    out: Path | None = typer.Option(None, help="Folder for runs (default: runs/)."),
) -> None:
    """Record a demonstration: do TASK on the phone yourself; each touch becomes a step.

    Ctrl-C, or the phone left idle, ends the recording; the trajectory is saved
    under runs/ and the instruction with its steps goes into the demonstration store."""
    from screenpilot.report import save_run

    cfg = config_from(
        ctx, **{"device.serial": device, "pbd.idle": idle, "run.out": str(out) if out else None}
    )
    folder = build.run_folder(Path(cfg["run.out"]), f"record {task}")
    with build.on_phone(cfg, virtual) as (serial, _):
        if virtual:
            console.print(
                f"virtual phone {serial}: drive it with `adb -s {serial} shell "
                "input tap X Y` (or scrcpy) from another terminal",
                highlight=False,
            )
        recording = _record(cfg, task, serial, folder)
        path = save_run(recording.trajectory, folder)
    console.print(
        f"recording ended ({recording.ended}): {len(recording.steps)} steps"
        + (f" in {recording.app}" if recording.app else ""),
        highlight=False,
    )
    console.print(f"trajectory: {path}", highlight=False)
    if not recording.steps:
        raise DataError(
            "nothing was recorded: no touch reached the phone",
            hint="touch the phone's screen while recording (taps, swipes, typing)",
        )
    if store:
        demos = build.store(cfg, embedder=_encoder(cfg))
        demo_id = demos.add(recording.demo(trajectory_path=str(path.resolve())))
        console.print(f"saved demonstration {demo_id} to {demos.location}", highlight=False)


def _record(cfg: Config, task: str, serial: str, folder: Path) -> Recording:
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.pbd.recorder import Recorder

    phone = AdbDevice.connect(serial)
    describer = build.describer(cfg, phone)

    def show(n: int, words: str) -> None:
        console.print(f"[bold]{n:>2}.[/bold] {words}", highlight=False)

    recorder = Recorder(phone, describer, idle_s=cfg["pbd.idle"], on_step=show, out=folder)
    console.print(
        f"recording: [bold]{task}[/bold]\ndo it on the phone {serial}; Ctrl-C or "
        f"{cfg['pbd.idle']:.0f} s idle ends it",
        highlight=False,
    )
    return recorder.record(task)


# --- demos ---------------------------------------------------------------------------------
@demos_app.command("list")
def demos_list(
    ctx: typer.Context,
    app_name: str = typer.Option("", "--app", metavar="PACKAGE", help="Only this app's."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON lines."),
) -> None:
    """List the stored demonstrations: id, date, app, steps, source, instruction."""
    import json

    store = build.store(config_from(ctx))
    records = store.list({"app": app_name} if app_name else None)
    if as_json:
        for r in records:
            typer.echo(json.dumps(r.to_json(), ensure_ascii=False))
        return
    from rich.table import Table

    table = Table(show_edge=False, box=None, pad_edge=False)
    for col in ("id", "created", "app", "steps", "source", "instruction"):
        table.add_column(col, overflow="fold")
    for r in records:
        table.add_row(
            r.id,
            r.created[:10],
            r.app.rsplit(".", 1)[-1] or "-",
            str(len(r.steps)),
            r.source or "-",
            r.instruction,
        )
    console.print(table)
    console.print(f"[dim]{len(records)} demonstrations in {store.location}[/dim]", highlight=False)


@demos_app.command("show")
def demos_show(
    ctx: typer.Context, demo_id: str = typer.Argument(..., help="Its id (or the start of it).")
) -> None:
    """Show one demonstration: where it came from and its steps."""
    r = build.store(config_from(ctx)).get(demo_id)
    console.print(f"[bold]{r.instruction}[/bold]  ({r.id})", highlight=False)
    for key in ("app", "screen", "language", "created", "source", "trajectory"):
        value = getattr(r, key)
        if value:
            console.print(f"  {key + ':':12s}{value}", highlight=False)
    for n, step in enumerate(r.steps, 1):
        console.print(f"  {n:>2}. {step}", highlight=False, markup=False)


@demos_app.command("rm")
def demos_rm(
    ctx: typer.Context, ids: list[str] = typer.Argument(..., help="Ids (or id starts) to remove.")
) -> None:
    """Remove demonstrations from the store."""
    store = build.store(config_from(ctx))
    for demo_id in ids:
        full = store.resolve(demo_id)
        store.remove(full)
        console.print(f"removed {full}", highlight=False)


@demos_app.command("export")
def demos_export(
    ctx: typer.Context, out: Path = typer.Argument(..., help="JSONL file ('-' = stdout).")
) -> None:
    """Export every demonstration as JSON lines (no embeddings: import re-embeds)."""
    store = build.store(config_from(ctx))
    if str(out) == "-":
        store.export_jsonl(sys.stdout)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        n = store.export_jsonl(f)
    tmp.replace(out)
    console.print(f"exported {n} demonstrations to {out}", highlight=False)


@demos_app.command("import")
def demos_import(
    ctx: typer.Context, file: Path = typer.Argument(..., help="JSONL file from `demos export`.")
) -> None:
    """Import demonstrations (ids already in the store are skipped)."""
    if not file.is_file():
        raise DataError(f"no file {file}", hint="give the JSONL file `demos export` wrote")
    cfg = config_from(ctx)
    store = build.store(cfg, embedder=_encoder(cfg))
    with file.open(encoding="utf-8") as f:
        added, skipped = store.import_jsonl(f, source=str(file))
    console.print(
        f"imported {added} demonstrations into {store.location}"
        + (f" ({skipped} already there)" if skipped else ""),
        highlight=False,
    )


@demos_app.command("reembed")
def demos_reembed(ctx: typer.Context) -> None:
    """Embed every stored text again with the configured model (embed.model)."""
    cfg = config_from(ctx)
    encoder = _encoder(cfg)
    store = build.store(cfg, embedder=encoder)
    done = store.reembed()
    for name, n in done.items():
        console.print(f"re-embedded {n} entries of '{name}' with {encoder.name}", highlight=False)
    if not done:
        console.print("the store is empty: nothing to re-embed")


# --- models --------------------------------------------------------------------------------
@models_app.command("pull")
def models_pull(
    name: str = typer.Argument(
        ..., help="e.g. bge-small-en-v1.5, bge-m3, or a Hugging Face repo id."
    ),
) -> None:
    """Download a sentence-transformers model into the user data dir (needs the network;
    nothing else in screenpilot ever downloads)."""
    import os

    from screenpilot.pbd.embed import user_models_dir

    repo = KNOWN_MODELS.get(name, name)
    if "/" not in repo:
        raise ConfigError(
            f"unknown model {name!r}",
            hint=f"one of {', '.join(KNOWN_MODELS)}, or a repo id like BAAI/bge-small-en-v1.5",
        )
    target = user_models_dir() / name.rsplit("/", 1)[-1]
    saved = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    os.environ.update(dict.fromkeys(saved, "0"))  # read by huggingface_hub on import
    try:
        from huggingface_hub import snapshot_download

        with console.status(f"downloading {repo}..."):
            snapshot_download(repo, local_dir=str(target))
    except Exception as exc:  # network, auth, disk: the message says which
        raise DataError(
            f"cannot download {repo}: {exc}",
            hint=f"check the network; or copy the model's folder to {target} by hand",
        ) from exc
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    console.print(
        f"saved {repo} to {target}; set embed.model={target.name} to use it, then "
        "`screenpilot demos reembed`",
        highlight=False,
    )
