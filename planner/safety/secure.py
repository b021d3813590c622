"""A screen that hides its content (FLAG_SECURE) says nothing of its category: it is
taken from the words of how the screen was reached ("Continue to payment", "PIN")."""

from __future__ import annotations

from screenpilot.model import Screen, SensitiveCategory, Sensitivity
from screenpilot.planner.safety.text import matches

C = SensitiveCategory

#: Words of the step that led to a hidden screen, and the category they make it.
SECURE_HINTS: tuple[tuple[SensitiveCategory, tuple[str, ...]], ...] = (
    (
        C.AUTHENTICATION,
        (
            "pin",
            "password",
            "passcode",
            "screen lock",
            "sign in",
            "log in",
            "login",
            "unlock",
            "密码",
            "登录",
            "锁屏",
            "解锁",
        ),
    ),
    (
        C.PAYMENT,
        (
            "pay",
            "payment",
            "checkout",
            "card",
            "purchase",
            "buy",
            "order",
            "bank",
            "wallet",
            "支付",
            "付款",
            "结算",
            "购买",
            "银行",
        ),
    ),
)


def refine_secure(screen: Screen, sens: Sensitivity, came_by: str) -> Sensitivity:
    """A screen that hides its content (FLAG_SECURE) takes its category from the words
    of how it was reached ("Continue to payment" -> payment, "PIN" -> authentication);
    ``came_by`` is the last action in words, then the task."""
    if not screen.secure or not sens.sensitive or not came_by.strip():
        return sens
    for category, words in SECURE_HINTS:
        if any(matches(came_by, w) for w in words):
            if category is sens.category:
                return sens
            return Sensitivity(category, (*sens.evidence, f"reached by: {came_by}"), sens.score)
    return sens
