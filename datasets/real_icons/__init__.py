"""Real icon crops from real screens with view hierarchies, labelled by their content
description.

Input: screen records (app, split, hierarchy format, hierarchy path, original
screenshot), normally the ``manifest.jsonl`` of ``screenpilot dataset harvest``
(``screens_from_manifest``), so the icon split is the detector's split by app.
Every format (DroidBot, uiautomator, RICO) is parsed by
:func:`screenpilot.datasets.screens.hierarchy_nodes` into nodes in screen pixels.

A node becomes an icon crop when (``IconFilters``, counted in ``CropReport``):

- **class**: an image view (``ImageButton``, ``ImageView``, ``FloatingActionButton``
  and their AppCompat/custom subclasses, by class name or, in RICO, by an ancestor
  class), or an ``ActionMenuItemView`` (a toolbar action) with no text; or a
  **clickable container holding only images**: a clickable view of another class
  whose visible descendants include an image view and no text, when none of those
  image views is itself taken;
- **description**: a non-empty content description (its own);
- **visible**: the node and all its ancestors are visible, and at least 90 % of its
  box lies on the screen (the crop is clipped to the screen);
- **icon-sized**: each side at least ``min_side`` (2.5 %) and at most ``max_side``
  (20 %) of the screen width (10-80 dp on a 411 dp wide phone), and the long side at
  most ``max_aspect`` (3) times the short one: icons and icon buttons, not
  pictures, banners or list rows;
- **not blank**: the crop's grey levels have a standard deviation of at least
  ``min_std`` (3): the hierarchy names a view the screenshot does not show yet;
- **not a duplicate**: per app, one crop per (description, 64-bit difference hash
  of the pixels): the same icon on many screens of one app counts once.

A view of package ``com.android.systemui`` (DroidBot states name each view's
package: the notification shade or quick settings pulled down over an app) is
credited to System UI, not to the app under it: a system app, so never held out
with the app.

The description is then mapped to the icon vocabulary by
:class:`DescriptionTable` (``vision/data/icon_descriptions.json``, one entry a
description with the reason of its label, ``null`` for descriptions that name no
button function), falling back to the vocabulary's own synonym matching
(``Vocabulary.map_description``) for descriptions the table does not list; each
crop records which of the two labelled it.

**Resource ids** (``extract(..., ids=ResourceIdTable.load())``, off by default): an
image view (the class rules above) with **no** content description but a resource id
(``Node.rid``), none of its ancestors a description candidate, is cut by the same
filters and labelled by :class:`ResourceIdTable` (``vision/data/icon_resource_ids.json``:
the id's words, ``editIcon`` -> ``edit``, generic words such as ``btn``, ``icon``,
``view`` dropped, matched to a label or ``null`` with a reason); its ``how`` is
``resource id`` (labelled), ``resource id excluded`` or ``resource id unmapped``, its
duplicate key holds the id's words in place of the description, and apps named in
``id_skip_apps`` (the held-out apps) get none. Dropped id candidates are counted apart
(``CropReport.id_dropped``), so the description crops and their counts are the same
with or without ids.

Modules: ``records`` (the screens), ``table`` (descriptions -> labels), ``ids``
(resource ids -> labels), ``extract`` (the crops and their filters) and ``arrays`` (the
crops as model input).
"""

from screenpilot.datasets.real_icons.arrays import augmented_arrays, jittered, to_array
from screenpilot.datasets.real_icons.extract import (
    ACTION_CLASSES,
    IMAGE_CLASSES,
    SYSTEM_UI,
    CropReport,
    IconFilters,
    RealIcon,
    dhash,
    extract,
    icon_candidates,
    id_candidates,
)
from screenpilot.datasets.real_icons.ids import (
    HOW_ID,
    HOW_ID_EXCLUDED,
    HOW_ID_UNMAPPED,
    IDS_FORMAT,
    ResourceIdTable,
    id_name,
    split_words,
)
from screenpilot.datasets.real_icons.records import (
    ScreenRecord,
    held_out_apps,
    screens_from_manifest,
)
from screenpilot.datasets.real_icons.table import (
    TABLE_FORMAT,
    DescriptionTable,
    TableEntry,
    normalise,
)

__all__ = [
    "ACTION_CLASSES",
    "HOW_ID",
    "HOW_ID_EXCLUDED",
    "HOW_ID_UNMAPPED",
    "IDS_FORMAT",
    "IMAGE_CLASSES",
    "SYSTEM_UI",
    "TABLE_FORMAT",
    "CropReport",
    "DescriptionTable",
    "IconFilters",
    "RealIcon",
    "ResourceIdTable",
    "ScreenRecord",
    "TableEntry",
    "augmented_arrays",
    "dhash",
    "extract",
    "held_out_apps",
    "icon_candidates",
    "id_candidates",
    "id_name",
    "jittered",
    "normalise",
    "screens_from_manifest",
    "split_words",
    "to_array",
]
