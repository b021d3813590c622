"""The offline safety check: a screen's category from its widgets, words and value
patterns (``KeywordSafety``), an action's from what tapping or typing would do."""

from __future__ import annotations

import re
from dataclasses import dataclass

from screenpilot.model import (
    Action,
    ActionKind,
    Element,
    ElementKind,
    Screen,
    SensitiveCategory,
    Sensitivity,
)
from screenpilot.planner.safety.text import found, matches, normalise
from screenpilot.planner.safety.widgets import password_fields, screen_texts, secret_label
from screenpilot.planner.safety.words import (
    ACTION_WORDS,
    CONFIRM_WORDS,
    CONSEQUENCE,
    MIN_WORDS,
    PATTERNS,
    PRIORITY,
    SCREEN_WORDS,
)

C = SensitiveCategory


@dataclass(frozen=True, slots=True)
class Evidence:
    """Everything the keyword check found: categories that reach their minimum
    (``strong``) and those one hit short of it (``weak``)."""

    strong: dict[SensitiveCategory, list[str]]
    weak: dict[SensitiveCategory, list[str]]
    secure: bool = False


@dataclass(frozen=True)
class KeywordSafety:
    """The offline safety check (the run loop's ``SafetyCheck``): widgets, words, patterns.

    ``secure_category`` is the category of a screen that hides its content
    (nothing on it says which; the run loop refines it from the step that led there).
    """

    secure_category: SensitiveCategory = C.PAYMENT

    def evidence(self, screen: Screen) -> Evidence:
        """What on this screen points at each category."""
        strong: dict[SensitiveCategory, list[str]] = {}
        weak: dict[SensitiveCategory, list[str]] = {}
        fields = password_fields(screen)
        if fields:
            strong[C.AUTHENTICATION] = [f"password field [{e.id}]" for e in fields]
        texts = screen_texts(screen)
        for category, words in SCREEN_WORDS.items():
            hits = [f"'{w}' on screen" for w in found(texts, words)]
            for name, pattern in PATTERNS.get(category, ()):
                if any(pattern.search(t) for t in texts):
                    hits.append(f"{name} on screen")
            if len(hits) >= MIN_WORDS.get(category, 1):
                strong.setdefault(category, []).extend(hits)
            elif hits and category not in strong:
                weak[category] = hits
        return Evidence(strong, weak, screen.secure)

    def screen(self, screen: Screen) -> Sensitivity:
        """The category of a screen, with the evidence."""
        return self.decide(self.evidence(screen))

    def decide(self, ev: Evidence) -> Sensitivity:
        if ev.secure:
            return Sensitivity(
                self.secure_category,
                (
                    "the screen hides its content from screenshots (FLAG_SECURE), "
                    "as payment, banking and PIN screens do",
                ),
                0.9,
            )
        if not ev.strong:
            return Sensitivity()
        # the category with the most evidence; ties go by PRIORITY
        category = max(
            (c for c in PRIORITY if c in ev.strong),
            key=lambda c: (len(ev.strong[c]), -PRIORITY.index(c)),
        )
        score = min(1.0, 0.5 + 0.15 * len(ev.strong[category]))
        others = [
            f"also {c.value}: {'; '.join(ev.strong[c])}"
            for c in PRIORITY
            if c in ev.strong and c is not category
        ]
        return Sensitivity(category, (*ev.strong[category], *others), score)

    def action(self, action: Action, screen: Screen) -> Sensitivity:
        """The category of an action on this screen (typing a secret, tapping 'Pay')."""
        target = _target(action, screen)
        if action.kind is ActionKind.TYPE and (
            action.secret
            or (
                target is not None
                and (target in password_fields(screen) or secret_label(target, screen))
            )
        ):
            return Sensitivity(C.AUTHENTICATION, ("typing into a password field",), 1.0)
        if action.kind is ActionKind.TYPE and target is None and password_fields(screen):
            return Sensitivity(
                C.AUTHENTICATION,
                ("typing into the focused field of a screen with a password field",),
                1.0,
            )
        if action.kind is ActionKind.TYPE and _looks_like_card(action.text or ""):
            return Sensitivity(C.PAYMENT, ("typing a card number",), 1.0)
        if action.kind not in (ActionKind.TAP, ActionKind.LONG_PRESS) or target is None:
            return Sensitivity()
        label = " ".join(t for t in (target.text, target.caption, target.icon_label) if t)
        if not label or target.kind is ElementKind.EDIT_TEXT:
            return Sensitivity()
        for category in PRIORITY:
            words = ACTION_WORDS.get(category, ())
            hits = [w for w in words if matches(label, w) and len(label) <= 3 * len(w) + 12]
            if hits:
                why = f"tapping '{label}' would {CONSEQUENCE[category]}"
                return Sensitivity(category, (why,), 1.0)
        return self._confirm_in_dialog(label, screen)

    def _confirm_in_dialog(self, label: str, screen: Screen) -> Sensitivity:
        """'Delete' or 'OK' on a screen that is itself sensitive confirms what it asks."""
        word = re.sub(r"[^\w ]+", "", normalise(label)).strip()
        if word not in CONFIRM_WORDS:
            return Sensitivity()
        sens = self.screen(screen)
        if sens.category in (C.ACCOUNT, C.PAYMENT, C.PERMISSION):
            why = f"tapping '{label}' on this screen would {CONSEQUENCE[sens.category]}"
            return Sensitivity(sens.category, (why, *sens.evidence), 1.0)
        return Sensitivity()


def category_of_words(text: str) -> SensitiveCategory | None:
    """The category whose words ``text`` uses (a planner's handover reason), if any."""
    for category in PRIORITY:
        words = (*SCREEN_WORDS[category], *ACTION_WORDS.get(category, ()))
        if any(matches(text, w) for w in words if len(w) > 3 or not w.isascii()):
            return category
    return None


def _looks_like_card(text: str) -> bool:
    digits = re.sub(r"[\s-]", "", text)
    return bool(re.fullmatch(r"\d{13,19}", digits))


def _target(action: Action, screen: Screen) -> Element | None:
    if action.element is None:
        return None
    try:
        return screen.element(action.element)
    except KeyError:
        return None
