"""The offline planner: no LLM, just embeddings, the screen and what was done so far.

Each turn it considers what can be done on this screen and picks the best:

0. on a home screen (three or more app names in view) -> open the app the task names
   ("in the Shop app"), else the app whose purpose fits it (planner/apps.py: "ring
   vibration" is a setting, "promo code" is the shop's), never one already tried;
1. a slider the task names with a level ("brightness to 50%") -> tap that point
   (just past the track's end for 0 % and 100 %);
2. a switch or check box the task names, already in the wished state -> stop, done;
   in the other state -> tap it;
3. an edit text while values from the command are untyped -> type the next value
   that fits the field (digits into number fields, words into the rest). Empty
   fields first, then filled fields of a definite kind ("change the number to ...":
   the executor replaces their text); a text that reads like a hint ("Phone") where
   no field was detected counts as a field. Capitalised names are typed only when
   the command creates something ("Create a contact for Alice"); "Call Bob Lee"
   names a target to tap;
4. on a form, the options the command names: AM/PM, days ("every weekend");
5. once every value is typed, a confirm button (Save, Done, OK, Add, Send, Set...)
   -> tap it, and the turn after that -> stop, done;
6. the last tap was the act the command's verb names ("Call", "Delete", "Sign out",
   "Add to cart"; not a way to it like "Import from file") -> a confirmation that
   repeats it is tapped once, then stop, done;
7. otherwise tap the element whose description (its label, kind and block caption,
   and for apps and common entries what they are for) is most similar to the task,
   never the same label twice, never the status bar, the keyboard or the selected
   tab; a floating "+" counts as "add" for commands that create; for commands that
   act (delete, mark) a weak match loses to an unopened overflow menu; an "open" or
   "what is" command is done once the page it names is open;
8. nothing similar enough -> the overflow menu, then scroll down (twice at most),
   then go back, then give up.

A command of several parts ("Turn off WiFi, then enable bluetooth") is worked part
by part; a switch part is done once a screen of the run showed it as wished.

A demonstration in the hints (the best one retrieved for this task) comes first:
its semantic steps are lined up with the history, and its next step is taken when
its element is on the screen ("tap 'Network & internet'" taps the element showing
that text; "scroll down" scrolls unless the step after it is already in view;
"press back" goes back; "type 'V' into the 'F' field" types V when the task says V).
A switch or slider step is left to rules 1-2, which know the wished state; a
target not in view is looked for by scrolling down. Once the demonstration's steps
are all done and no rule has anything left to do, the run stops as done. A
demonstration whose switch or slider the task does not name ("Turn wifi off." for
"turn bluetooth off") is not followed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from screenpilot.model import (
    SECRET_PLACEHOLDER,
    Action,
    ActionKind,
    BlockKind,
    Box,
    Direction,
    Element,
    ElementKind,
    Screen,
    Step,
)
from screenpilot.planner.apps import PHRASES, app_names, is_app, named_app, purpose
from screenpilot.planner.base import Decision, Demonstration, PlanHints
from screenpilot.planner.taskparse import STOP_WORDS, TaskIntent, clock_words, norm, parse_task

Encoder = Callable[[Sequence[str]], np.ndarray]

CONFIRM_WORDS = ("save", "done", "ok", "add", "set", "send", "create", "confirm", "apply",
                 "import", "保存", "完成", "确定")
TAPPABLE = {ElementKind.BUTTON, ElementKind.TEXT, ElementKind.ICON, ElementKind.IMAGE,
            ElementKind.SWITCH, ElementKind.CHECK_BOX, ElementKind.RADIO_GROUP,
            ElementKind.SPINNER, ElementKind.EDIT_TEXT}
TOGGLES = {ElementKind.SWITCH, ElementKind.CHECK_BOX}


@dataclass(frozen=True)
class Candidate:
    action: Action
    score: float
    reason: str


def describe_for_match(e: Element, screen: Screen) -> str:
    """The text an element is matched on: label, kind, block caption, app purpose."""
    label = e.label
    parts = [label, e.kind.value.replace("_", " ")]
    if e.block_id is not None:
        caption = screen.block(e.block_id).caption
        if caption and caption != label:
            parts.append(f"in {caption}")
    what = purpose(label)
    if what:
        parts.append(f"app for {what}")
    return " ".join(p for p in parts if p)


def purpose_bonus(intent: TaskIntent, e: Element) -> float:
    """0.4 when the element is an app whose purpose names a word of the task."""
    what = purpose(e.label)
    if not what:
        return 0.0
    return 0.4 if _stems(" ".join(intent.words)) & _stems(what) else 0.0


def viewport(screen: Screen) -> int:
    """The height of one phone screen: a long page (several screens stitched) is taller
    than a phone's 2.3:1 at most."""
    return min(screen.height, round(screen.width * 2.3))


def in_system_bar(e: Element, screen: Screen) -> bool:
    """Whether ``e`` sits in the status bar or the navigation bar (indicators and the
    system's own keys, never what a task asks to tap)."""
    bars = [x.box for x in screen.elements
            if x.kind in (ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR)]
    bars += [b.box for b in screen.blocks
             if b.kind in (BlockKind.STATUS_BAR, BlockKind.NAVIGATION_BAR)]
    cx, cy = e.box.center
    return any(b.x1 <= cx <= b.x2 and b.y1 <= cy <= b.y2 for b in bars)


#: First words of commands that ask to see something (done once it is on the screen).
QUESTION_VERBS = frozenset({"what", "what's", "check", "find", "look up", "where", "how"})
#: First words of commands that flip a setting ("start the stopwatch" does not).
SWITCH_VERBS = frozenset({"turn", "switch", "enable", "disable", "toggle", "activate",
                          "deactivate", "put"})
#: First words of commands that look or go somewhere rather than act on something.
PASSIVE_VERBS = frozenset({"open", "go", "show", "check", "what", "find", "see", "view",
                           "turn", "set", "use", "navigate", "launch", "look up", "where",
                           "how", "change", "start", "create", "add", "new", "send", "reply",
                           "text", "call", "message", "write"})
#: First words of commands that replace a value that is there.
REPLACE_VERBS = frozenset({"change", "edit", "update", "replace", "correct", "set", "modify"})
#: Icon labels of overflow menus.
OVERFLOW = frozenset({"more vert", "more options", "dots vertical", "more", "menu",
                      "more horiz", "dots horizontal", "overflow", "更多"})
#: Labels of buttons that create something (a "+" floating button reads "add").
CREATE_LABELS = frozenset({"add", "plus", "create", "new", "compose", "start chat",
                           "create contact", "add contact", "new message", "添加", "新建"})
CREATE_VERBS = frozenset({"add", "create", "new", "set", "make", "start", "compose", "write",
                          "send"})


def acted_on(step: Step) -> Element | None:
    """The element a step acted on: by its id, or for a tap at a point the smallest
    element there, else a seek bar the point is just past the end of (0 % / 100 %),
    else a switch on that row (a row opened beside its switch)."""
    a = step.action
    if a.element is not None:
        try:
            return step.before.element(a.element)
        except KeyError:
            return None
    if a.point is None:
        return None
    x, y = a.point
    hits = [e for e in step.before.elements
            if e.box.x1 <= x <= e.box.x2 and e.box.y1 <= y <= e.box.y2 and e.label]
    if hits:
        return min(hits, key=lambda e: e.box.area)
    near = [e for e in step.before.elements if e.kind is ElementKind.SEEK_BAR   # past an end
            and e.box.y1 <= y <= e.box.y2 and min(abs(x - e.box.x1), abs(x - e.box.x2))
            <= e.box.height]
    row = [e for e in step.before.elements if e.kind in TOGGLES and e.box.y1 <= y <= e.box.y2]
    found = near or row
    return found[0] if found else None


def _tapped_labels(history: Sequence[Step]) -> list[str]:
    out = []
    for s in history:
        if s.action.kind is ActionKind.TAP:
            e = acted_on(s)
            if e is not None:
                out.append(norm(e.label))
    return out


_SET_TO = re.compile(r"\b(?:set|change|switch|make)\b.*\bto\s+(.+?)\s*[.!]?\s*$", re.I)
_ADD_TO = re.compile(r"\badd\b.*\bto (?:my |the |your )?(cart|basket|favou?rites|playlist|"
                     r"wish ?list)\b", re.I)


def act_words(intent: TaskIntent) -> set[str]:
    """The stems a control that does what the command asks carries: its verb ("call",
    "sign out"); "add X to my cart" -> add + cart; "to my favorites" -> star."""
    if intent.verb in ("turn", "open", "go", "set", "show", "check", "what", "find",
                       "search", "change", "edit"):
        return set()
    verb = _stems(intent.verb)
    onto = _ADD_TO.search(intent.text)
    if onto:
        listed = _stems(onto.group(1))
        verb = listed if "star" in listed else verb | listed
    return verb


def is_act(intent: TaskIntent, label: str) -> bool:
    """Whether a control labelled so is the act itself ("Call", "Add to cart"), not a
    way to it ("Import from file", the cart icon)."""
    verb = act_words(intent)
    words = _stems(label) - STOP_WORDS
    task = _stems(" ".join(intent.words)) | verb
    return bool(verb) and verb <= words and words <= task and norm(label) not in {
        norm(a) for a in app_names()}


def _label_at(step: Step) -> str:
    """The label (or icon label) of the element a step acted on ("" when none)."""
    if step.action.element is None:
        return ""
    try:
        e = step.before.element(step.action.element)
    except KeyError:
        return ""
    return e.label or e.icon_label


def _typed(history: Sequence[Step]) -> list[str]:
    """Values typed so far (a trailing Enter that submitted one is not part of it)."""
    return [(s.action.text or "").rstrip("\n") for s in history
            if s.action.kind is ActionKind.TYPE]


def _submitted(history: Sequence[Step]) -> bool:
    """Whether the last step typed a value and pressed Enter (a search)."""
    last = history[-1].action if history else None
    return bool(last and last.kind is ActionKind.TYPE and (last.text or "").endswith("\n"))


def is_search_field(e: Element) -> bool:
    label = norm(f"{e.text} {e.caption}")
    return "search" in label or "搜索" in label


def send_button(screen: Screen, field: Element) -> Element | None:
    """The unlabelled icon button at the end of a field's row (a chat's send arrow)."""
    y1, y2 = field.box.y1, field.box.y2
    row = [e for e in screen.elements
           if e.kind in (ElementKind.BUTTON, ElementKind.ICON, ElementKind.IMAGE)
           and not e.text and e.box.x1 >= field.box.x2 - field.box.width * 0.1
           and min(e.box.y2, y2) - max(e.box.y1, y1) > 0.5 * min(e.box.height, y2 - y1)]
    return min(row, key=lambda e: e.box.x1 - field.box.x2) if row else None


#: Words of text that stands in an empty field (its hint) when no detector found the field.
FIELD_WORDS = ("name", "first name", "last name", "phone", "number", "email", "search",
               "text message", "message", "to", "label", "hour", "minute", "address",
               "password", "username", "city", "title", "note", "code", "promo code",
               "coupon", "comment", "url", "website", "搜索", "姓名", "电话")


def keyboard_top(screen: Screen) -> int | None:
    """Where an on-screen keyboard starts: a keyboard block, else two or more rows of
    four or more one-character keys in the lower half (its keys are no targets)."""
    for b in screen.blocks:
        if b.kind is BlockKind.KEYBOARD:
            return b.box.y1
    keys = [e for e in screen.elements if e.box.y1 > screen.height - 0.5 * viewport(screen)
            and e.kind in (ElementKind.BUTTON, ElementKind.TEXT) and len(e.label.strip()) <= 1]
    rows: dict[int, list[Element]] = {}
    for e in keys:
        rows.setdefault(e.box.center[1] * 12 // screen.height, []).append(e)
    full = [r for r in rows.values() if len(r) >= 4]      # a keyboard's rows of keys
    if len(full) < 2:
        return None
    return min(e.box.y1 for r in full for e in r)


def _page_title(e: Element, screen: Screen) -> bool:
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
    return block.kind is BlockKind.CARD and block.box.height < 0.1 * viewport(screen) \
        and len(inside) == 1


def floating_button(screen: Screen, bottom: int | None = None) -> Element | None:
    """An unlabelled round button low at the right (a floating "+" button)."""
    bottom = bottom or screen.height
    for e in screen.elements:
        w, h = e.box.width, e.box.height
        if e.kind in (ElementKind.BUTTON, ElementKind.ICON, ElementKind.IMAGE) and not e.text \
                and 0.08 * screen.width <= w <= 0.25 * screen.width and 0.7 <= w / max(h, 1) \
                <= 1.4 and e.box.center[0] > 0.6 * screen.width \
                and screen.height - 0.45 * viewport(screen) < e.box.center[1] < bottom \
                and not in_system_bar(e, screen) \
                and (not e.icon_label or norm(e.icon_label) in CREATE_LABELS):
            return e
    return None


def _is_hint_text(e: Element, kind: ElementKind = ElementKind.TEXT) -> bool:
    """A text (or a field's text) that reads like a field's hint: "Phone", "First name"."""
    text = norm(e.text)
    return e.kind is kind and any(text == w or text.startswith(w + " ") for w in FIELD_WORDS)


def _empty_fields(screen: Screen) -> list[Element]:
    """Empty edit texts, and texts that read like a field's hint ("Phone") where the
    detector found no field: beside detected fields when there are some (aligned with
    them), else when there are two or more (a form has several fields)."""
    top = keyboard_top(screen) or screen.height
    order = [e for e in screen.reading_order() if e.box.y1 < top]
    fields = [e for e in order if e.kind is ElementKind.EDIT_TEXT
              and (e.hint or not e.text or _is_hint_text(e, ElementKind.EDIT_TEXT))]
    edits = [e for e in order if e.kind is ElementKind.EDIT_TEXT]
    hints = [e for e in order if _is_hint_text(e)
             and not any(w.box.intersection(e.box) > 0.5 * e.box.area for w in edits)]
    # "Hour [Hour]": a label and the hint in its field on one row; the hint is the field
    hints = [h for h in hints if not any(
        o is not h and norm(o.text) == norm(h.text) and o.box.x1 > h.box.x2
        and min(o.box.y2, h.box.y2) - max(o.box.y1, h.box.y1) > 0.5 * h.box.height
        for o in hints)]
    if edits:
        hints = [h for h in hints if _boxed(h, screen) or any(
            abs(h.box.x1 - f.box.x1) <= 0.08 * screen.width
            or f.box.x1 <= h.box.x1 <= f.box.x1 + 0.1 * screen.width for f in edits)]
        return sorted(fields + hints, key=lambda e: (e.box.y1, e.box.x1))
    # a form has several fields; a field alone shows as a box around its hint
    return hints if len(hints) >= 2 else [h for h in hints if _boxed(h, screen)]


_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_WORDS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
              "saturday": 5, "sunday": 6}


def wanted_options(task: str) -> list[str]:
    """Option labels a command asks for, as ``norm`` reads them: 'am' / 'pm' after a
    time, days of the week ('mon'..'sun') from day names, ranges, weekdays, weekends."""
    text = norm(task.replace("-", " "))
    out: list[str] = []
    if re.search(r"\d\s*pm\b|\bpm\b|p\.m\.|in the (afternoon|evening)|at night|tonight",
                 task.lower()):
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
    m = re.search(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s? (?:to|"
                  r"through|until|till) (monday|tuesday|wednesday|thursday|friday|saturday|"
                  r"sunday)s?\b", text)
    if m:
        days += range(_DAY_WORDS[m.group(1)], _DAY_WORDS[m.group(2)] + 1)
    else:
        days += [i for w, i in _DAY_WORDS.items() if re.search(rf"\b{w}s?\b", text)]
    out += [_DAYS[i] for i in dict.fromkeys(days)]
    return out


def _filled_fields(screen: Screen, replacing: bool = False) -> list[Element]:
    """Edit texts that show a value (not a hint) and ask for a definite kind of value;
    when the task replaces a value ("change the number to ..."), also texts that read
    as a phone number or an address where the detector found no field."""
    fields = [e for e in screen.reading_order() if e.kind is ElementKind.EDIT_TEXT
              and e.text and not e.hint and not e.password and field_kind(e) != "text"
              and not _is_hint_text(e, ElementKind.EDIT_TEXT)]
    form = any(e.text and norm(e.text) in CONFIRM_WORDS for e in screen.elements)
    if replacing and form:             # a form (it has a Save), not a page showing details
        fields += [e for e in screen.reading_order() if e.kind is ElementKind.TEXT and (
                   (value_kind(e.text) == "number" and len(re.sub(r"\D", "", e.text)) >= 7)
                   or value_kind(e.text) == "email")]
    return fields


def _satisfied(value: str, typed: Sequence[str], screen: Screen) -> bool:
    """A value is typed already, or a field on the screen already holds it."""
    if value in typed:
        return True
    want = norm(value).replace(" ", "")
    return bool(want) and any(norm(e.text).replace(" ", "") == want for e in screen.elements
                              if e.kind is ElementKind.EDIT_TEXT and not e.hint)


def field_kind(e: Element) -> str:
    """What a field wants: email, number, first, last, name, recipient or text."""
    label = norm(f"{e.text} {e.caption}")
    if label in ("to", "recipient", "recipients", "send to", "收件人"):
        return "recipient"
    if "mail" in label:
        return "email"
    if any(w in label for w in ("phone", "number", "tel", "mobile", "hour", "minute", "电话")):
        return "number"
    if "first" in label:
        return "first"
    if "last" in label or "surname" in label:
        return "last"
    if "name" in label:
        return "name"
    shown = value_kind(e.text) if e.text and not e.hint else "text"
    return shown if shown == "email" or (shown == "number" and len(
        re.sub(r"\D", "", e.text)) >= 7) else "text"      # it holds a number: a number field


def value_kind(value: str) -> str:
    if "@" in value:
        return "email"
    return "number" if re.fullmatch(r"\+?[\d\s:-]+", value) else "text"


def value_parts(values: Sequence[str], fields: Sequence[Element],
                typed: Sequence[str] = ()) -> list[tuple[str, str]]:
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


def _fits(value: str, field: str) -> bool:
    if field == "recipient":              # "To": a number or an address, not a message
        return value in ("email", "number")
    if value in ("email", "number"):
        return field == value
    if value in ("first", "last"):
        return field == value
    return field in ("first", "name", "text", "last")


@dataclass(frozen=True)
class DemoStep:
    """One semantic step of a demonstration, parsed: "tap 'X' in 'Y'", "tap the 'X'
    switch", "long press 'X'", "type 'V' into the 'F' field", "scroll down [the 'L'
    list]", "drag the 'X' slider to N%", "press back|home|enter"."""

    verb: str                 # tap | long press | type | scroll | drag | back | home | other
    label: str = ""
    kind: str = ""            # switch | check box | icon | field | ""
    value: str = ""
    secret: bool = False
    direction: Direction = Direction.DOWN
    level: float | None = None
    at: tuple[float, float] | None = None   # "tap at 81% 7% of the screen": shares


_STEP_TAP = re.compile(r"^(tap|long press)\s+(?:the\s+)?'(.+?)'"
                       r"(?:\s+(switch|check box|icon|button|tab|field))?", re.I)
_STEP_TYPE = re.compile(r"^type\s+(?:'(.*)'|(<secret>))\s+into\s+(?:the\s+)?'(.+?)'", re.I)
_STEP_DRAG = re.compile(r"^drag the '(.+?)' slider to (\d+)%", re.I)
_STEP_SCROLL = re.compile(r"^scroll (up|down|left|right)\b", re.I)
_STEP_AT = re.compile(r"^(tap|long press) at (\d+)% (\d+)%", re.I)


def parse_step(text: str) -> DemoStep:
    t = text.strip()
    if m := _STEP_TYPE.match(t):
        secret = m.group(2) is not None or m.group(1) == SECRET_PLACEHOLDER
        return DemoStep("type", m.group(3), "field", "" if secret else m.group(1) or "",
                        secret=secret)
    if m := _STEP_AT.match(t):
        return DemoStep(m.group(1).lower(), at=(int(m.group(2)) / 100, int(m.group(3)) / 100))
    if m := _STEP_TAP.match(t):
        return DemoStep(m.group(1).lower(), m.group(2), (m.group(3) or "").lower())
    if m := _STEP_DRAG.match(t):
        return DemoStep("drag", m.group(1), "slider", level=int(m.group(2)) / 100)
    if m := _STEP_SCROLL.match(t):
        return DemoStep("scroll", direction=Direction(m.group(1).lower()))
    low = t.lower()
    if low in ("press back", "go back", "back"):
        return DemoStep("back")
    if low in ("press home", "go home", "home"):
        return DemoStep("home")
    return DemoStep("other")


def _same(on_screen: str, wanted: str) -> bool:
    """Whether a label read now is the label the demonstration named (OCR may differ)."""
    a, b = norm(on_screen), norm(wanted)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and short in long_ and len(short) >= 0.6 * len(long_):
        return True
    sa, sb = _stems(a), _stems(b)
    return bool(sa and sb) and len(sa & sb) / len(sa | sb) >= 0.67


def field_label_of(e: Element) -> str:
    return e.caption or e.text or e.icon_label


def find_target(screen: Screen, step: DemoStep) -> Element | None:
    """The element on screen that the step names (None when it is not in view)."""
    if step.kind == "icon":
        hits = [e for e in screen.elements if e.icon_label and _same(e.icon_label, step.label)]
    elif step.kind in ("switch", "check box"):
        kinds = TOGGLES
        hits = [e for e in screen.elements if e.kind in kinds and _same(e.label, step.label)]
    elif step.verb == "drag":
        hits = [e for e in screen.elements if e.kind is ElementKind.SEEK_BAR
                and _same(e.caption or e.label, step.label)]
    else:
        hits = [e for e in screen.elements if e.kind in TAPPABLE
                and (_same(e.label, step.label) or (e.icon_label and
                                                    _same(e.icon_label, step.label)))]
    if not hits:
        return None
    exact = [e for e in hits if norm(e.label) == norm(step.label)]
    return (exact or hits)[0]


def _said(value: str, task: str) -> bool:
    """Whether the task itself says ``value`` (so typing the demonstrated value fits)."""
    words = norm(value).split()
    text = f" {norm(task)} "
    return bool(words) and all(f" {w} " in text or w in text.replace(" ", "") for w in words)


def _step_matches(step: Step, demo: DemoStep) -> bool:
    kind = step.action.kind
    if demo.verb in ("tap", "long press"):
        want = ActionKind.LONG_PRESS if demo.verb == "long press" else ActionKind.TAP
        if kind is want and demo.at is not None and step.action.point is not None:
            x, y = step.action.point
            w, h = step.before.width, step.before.height
            return abs(x / w - demo.at[0]) <= 0.03 and abs(y / h - demo.at[1]) <= 0.03
        if kind is not want or step.action.element is None:
            return False
        try:
            e = step.before.element(step.action.element)
        except KeyError:
            return False
        return _same(e.label, demo.label) or bool(e.icon_label and
                                                  _same(e.icon_label, demo.label))
    if demo.verb == "type":
        return kind is ActionKind.TYPE
    if demo.verb == "scroll":
        return kind is ActionKind.SCROLL
    if demo.verb == "drag":
        return kind is ActionKind.SWIPE or (kind is ActionKind.TAP and
                                            step.action.point is not None)
    if demo.verb == "back":
        return kind is ActionKind.BACK
    if demo.verb == "home":
        return kind is ActionKind.HOME
    return False


def demo_fits(intent: TaskIntent, steps: Sequence[str]) -> bool:
    """False when the demonstration flips a switch or sets a slider whose name shares no
    word with the task: "Turn wifi off." is no path for "turn bluetooth off", however
    alike the two sentences are."""
    task = _stems(" ".join(intent.words) + " " + intent.text)
    for step in (parse_step(s) for s in steps):
        if (step.kind in ("switch", "check box") or step.verb == "drag") and step.label \
                and not any(a[:5] == b[:5] if min(len(a), len(b)) >= 5 else a == b
                            for a in _stems(step.label) for b in task):
            return False
    return True


def demo_progress(steps: Sequence[str], history: Sequence[Step]) -> int:
    """How many of a demonstration's steps the history has done, in order. A step of
    the history may also do a step two ahead (the skipped ones were scrolls or steps
    this screen did not need); steps that match nothing are detours."""
    parsed = [parse_step(s) for s in steps]
    done = 0
    for step in history:
        if step.undone or step.error:
            continue
        for j in range(done, min(done + 3, len(parsed))):
            skippable = j <= done + 1 or all(p.verb in ("scroll", "other")
                                             for p in parsed[done:j])
            if skippable and _step_matches(step, parsed[j]):
                done = j + 1
                break
    return done


#: Words that mean the same thing on buttons.
SYNONYMS = {"add": "create", "new": "create", "remove": "delete", "erase": "delete",
            "dial": "call", "text": "message", "sms": "message", "favorite": "star",
            "favourite": "star", "favorites": "star", "favourites": "star", "wifi": "wifi",
            "modify": "edit", "change": "edit", "pencil": "edit", "chat": "message",
            "conversation": "message", "log": "sign", "logout": "sign out"}
#: Words of icon names that say how the icon is drawn, not what it does.
STYLE_WORDS = frozenset({"outline", "outlined", "filled", "rounded", "sharp", "variant", "alt",
                         "two", "tone"})


def _stems(text: str) -> set[str]:
    out = set()
    for w in norm(clock_words(text)).split():
        if w in STYLE_WORDS:
            continue
        out.add(stem(SYNONYMS.get(w, w)))
    return out


_SUFFIXES = ("ations", "ation", "ings", "ing", "ions", "ion", "ates", "ate", "ed", "es", "e",
             "s")


def stem(word: str) -> str:
    """A crude English stem: 'vibration', 'vibrate' -> 'vibr'; 'alarms' -> 'alarm'."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[:-len(suffix)]
    return word


#: App names (stemmed like ``_stems``): where a task happens, not what it asks for.
APP_NAMES = frozenset({stem(w) for n in app_names() for w in n.split()})


def _lexical(intent: TaskIntent, label: str) -> float:
    """Share of the label's words (stemmed, synonyms folded) that the task uses; app
    names do not count ("Contact info" is no match for "delete contact Frank")."""
    words = _stems(label) - APP_NAMES
    if not words:
        return 0.0
    return len(words & _stems(" ".join(intent.words))) / len(words)


_THEN = re.compile(r"\s*(?:,\s*(?:and\s+)?then\b|;|\band then\b|\bthen\b|，然后|然后)\s*",
                   re.I)


_RECENT = re.compile(r"\b(most recent|latest|newest|last (?:message|text|email|one))\b", re.I)
_TIME_LIKE = re.compile(r"^(\d{1,2}:\d{2}\s*(am|pm)?|yesterday|today|mon|tue|wed|thu|fri|sat|"
                        r"sun|[a-z]{3} \d{1,2})$", re.I)


def _recent_row(intent: TaskIntent, screen: Screen, history: Sequence[Step],
                els: Sequence[Element]) -> Element | None:
    """"The most recent message": on an app's first page, the first row of its list
    (the name on it, not its time)."""
    if not _RECENT.search(intent.text) or not history or not is_app(_label_at(history[-1])):
        return None
    rows = [e for e in els if e.kind is ElementKind.TEXT and e.box.y1 > viewport(screen) * 0.08
            and len(e.text) >= 3 and not _TIME_LIKE.match(e.text.strip())
            and not is_app(e.text)]
    return min(rows, key=lambda e: (e.box.y1, e.box.x1)) if rows else None


def _same_place(a: Box, b: Box) -> bool:
    """Whether two boxes are one field as seen on two screens (its hint, then its text)."""
    cx, cy = b.center
    return a.iou(b) > 0.3 or (a.x1 <= cx <= a.x2 and a.y1 <= cy <= a.y2)


def _beside_named(intent: TaskIntent, els: Sequence[Element], i: int) -> int:
    """Of several controls with the chosen label ("Remove" on every cart row), the first
    one after what the task names ("the coffee mug")."""
    same = [j for j, e in enumerate(els) if norm(e.label) == norm(els[i].label)]
    if len(same) < 2:
        return i
    task = _stems(" ".join(intent.words)) - APP_NAMES - act_words(intent)
    named = [e for e in els if (w := _stems(e.label) - APP_NAMES) and w <= task
             and norm(e.label) != norm(els[i].label)]
    if not named:
        return i
    most = max(len(_stems(e.label)) for e in named)      # the most specific: 'Coffee Mug'
    named = [e for e in named if len(_stems(e.label)) == most]
    # an item's controls follow its name in reading order (title, price, then buttons)
    anchor = named[0].box.center[1]
    after = [j for j in same if els[j].box.center[1] >= anchor]
    return min(after or same, key=lambda j: abs(els[j].box.center[1] - anchor))


def _retapped(label: str, tapped: str) -> bool:
    """Whether ``label`` is a label tapped before, as OCR may read it again: the same
    words, give or take one-character glyphs ("X Create contact" is "Create contact")."""
    a, b = norm(label).split(), tapped.split()
    if a == b:
        return True
    extra = set(a) ^ set(b)
    return bool(b) and all(len(w) == 1 for w in extra) and bool(set(a) & set(b))


def _row_text(els: Sequence[Element], i: int) -> int:
    """An unlabelled icon at the start of a list row stands for the row: tap the row's
    text instead (the same row, what a person reads and taps)."""
    icon = els[i]
    if icon.text or icon.kind not in (ElementKind.ICON, ElementKind.IMAGE):
        return i
    row = [j for j, e in enumerate(els) if e.kind is ElementKind.TEXT and e.text
           and e.box.x1 >= icon.box.x2 - 4 and e.box.x1 - icon.box.x2 <= icon.box.width * 3
           and min(e.box.y2, icon.box.y2) - max(e.box.y1, icon.box.y1)
           >= 0.5 * min(e.box.height, icon.box.height)]
    return min(row, key=lambda j: (els[j].box.x1 // 24, els[j].box.y1)) if row else i


def split_task(task: str) -> list[str]:
    """A command of several steps ("Turn off WiFi, then enable bluetooth") in its parts."""
    parts = [p.strip(" ,.") for p in _THEN.split(task) if p and p.strip(" ,.")]
    return parts if len(parts) > 1 else [task]


def _opened(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> bool:
    """The last tap opened what an "open ..." task names: its label uses only the
    task's words, and nothing on the new page names a task word not reached yet
    ("Orders" opens "my order history"; for "my Yoga Mat order" the 'Yoga Mat' row
    is still to open)."""
    last = history[-1] if history else None
    if last is None or last.action.kind is not ActionKind.TAP or \
            _lexical(intent, _label_at(last)) < 0.99:
        return False
    return not _more_to_open(intent, screen, history)


def _more_to_open(intent: TaskIntent, screen: Screen, history: Sequence[Step],
                  title: str = "") -> bool:
    """Whether an element on the screen names task words that no tap of the run (nor
    the page's ``title``) named yet."""
    task = _stems(" ".join(intent.words)) - APP_NAMES
    covered: set[str] = _stems(title)
    for s in history:
        if s.action.kind is ActionKind.TAP:
            covered |= _stems(_label_at(s))
    top = viewport(screen) * 0.1        # the toolbar: the page's own title, its icons
    for e in screen.elements:
        if e.kind in TAPPABLE and e.label and not in_system_bar(e, screen) and e.box.y2 > top:
            words = _stems(e.label) - APP_NAMES
            if words and words <= task and words - covered:
                return True
    return False


class HeuristicPlanner:
    """Offline planner (see the module docstring); ``encode`` embeds texts, normalised."""

    name = "heuristic"

    def __init__(self, encode: Encoder, *, threshold: float = 0.35, max_scrolls: int = 2,
                 max_steps: int = 20) -> None:
        self._encode = encode
        self._cache: dict[str, np.ndarray] = {}
        self.threshold = threshold
        self.max_scrolls = max_scrolls
        self.max_steps = max_steps

    def next(self, task: str, screen: Screen, history: Sequence[Step], *,
             hints: PlanHints | None = None) -> Decision:
        parts = split_task(task)
        if len(parts) > 1:
            # "turn off wifi, then enable bluetooth": the first part not done yet
            # (switch parts are done once a screen showed the switch as wished)
            done = [p for p in parts[:-1] if self._switched(parse_task(p), screen, history)]
            task = next(p for p in parts if p not in done)
        intent = parse_task(task)
        hints = hints or PlanHints()
        if len(history) >= self.max_steps:
            return Decision(Action(ActionKind.STOP), f"gave up after {len(history)} steps")
        demo = hints.demonstrations[0] if hints.demonstrations else None
        if demo is not None and not demo_fits(intent, demo.steps):
            demo = None        # it switches or sets another setting than the task names
        if demo is not None:
            follow = self._follow(intent, screen, history, demo)
            if follow is not None:
                return follow
        for rule in (self._launcher, self._slider, self._toggle, self._type, self._options,
                     self._confirm, self._finish):
            decision = rule(intent, screen, history)
            if decision is not None:
                return decision
        if demo is not None and history and demo_progress(demo.steps, history) >= len(
                demo.steps):
            return Decision(Action(ActionKind.STOP, done=True),
                            f"every step of the demonstration '{demo.instruction}' is done")
        return self._navigate(intent, screen, history, hints)

    def _switched(self, intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> bool:
        """Whether a screen of this run showed the switch ``intent`` names as wished."""
        if intent.switch_to is None:
            return False
        for shown in (*(s.before for s in history), screen):
            found = self._named(intent, shown, TOGGLES)
            if found is not None and found[0].checked is intent.switch_to:
                return True
        return False

    # --- following a demonstration ---------------------------------------------------------
    def _follow(self, intent: TaskIntent, screen: Screen, history: Sequence[Step],
                demo: Demonstration) -> Decision | None:
        """The demonstration's next step on this screen, or None to leave it to the rules."""
        steps = [parse_step(s) for s in demo.steps]
        done = demo_progress(demo.steps, history)
        if done >= len(steps):
            return None
        step = steps[done]
        why = f"demonstration step {done + 1}/{len(steps)}: {demo.steps[done]}"
        if step.verb == "scroll":
            ahead = steps[done + 1] if done + 1 < len(steps) else None
            if ahead is not None and ahead.verb in ("tap", "long press") and \
                    find_target(screen, ahead) is not None:
                return self._act_on(intent, screen, history, ahead,
                                    f"demonstration step {done + 2}/{len(steps)} is in view: "
                                    f"{demo.steps[done + 1]}")
            return Decision(Action(ActionKind.SCROLL, direction=step.direction), why)
        if step.verb == "back":
            return Decision(Action(ActionKind.BACK), why)
        if step.verb == "home":
            return Decision(Action(ActionKind.HOME), why)
        return self._act_on(intent, screen, history, step, why)

    def _act_on(self, intent: TaskIntent, screen: Screen, history: Sequence[Step],
                step: DemoStep, why: str) -> Decision | None:
        if step.verb == "drag":
            if intent.level is not None or step.level is None:
                return None        # the slider rule sets the level the task asks for
            bar = find_target(screen, step)
            if bar is None:
                return None
            x = round(bar.box.x1 + step.level * (bar.box.width - 1))
            return Decision(Action(ActionKind.TAP, point=(x, bar.box.center[1])), why)
        if step.verb == "type":
            if step.secret or not step.value or not _said(step.value, intent.text):
                return None        # a secret, or another task's value: the type rule decides
            if step.value in _typed(history):
                return None
            fields = [f for f in _empty_fields(screen) if _same(field_label_of(f), step.label)]
            fields = fields or [e for e in screen.elements if e.kind is ElementKind.EDIT_TEXT
                                and _same(field_label_of(e), step.label)]
            if not fields:
                return None
            f = fields[0]
            return Decision(Action(ActionKind.TYPE, element=f.id, text=step.value,
                                   secret=f.password), why)
        if step.verb not in ("tap", "long press"):
            return None
        kind = ActionKind.LONG_PRESS if step.verb == "long press" else ActionKind.TAP
        if step.at is not None:
            point = (min(screen.width - 1, round(step.at[0] * screen.width)),
                     min(screen.height - 1, round(step.at[1] * screen.height)))
            return Decision(Action(kind, point=point), why)
        if step.kind in ("switch", "check box") and intent.switch_to is not None:
            return None            # the toggle rule knows whether it needs a tap
        target = find_target(screen, step)
        if target is None:
            return self._look_further(history, step, why)
        return Decision(Action(kind, element=target.id), why)

    def _look_further(self, history: Sequence[Step], step: DemoStep,
                      why: str) -> Decision | None:
        """The demonstrated element is not in view: scroll down for it (a smaller screen
        shows less), up to ``max_scrolls`` times in a row."""
        scrolls = 0
        for s in reversed(history):
            if s.action.kind is not ActionKind.SCROLL:
                break
            scrolls += 1
        if scrolls >= self.max_scrolls or not history:
            return None
        return Decision(Action(ActionKind.SCROLL, direction=Direction.DOWN),
                        f"{why} ('{step.label}' is not in view: look further down)")

    # --- the rules --------------------------------------------------------------------------
    def _named(self, intent: TaskIntent, screen: Screen,
               kinds: set[ElementKind]) -> tuple[Element, float] | None:
        els = [e for e in screen.elements if e.kind in kinds and (e.label or e.caption)]
        if not els:
            return None
        sims = self._similarity(intent.where, [e.label or e.caption for e in els])
        lex = np.array([_lexical(intent, e.label or e.caption) for e in els])
        score = sims + lex
        i = int(np.argmax(score))
        return (els[i], float(score[i])) if score[i] >= self.threshold + 0.25 else None

    def _launcher(self, intent: TaskIntent, screen: Screen,
                  history: Sequence[Step]) -> Decision | None:
        """On a home screen (three or more app names in view) open the app the task
        names, else the app whose purpose fits the task best and was not tried yet."""
        apps = [e for e in screen.elements if e.kind in TAPPABLE and e.text and is_app(e.text)
                and not in_system_bar(e, screen)]
        if len({norm(e.text) for e in apps}) < 3:
            return None
        tried = set(_tapped_labels(history))
        named = named_app(intent.text, [e.text for e in apps])
        if named is not None and norm(named) not in tried:
            e = next(e for e in apps if e.text == named)
            return Decision(Action(ActionKind.TAP, element=e.id), f"the task names '{e.text}'")
        apps = [e for e in apps if norm(e.text) not in tried]
        if not apps:
            return None
        texts = [f"{e.text} app for {purpose(e.text)}" for e in apps]
        score = self._similarity(intent.text, texts)
        task = _stems(" ".join(intent.words))
        flat = intent.text.replace(" ", "")
        said = f" {norm(intent.text)} "
        for i, e in enumerate(apps):
            words = _stems(purpose(e.text))
            hits = len(task & words) + sum(1 for w in words if not w.isascii() and w in flat)
            hits += 2 * sum(f" {p} " in said for p in PHRASES.get(e.text.strip().lower(), ()))
            score[i] += 0.3 * min(hits, 4)
        order = np.argsort(-score)
        best = apps[int(order[0])]
        return Decision(Action(ActionKind.TAP, element=best.id),
                        f"'{best.text}' is the app for this task ({score[order[0]]:.2f})",
                        alternatives=tuple((Action(ActionKind.TAP, element=apps[int(j)].id),
                                            float(score[j])) for j in order[1:4]))

    def _finish(self, intent: TaskIntent, screen: Screen,
                history: Sequence[Step]) -> Decision | None:
        """The last tap did what the task's verb says ("Call", "Delete", "Sign out"): a
        confirmation that repeats it is tapped once, otherwise the task is done."""
        chosen = _SET_TO.search(intent.text)
        if chosen and history and history[-1].action.kind is ActionKind.TAP:
            # "set the screen timeout to 5 minutes": the option '5 minutes' was tapped
            want = _stems(chosen.group(1)) - STOP_WORDS
            got = _stems(_label_at(history[-1]))
            if want and want <= got and got <= _stems(intent.text) | want:
                return Decision(Action(ActionKind.STOP, done=True),
                                f"chose '{_label_at(history[-1])}'")
        verb = act_words(intent)
        if not verb:
            return None
        last = history[-1] if history else None
        if last is None or last.action.kind is not ActionKind.TAP or last.action.element is None:
            return None
        try:
            tapped = last.before.element(last.action.element)
        except KeyError:
            return None
        label = tapped.label or tapped.icon_label
        if not is_act(intent, label):
            return None
        again = [e for e in screen.elements if e.kind in TAPPABLE and e.label
                 and norm(e.label) == norm(tapped.text or label) and not in_system_bar(e, screen)
                 and e.box.iou(tapped.box) < 0.5]     # the same control again is no dialog
        repeats = 0
        for s in reversed(history):
            if s.action.kind is ActionKind.TAP and s.action.element is not None and \
                    verb <= _stems(_label_at(s)):
                repeats += 1
            else:
                break
        if again and repeats < 2:
            e = max(again, key=lambda x: (x.kind is ElementKind.BUTTON, x.box.y1))
            return Decision(Action(ActionKind.TAP, element=e.id),
                            f"confirm '{e.label}'")
        return Decision(Action(ActionKind.STOP, done=True), f"tapped '{label}'")

    def _toggle(self, intent: TaskIntent, screen: Screen,
                history: Sequence[Step]) -> Decision | None:
        if intent.switch_to is None:
            return None
        found = self._named(intent, screen, TOGGLES)
        state = "on" if intent.switch_to else "off"
        if found is None:
            return self._unverifiable_toggle(intent, screen, history, state)
        e, _ = found
        if e.checked is intent.switch_to:
            return Decision(Action(ActionKind.STOP, done=True), f"'{e.label}' is {state}")
        return Decision(Action(ActionKind.TAP, element=e.id),
                        f"turn '{e.label}' {state}")

    @staticmethod
    def _unverifiable_toggle(intent: TaskIntent, screen: Screen, history: Sequence[Step],
                             state: str) -> Decision | None:
        """The setting's row was tapped but no switch is seen to confirm it: say so and
        stop, rather than wander (honest: not claimed done)."""
        last = _tapped_labels(history[-1:])
        if not last or not history[-1].before.elements or intent.verb not in SWITCH_VERBS:
            return None
        label = last[0]
        tapped = acted_on(history[-1])
        still_there = tapped is not None and any(            # the same row, not a new title
            norm(e.label) == label and e.box.iou(tapped.box) > 0.5 for e in screen.elements)
        if still_there and _lexical(intent, label) >= 0.3:
            return Decision(Action(ActionKind.STOP),
                            f"tapped '{label}' to turn it {state}, but no switch is visible "
                            "to confirm its state")
        return None

    def _slider(self, intent: TaskIntent, screen: Screen,
                history: Sequence[Step]) -> Decision | None:
        if intent.level is None:
            return None
        found = self._named(intent, screen, {ElementKind.SEEK_BAR})
        if found is None:
            return None
        e, _ = found
        x = round(e.box.x1 + intent.level * (e.box.width - 1))
        # the ends: a little past the track (a slider clamps), so 0 % and 100 % are exact
        if intent.level >= 0.999:
            x = min(screen.width - 1, e.box.x2 + e.box.height // 4)
        elif intent.level <= 0.001:
            x = max(0, e.box.x1 - e.box.height // 4)
        last = history[-1].action if history else None
        if last is not None and last.kind is ActionKind.TAP and last.point is not None and \
                abs(last.point[0] - x) <= e.box.height and \
                e.box.y1 <= last.point[1] <= e.box.y2:
            return Decision(Action(ActionKind.STOP, done=True),
                            f"'{e.label}' set to {round(intent.level * 100)}%")
        return Decision(Action(ActionKind.TAP, point=(x, e.box.center[1])),
                        f"set '{e.label}' to {round(intent.level * 100)}%")

    def _type(self, intent: TaskIntent, screen: Screen,
              history: Sequence[Step]) -> Decision | None:
        """The next value of the command into the first field that fits it: empty
        fields first, then filled ones of a definite kind (a phone number to change)
        that this run has not typed into yet. A value a field already shows is done."""
        searching = bool(intent.words & {"search", "find", "look", "搜索"})
        typed = _typed(history)
        typed_into = {norm(field_label_of(s.before.element(s.action.element)))
                      for s in history if s.action.kind is ActionKind.TYPE
                      and s.action.element is not None
                      and s.action.element in {e.id for e in s.before.elements}}
        typed_boxes = [e.box for e in (acted_on(s) for s in history
                                       if s.action.kind is ActionKind.TYPE) if e is not None]
        empty = [f for f in _empty_fields(screen) if (searching or not is_search_field(f))
                 and not (f.kind is ElementKind.TEXT and norm(f.text) in typed_into)
                 and not any(_same_place(f.box, b) for b in typed_boxes)]
        filled = [e for e in _filled_fields(screen, intent.verb in REPLACE_VERBS)
                  if norm(field_label_of(e)) not in typed_into]
        fields = empty + filled
        pending = [p for p in value_parts(intent.values, fields, typed)
                   if not _satisfied(p[0], typed, screen)]
        for value, kind in pending:
            for f in fields:
                if _fits(kind, field_kind(f)):
                    search = is_search_field(f)
                    return Decision(Action(ActionKind.TYPE, element=f.id,
                                           text=value + ("\n" if search else ""),
                                           secret=f.password),
                                    f"type '{value}' into '{f.label or 'the field'}'"
                                    + (" and search" if search else ""))
        return None

    @staticmethod
    def _options(intent: TaskIntent, screen: Screen,
                 history: Sequence[Step]) -> Decision | None:
        """On a form (a page with fields), the options the task names: AM/PM, days of
        the week ("every weekend" -> Sat, Sun), each tapped once unless already checked."""
        if not any(e.kind is ElementKind.EDIT_TEXT for e in screen.elements):
            return None
        wanted = wanted_options(intent.text)
        if not wanted:
            return None
        tapped = set(_tapped_labels(history))
        for option in wanted:
            if option in tapped:
                continue
            hits = [e for e in screen.elements if e.kind in TAPPABLE
                    and norm(e.label) == option and not in_system_bar(e, screen)]
            if not hits:
                continue
            if any(e.checked for e in hits):
                continue
            e = min(hits, key=lambda x: (x.kind not in TOGGLES, x.kind is ElementKind.TEXT))
            return Decision(Action(ActionKind.TAP, element=e.id), f"choose '{e.label}'")
        return None

    def _confirm(self, intent: TaskIntent, screen: Screen,
                 history: Sequence[Step]) -> Decision | None:
        typed = _typed(history)
        parts = value_parts(intent.values, _empty_fields(screen) + _filled_fields(screen), typed)
        if not intent.values or not typed or not all(_satisfied(v, typed, screen)
                                                     for v, _ in parts):
            return None
        last_label = _tapped_labels(history[-1:])
        if last_label and last_label[0] in CONFIRM_WORDS:
            return Decision(Action(ActionKind.STOP, done=True), f"tapped '{last_label[0]}'")
        if _submitted(history):
            return Decision(Action(ActionKind.STOP, done=True),
                            f"searched for '{typed[-1]}'")
        buttons = [e for e in screen.elements if e.text and norm(e.text) in CONFIRM_WORDS
                   and not in_system_bar(e, screen)]
        if not buttons:
            return self._send(screen, history)
        best = max(buttons, key=lambda e: (e.kind is ElementKind.BUTTON, -e.box.y1))
        return Decision(Action(ActionKind.TAP, element=best.id),
                        f"every value is typed: tap '{best.label}'")

    @staticmethod
    def _send(screen: Screen, history: Sequence[Step]) -> Decision | None:
        """No Save/Send text on screen: the icon at the end of the typed field's row, once."""
        last = history[-1] if history else None
        if last is None or last.action.kind is not ActionKind.TYPE or last.action.element is None:
            if last is not None and last.action.kind is ActionKind.TAP and len(history) > 1 \
                    and history[-2].action.kind is ActionKind.TYPE \
                    and last.action.element is not None \
                    and not last.before.element(last.action.element).text:
                return Decision(Action(ActionKind.STOP, done=True),
                                "tapped the button next to the typed text")
            return None
        try:
            field = last.before.element(last.action.element)
        except KeyError:
            return None
        value = norm(last.action.text or "")[:12]
        near = ([e for e in screen.elements if e.kind is ElementKind.EDIT_TEXT
                 and e.box.iou(field.box) > 0.5]
                or [e for e in screen.elements if value and norm(e.text).startswith(value)]
                or [field])   # the field moves when the keyboard opens
        button = send_button(screen, near[0])
        if button is None:
            return None
        return Decision(Action(ActionKind.TAP, element=button.id),
                        "every value is typed: tap the button at the end of the field")

    def _navigate(self, intent: TaskIntent, screen: Screen, history: Sequence[Step],
                  hints: PlanHints) -> Decision:
        if intent.open_only and history and (self._title_matches(intent, screen, history)
                                             or _opened(intent, screen, history)):
            return Decision(Action(ActionKind.STOP, done=True), "the page is open")
        tapped = _tapped_labels(history)
        kb = keyboard_top(screen) or screen.height
        typed = {norm(t) for t in _typed(history)}
        els = [e for e in screen.elements if e.kind in TAPPABLE and e.label
               and not any(_retapped(e.label, t) for t in tapped)
               and e.kind is not ElementKind.EDIT_TEXT
               and (e.kind not in TOGGLES or intent.switch_to is None)
               and not e.selected and not in_system_bar(e, screen) and e.box.y1 < kb
               and not _page_title(e, screen)
               and norm(e.label) not in typed]
        creating = bool(_stems(intent.verb) & _stems(" ".join(CREATE_VERBS))) or bool(
            intent.words & {"new", "create"})
        fab = floating_button(screen, kb)
        if creating and fab is not None and "add" not in tapped and fab not in els:
            els.append(fab)
        menu = self._overflow(screen, tapped)
        recent = _recent_row(intent, screen, history, els)
        if recent is not None:
            return Decision(Action(ActionKind.TAP, element=recent.id),
                            f"'{recent.label}' is the first (most recent) item of the list")
        if els:
            texts = [describe_for_match(e, screen) if e is not fab else "add button"
                     for e in els]
            score = self._similarity(intent.where, texts)
            score += np.array([0.5 * is_act(intent, e.label) for e in els])
            named = [_stems(t) for t in intent.targets]
            score += np.array([0.3 * any(t and t <= _stems(e.label) for t in named)
                               for e in els])          # the thing the command names
            score += np.array([0.5 * _lexical(intent, e.label) + purpose_bonus(intent, e)
                               + (0.4 if creating and (norm(e.label) in CREATE_LABELS
                                                       or e is fab) else 0.0)
                               for e in els])
            score += self._demo_bonus(hints, els)
            i = int(np.argmax(score))
            if menu is not None and score[i] < 0.55 and intent.verb not in PASSIVE_VERBS:
                return menu          # "delete", "mark all": a weak match is worse than the menu
            if score[i] >= self.threshold:
                i = _row_text(els, i)
                i = _beside_named(intent, els, i)
                if els[i].kind in TOGGLES:   # open the switch's row, not flip the switch
                    e = els[i]
                    return Decision(Action(ActionKind.TAP, point=(
                        max(0, min(e.box.x1 - 1, round(screen.width * 0.3))), e.box.center[1])),
                        f"open the row of '{e.label}' ({score[i]:.2f})")
                alternatives = tuple(
                    (Action(ActionKind.TAP, element=els[j].id), float(score[j]))
                    for j in np.argsort(-score)[1:4])
                return Decision(Action(ActionKind.TAP, element=els[i].id),
                                f"'{els[i].label or 'add'}' is the closest match to the task "
                                f"({score[i]:.2f})", alternatives=alternatives)
        if menu is not None:
            return menu
        return self._fallback(history)

    @staticmethod
    def _overflow(screen: Screen, tapped: Sequence[str]) -> Decision | None:
        """An overflow menu (the three dots) or a "More ..." row not opened yet: actions
        and rarer settings hide there."""
        for e in screen.elements:
            if norm(e.icon_label or e.label) in OVERFLOW and norm(e.label) not in tapped \
                    and not in_system_bar(e, screen):
                return Decision(Action(ActionKind.TAP, element=e.id),
                                "nothing here matches the task: open the menu")
        for e in screen.elements:       # "More security & privacy", "Advanced"
            if e.kind is ElementKind.TEXT and norm(e.text).split()[:1] in (
                    ["more"], ["advanced"], ["additional"]) and norm(e.label) not in tapped:
                return Decision(Action(ActionKind.TAP, element=e.id),
                                f"nothing here matches the task: look in '{e.text}'")
        return None

    def _fallback(self, history: Sequence[Step]) -> Decision:
        recent = [s.action.kind for s in history[-(self.max_scrolls + 1):]]
        scrolls = 0
        for kind in reversed(recent):
            if kind is not ActionKind.SCROLL:
                break
            scrolls += 1
        if scrolls < self.max_scrolls:
            return Decision(Action(ActionKind.SCROLL, direction=Direction.DOWN),
                            "nothing here matches the task: look further down")
        backs = sum(1 for s in history if s.action.kind is ActionKind.BACK)
        if backs < 2 and history:
            return Decision(Action(ActionKind.BACK), "nothing on this page matches: go back")
        return Decision(Action(ActionKind.STOP), "no element matches the task")

    # --- helpers ---------------------------------------------------------------------------
    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of ``texts``, each text encoded once per planner."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, vector in zip(missing, self._encode(missing), strict=True):
                self._cache[text] = vector
        return np.stack([self._cache[t] for t in texts])

    def _similarity(self, task: str, texts: Sequence[str]) -> np.ndarray:
        vectors = self.encode([task, *texts])
        return np.asarray(vectors[1:] @ vectors[0], dtype=np.float64)

    def _title_matches(self, intent: TaskIntent, screen: Screen,
                       history: Sequence[Step] = ()) -> bool:
        """A title near the top names the page the task asks for; for a question
        ("what is", "check", "show") a line anywhere on the page that names what is
        asked for in two or more of the task's words ("Android version"). An app's name
        alone ("Shop") only counts when the task names nothing but the app: "open my
        order history in the Shop app" is not done on the Shop's home page."""
        texts = [e for e in screen.reading_order() if e.kind is ElementKind.TEXT]
        top = [e for e in texts if e.box.y1 < viewport(screen) * 0.15]
        wanted = _stems(" ".join(intent.words)) - APP_NAMES
        titles = [e for e in top[:3] if _lexical(intent, e.text) >= 0.99
                  and (not wanted or bool(_stems(e.text) - APP_NAMES))]
        if titles:
            return not _more_to_open(intent, screen, history, titles[0].text)
        if intent.verb not in QUESTION_VERBS or (history and is_app(_label_at(history[-1]))):
            return False        # an app's first page lists things to open, not answers
        return any(len(_stems(e.text) - APP_NAMES) >= 2 and _lexical(intent, e.text) >= 0.99
                   for e in texts)

    @staticmethod
    def _demo_bonus(hints: PlanHints, els: Sequence[Element]) -> np.ndarray:
        bonus = np.zeros(len(els))
        steps = [norm(s) for d in hints.demonstrations for s in d.steps]
        for i, e in enumerate(els):
            label = norm(e.label)
            if label and any(f"'{label}'" in s or f" {label} " in f" {s} " for s in steps):
                bonus[i] = 0.5
        return bonus
