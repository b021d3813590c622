"""``screenpilot doctor``: check the set-up before the first task (see screenpilot.doctor)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import typer

from screenpilot.commands.common import config_from, err_console
from screenpilot.config import Config

NOT_READY_EXIT = 1
COLOURS = {"ok": "green", "warn": "yellow", "fail": "red"}


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)


def doctor(
    ctx: typer.Context,
    device: str | None = typer.Option(
        None,
        "--device",
        "-d",
        metavar="SERIAL",
        help="adb serial of the phone to check (default: device.serial, else the only one).",
    ),
    virtual: bool = typer.Option(False, "--virtual", help="Check against the virtual phone."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Check adb, the phone, ADB Keyboard, the models, the store and the LLM endpoint.

    One line per check: ✓ holds, ! works but worse, ✗ must be fixed (with what to do).

    Exits 0 when everything `run` needs holds.

    The keyboard check types "中文 ok" into a new contact, reads it back and undoes it.
    """
    from screenpilot.doctor import diagnose, ready, text_lines, to_json

    cfg = config_from(ctx, **{"device.serial": device})

    def progress(message: str) -> None:
        err_console.print(f"[dim]... {message}[/dim]", highlight=False)

    with _phone(cfg, virtual) as serial:
        checks, checked = diagnose(cfg, serial=serial, progress=progress)
    if as_json:
        typer.echo(to_json(checks, serial=checked or ""))
    else:
        for status, line in text_lines(checks):
            colour = COLOURS.get(status.value) if status is not None else None
            if colour:
                symbol, rest = line.split(" ", 1)
                typer.echo(typer.style(symbol, fg=colour, bold=True) + " " + rest)
            else:
                typer.echo(line)
    if not ready(checks):
        raise typer.Exit(NOT_READY_EXIT)


@contextlib.contextmanager
def _phone(cfg: Config, virtual: bool) -> Iterator[str | None]:
    """The serial to check: the virtual phone's while it runs (``--virtual``), else the
    configured one (None: the only phone connected)."""
    if not virtual:
        yield cfg["device.serial"] or None
        return
    from screenpilot import build

    with build.virtual_phone(cfg) as (serial, _phone_state):
        yield serial
