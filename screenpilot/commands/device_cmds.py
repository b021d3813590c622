"""``screenpilot devices`` and ``screenpilot capture``: see the phones and their screens."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from screenpilot.commands.common import DEVICE_OPTION, config_from, console
from screenpilot.errors import DeviceError


def register(app: typer.Typer) -> None:
    app.command("devices")(devices)
    app.command("capture")(capture)


def devices(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the phones adb can see, with model and screen size."""
    from screenpilot.executor.adb import list_devices

    found = list_devices()
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "serial": d.serial,
                        "state": d.state,
                        "model": d.model,
                        "size": list(d.size) if d.size else None,
                    }
                    for d in found
                ]
            )
        )
        return
    if not found:
        console.print("no phones connected (start one with `screenpilot phone`)")
        return
    for d in found:
        size = f"{d.size[0]}x{d.size[1]}" if d.size else "-"
        console.print(f"{d.serial}\t{d.state}\t{d.model or '-'}\t{size}", highlight=False)


def capture(
    ctx: typer.Context,
    out: Path = typer.Argument(..., help="Where to save the PNG."),
    long: bool = typer.Option(False, "--long", help="Scroll and stitch the whole page."),
    max_screens: int = typer.Option(8, help="With --long: stop after this many screens."),
    device: str | None = DEVICE_OPTION,
) -> None:
    """Save a screenshot of the phone (or, with --long, of the whole scrollable page)."""
    from screenpilot.executor.adb import AdbDevice

    cfg = config_from(ctx, **{"device.serial": device})
    phone = AdbDevice.connect(cfg["device.serial"] or None, capture=cfg["device.capture"])
    if out.suffix.lower() != ".png":
        raise DeviceError(f"{out} should end in .png", hint="screenshots are saved as PNG")
    out.parent.mkdir(parents=True, exist_ok=True)
    if long:
        from screenpilot.executor.longshot import capture_long

        page = capture_long(phone, max_screens=max_screens)
        page.image.save(out)
        console.print(
            f"saved {out} ({page.image.width}x{page.image.height}, {len(page.offsets)} screens)",
            highlight=False,
        )
        return
    image = phone.capture()
    image.save(out)
    console.print(f"saved {out} ({image.width}x{image.height})", highlight=False)
