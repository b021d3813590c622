"""How screen text is compared with a category's words: normalised (lower case,
simplified Chinese), a word as the whole label of a field or button, a phrase anywhere."""

from __future__ import annotations

import re

#: Traditional forms OCR sometimes reads for the simplified characters of these words.
_TRAD = str.maketrans(
    "刪帳賬號碼錄權許認證驗戶設據個紀註銷額費", "删账账号码录权许认证验户设据个纪注销额费"
)


def normalise(text: str) -> str:
    """Lower case, simplified Chinese, one kind of apostrophe."""
    return text.translate(_TRAD).replace("’", "'").replace("‘", "'").lower()


def matches(text: str, word: str) -> bool:
    text = normalise(text)
    if word.isascii():
        return re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", text) is not None
    return word in text


def _labels(text: str, word: str) -> bool:
    """Whether a piece of screen text *is* this word (a field, button or title), not
    merely mentions it: "Password" and "Sign in" mark a login form, "Password tips"
    and "Delete account" in a menu do not. Phrases of three words or more, and
    Chinese, count wherever they appear."""
    if not word.isascii() or len(word.split()) >= 3:
        return matches(text, word)
    return re.sub(r"[^\w' ]+", "", normalise(text)).strip() == word


def found(texts: list[str], words: tuple[str, ...]) -> list[str]:
    """The words that are labels on screen, or phrases anywhere in its text (also
    across the lines OCR split a sentence into); a word found only inside a longer
    found word ("付款" in "立即付款") is not counted twice."""
    joined = " ".join(texts)
    hits = [
        w
        for w in words
        if any(_labels(t, w) for t in texts)
        or ((not w.isascii() or len(w.split()) >= 3) and matches(joined, w))
    ]
    return [w for w in hits if not any(w != o and w in o for o in hits)]
