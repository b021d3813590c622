"""What the offline planner reads on a form besides labels: empty and filled fields,
the values to type into them, form options, system bars, page titles, floating buttons.
(What a field takes and where the keyboard starts are the command language's:
``screenpilot.language.fields`` and ``screenpilot.language.keyboard``.)

Pure functions of a ``Screen`` (and a command's values); no embeddings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language.fields import field_kind, value_kind
from screenpilot.language.keyboard import keyboard_top
from screenpilot.language.taskparse import norm
from screenpilot.model import BlockKind, Element, ElementKind, Screen

#: Texts of buttons that confirm a form.
CONFIRM_WORDS = (
    "save",
    "done",
    "ok",
    "add",
    "set",
    "send",
    "create",
    "confirm",
    "apply",
    "import",
    "保存",
    "完成",
    "确定",
)


def viewport(screen: Screen) -> int:
    """The height of one phone screen: a long page (several screens stitched) is taller
    than a phone's 2.3:1 at most."""
    return min(screen.height, round(screen.width * 2.3))


def in_system_bar(e: Element, screen: Screen) -> bool:
    """Whether ``e`` sits in the status bar or the navigation bar (indicators and the
    system's own keys, never what a task asks to tap)."""
    bars = [
        x.box
        for x in screen.elements
        if x.kind in (ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR)
    ]
    bars += [
        b.box for b in screen.blocks if b.kind in (BlockKind.STATUS_BAR, BlockKind.NAVIGATION_BAR)
    ]
    cx, cy = e.box.center
    return any(b.x1 <= cx <= b.x2 and b.y1 <= cy <= b.y2 for b in bars)


#: Labels of buttons that create something (a "+" floating button reads "add").
CREATE_LABELS = frozenset(
    {
        "add",
        "plus",
        "create",
        "new",
        "compose",
        "start chat",
        "create contact",
        "add contact",
        "new message",
        "添加",
        "新建",
    }
)


def is_search_field(e: Element) -> bool:
    label = norm(f"{e.text} {e.caption}")
    return "search" in label or "搜索" in label


def send_button(screen: Screen, field: Element) -> Element | None:
    """The unlabelled icon button at the end of a field's row (a chat's send arrow)."""
    y1, y2 = field.box.y1, field.box.y2
    row = [
        e
        for e in screen.elements
        if e.kind in (ElementKind.BUTTON, ElementKind.ICON, ElementKind.IMAGE)
        and not e.text
        and e.box.x1 >= field.box.x2 - field.box.width * 0.1
        and min(e.box.y2, y2) - max(e.box.y1, y1) > 0.5 * min(e.box.height, y2 - y1)
    ]
    return min(row, key=lambda e: e.box.x1 - field.box.x2) if row else None


#: Words of text that stands in an empty field (its hint) when no detector found the field.
FIELD_WORDS = (
    "name",
    "first name",
    "last name",
    "phone",
    "number",
    "email",
    "search",
    "text message",
    "message",
    "to",
    "label",
    "hour",
    "minute",
    "address",
    "password",
    "username",
    "city",
    "title",
    "note",
    "code",
    "promo code",
    "coupon",
    "comment",
    "url",
    "website",
    "搜索",
    "姓名",
    "电话",
)


def is_page_title(e: Element, screen: Screen) -> bool:
    """Whether ``e`` is the title of its toolbar (the page's name, nothing to tap)."""
    if e.kind is not ElementKind.TEXT or e.block_id is None:
        return False
    try:
        block = screen.block(e.block_id)
    except KeyError:
        return False
    return block.kind is BlockKind.TOOLBAR and block.caption == e.text


def _boxed(e: Element, screen: Screen) -> bool:
    """Whether a text sits alone in a small outlined box (vision's card block): the
    hint inside a field the detector did not find."""
    if e.block_id is None:
        return False
    try:
        block = screen.block(e.block_id)
    except KeyError:
        return False
    inside = [x for x in screen.elements if x.block_id == e.block_id and x.text]
    return (
        block.kind is BlockKind.CARD
        and block.box.height < 0.1 * viewport(screen)
        and len(inside) == 1
    )


def floating_button(screen: Screen, bottom: int | None = None) -> Element | None:
    """An unlabelled round button low at the right (a floating "+" button)."""
    bottom = bottom or screen.height
    for e in screen.elements:
        w, h = e.box.width, e.box.height
        if (
            e.kind in (ElementKind.BUTTON, ElementKind.ICON, ElementKind.IMAGE)
            and not e.text
            and 0.08 * screen.width <= w <= 0.25 * screen.width
            and 0.7 <= w / max(h, 1) <= 1.4
            and e.box.center[0] > 0.6 * screen.width
            and screen.height - 0.45 * viewport(screen) < e.box.center[1] < bottom
            and not in_system_bar(e, screen)
            and (not e.icon_label or norm(e.icon_label) in CREATE_LABELS)
        ):
            return e
    return None


def is_hint_text(e: Element, kind: ElementKind = ElementKind.TEXT) -> bool:
    """A text (or a field's text) that reads like a field's hint: "Phone", "First name"."""
    text = norm(e.text)
    return e.kind is kind and any(text == w or text.startswith(w + " ") for w in FIELD_WORDS)


def empty_fields(screen: Screen) -> list[Element]:
    """Empty edit texts, and texts that read like a field's hint ("Phone") where the
    detector found no field: beside detected fields when there are some (aligned with
    them), else when there are two or more (a form has several fields)."""
    top = keyboard_top(screen) or screen.height
    order = [e for e in screen.reading_order() if e.box.y1 < top]
    fields = [
        e
        for e in order
        if e.kind is ElementKind.EDIT_TEXT
        and (e.hint or not e.text or is_hint_text(e, ElementKind.EDIT_TEXT))
    ]
    edits = [e for e in order if e.kind is ElementKind.EDIT_TEXT]
    hints = [
        e
        for e in order
        if is_hint_text(e) and not any(w.box.intersection(e.box) > 0.5 * e.box.area for w in edits)
    ]
    # "Hour [Hour]": a label and the hint in its field on one row; the hint is the field
    hints = [
        h
        for h in hints
        if not any(
            o is not h
            and norm(o.text) == norm(h.text)
            and o.box.x1 > h.box.x2
            and min(o.box.y2, h.box.y2) - max(o.box.y1, h.box.y1) > 0.5 * h.box.height
            for o in hints
        )
    ]
    if edits:
        hints = [
            h
            for h in hints
            if _boxed(h, screen)
            or any(
                abs(h.box.x1 - f.box.x1) <= 0.08 * screen.width
                or f.box.x1 <= h.box.x1 <= f.box.x1 + 0.1 * screen.width
                for f in edits
            )
        ]
        return sorted(fields + hints, key=lambda e: (e.box.y1, e.box.x1))
    # a form has several fields; a field alone shows as a box around its hint
    return hints if len(hints) >= 2 else [h for h in hints if _boxed(h, screen)]


_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


_DAY_WORDS = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
}


def wanted_options(task: str) -> list[str]:
    """Option labels a command asks for, as ``norm`` reads them: 'am' / 'pm' after a
    time, days of the week ('mon'..'sun') from day names, ranges, weekdays, weekends."""
    text = norm(task.replace("-", " "))
    out: list[str] = []
    if re.search(
        r"\d\s*pm\b|\bpm\b|p\.m\.|in the (afternoon|evening)|at night|tonight", task.lower()
    ):
        out.append("pm")
    elif re.search(r"\d\s*am\b|a\.m\.|in the morning", task.lower()):
        out.append("am")
    days: list[int] = []
    if re.search(r"\bweekdays?\b|\bworkdays?\b", text):
        days += range(5)
    if re.search(r"\bweekends?\b", text):
        days += [5, 6]
    if re.search(r"\b(every ?day|daily)\b", text):
        days += range(7)
    m = re.search(
        r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s? (?:to|"
        r"through|until|till) (monday|tuesday|wednesday|thursday|friday|saturday|"
        r"sunday)s?\b",
        text,
    )
    if m:
        days += range(_DAY_WORDS[m.group(1)], _DAY_WORDS[m.group(2)] + 1)
    else:
        days += [i for w, i in _DAY_WORDS.items() if re.search(rf"\b{w}s?\b", text)]
    out += [_DAYS[i] for i in dict.fromkeys(days)]
    return out


def filled_fields(screen: Screen, replacing: bool = False) -> list[Element]:
    """Edit texts that show a value (not a hint) and ask for a definite kind of value;
    when the task replaces a value ("change the number to ..."), also texts that read
    as a phone number or an address where the detector found no field."""
    fields = [
        e
        for e in screen.reading_order()
        if e.kind is ElementKind.EDIT_TEXT
        and e.text
        and not e.hint
        and not e.password
        and field_kind(e) != "text"
        and not is_hint_text(e, ElementKind.EDIT_TEXT)
    ]
    form = any(e.text and norm(e.text) in CONFIRM_WORDS for e in screen.elements)
    if replacing and form:  # a form (it has a Save), not a page showing details
        fields += [
            e
            for e in screen.reading_order()
            if e.kind is ElementKind.TEXT
            and (
                (value_kind(e.text) == "number" and len(re.sub(r"\D", "", e.text)) >= 7)
                or value_kind(e.text) == "email"
            )
        ]
    return fields


def satisfied(value: str, typed: Sequence[str], screen: Screen) -> bool:
    """A value is typed already, or a field on the screen already holds it."""
    if value in typed:
        return True
    want = norm(value).replace(" ", "")
    return bool(want) and any(
        norm(e.text).replace(" ", "") == want
        for e in screen.elements
        if e.kind is ElementKind.EDIT_TEXT and not e.hint
    )


def value_parts(
    values: Sequence[str], fields: Sequence[Element], typed: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """(value, kind) to type; a full name is split when the form asks first and last
    (or when its first word was already typed on its own)."""
    kinds = {field_kind(f) for f in fields}
    out: list[tuple[str, str]] = []
    for v in values:
        kind = value_kind(v)
        words = v.split()
        split = {"first", "last"} <= kinds or (bool(words) and words[0] in typed)
        if kind == "text" and len(words) >= 2 and split:
            out += [(words[0], "first"), (" ".join(words[1:]), "last")]
        else:
            out.append((v, kind))
    return out
