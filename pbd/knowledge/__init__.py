"""Knowledge from exploration (AutoTask's four kinds), kept in one JSON file.

- **Environment, type 1**: transitions (page, operation, page) as a graph. Pages
  are matched by their labels (``pbd.pages.page_labels``); ``targets``
  annotates the elements of the current page with what was seen behind them, so
  that the planner rates an element by where it leads.
- **Environment and execution, type 2**: lessons in words from the steps that
  were undone ("On 'Settings', tap 'Display' opens 'Display / Brightness level'";
  "For "turn wifi on", tap 'Display' on 'Settings' was a wrong turn: ..."):
  templated sentences offline, the LLM's words when one is configured. Execution
  lessons of a matching task become backtracking penalties before it starts.
- **Task**: intent name, parameter names and values, the command, and the
  command with its values masked, embedded to match new commands to intents.
- **Execution, type 1**: the shortest path in the experience graph from the
  start page to the end page that covers every parameter and every state
  change of the run (typing, switches, selections), with parameter slots
  (``{0}``, ``{0:first}``, ``{0:rest}``) where the values were.

``match`` finds the task knowledge of a new command (similarity of the masked
commands and of the command to the stored path, values bound by kind and
order); ``Replay`` then runs the stored path with the new values, and fails
(exploration takes over) when an element of the path is not on the screen.

The file (``knowledge.path``; by default ``knowledge.json`` in the store folder)
is written atomically; ``transitions`` are kept even for runs the person did not
confirm, the rest only for confirmed ones.

Modules: ``records`` (what the file holds), ``params`` (slots and values), ``graph``
(state changes and the shortest covering path), ``lessons`` (undone steps, penalties),
``file`` (the ``Knowledge`` file itself), ``replay``.
"""

from screenpilot.pbd.knowledge.file import (
    FILE_NAME,
    MATCH_MARGIN,
    MATCH_THRESHOLD,
    NODE_MATCH,
    VERSION,
    Encoder,
    Knowledge,
    default_path,
)
from screenpilot.pbd.knowledge.graph import shortest_covering, state_change
from screenpilot.pbd.knowledge.lessons import PenaltyBook, lesson_sentences
from screenpilot.pbd.knowledge.params import (
    bind,
    content_words,
    fill,
    intent_name,
    mask,
    slots,
    template,
)
from screenpilot.pbd.knowledge.records import (
    Edge,
    Lesson,
    Match,
    Node,
    PathOp,
    TaskKnowledge,
    op_of,
    param_names,
)
from screenpilot.pbd.knowledge.replay import Replay, find_element, find_field

__all__ = [
    "FILE_NAME",
    "MATCH_MARGIN",
    "MATCH_THRESHOLD",
    "NODE_MATCH",
    "VERSION",
    "Edge",
    "Encoder",
    "Knowledge",
    "Lesson",
    "Match",
    "Node",
    "PathOp",
    "PenaltyBook",
    "Replay",
    "TaskKnowledge",
    "bind",
    "content_words",
    "default_path",
    "fill",
    "find_element",
    "find_field",
    "intent_name",
    "lesson_sentences",
    "mask",
    "op_of",
    "param_names",
    "shortest_covering",
    "slots",
    "state_change",
    "template",
]
