"""``screenpilot phone``: start the virtual phone, or render one of its screens."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path

import typer

from screenpilot import build
from screenpilot.commands.common import config_from, console

app = typer.Typer(
    help="The virtual phone: a rendered Android phone that real adb connects to.",
    invoke_without_command=True,
)


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="phone")


def connect_adb(serial: str) -> str:
    """``adb connect`` through the adb server (started if needed); returns its answer."""
    import adbutils

    return str(adbutils.AdbClient().connect(serial, timeout=10))


@app.callback()
def phone(
    ctx: typer.Context,
    port: int | None = typer.Option(None, help="TCP port (default: phone.port, 0 = free)."),
    size: str | None = typer.Option(None, help="Screen size WIDTHxHEIGHT (default 1080x2400)."),
    density: int | None = typer.Option(
        None, metavar="DPI", help="Screen density (default: the size's usual; 320 a tablet)."
    ),
    theme: str | None = typer.Option(None, help="light or dark."),
    locale: str | None = typer.Option(None, help="en or zh."),
    connect: bool = typer.Option(True, help="Run `adb connect` once it listens."),
) -> None:
    """Start the virtual phone in the foreground; Ctrl-C stops it."""
    if ctx.invoked_subcommand is not None:
        return
    from screenpilot.simulator.adbd import AdbDaemon

    cfg = config_from(
        ctx,
        **{
            "phone.port": port,
            "phone.size": size,
            "phone.density": density,
            "phone.theme": theme,
            "phone.locale": locale,
        },
    )
    device = build.phone(cfg)
    daemon = AdbDaemon(device, host=cfg["phone.host"], port=cfg["phone.port"]).start()
    console.print(
        f"virtual phone listening: serial [bold]{daemon.serial}[/bold] "
        f"({cfg['phone.size']}, {device.density()} dpi, {cfg['phone.theme']}, "
        f"{cfg['phone.locale']})"
    )
    if connect:
        console.print(f"adb: {connect_adb(daemon.serial)}", highlight=False)
    console.print(
        f"try: adb -s {daemon.serial} shell screencap -p > shot.png    (Ctrl-C to stop)",
        highlight=False,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        if connect:
            import adbutils

            adbutils.AdbClient().disconnect(daemon.serial)
        daemon.stop()
        console.print("virtual phone stopped")


@app.command("render")
def render(
    ctx: typer.Context,
    target: str = typer.Argument(
        ..., metavar="APP[/PAGE]", help="e.g. settings, settings/network, contacts/add"
    ),
    out: Path = typer.Option(..., "--out", help="PNG to write."),
    truth: Path | None = typer.Option(None, "--truth", help="Also write the ground truth JSON."),
    size: str | None = typer.Option(None, help="Screen size WIDTHxHEIGHT."),
    density: int | None = typer.Option(
        None, metavar="DPI", help="Screen density (default: the size's usual; 320 a tablet)."
    ),
    theme: str | None = typer.Option(None, help="light or dark."),
    locale: str | None = typer.Option(None, help="en or zh."),
) -> None:
    """Render one screen of the virtual phone with its ground truth (no server)."""
    cfg = config_from(
        ctx,
        **{
            "phone.size": size,
            "phone.density": density,
            "phone.theme": theme,
            "phone.locale": locale,
        },
    )
    device = build.phone(cfg)
    app_name, _, page = target.partition("/")
    if app_name not in ("home", "launcher"):
        device.open_page(app_name, page or None)
    frame = device.frame()
    out.parent.mkdir(parents=True, exist_ok=True)
    frame.image.save(out)
    message = f"saved {out} ({frame.image.width}x{frame.image.height})"
    if truth is not None:
        screen = device.screen()
        truth.write_text(
            json.dumps(screen.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8"
        )
        message += f" and {truth} ({len(screen.elements)} elements)"
    console.print(message, highlight=False)
