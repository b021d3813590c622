"""AutoTask's explore-learn loop, the deciding and checking halves (no device here).

**Deciding.** Every operation available on the screen (tap a tappable element,
type a value of the task into a field it fits, scroll the page) gets::

    score = basic / (1 + penalty)
    basic   = a 1-7 Likert relevance to the task (the LLM's, or offline the
              heuristic planner's similarity mapped onto 1-7)
              + a 0-1 tie-break: embedding similarity of the operation's words and the task
    penalty = repetition (10 when the operation is already in the executed path)
              + the backtracking penalty the checker set on it (0-9 each time)

``AutoTaskPlanner`` picks the best. Offline, the heuristic planner makes the
first proposal: its rules for switches, sliders, typing values and confirming
know things similarity does not, so a rule's proposal counts as relevance 7 -
unless it is penalised, when the exploration scores decide among the rest.
Knowledge of the environment (pbd/knowledge/) adds "targets": what was seen
behind an element before, which raises the relevance of an element that leads
to what the task needs.

**Checking.** After each step a ``Checker`` says whether the task is complete
and whether the last step is on a path to the goal; when it is not, a penalty
0-9 is added to that operation's backtracking penalty and the run loop
(screenpilot/autotask.py) undoes it (``choose_undo``: back for a tap that
changed the page, clear the text for a typing, scroll back for a scroll, tap a
toggled switch again). More than ``max_steps`` steps counts as complete
(``exhausted``). ``HeuristicChecker`` is the offline checker (the proposer's own
done signal, relevance of the new page, relevance going down); ``LLMChecker``
asks the model with ``prompts/autotask.yaml``.

By idea: ``operations.py`` (what can be done, repetition), ``scoring.py`` (Likert
relevance), ``planner.py`` (``AutoTaskPlanner``), ``check.py`` (checkers),
``undo.py`` (backtracking), ``lessons.py`` (lessons from an LLM), ``prompts.py``.
"""

from screenpilot.planner.autotask.check import (
    MAX_CHECK_PENALTY,
    Checker,
    HeuristicChecker,
    LLMChecker,
    Verdict,
)
from screenpilot.planner.autotask.lessons import llm_lessons
from screenpilot.planner.autotask.operations import (
    ECHO_PENALTY,
    REPETITION_PENALTY,
    Operation,
    operations,
    repetition,
)
from screenpilot.planner.autotask.planner import AutoTaskPlanner, Choice, Scored, is_rule
from screenpilot.planner.autotask.prompts import load_autotask_prompts
from screenpilot.planner.autotask.scoring import (
    RULE_LIKERT,
    HeuristicScorer,
    LLMScorer,
    Scorer,
    Targets,
    to_likert,
)
from screenpilot.planner.autotask.undo import Undo, choose_undo

__all__ = [
    "ECHO_PENALTY",
    "MAX_CHECK_PENALTY",
    "REPETITION_PENALTY",
    "RULE_LIKERT",
    "AutoTaskPlanner",
    "Checker",
    "Choice",
    "HeuristicChecker",
    "HeuristicScorer",
    "LLMChecker",
    "LLMScorer",
    "Operation",
    "Scored",
    "Scorer",
    "Targets",
    "Undo",
    "Verdict",
    "choose_undo",
    "is_rule",
    "llm_lessons",
    "load_autotask_prompts",
    "operations",
    "repetition",
    "to_likert",
]
