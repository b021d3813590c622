"""The offline planner: no LLM, just embeddings, the screen and what was done so far.

Each turn it considers what can be done on this screen and picks the best:

0. on a home screen (three or more app names in view) -> open the app the task names
   ("in the Shop app"), else the app whose purpose fits it (language/apps.py: "ring
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
   "Add to cart"; not a way to it like "Import from file" or the cart icon) -> a
   confirmation that repeats it is tapped once, then stop, done; "set the screen
   timeout to 5 minutes" is done once '5 minutes' was tapped;
7. otherwise tap the element whose description (its label, kind and block caption,
   and for apps and common entries what they are for) is most similar to the task
   (the texts to type left out), never the same label twice, never the status bar,
   the keyboard, the page's title or the selected tab. The act's own control and
   what the command names ("the Smart Watch") score higher; of several alike
   controls ("Remove" on every cart row) the one after the named item is taken; a
   floating "+" counts as "add" for commands that create; "the most recent message"
   is the first row; for commands that act (delete, mark) a weak match loses to an
   unopened overflow menu; a switch's row is opened beside the switch when the
   command does not flip it; an "open" or "what is" command is done once the page
   it names is open and nothing on it names more of the command;
8. nothing similar enough -> the overflow menu or a "More ..." row, then scroll down
   (twice at most), then go back, then give up (honestly: not done). A switch row
   tapped without a switch to confirm its state also ends the run as not done.

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

import numpy as np

from screenpilot.language import parse_command
from screenpilot.language.apps import PHRASES, app_names, is_app, named_app, purpose
from screenpilot.language.fields import TOGGLES, field_kind, fits, typed_values
from screenpilot.language.keyboard import keyboard_top
from screenpilot.language.taskparse import STOP_WORDS, TaskIntent, norm, parse_task
from screenpilot.language.words import APP_NAMES, lexical, stems, task_stems
from screenpilot.model import (
    Action,
    ActionKind,
    BlockKind,
    Box,
    Demonstration,
    Direction,
    Element,
    ElementKind,
    Screen,
    Step,
)
from screenpilot.planner.base import Decision, PlanHints
from screenpilot.planner.demos import (
    TAPPABLE,
    DemoStep,
    demo_fits,
    demo_progress,
    field_label_of,
    find_target,
    parse_step,
    said,
    same_label,
)
from screenpilot.planner.forms import (
    CONFIRM_WORDS,
    CREATE_LABELS,
    empty_fields,
    filled_fields,
    floating_button,
    in_system_bar,
    is_page_title,
    is_search_field,
    satisfied,
    send_button,
    value_parts,
    viewport,
    wanted_options,
)

Encoder = Callable[[Sequence[str]], np.ndarray]


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
    return 0.4 if task_stems(intent) & stems(what) else 0.0


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
#: Verbs whose own control ends a task ("Call", "Delete", "Sign out", "Add to cart").
ACT_VERBS = frozenset({"call", "dial", "phone", "ring", "delete", "remove", "erase",
                       "sign out", "log out", "mark all", "add", "start", "stop", "pause",
                       "resume", "apply", "import",
                       "export", "send", "reply", "save", "share", "block", "unblock",
                       "archive", "star", "buy", "order", "cancel", "clear", "install",
                       "uninstall", "download", "print", "reset", "restore", "rename",
                       "copy", "move", "play", "follow", "like", "subscribe", "book",
                       "create", "add to cart", "mute", "unmute", "accept", "decline"})
#: First words of commands that replace a value that is there.
REPLACE_VERBS = frozenset({"change", "edit", "update", "replace", "correct", "set", "modify"})
#: Icon labels of overflow menus.
OVERFLOW = frozenset({"more vert", "more options", "dots vertical", "more", "menu",
                      "more horiz", "dots horizontal", "overflow", "更多"})
CREATE_VERBS = frozenset({"add", "create", "new", "set", "make", "start", "compose", "write",
                          "send"})
CREATE_STEMS = frozenset(stems(" ".join(CREATE_VERBS)))
#: App names as labels read them ("Contacts" tapped is a launch, never the act).
APP_LABELS = frozenset(norm(a) for a in app_names())


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


_GIVE_A = re.compile(r"\b(?:give|make|place)\b.*?\ba (call)\b", re.I)


def act_words(intent: TaskIntent) -> set[str]:
    """The stems a control that does what the command asks carries: its verb ("call",
    "sign out"); "add X to my cart" -> add + cart; "to my favorites" -> star."""
    given = _GIVE_A.search(intent.text)                        # "give Bob a call"
    named = intent.verb if intent.verb in ACT_VERBS else given.group(1).lower() if given else ""
    if not named:
        return set()                   # "David Kim has a new number": no act is named
    verb = stems(named)
    onto = _ADD_TO.search(intent.text)
    if onto:
        listed = stems(onto.group(1))
        verb = listed if "star" in listed else verb | listed
    return verb


def is_act(intent: TaskIntent, label: str) -> bool:
    """Whether a control labelled so is the act itself ("Call", "Add to cart"), not a
    way to it ("Import from file", the cart icon)."""
    verb = act_words(intent)
    words = stems(label) - STOP_WORDS
    task = task_stems(intent) | verb
    return bool(verb) and verb <= words and words <= task and norm(label) not in APP_LABELS


def _label_at(step: Step) -> str:
    """The label (or icon label) of the element a step acted on by its id ("" when none,
    or when it acted on a point)."""
    e = acted_on(step) if step.action.element is not None else None
    return (e.label or e.icon_label) if e is not None else ""


def _submitted(history: Sequence[Step]) -> bool:
    """Whether the last step typed a value and pressed Enter (a search)."""
    last = history[-1].action if history else None
    return bool(last and last.kind is ActionKind.TYPE and (last.text or "").endswith("\n"))


_THEN = re.compile(r"\s*(?:,\s*(?:and\s+)?then\b|;|\band then\b|\bthen\b|，然后|然后)\s*",
                   re.I)
_AND = re.compile(r",?\s+and\s+(?=(?:turn|switch|enable|disable|put)\b)", re.I)


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


_PRICE_LIKE = re.compile(r"^[\s$€£¥(]*[\d.,]+[\s)%]*$|^[$€£¥]")


def _nth_item(intent: TaskIntent, screen: Screen, history: Sequence[Step],
              els: Sequence[Element]) -> Element | None:
    """"The second product", "the last contact": on an app's first page, the item at that
    position of the list: the items are the pictured rows (an image or icon with its
    name beside or under it), in reading order; the name is what is tapped."""
    if intent.ordinal is None or not history or not is_app(_label_at(history[-1])):
        return None
    top = viewport(screen) * 0.1
    bars = {BlockKind.TAB_BAR, BlockKind.TOOLBAR, BlockKind.STATUS_BAR,
            BlockKind.NAVIGATION_BAR, BlockKind.KEYBOARD}
    pictures = [e for e in screen.elements if e.kind in (ElementKind.IMAGE, ElementKind.ICON)
                and e.box.y1 > top and not in_system_bar(e, screen)
                and (e.block_id is None or screen.block(e.block_id).kind not in bars)]
    named = []
    for pic in pictures:
        beside = [e for e in els if e.kind is ElementKind.TEXT and len(e.text) >= 3
                  and not _PRICE_LIKE.match(e.text) and not _TIME_LIKE.match(e.text.strip())
                  and ((abs(e.box.center[1] - pic.box.center[1]) < pic.box.height * 0.6
                       and e.box.x1 >= pic.box.x2 - 4)
                       or (e.box.y1 >= pic.box.y2 - 4 and e.box.y1 - pic.box.y2 < pic.box.height
                       and e.box.x1 < pic.box.x2 and e.box.x2 > pic.box.x1))]
        if beside:
            named.append((pic, min(beside, key=lambda e: (e.box.y1, e.box.x1))))
    if not named:
        return None
    named.sort(key=lambda pe: (pe[0].box.y1 // max(1, pe[0].box.height // 2), pe[0].box.x1))
    k = intent.ordinal
    if k == -1:
        return named[-1][1]
    return named[k - 1][1] if 0 < k <= len(named) else None


def _same_place(a: Box, b: Box) -> bool:
    """Whether two boxes are one field as seen on two screens (its hint, then its text)."""
    cx, cy = b.center
    return a.iou(b) > 0.3 or (a.x1 <= cx <= a.x2 and a.y1 <= cy <= a.y2)


_ATTRIBUTE = re.compile(r"\b(size|colou?r|storage|capacity)\s+([\w.]+)", re.I)


def _asks(screen: Screen) -> bool:
    """Whether the screen asks to confirm: a dialog, or a question ("Delete this
    conversation?")."""
    return any(b.kind is BlockKind.DIALOG for b in screen.blocks) or any(
        e.kind is ElementKind.TEXT and e.text.strip().endswith(("?", "？"))
        for e in screen.elements)


def _beside_named(intent: TaskIntent, els: Sequence[Element], i: int) -> int:
    """Of several controls with the chosen label ("Remove" on every cart row), the first
    one after what the task names ("the coffee mug")."""
    same = [j for j, e in enumerate(els) if norm(e.label) == norm(els[i].label)]
    if len(same) < 2:
        return i
    task = task_stems(intent) - APP_NAMES - act_words(intent)
    named = [e for e in els if (w := stems(e.label) - APP_NAMES) and w <= task
             and norm(e.label) != norm(els[i].label)]
    if not named:
        return i
    most = max(len(stems(e.label)) for e in named)      # the most specific: 'Coffee Mug'
    named = [e for e in named if len(stems(e.label)) == most]
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
    if len(parts) > 1:
        return parts
    # "Disable Wi-Fi and turn Bluetooth on": split at "and" only between two switches
    parts = [p.strip(" ,.") for p in _AND.split(task) if p and p.strip(" ,.")]
    if len(parts) > 1 and all(parse_task(p).switch_to is not None for p in parts):
        return parts
    return [task]


def _opened(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> bool:
    """The last tap opened what an "open ..." task names: its label uses only the
    task's words, and nothing on the new page names a task word not reached yet
    ("Orders" opens "my order history"; for "my Yoga Mat order" the 'Yoga Mat' row
    is still to open)."""
    last = history[-1] if history else None
    if last is None or last.action.kind is not ActionKind.TAP or \
            lexical(intent, _label_at(last)) < 0.99:
        return False
    return not _more_to_open(intent, screen, history)


def _more_to_open(intent: TaskIntent, screen: Screen, history: Sequence[Step],
                  title: str = "") -> bool:
    """Whether an element on the screen names task words that no tap of the run (nor
    the page's ``title``) named yet."""
    task = task_stems(intent) - APP_NAMES
    covered: set[str] = stems(title)
    for s in history:
        if s.action.kind is ActionKind.TAP:
            covered |= stems(_label_at(s))
    top = viewport(screen) * 0.1        # the toolbar: the page's own title, its icons
    for e in screen.elements:
        if e.kind in TAPPABLE and e.label and not in_system_bar(e, screen) and e.box.y2 > top:
            words = stems(e.label) - APP_NAMES
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
        command = parse_command(task)
        if command.question:        # "turn it off" with nothing named: ask, do not guess
            return Decision(Action(ActionKind.STOP), command.question)
        task = command.canonical
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
                     self._attribute, self._confirm, self._finish):
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
            if step.secret or not step.value or not said(step.value, intent.text):
                return None        # a secret, or another task's value: the type rule decides
            if step.value in typed_values(history):
                return None
            fields = [f for f in empty_fields(screen) if same_label(field_label_of(f), step.label)]
            fields = fields or [e for e in screen.elements if e.kind is ElementKind.EDIT_TEXT
                                and same_label(field_label_of(e), step.label)]
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
        lex = np.array([lexical(intent, e.label or e.caption) for e in els])
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
        task = task_stems(intent)
        flat = intent.text.replace(" ", "")
        spoken = f" {norm(intent.text)} "
        for i, e in enumerate(apps):
            words = stems(purpose(e.text))
            hits = len(task & words) + sum(1 for w in words if not w.isascii() and w in flat)
            hits += 2 * sum(f" {p} " in spoken for p in PHRASES.get(e.text.strip().lower(), ()))
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
            want = stems(chosen.group(1)) - STOP_WORDS
            got = stems(_label_at(history[-1]))
            if want and want <= got and got <= stems(intent.text) | want:
                return Decision(Action(ActionKind.STOP, done=True),
                                f"chose '{_label_at(history[-1])}'")
        verb = act_words(intent)
        typed = typed_values(history)
        if not verb or (verb & CREATE_STEMS and any(
                not satisfied(v, typed, screen) for v in intent.values)):
            return None                # "Create contact" opens the form; values are to come
        last = history[-1] if history else None
        if last is None or last.action.kind is not ActionKind.TAP or last.action.element is None:
            return None
        tapped = acted_on(last)
        if tapped is None:
            return None
        label = tapped.label or tapped.icon_label
        if not is_act(intent, label):
            return None
        again = [e for e in screen.elements if e.kind in TAPPABLE and e.label
                 and norm(e.label) == norm(tapped.text or label) and not in_system_bar(e, screen)
                 and e.box.iou(tapped.box) < 0.5]     # the same control again is no dialog
        if not _asks(screen):
            again = []                 # another row's "Remove" is no confirmation either
        repeats = 0
        for s in reversed(history):
            if s.action.kind is ActionKind.TAP and s.action.element is not None and \
                    verb <= stems(_label_at(s)):
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
        if still_there and lexical(intent, label) >= 0.3:
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
        typed = typed_values(history)
        typed_on = [e for e in (acted_on(s) for s in history
                                if s.action.kind is ActionKind.TYPE and s.action.element
                                is not None) if e is not None]
        typed_into = {norm(field_label_of(e)) for e in typed_on}
        typed_boxes = [e.box for e in typed_on]
        empty = [f for f in empty_fields(screen) if (searching or not is_search_field(f))
                 and not (f.kind is ElementKind.TEXT and norm(f.text) in typed_into)
                 and not any(_same_place(f.box, b) for b in typed_boxes)]
        filled = [e for e in filled_fields(screen, intent.verb in REPLACE_VERBS)
                  if norm(field_label_of(e)) not in typed_into]
        fields = empty + filled
        pending = [p for p in value_parts(intent.values, fields, typed)
                   if not satisfied(p[0], typed, screen)]
        for value, kind in pending:
            for f in fields:
                if fits(kind, field_kind(f)):
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

    @staticmethod
    def _attribute(intent: TaskIntent, screen: Screen,
                   history: Sequence[Step]) -> Decision | None:
        """"in size 10": open the 'Size 9' chooser, then tap '10' in it (once each)."""
        m = _ATTRIBUTE.search(intent.text)
        if m is None:
            return None
        name, value = norm(m.group(1)), norm(m.group(2))
        chooser = [e for e in screen.elements if e.kind in TAPPABLE
                   and norm(e.label).startswith(name + " ") and not in_system_bar(e, screen)]
        if any(norm(e.label) == f"{name} {value}" for e in chooser):
            return None                                     # chosen already
        last = norm(_label_at(history[-1])) if history else ""
        if last.startswith(name + " "):                     # the chooser is open
            options = [e for e in screen.elements if e.kind in TAPPABLE
                       and norm(e.label) == value]
            if options:
                return Decision(Action(ActionKind.TAP, element=options[0].id),
                                f"choose {name} '{options[0].label}'")
        tapped = set(_tapped_labels(history))
        if chooser and norm(chooser[0].label) not in tapped:
            return Decision(Action(ActionKind.TAP, element=chooser[0].id),
                            f"open '{chooser[0].label}' to choose {name} {m.group(2)}")
        return None

    def _confirm(self, intent: TaskIntent, screen: Screen,
                 history: Sequence[Step]) -> Decision | None:
        typed = typed_values(history)
        parts = value_parts(intent.values, empty_fields(screen) + filled_fields(screen), typed)
        if not intent.values or not typed or not all(satisfied(v, typed, screen)
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
            button = acted_on(last) if last is not None and last.action.element is not None \
                else None
            if button is not None and last is not None and last.action.kind is ActionKind.TAP \
                    and len(history) > 1 and history[-2].action.kind is ActionKind.TYPE \
                    and not button.text:
                return Decision(Action(ActionKind.STOP, done=True),
                                "tapped the button next to the typed text")
            return None
        field = acted_on(last)
        if field is None:
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
        typed = {norm(t) for t in typed_values(history)}
        els = [e for e in screen.elements if e.kind in TAPPABLE and e.label
               and not any(_retapped(e.label, t) for t in tapped)
               and e.kind is not ElementKind.EDIT_TEXT
               and (e.kind not in TOGGLES or intent.switch_to is None)
               and not e.selected and not in_system_bar(e, screen) and e.box.y1 < kb
               and not is_page_title(e, screen)
               and norm(e.label) not in typed]
        creating = bool(stems(intent.verb) & CREATE_STEMS) or bool(
            intent.words & {"new", "create"})
        fab = floating_button(screen, kb)
        if creating and fab is not None and "add" not in tapped and fab not in els:
            els.append(fab)
        menu = self._overflow(screen, tapped)
        nth = _nth_item(intent, screen, history, els)
        if nth is not None:
            return Decision(Action(ActionKind.TAP, element=nth.id),
                            f"'{nth.label}' is item {intent.ordinal} of the list")
        recent = _recent_row(intent, screen, history, els)
        if recent is not None:
            return Decision(Action(ActionKind.TAP, element=recent.id),
                            f"'{recent.label}' is the first (most recent) item of the list")
        if els:
            texts = [describe_for_match(e, screen) if e is not fab else "add button"
                     for e in els]
            score = self._similarity(intent.where, texts)
            score += np.array([0.5 * is_act(intent, e.label) for e in els])
            named = [stems(t) for t in intent.targets]
            score += np.array([0.3 * any(t and t <= stems(e.label) for t in named)
                               for e in els])          # the thing the command names
            score += np.array([0.5 * lexical(intent, e.label) + purpose_bonus(intent, e)
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
        wanted = task_stems(intent) - APP_NAMES
        titles = [e for e in top[:3] if lexical(intent, e.text) >= 0.99
                  and (not wanted or bool(stems(e.text) - APP_NAMES))]
        if titles:
            return not _more_to_open(intent, screen, history, titles[0].text)
        if intent.verb not in QUESTION_VERBS or (history and is_app(_label_at(history[-1]))):
            return False        # an app's first page lists things to open, not answers
        return any(len(stems(e.text) - APP_NAMES) >= 2 and lexical(intent, e.text) >= 0.99
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
