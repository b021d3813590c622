"""The offline planner's class: a command worked part by part, each turn the first
rule that has something to do (see the package docstring for the rules)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from screenpilot.language import parse_command
from screenpilot.language.apps import PHRASES, is_app, named_app, purpose
from screenpilot.language.fields import TOGGLES
from screenpilot.language.taskparse import TaskIntent, norm, parse_task
from screenpilot.language.words import lexical, stems, task_stems
from screenpilot.model import Action, ActionKind, BlockKind, Element, ElementKind, Screen, Step
from screenpilot.planner.base import Decision, PlanHints
from screenpilot.planner.demos import TAPPABLE, demo_fits, demo_progress
from screenpilot.planner.encoding import CachedEncoder, Encoder
from screenpilot.planner.forms import in_system_bar
from screenpilot.planner.offline.acts import finish_act
from screenpilot.planner.offline.alarm import new_alarm
from screenpilot.planner.offline.demo import follow
from screenpilot.planner.offline.fill import (
    choose_attribute,
    choose_options,
    confirm_values,
    type_value,
)
from screenpilot.planner.offline.narrow import narrow_search, open_result
from screenpilot.planner.offline.navigate import navigate
from screenpilot.planner.offline.stepper import set_quantity
from screenpilot.planner.offline.steps import acted_on, tapped_labels
from screenpilot.planner.offline.timer import set_timer
from screenpilot.planner.offline.world import add_city

#: First words of commands that flip a setting ("start the stopwatch" does not).
SWITCH_VERBS = frozenset(
    {"turn", "switch", "enable", "disable", "toggle", "activate", "deactivate", "put"}
)
#: A phone in portrait is at least about this tall for its width (16:9 is 1.78). A
#: shorter screen (a phone on its side, a foldable, a tablet) shows less of a page at a
#: time, so it gets proportionally more scrolls before a page counts as looked through.
PORTRAIT_ASPECT = 1.7


def scroll_budget(screen: Screen, max_scrolls: int) -> int:
    """Scrolls in a row before the planner leaves a page: ``max_scrolls`` on a phone in
    portrait, more on a screen that shows less of a page (its height against its short
    side, the dp it shows, under ``PORTRAIT_ASPECT``)."""
    aspect = screen.height / min(screen.width, screen.height)
    if aspect >= PORTRAIT_ASPECT:
        return max_scrolls
    return math.ceil(max_scrolls * PORTRAIT_ASPECT / aspect)


_THEN = re.compile(r"\s*(?:,\s*(?:and\s+)?then\b|;|\band then\b|\bthen\b|，然后|然后)\s*", re.I)
_AND = re.compile(r",?\s+and\s+(?=(?:turn|switch|enable|disable|put)\b)", re.I)


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


class HeuristicPlanner:
    """Offline planner (see the package docstring); ``encode`` embeds texts, normalised."""

    name = "heuristic"

    def __init__(
        self, encode: Encoder, *, threshold: float = 0.35, max_scrolls: int = 2, max_steps: int = 20
    ) -> None:
        self._vectors = CachedEncoder(encode)
        self.threshold = threshold
        self.max_scrolls = max_scrolls
        self.max_steps = max_steps

    def next(
        self, task: str, screen: Screen, history: Sequence[Step], *, hints: PlanHints | None = None
    ) -> Decision:
        # what lies under an open dialog's or drawer's scrim, or around a popup menu, is
        # shown but not reachable: a tap there closes the dialog, drawer or menu
        full, screen = screen, screen.in_front()
        command = parse_command(task)
        if command.question:  # "turn it off" with nothing named: ask, do not guess
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
        scrolls = scroll_budget(screen, self.max_scrolls)
        demo = hints.demonstrations[0] if hints.demonstrations else None
        if demo is not None and not demo_fits(intent, demo.steps):
            demo = None  # it switches or sets another setting than the task names
        if demo is not None:
            followed = follow(intent, screen, history, demo, scrolls)
            if followed is not None:
                return followed
        for rule in (
            self._launcher,
            set_timer,
            add_city,
            new_alarm,
            self._slider,
            set_quantity,
            self._toggle,
            narrow_search,
            open_result,
            type_value,
            choose_options,
            choose_attribute,
            confirm_values,
            finish_act,
        ):
            decision = rule(intent, screen, history)
            if decision is not None:
                return decision
        if demo is not None and history and demo_progress(demo.steps, history) >= len(demo.steps):
            return Decision(
                Action(ActionKind.STOP, done=True),
                f"every step of the demonstration '{demo.instruction}' is done",
            )
        decision = navigate(
            intent,
            screen,
            history,
            hints,
            similarity=self.similarity,
            threshold=self.threshold,
            max_scrolls=scrolls,
        )
        if decision.action.kind is not ActionKind.TAP and full is not screen:
            closing = self._behind(intent, full, history, hints, scrolls)
            if closing is not None:
                return closing
        return decision

    def _behind(
        self,
        intent: TaskIntent,
        full: Screen,
        history: Sequence[Step],
        hints: PlanHints,
        scrolls: int,
    ) -> Decision | None:
        """Back, when nothing in front of an open dialog, drawer or menu fits the task
        but something behind it does: a tap there would only close it, so close it."""
        behind = full.behind()
        found = navigate(
            intent,
            full,
            history,
            hints,
            similarity=self.similarity,
            threshold=self.threshold,
            max_scrolls=scrolls,
        )
        element = found.action.element
        if found.action.kind is not ActionKind.TAP or element not in behind:
            return None
        what = next((b.caption for b in full.blocks if b.kind is BlockKind.BEHIND), "") or "dialog"
        label = full.element(element).label if element is not None else ""
        return Decision(Action(ActionKind.BACK), f"'{label}' lies behind the {what}: close it")

    def _switched(self, intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> bool:
        """Whether a screen of this run showed the switch ``intent`` names as wished."""
        if intent.switch_to is None:
            return False
        for shown in (*(s.before for s in history), screen):
            found = self._named(intent, shown, TOGGLES)
            if found is not None and found[0].checked is intent.switch_to:
                return True
        return False

    def _named(
        self, intent: TaskIntent, screen: Screen, kinds: set[ElementKind]
    ) -> tuple[Element, float] | None:
        els = [e for e in screen.elements if e.kind in kinds and (e.label or e.caption)]
        if not els:
            return None
        sims = self.similarity(intent.where, [e.label or e.caption for e in els])
        lex = np.array([lexical(intent, e.label or e.caption) for e in els])
        score = sims + lex
        i = int(np.argmax(score))
        return (els[i], float(score[i])) if score[i] >= self.threshold + 0.25 else None

    def _launcher(
        self, intent: TaskIntent, screen: Screen, history: Sequence[Step]
    ) -> Decision | None:
        """On a home screen (three or more app names in view) open the app the task
        names, else the app whose purpose fits the task best and was not tried yet."""
        apps = [
            e
            for e in screen.elements
            if e.kind in TAPPABLE and e.text and is_app(e.text) and not in_system_bar(e, screen)
        ]
        if len({norm(e.text) for e in apps}) < 3:
            return None
        tried = set(tapped_labels(history))
        named = named_app(intent.text, [e.text for e in apps])
        if named is not None and norm(named) not in tried:
            e = next(e for e in apps if e.text == named)
            return Decision(Action(ActionKind.TAP, element=e.id), f"the task names '{e.text}'")
        apps = [e for e in apps if norm(e.text) not in tried]
        if not apps:
            return None
        texts = [f"{e.text} app for {purpose(e.text)}" for e in apps]
        score = self.similarity(intent.text, texts)
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
        return Decision(
            Action(ActionKind.TAP, element=best.id),
            f"'{best.text}' is the app for this task ({score[order[0]]:.2f})",
            alternatives=tuple(
                (Action(ActionKind.TAP, element=apps[int(j)].id), float(score[j]))
                for j in order[1:4]
            ),
        )

    def _toggle(
        self, intent: TaskIntent, screen: Screen, history: Sequence[Step]
    ) -> Decision | None:
        if intent.switch_to is None:
            return None
        found = self._named(intent, screen, TOGGLES)
        state = "on" if intent.switch_to else "off"
        if found is None:
            return self._unverifiable_toggle(intent, screen, history, state)
        e, _ = found
        if e.checked is intent.switch_to:
            return Decision(Action(ActionKind.STOP, done=True), f"'{e.label}' is {state}")
        return Decision(Action(ActionKind.TAP, element=e.id), f"turn '{e.label}' {state}")

    @staticmethod
    def _unverifiable_toggle(
        intent: TaskIntent, screen: Screen, history: Sequence[Step], state: str
    ) -> Decision | None:
        """The setting's row was tapped but no switch is seen to confirm it: say so and
        stop, rather than wander (honest: not claimed done)."""
        last = tapped_labels(history[-1:])
        if not last or not history[-1].before.elements or intent.verb not in SWITCH_VERBS:
            return None
        label = last[0]
        tapped = acted_on(history[-1])
        still_there = tapped is not None and any(  # the same row, not a new title
            norm(e.label) == label and e.box.iou(tapped.box) > 0.5 for e in screen.elements
        )
        if still_there and lexical(intent, label) >= 0.3:
            return Decision(
                Action(ActionKind.STOP),
                f"tapped '{label}' to turn it {state}, but no switch is visible "
                "to confirm its state",
            )
        return None

    def _slider(
        self, intent: TaskIntent, screen: Screen, history: Sequence[Step]
    ) -> Decision | None:
        if intent.level is None:
            return None
        found = self._named(intent, screen, {ElementKind.SEEK_BAR})
        if found is None:
            return None
        e, _ = found
        cy = e.box.center[1]
        last = history[-1].action if history else None
        if intent.level >= 0.999 or intent.level <= 0.001:
            return self._slider_end(e, intent.level >= 0.999, screen, last)
        x = round(e.box.x1 + intent.level * (e.box.width - 1))
        if (
            last is not None
            and last.kind is ActionKind.TAP
            and last.point is not None
            and abs(last.point[0] - x) <= e.box.height
            and e.box.y1 <= last.point[1] <= e.box.y2
        ):
            return Decision(
                Action(ActionKind.STOP, done=True),
                f"'{e.label}' set to {round(intent.level * 100)}%",
            )
        return Decision(
            Action(ActionKind.TAP, point=(x, cy)),
            f"set '{e.label}' to {round(intent.level * 100)}%",
        )

    @staticmethod
    def _slider_end(e: Element, high: bool, screen: Screen, last: Action | None) -> Decision:
        """0 % or 100 %: a drag from inside the slider to past its end (a slider clamps,
        and follows a finger that went down on it), whatever padding its box holds."""
        cy = e.box.center[1]
        end_x = (
            min(screen.width - 1, e.box.x2 + e.box.height)
            if high
            else max(0, e.box.x1 - e.box.height)
        )
        level = "100%" if high else "0%"
        if (
            last is not None
            and last.kind is ActionKind.SWIPE
            and last.start is not None
            and last.end is not None
            and e.box.y1 <= last.start[1] <= e.box.y2
            and (last.end[0] >= e.box.x2 if high else last.end[0] <= e.box.x1)
        ):
            return Decision(Action(ActionKind.STOP, done=True), f"'{e.label}' set to {level}")
        return Decision(
            Action(ActionKind.SWIPE, start=e.box.center, end=(end_x, cy), duration_ms=400),
            f"set '{e.label}' to {level}: drag it past its end",
        )

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of ``texts``, each text encoded once per planner."""
        return self._vectors(texts)

    def similarity(self, task: str, texts: Sequence[str]) -> np.ndarray:
        """Cosine similarity of each of ``texts`` to ``task``."""
        return self._vectors.similarity(task, texts)
