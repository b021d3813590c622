"""Pictures of many colours: an app's logo or a photo, not a glyph with a function.

The icon model names a button's function from its glyph, and a glyph is drawn in one
colour (on a plain page, a filled button or a tinted disc: two colours at most). An
app's logo (Chrome's four-colour ring, Google's "G") or a photo's thumbnail is no
function, and a model that answers for every crop above its threshold names them
anyway: a 48 px model called each of the 36 Chrome logos of NetGuard's app lists
`location`, and stop 47's model one of them `refresh`.

:func:`many_hues` counts the hues of a crop's saturated pixels (saturation and
brightness at least ``MIN_SATURATION`` and ``MIN_VALUE``), in ``BINS`` equal sectors of
the colour wheel, and says whether ``HUES`` or more sectors each hold ``SHARE`` of the
crop's pixels. None of the 175 labelled real icon crops of the harvest's train and dev
apps has three such hues (136 none, 37 one, 2 two); 30 of their 261 unlabelled crops
(logos, avatars, thumbnails) do.

    >>> many_hues(pixels, box)   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.image import RGB, box_pixels

#: A pixel's colour counts when its saturation and value (0-1) reach these.
MIN_SATURATION = 0.35
MIN_VALUE = 0.25
#: The colour wheel's sectors, and the share of the crop a sector must hold to count.
BINS = 12
SHARE = 0.06
#: This many counted sectors make a logo or a photo.
HUES = 3


def hue_count(crop: RGB) -> int:
    """How many of the wheel's ``BINS`` sectors hold ``SHARE`` of ``crop``'s pixels."""
    import cv2

    if crop.ndim != 3 or crop.shape[0] == 0 or crop.shape[1] == 0:
        return 0
    rgb = np.ascontiguousarray(crop[..., :3], dtype=np.uint8)
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)  # hue 0-179, saturation and value 0-255
    counted = (hsv[..., 1] >= MIN_SATURATION * 255) & (hsv[..., 2] >= MIN_VALUE * 255)
    sectors = hsv[..., 0][counted].astype(np.int32) * BINS // 180
    hist = np.bincount(sectors, minlength=BINS)
    return int((hist >= SHARE * crop.shape[0] * crop.shape[1]).sum())


def many_hues(pixels: RGB, box: Box) -> bool:
    """Whether the crop ``box`` of ``pixels`` is a logo or a photo (the module's rule)."""
    return hue_count(box_pixels(pixels, box)) >= HUES
