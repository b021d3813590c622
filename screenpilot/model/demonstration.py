"""``Demonstration``: a recorded task in words, as pbd/ retrieves it for planners."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Demonstration:
    """A recorded task retrieved as a reference: its instruction and steps in words.

    What pbd/ keeps and retrieves and what planners read among their hints."""

    instruction: str
    steps: tuple[str, ...]
    app: str = ""
    score: float | None = None
