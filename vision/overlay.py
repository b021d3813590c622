"""An overlay of a described screen: numbered boxes coloured by kind, block outlines, a legend.

Sizes scale with the screen width so the numbers stay readable on a
1080x2400 screenshot viewed whole. The legend (the kinds present, and the
block kinds) is drawn in a strip below the screenshot.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from screenpilot.errors import VisionError
from screenpilot.model import BlockKind, ElementKind, Screen
from screenpilot.vision.image import ImageInput, load_image, to_pil

if TYPE_CHECKING:
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

Colour = tuple[int, int, int]
KIND_COLOURS: dict[ElementKind, Colour] = {
    ElementKind.TEXT: (33, 150, 243),
    ElementKind.BUTTON: (233, 30, 99),
    ElementKind.EDIT_TEXT: (255, 152, 0),
    ElementKind.IMAGE: (76, 175, 80),
    ElementKind.ICON: (0, 188, 170),
    ElementKind.SWITCH: (156, 39, 176),
    ElementKind.CHECK_BOX: (121, 85, 72),
    ElementKind.RADIO_GROUP: (103, 58, 183),
    ElementKind.SPINNER: (205, 220, 57),
    ElementKind.SEEK_BAR: (255, 87, 34),
    ElementKind.RATING_BAR: (255, 193, 7),
    ElementKind.PAGE_INDICATOR: (96, 125, 139),
    ElementKind.STATUS_BAR: (120, 120, 120),
    ElementKind.NAVIGATION_BAR: (120, 120, 120),
}
BLOCK_COLOUR: Colour = (244, 67, 54)
TAB_COLOUR: Colour = (255, 235, 59)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    try:
        from screenpilot.core.fonts import text_font

        return ImageFont.truetype(str(text_font()), size)
    except Exception:  # no font package: Pillow's built-in bitmap font still works
        return ImageFont.load_default()


def render(image: ImageInput, screen: Screen, *, targets: bool = False) -> PILImage.Image:
    """The screenshot with ``screen`` drawn over it, and a legend strip below;
    ``targets``: each element's tap extent too (a thin line in its kind's colour)."""
    from PIL import Image, ImageDraw

    base = to_pil(load_image(image)).convert("RGBA")
    if base.size != (screen.width, screen.height):
        raise VisionError(
            f"the image is {base.width}x{base.height} but the screen was "
            f"described at {screen.width}x{screen.height}"
        )
    unit = max(1, screen.width // 360)
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    _draw_blocks(draw, screen, unit)
    if targets:
        _draw_targets(draw, screen, unit)
    _draw_elements(draw, screen, unit)
    drawn = Image.alpha_composite(base, layer).convert("RGB")
    return _with_legend(drawn, screen, unit)


def save(image: ImageInput, screen: Screen, out: str | Path, *, targets: bool = False) -> Path:
    """Render the overlay and write it as PNG to ``out``."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        render(image, screen, targets=targets).save(path, format="PNG")
    except OSError as exc:
        raise VisionError(f"cannot write the overlay {path}: {exc}") from exc
    return path


def _draw_blocks(draw: ImageDraw.ImageDraw, screen: Screen, unit: int) -> None:
    font = _font(9 * unit)
    for b in screen.blocks:
        colour = TAB_COLOUR if b.kind is BlockKind.TAB_BAR else BLOCK_COLOUR
        box = (b.box.x1, b.box.y1, b.box.x2 - 1, b.box.y2 - 1)
        draw.rectangle(box, outline=(*colour, 230), width=2 * unit)
        tag = f"B{b.id} {b.kind.value}" + (f" '{b.caption}'" if b.caption else "")
        x, y = b.box.x2 - 2 * unit, b.box.y1 + 2 * unit
        bbox = draw.textbbox((x, y), tag, font=font, anchor="ra")
        draw.rectangle(bbox, fill=(*colour, 170))
        draw.text((x, y), tag, font=font, fill=(0, 0, 0, 255), anchor="ra")


def _draw_targets(draw: ImageDraw.ImageDraw, screen: Screen, unit: int) -> None:
    for e in screen.elements:
        if e.target is not None and e.target != e.box:
            colour = KIND_COLOURS.get(e.kind, (0, 0, 0))
            t = e.target
            draw.rectangle((t.x1, t.y1, t.x2 - 1, t.y2 - 1), outline=(*colour, 150), width=unit)


def _draw_elements(draw: ImageDraw.ImageDraw, screen: Screen, unit: int) -> None:
    font = _font(10 * unit)
    # largest first: a shape drawn on the layer replaces what is under it, so a
    # picture drawn after the badge inside it would erase the badge's outline
    for e in sorted(screen.elements, key=lambda e: -e.box.area):
        colour = KIND_COLOURS.get(e.kind, (0, 0, 0))
        box = (e.box.x1, e.box.y1, e.box.x2 - 1, e.box.y2 - 1)
        draw.rectangle(box, outline=(*colour, 255), fill=(*colour, 40), width=unit + 1)
        if e.selected:
            draw.rectangle(box, outline=(*TAB_COLOUR, 255), width=2 * unit)
        tag = str(e.id)
        width = draw.textlength(tag, font=font) + 3 * unit
        if e.box.x1 >= width:  # left of the box, so it hides nothing inside it
            x, y = round(e.box.x1 - width), e.box.y1
        else:  # at the screen's left edge: over the box's right end, where text is sparse
            x, y = round(e.box.x2 - width + 2 * unit), e.box.y1 + unit
        bbox = draw.textbbox((x, y), tag, font=font)
        draw.rectangle(
            (bbox[0] - unit, bbox[1] - unit, bbox[2] + unit, bbox[3] + unit), fill=(*colour, 235)
        )
        draw.text((x, y), tag, font=font, fill=(255, 255, 255, 255))


def _with_legend(image: PILImage.Image, screen: Screen, unit: int) -> PILImage.Image:
    from PIL import Image, ImageDraw

    kinds = sorted({e.kind for e in screen.elements}, key=lambda k: k.value)
    font = _font(10 * unit)
    row_h = 16 * unit
    items = [(k.words, KIND_COLOURS.get(k, (0, 0, 0))) for k in kinds]
    items += [("block", BLOCK_COLOUR), ("tab bar / selected", TAB_COLOUR)]
    per_row = max(1, image.width // (90 * unit))
    rows = (len(items) + per_row - 1) // per_row
    out = Image.new("RGB", (image.width, image.height + rows * row_h + 4 * unit), "white")
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out)
    for i, (name, colour) in enumerate(items):
        x = 4 * unit + (i % per_row) * 90 * unit
        y = image.height + 2 * unit + (i // per_row) * row_h
        draw.rectangle((x, y + 2 * unit, x + 10 * unit, y + 12 * unit), fill=colour)
        draw.text((x + 14 * unit, y), name, font=font, fill=(0, 0, 0))
    return out
