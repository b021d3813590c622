"""A part of a command that names a setting of the phone: which settings it names
(the lexicon's concepts), and what it asks of them (a switch on or off, a level, a
choice, a page to check), in the words the Settings app shows."""

from __future__ import annotations

import re

from screenpilot.language import lexicon, times
from screenpilot.language.acts import switch_act
from screenpilot.language.levels import level_of
from screenpilot.language.lexicon import Concept
from screenpilot.language.record import OFF, ON, Command
from screenpilot.language.spans import restore


def concepts_in(text: str) -> list[tuple[int, Concept, bool]]:
    """Settings named in ``text``: (position, concept, inverse?) in the order named; a
    concept is named by one of its names or, failing that, by its key groups."""
    low = " " + text.lower() + " "
    found: list[tuple[int, Concept, bool]] = []
    taken: list[tuple[int, int]] = []
    names = [(n, c, False) for c in lexicon.concepts() for n in (c.name, *c.en)]
    names += [(n, c, True) for c in lexicon.concepts() for n in c.inverse]
    for name, c, inverse in sorted(names, key=lambda t: -len(t[0])):
        for m in re.finditer(rf"(?<![\w-]){re.escape(name.lower())}(?![\w])", low):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            if any(fc is c for _, fc, _ in found):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), c, inverse))
    for c in lexicon.concepts():
        if (
            c.keys
            and not any(fc is c for _, fc, _ in found)
            and all(any(k in low for k in group) for group in c.keys)
        ):
            pos = min(low.find(k) for group in c.keys for k in group if k in low)
            found.append((pos, c, False))
    return sorted(found, key=lambda t: t[0])


def settings_part(text: str, spans: list[str]) -> Command | None:
    """A part that names a setting: its act and canonical words, else None."""
    found = concepts_in(text)
    if not found:
        low = text.lower()
        for c in lexicon.concepts():  # "as bright as possible", "dim the screen"
            if c.kind == "level" and any(re.search(rf"\b{w}\b", low) for w in (*c.up, *c.down)):
                found = [(0, c, False)]
                break
    if not found:
        return None
    if re.search(r"\balarm\b(?! volume)|\btimer\b|\bstopwatch\b", text, re.I) and not any(
        c.name in ("alarm volume", "24-hour format") for _, c, _ in found
    ):
        return None  # "turn off the alarm at 6:30": the alarm, not a setting
    concept, inverse = found[0][1], found[0][2]
    if concept.kind == "level":
        level = level_of(text, concept)
        if level is None:
            low = text.lower()
            up = any(re.search(rf"\b{u}\b", low) for u in concept.up)
            down = any(re.search(rf"\b{d}\b", low) for d in concept.down)
            level = 1.0 if up and not down else 0.0 if down and not up else None
        if level is None:
            return Command(
                text,
                restore(text, spans),
                act="set",
                target=concept.name,
                kind="level",
                app="settings",
            )
        return Command(
            text,
            f"Set the {concept.name} to {round(level * 100)}%",
            act="set",
            target=concept.name,
            kind="level",
            level=level,
            app="settings",
        )
    # a level word named without a level concept ("as bright as possible")
    if concept.kind == "choice":
        duration = times.parse_duration(text)
        value = (
            f"{duration[0]} {duration[1] if duration[0] != 1 else duration[1][:-1]}"
            if duration
            else ""
        )
        canonical = f"Set the {concept.name} to {value}" if value else f"Open {concept.name}"
        return Command(
            text,
            canonical,
            act="set",
            target=concept.name,
            kind="choice",
            value=value,
            app="settings",
        )
    if concept.kind == "page":
        return Command(
            text,
            f"Check the {concept.name}",
            act="open",
            target=concept.name,
            kind="page",
            app="settings",
        )
    others = [(p, c, inv) for p, c, inv in found[1:] if c.kind == "switch"]
    if concept.kind == "switch" and others and re.search(r"\band\b|\bwith\b|&|,", text, re.I):
        # "turn off both wifi and bluetooth", "switch bluetooth on and wifi off": each
        # setting with the act said beside it, else the act said for all
        cuts = [p for p, _, _ in others]
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        overall = switch_act(text) or ON
        parts = []
        for piece, (_, c, inv) in zip(pieces, [found[0], *others], strict=True):
            act = switch_act(piece) or overall
            if inv:
                act = OFF if act == ON else ON
            parts.append(
                Command(
                    piece,
                    f"Turn {'on' if act == ON else 'off'} {c.name}",
                    act=act,
                    target=c.name,
                    kind="switch",
                    app="settings",
                )
            )
        joined = ", then ".join(
            p.canonical if i == 0 else "t" + p.canonical[1:] for i, p in enumerate(parts)
        )
        return Command(
            text,
            joined,
            act=parts[0].act,
            target=concept.name,
            kind="switch",
            app="settings",
            parts=tuple(parts),
        )
    act = switch_act(text)
    if not act:
        verb = re.match(r"^\s*(\w+)", text)
        looking = bool(verb) and verb.group(1).lower() in _LOOK_VERBS if verb else False
        act = "open" if looking and not re.search(r"\bback to\b|\bto the\b", text, re.I) else ON
    if act == "open":
        return Command(
            text,
            f"Open {concept.name}",
            act="open",
            target=concept.name,
            kind="switch",
            app="settings",
        )
    if inverse:
        act = OFF if act == ON else ON
    word = "on" if act == ON else "off"
    return Command(
        text,
        f"Turn {word} {concept.name}",
        act=act,
        target=concept.name,
        kind="switch",
        app="settings",
    )


#: First words of commands that ask to look at something, not to change it.
_LOOK_VERBS = frozenset(
    {
        "open",
        "go",
        "check",
        "find",
        "where",
        "what",
        "how",
        "see",
        "view",
        "look",
        "which",
        "is",
        "are",
    }
)
