"""The run loop's safety check (``Safety``): keywords decide alone, the exemplars back
a category one hit short or decide alone when very close, the LLM may only raise."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from screenpilot.errors import DataError
from screenpilot.model import Action, Screen, SensitiveCategory, Sensitivity
from screenpilot.planner.safety.exemplars import ExemplarSafety
from screenpilot.planner.safety.keywords import Evidence, KeywordSafety
from screenpilot.planner.safety.llm import LLMSafety
from screenpilot.planner.safety.widgets import screen_text

log = logging.getLogger(__name__)
C = SensitiveCategory


@dataclass
class Safety:
    """The run loop's ``SafetyCheck``: keywords, then exemplars, then the LLM (see the
    package's docstring for how they combine)."""

    keywords: KeywordSafety = field(default_factory=KeywordSafety)
    exemplars: ExemplarSafety | None = None
    llm: LLMSafety | None = None
    #: An exemplar verdict backs a category one keyword hit short of its minimum
    #: when at least this similar and ``support_margin`` above the nearest benign
    #: look-alike ...
    support: float = 0.55
    support_margin: float = 0.12
    #: ... and decides alone when at least this similar and ``margin`` above it.
    alone: float = 0.72
    margin: float = 0.15

    def screen(self, screen: Screen) -> Sensitivity:
        ev = self.keywords.evidence(screen)
        sens = self.keywords.decide(ev)
        if not sens.sensitive and not screen.secure and self.exemplars is not None:
            sens = self._with_exemplars(ev, screen)
        if self.llm is not None and not sens.sensitive:
            opinion = self.llm.classify(screen)
            if opinion is not None and opinion.sensitive:
                sens = opinion
        return sens

    def _with_exemplars(self, ev: Evidence, screen: Screen) -> Sensitivity:
        assert self.exemplars is not None
        try:
            match = self.exemplars.match(screen_text(screen))
        except DataError as exc:  # no embedding model: keywords and widgets only
            log.warning("safety exemplars off: %s", exc)
            self.exemplars = None
            return Sensitivity()
        if match is None or match.category is C.NONE:
            return Sensitivity()
        weak = ev.weak.get(match.category, [])
        if weak and match.similarity >= self.support and match.margin >= self.support_margin:
            return Sensitivity(match.category, (*weak, match.evidence), 0.6)
        if match.similarity >= self.alone and match.margin >= self.margin:
            return Sensitivity(match.category, (match.evidence,), 0.55)
        return Sensitivity()

    def action(self, action: Action, screen: Screen) -> Sensitivity:
        return self.keywords.action(action, screen)
