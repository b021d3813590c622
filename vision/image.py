"""Load and validate screenshots: a path, bytes, a PIL image or a numpy array -> RGB uint8.

Everything vision/ does starts with :func:`load_image`, which returns a
C-contiguous ``(H, W, 3)`` ``uint8`` RGB array or raises :class:`ImageError`
saying what is wrong (missing file, empty file, not an image, truncated or
corrupt data, too small, too large). Conversions that have one sensible
answer are done rather than refused:

- RGBA / LA / palette with transparency: composited over black (a screen's
  unlit background); grayscale and 1-bit: replicated to three channels;
- 16-bit and 32-bit integer or float images: scaled to 8 bits by their range
  (``uint16`` / ``I;16`` by 257, floats in ``[0, 1]`` by 255);
- a wrong file extension: ignored, the content decides (Pillow sniffs it).

A path is read only when it names a regular file of at most ``MAX_FILE_BYTES``
(checked on the opened file, which is opened without blocking): a FIFO, a device
such as ``/dev/zero``, a socket or a huge file is refused before a byte is read.

Numpy arrays are taken as RGB (convert OpenCV's BGR first).
"""

from __future__ import annotations

import io
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from screenpilot.errors import ImageError

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from screenpilot.model import Box

RGB: TypeAlias = npt.NDArray[np.uint8]
ImageInput: TypeAlias = (
    "str | os.PathLike[str] | bytes | bytearray | PILImage.Image | npt.NDArray[Any]"
)

#: The smallest side we accept: nothing useful is on a screen this small.
MIN_SIDE = 8
#: The largest side (a stitched long screenshot of ~20 screens fits).
MAX_SIDE = 65_000
#: The most pixels we accept (about 25 full 1080x2400 screens).
MAX_PIXELS = 65_000_000
#: The largest image file we read (an uncompressed BMP of ``MAX_PIXELS`` fits).
MAX_FILE_BYTES = 256 * 1024 * 1024


def load_image(source: ImageInput) -> RGB:
    """``source`` as a ``(H, W, 3)`` RGB ``uint8`` array; :class:`ImageError` if unusable."""
    if isinstance(source, np.ndarray):
        return check_size(array_to_rgb(source))
    if isinstance(source, bytes | bytearray):
        return check_size(_decode(bytes(source), "image bytes"))
    if isinstance(source, str | os.PathLike):
        return check_size(_read_file(Path(source)))
    from PIL import Image

    if isinstance(source, Image.Image):
        return check_size(pil_to_rgb(source, "PIL image"))
    raise ImageError(
        f"cannot read an image from a {type(source).__name__}",
        hint="pass a path, bytes, a PIL image or a numpy array",
    )


def check_size(rgb: RGB) -> RGB:
    """``rgb`` unchanged if its size is usable, else :class:`ImageError`."""
    h, w = rgb.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageError(
            f"image is {w}x{h} pixels, too small to be a screenshot",
            hint=f"both sides must be at least {MIN_SIDE} pixels",
        )
    if max(h, w) > MAX_SIDE or h * w > MAX_PIXELS:
        raise ImageError(
            f"image is {w}x{h} pixels, too large",
            hint=f"at most {MAX_SIDE} pixels a side and {MAX_PIXELS:,} in all",
        )
    return rgb


def _read_file(path: Path) -> RGB:
    return _decode(read_image_file(path), str(path))


def _kind_of(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def read_image_file(path: Path, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``: :class:`ImageError`, before reading, for
    anything else (missing, a folder, a FIFO, a device, a socket) or a file over
    ``limit`` bytes. Opening never blocks (``O_NONBLOCK``: a FIFO with no writer)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise ImageError(f"no such image file: {path}", hint="check the path") from None
    except IsADirectoryError:
        raise ImageError(f"{path} is a folder, not an image file") from None
    except OSError as exc:
        raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ImageError(f"{path} is a folder, not an image file")
        if not stat.S_ISREG(info.st_mode):
            raise ImageError(
                f"{path} is {_kind_of(info.st_mode)}, not an image file",
                hint="pass a screenshot file (PNG, JPEG, WebP...)",
            )
        if info.st_size > limit:
            raise ImageError(
                f"{path} is {info.st_size:,} bytes, too large to be a screenshot",
                hint=f"at most {limit:,} bytes",
            )
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while being read
        raise ImageError(
            f"{path} is over {limit:,} bytes, too large to be a screenshot",
            hint=f"at most {limit:,} bytes",
        )
    return data


def _decode(data: bytes, name: str) -> RGB:
    if not data:
        raise ImageError(f"{name} is empty (0 bytes)")
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            _check_header(image, name)
            image.load()
    except UnidentifiedImageError as exc:
        raise ImageError(f"{name} is not an image Pillow can read ({_sniff(data)})") from exc
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError(f"{name} is too large to decode safely: {exc}") from exc
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageError(
            f"{name} is truncated or corrupt ({image_format(data)}): {exc}",
            hint="capture the screenshot again",
        ) from exc
    return pil_to_rgb(image, name)


def _check_header(image: PILImage.Image, name: str) -> None:
    w, h = image.size
    if max(w, h) > MAX_SIDE or w * h > MAX_PIXELS:
        raise ImageError(
            f"{name} is {w}x{h} pixels, too large",
            hint=f"at most {MAX_SIDE} pixels a side and {MAX_PIXELS:,} in all",
        )


def image_format(data: bytes) -> str:
    """The format the first bytes announce (``PNG``, ``JPEG``...) or ``unknown format``."""
    signatures = {
        b"\x89PNG": "PNG",
        b"\xff\xd8\xff": "JPEG",
        b"GIF8": "GIF",
        b"RIFF": "WEBP",
        b"BM": "BMP",
    }
    for magic, fmt in signatures.items():
        if data.startswith(magic):
            return fmt
    return "unknown format"


def _sniff(data: bytes) -> str:
    fmt = image_format(data)
    if fmt != "unknown format":
        return f"starts like a {fmt}, but the header is damaged"
    head = data[:64]
    if head.lstrip().startswith((b"<", b"{", b"[")) or all(
        32 <= b < 127 or b in b"\r\n\t" for b in head
    ):
        return "looks like text"
    return "unknown format"


def pil_to_rgb(image: PILImage.Image, name: str = "image") -> RGB:
    """A PIL image in any mode as RGB ``uint8`` (see the module docstring)."""
    from PIL import Image

    try:
        if image.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N", "F"):
            return array_to_rgb(np.asarray(image))
        if image.mode == "P" and "transparency" in image.info:
            image = image.convert("RGBA")
        if image.mode in ("RGBA", "LA", "PA", "RGBa", "La"):
            rgba = image.convert("RGBA")
            black = Image.new("RGBA", rgba.size, (0, 0, 0, 255))
            image = Image.alpha_composite(black, rgba)
        return np.ascontiguousarray(np.asarray(image.convert("RGB"), dtype=np.uint8))
    except (OSError, ValueError) as exc:
        raise ImageError(f"cannot convert {name} (mode {image.mode}) to RGB: {exc}") from exc


def array_to_rgb(array: npt.NDArray[Any]) -> RGB:
    """A numpy image (gray, RGB, RGBA; any integer, bool or float dtype) as RGB ``uint8``."""
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    if array.ndim == 2:
        array = np.stack([array] * 3, axis=-1)
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise ImageError(
            f"array of shape {array.shape} is not an image",
            hint="expected (H, W), (H, W, 3) or (H, W, 4)",
        )
    rgb = _to_uint8(array)
    if rgb.shape[2] == 4:
        alpha = rgb[:, :, 3:4].astype(np.uint16)
        rgb = (rgb[:, :, :3].astype(np.uint16) * alpha // 255).astype(np.uint8)
    return np.ascontiguousarray(rgb)


def _to_uint8(array: npt.NDArray[Any]) -> RGB:
    if array.dtype == np.uint8:
        return array
    if array.dtype == np.bool_:
        return array.astype(np.uint8) * 255
    if array.dtype == np.uint16:
        return (array // 257).astype(np.uint8)
    if np.issubdtype(array.dtype, np.floating):
        finite = np.nan_to_num(array.astype(np.float32), nan=0.0, posinf=1.0, neginf=0.0)
        top = 1.0 if finite.size == 0 or float(finite.max()) <= 1.0 else 255.0
        scaled: RGB = (np.clip(finite / top, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)
        return scaled
    if np.issubdtype(array.dtype, np.integer):
        wide = array.astype(np.int64)
        top = int(wide.max()) if wide.size else 0
        if top <= 255 and int(wide.min(initial=0)) >= 0:
            return wide.astype(np.uint8)
        scale = 65535 if top <= 65535 else max(top, 1)
        return (np.clip(wide, 0, scale) * 255 // scale).astype(np.uint8)
    raise ImageError(f"array of dtype {array.dtype} is not an image")


def to_pil(rgb: RGB) -> PILImage.Image:
    """An RGB array as a PIL image."""
    from PIL import Image

    return Image.fromarray(rgb, "RGB")


def colour_distance(pixels: npt.NDArray[Any], colour: Any) -> npt.NDArray[Any]:
    """``|pixels - colour|`` summed over the last axis (R, G, B): the distance between
    each pixel and ``colour`` (broadcast). Three explicit adds: the same values as
    ``.sum(axis=-1)``, a third of its time on a whole screen."""
    d = np.abs(pixels - colour)
    return np.asarray(d[..., 0] + d[..., 1] + d[..., 2])


def channel_mean(pixels: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """The mean of R, G and B of each pixel in float32 (a 2-D array: as float32): the
    values of ``pixels.astype(np.float32).mean(axis=-1)`` (three whole numbers add
    exactly), a fifth of its time (a mean across an axis of 3 is slow in numpy)."""
    if pixels.ndim != 3:
        return np.asarray(pixels, dtype=np.float32)
    total = pixels[..., 0].astype(np.float32)
    total += pixels[..., 1]
    total += pixels[..., 2]
    total /= 3
    return total


def largest_part(
    mask: npt.NDArray[Any],
) -> tuple[tuple[int, int, int, int], npt.NDArray[np.bool_]] | None:
    """The largest 8-connected part of ``mask``: its box (x, y, width, height) and the
    part as a mask of ``mask``'s shape; None where nothing is set."""
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8
    )
    if count < 2:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[best, :4])
    return (x, y, w, h), np.asarray(labels == best)


def mask_bounds(mask: npt.NDArray[Any]) -> tuple[int, int, int, int] | None:
    """The box round every set pixel of a 2-D ``mask``: (x1, y1, x2, y2), ends exclusive,
    in the mask's own coordinates; None where nothing is set."""
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not rows.size:
        return None
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def box_pixels(pixels: npt.NDArray[Any], box: Box) -> npt.NDArray[Any]:
    """The pixels of ``box`` clipped to the image: empty for a box off it (a plain slice
    would wrap round from the far edge at a negative end)."""
    return pixels[max(0, box.y1) : max(0, box.y2), max(0, box.x1) : max(0, box.x2)]


def off_median(pixels: npt.NDArray[Any], box: Box, spread: int) -> npt.NDArray[np.bool_] | None:
    """The pixels of ``box`` (clipped to the image) further than ``spread``
    from the box's median colour in some channel, as a mask of the box's shape: its ink
    on its own background (None for an empty box)."""
    patch = box_pixels(pixels, box).astype(np.int16)
    if patch.size == 0:
        return None
    median = np.median(patch.reshape(-1, patch.shape[-1]), axis=0).astype(np.int16)
    return np.asarray((np.abs(patch - median) > spread).any(axis=-1))


def border_colour(crop: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The median colour of ``crop``'s outermost rows and columns (what surrounds a
    shape that lies inside it)."""
    return np.asarray(
        np.median(np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]), axis=0)
    )


def grey_u8(pixels: npt.NDArray[Any]) -> npt.NDArray[np.uint8]:
    """An RGB (or RGBA, or already grey) screenshot as a contiguous uint8 grey image,
    OpenCV's luma (what the contour finders of check boxes and rings trace)."""
    import cv2

    source = np.ascontiguousarray(pixels[..., :3] if pixels.ndim == 3 else pixels, np.uint8)
    return np.asarray(cv2.cvtColor(source, cv2.COLOR_RGB2GRAY) if source.ndim == 3 else source)


#: The glyph rules (``vision/glyphrules.py``) look at a box with this share of its
#: longer side round it (a blob's box is its ink's own; the page round it gives the
#: background) ...
GLYPH_MARGIN = 0.2
#: ... and take for ink what differs from the crop's border by this many grey levels.
GLYPH_CONTRAST = 40
#: Where no grey ink is found, a coloured glyph whose grey is near the page's
#: (NetGuard's orange struck-through signal on a dark grey theme, 80 levels off in one
#: channel; its purple theme's signal bars, 59) is ink where a channel differs by this
#: many times ``GLYPH_CONTRAST`` (2 until stop 65).
HUE_CONTRAST = 1.25


def glyph_window(
    pixels: npt.NDArray[Any], box: Any, margin: float = GLYPH_MARGIN
) -> tuple[npt.NDArray[Any], int, int]:
    """``box`` (a ``Box``) on ``pixels`` with ``margin`` of its longer side round it (at
    least 2 px, clipped to the image), and the window's left and top edges on
    ``pixels``: what the glyph rules look at. A box wholly off the image has an empty
    window."""
    pad = max(2, round(margin * max(box.width, box.height)))
    x1, y1 = max(0, box.x1 - pad), max(0, box.y1 - pad)
    return pixels[y1 : max(0, box.y2 + pad), x1 : max(0, box.x2 + pad)], x1, y1


def _ink_and_grey(
    pixels: npt.NDArray[Any], box: Any, margin: float, contrast: int
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]:
    """The ink of ``box`` (a ``Box``) on ``pixels``, looked at with ``margin`` of its
    longer side round it (at least 2 px, clipped to the image): a mask of the pixels
    whose grey differs from the crop's border colour by ``contrast`` or more, and the
    crop's grey levels. Where that finds no ink in the box, a pixel one of whose
    channels differs from the border's by ``HUE_CONTRAST`` times ``contrast`` is ink (a
    coloured glyph of the page's grey: NetGuard's orange on its dark grey theme).

    Two kinds of ink are left out, as they belong to what lies round the box: a shape
    (8-connected) wholly in the margin, outside the box (the word under a tall row
    button, a neighbour's edge), and one that runs across the whole crop, edge to edge
    (a toolbar's bottom line or a divider through the box)."""
    window, x1, y1 = glyph_window(pixels, box, margin)
    if not window.size:
        return np.zeros(window.shape[:2], dtype=bool), np.zeros(window.shape[:2], dtype=np.uint8)
    grey = grey_u8(window)
    inner = (slice(box.y1 - y1, box.y2 - y1), slice(box.x1 - x1, box.x2 - x1))
    ink = _own_ink(np.abs(grey.astype(np.int16) - int(border_colour(grey))) >= contrast, inner)
    if window.ndim == 3 and not ink.any():
        colour = window[..., :3].astype(np.int16)
        off = np.abs(colour - border_colour(colour).astype(np.int16)).max(axis=2)
        ink = _own_ink(off >= HUE_CONTRAST * contrast, inner)
    return ink, grey


def _own_ink(ink: npt.NDArray[np.bool_], inner: tuple[slice, slice]) -> npt.NDArray[np.bool_]:
    """``ink`` (a crop's mask) less the shapes wholly outside ``inner`` (the box's part
    of the crop) and those that run across the whole crop (:func:`_ink_and_grey`)."""
    import cv2

    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    inside = np.unique(labels[inner])
    keep = inside[inside > 0]
    height, width = ink.shape
    across = (stats[keep, cv2.CC_STAT_WIDTH] >= width) | (stats[keep, cv2.CC_STAT_HEIGHT] >= height)
    return np.asarray(np.isin(labels, keep[~across]))


@dataclass(frozen=True)
class InkParts:
    """A box's ink (:func:`glyph_ink`) in 8-connected parts, as OpenCV's
    ``connectedComponentsWithStats`` gives them: ``labels`` (0 the page), ``stats``
    (x, y, width, height, area) and ``centres`` with the page's row first, and the
    crop's ``grey`` levels."""

    labels: npt.NDArray[Any]
    stats: npt.NDArray[Any]
    centres: npt.NDArray[Any]
    grey: npt.NDArray[Any]

    @property
    def count(self) -> int:
        """Parts, the page included."""
        return len(self.stats)

    def cut(self) -> npt.NDArray[np.bool_] | None:
        """All the ink as a mask cut to its own box; None with no ink."""
        ink = self.labels > 0
        bounds = mask_bounds(ink)
        if bounds is None:
            return None
        x1, y1, x2, y2 = bounds
        return np.asarray(ink[y1:y2, x1:x2])

    def largest(self) -> tuple[int, tuple[int, int, int, int]] | None:
        """The largest part's label and its box (x, y, width, height); None with no ink."""
        if self.count < 2:
            return None
        best = 1 + int(np.argmax(self.stats[1:, 4]))
        x, y, w, h = (int(v) for v in self.stats[best, :4])
        return best, (x, y, w, h)

    def alone(self, other_ink: float) -> npt.NDArray[np.bool_] | None:
        """The largest part as a mask cut to its own box, when the other parts together
        make at most ``other_ink`` of its area (specks); else None (or with no ink)."""
        found = self.largest()
        if found is None:
            return None
        best, (x, y, w, h) = found
        area = int(self.stats[best, 4])
        if int(self.stats[1:, 4].sum()) - area > other_ink * area:
            return None
        return np.asarray(self.labels[y : y + h, x : x + w] == best)


def glyph_ink(
    pixels: npt.NDArray[Any],
    box: Any,
    margin: float = GLYPH_MARGIN,
    contrast: int = GLYPH_CONTRAST,
) -> InkParts:
    """The ink of ``box`` on ``pixels`` in parts (:class:`InkParts`), as the glyph rules
    read it: computed once for all of them. A box off the image has no ink (only the
    page's part)."""
    import cv2

    ink, grey = _ink_and_grey(pixels, box, margin, contrast)
    if not ink.size:
        page = np.zeros((1, 5), dtype=np.int32)
        return InkParts(np.zeros(ink.shape, dtype=np.int32), page, np.zeros((1, 2)), grey)
    _, labels, stats, centres = cv2.connectedComponentsWithStats(
        ink.astype(np.uint8), connectivity=8
    )
    return InkParts(np.asarray(labels), np.asarray(stats), np.asarray(centres), grey)
