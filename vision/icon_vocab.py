"""The icon vocabulary: ~180 button functions, and mappings onto it.

The data lives in ``vision/data/icon_vocabulary.json`` (package data). Each entry
has a ``name`` (``back``, ``more_options``, ``wifi``...), a short ``description``,
English ``synonyms`` (used in the text prompts and to map content descriptions),
``zh`` (Chinese content descriptions seen on real phones) and ``icons``: icon
names of any family, normalised (lower case, ``_`` for ``-``, family prefixes and
style suffixes removed). ``family_aliases`` overrides per family; ``null`` there
excludes a name that means something else in that family.

- ``map_icon(family, raw_name)``: an icon font's glyph name -> label or ``None``,
- ``map_description(text)``: an accessibility label ("Close tab", "更多") -> label or ``None``,
- ``prompt(label)``: the text the CLIP text tower embeds for a label.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from screenpilot.errors import DataError

UNKNOWN = "unknown"

_PREFIXES = ("ic_fluent_", "icon_", "ion_", "ios_", "android_", "md_")
_STYLE_SUFFIXES = (
    "_outline",
    "_outlined",
    "_line",
    "_fill",
    "_filled",
    "_regular",
    "_solid",
    "_round",
    "_rounded",
    "_sharp",
    "_variant",
    "_alt",
)
#: Ionicons v2 marks its variants with a letter or ``strong``.
_ION_SUFFIXES = (*_STYLE_SUFFIXES, "_strong", "_a", "_b", "_c")
#: Phosphor names each weight: ``plus``, ``plus-bold``, ``plus-light``, ``plus-thin``, ``plus-fill``
_PHOSPHOR_SUFFIXES = (*_STYLE_SUFFIXES, "_bold", "_light", "_thin")
_DECORATION_SUFFIXES = ("_circle", "_circled", "_box", "_square")


@dataclass(frozen=True)
class IconLabel:
    """One icon function of the vocabulary."""

    name: str
    description: str
    synonyms: tuple[str, ...]
    zh: tuple[str, ...]
    icons: tuple[str, ...]

    @property
    def words(self) -> str:
        """The name as words (``more_options`` -> ``more options``)."""
        return self.name.replace("_", " ")


class Vocabulary:
    """The labels, and the name and description mappings built from them."""

    def __init__(
        self, labels: list[IconLabel], family_aliases: dict[str, dict[str, str | None]]
    ) -> None:
        self.labels = labels
        self.names = [label.name for label in labels]
        self._by_name = {label.name: label for label in labels}
        self._family_aliases = family_aliases
        self._icon_map = _icon_map(labels)
        self._phrases = _phrase_map(labels)
        for alias in family_aliases.values():
            for target in alias.values():
                if target is not None and target not in self._by_name:
                    raise DataError(f"icon vocabulary alias points at unknown label {target!r}")

    def __len__(self) -> int:
        return len(self.labels)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def get(self, name: str) -> IconLabel:
        """The entry called ``name``."""
        try:
            return self._by_name[name]
        except KeyError:
            raise DataError(f"{name!r} is not in the icon vocabulary") from None

    def index(self, name: str) -> int:
        """Position of ``name`` in ``names``."""
        return self.names.index(self.get(name).name)

    def map_icon(self, family: str, raw_name: str) -> str | None:
        """The label for glyph ``raw_name`` of icon family ``family``, or ``None``."""
        aliases = self._family_aliases.get(family, {})
        for candidate in name_candidates(raw_name, family):
            if candidate in aliases:
                return aliases[candidate]
            if candidate in self._icon_map:
                return self._icon_map[candidate]
        return None

    def map_description(self, text: str) -> str | None:
        """The label a content description means, or ``None``.

        An exact match of a name, synonym or Chinese term wins; otherwise the
        longest name or synonym found in the text as whole words.
        """
        norm = _normalise_text(text)
        if not norm:
            return None
        if norm in self._phrases:
            return self._phrases[norm]
        padded = f" {norm} "
        best: tuple[int, str] | None = None
        for phrase, label in self._phrases.items():
            found = phrase in norm if _is_cjk(phrase) else f" {phrase} " in padded
            if found and (best is None or len(phrase) > best[0]):
                best = (len(phrase), label)
        return best[1] if best else None

    def prompt(self, name: str) -> str:
        """The label text of ``name``: its words, description and first synonyms.

        Training uses this one fixed text per label: prompts that change from step to
        step let a small text tower from scratch collapse to a constant.
        """
        label = self.get(name)
        synonyms = ", ".join(label.synonyms[:3])
        return (
            f"{label.words}: {label.description}; {synonyms}"
            if synonyms
            else (f"{label.words}: {label.description}")
        )


def name_candidates(raw_name: str, family: str = "") -> list[str]:
    """Normalised forms of an icon name to look up, most specific first."""
    name = re.sub(r"[\s\-]+", "_", raw_name.strip().lower())
    for prefix in _PREFIXES:
        if name.startswith(prefix):
            name = name[len(prefix) :]
    name = re.sub(r"_(1[0-9]|2[0-9]|3[0-9]|48)(?=_(regular|filled|light)$)", "", name)
    out = [name]
    suffixes = {"ion": _ION_SUFFIXES, "phosphor": _PHOSPHOR_SUFFIXES}.get(family, _STYLE_SUFFIXES)
    stripped = _strip_suffixes(name, suffixes)
    out.append(stripped)
    out.append(re.sub(r"_?\d+$", "", stripped))
    out.append(_strip_suffixes(stripped, _DECORATION_SUFFIXES))
    return [c for c in dict.fromkeys(out) if c]


def _strip_suffixes(name: str, suffixes: tuple[str, ...]) -> str:
    changed = True
    while changed:
        changed = False
        for suffix in suffixes:
            if name.endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
                changed = True
    return name


def _icon_map(labels: list[IconLabel]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for label in labels:
        for icon in (label.name, *label.icons):
            previous = mapping.setdefault(icon, label.name)
            if previous != label.name:
                raise DataError(f"icon name {icon!r} maps to both {previous!r} and {label.name!r}")
    return mapping


def _phrase_map(labels: list[IconLabel]) -> dict[str, str]:
    phrases: dict[str, str] = {}
    for label in labels:
        for phrase in (label.words, *label.synonyms, *label.zh):
            phrases.setdefault(_normalise_text(phrase), label.name)
    phrases.pop("", None)
    return phrases


def _normalise_text(text: str) -> str:
    text = re.sub(r"[^\w\u4e00-\u9fff]+", " ", text.lower().replace("_", " "))
    text = re.sub(r"\bwi fi\b", "wifi", text)
    return " ".join(text.split())


def _is_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _parse(doc: dict[str, Any]) -> Vocabulary:
    try:
        labels = [
            IconLabel(
                name=str(e["name"]),
                description=str(e["description"]),
                synonyms=tuple(e.get("synonyms", ())),
                zh=tuple(e.get("zh", ())),
                icons=tuple(e.get("icons", ())),
            )
            for e in doc["labels"]
        ]
        aliases = {
            str(f): {str(k): (None if v is None else str(v)) for k, v in a.items()}
            for f, a in doc.get("family_aliases", {}).items()
        }
    except (KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"icon vocabulary is malformed: {exc}") from exc
    return Vocabulary(labels, aliases)


@functools.cache
def load_vocabulary() -> Vocabulary:
    """The shipped vocabulary (``vision/data/icon_vocabulary.json``)."""
    try:
        text = (resources.files("screenpilot.vision") / "data" / "icon_vocabulary.json").read_text(
            encoding="utf-8"
        )
        doc = json.loads(text)
    except (OSError, ValueError) as exc:
        raise DataError(
            f"cannot read the icon vocabulary: {exc}",
            hint="reinstall screenpilot (the JSON is package data)",
        ) from exc
    return _parse(doc)
