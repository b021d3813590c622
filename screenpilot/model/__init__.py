"""The records every part of screenpilot passes around.

``Screen`` is what vision/ makes of a screenshot and the only thing planner/
reads; ``Action`` is what the planner decides and executor/ performs; ``Step``
and ``Trajectory`` are the history that reports render, pbd/ stores and
exploration backtracks through; a ``Demonstration`` is a recorded task in words, as
pbd/ retrieves it for planners.

All records are frozen dataclasses that validate themselves on construction and
round-trip losslessly through JSON (``to_dict`` / ``to_json`` / ``from_dict`` /
``from_json``); serialised documents carry ``SCHEMA_VERSION``. The one planned
loss: the text of a *secret* ``type`` action (a password, a card number) is
never serialised; ``SECRET_PLACEHOLDER`` takes its place, and the value is
asked for again at replay.

One module per idea: ``kinds`` (the enums), ``record`` (the JSON round trip),
``geometry`` (``Box``), ``elements`` (``Element``, ``Block``, ``Sensitivity``),
``screen`` (``Screen`` and its description), ``action``, ``history`` (``Step``,
``Trajectory``) and ``demonstration``. Import them from here.
"""

from screenpilot.model.action import SECRET_PLACEHOLDER, Action
from screenpilot.model.demonstration import Demonstration
from screenpilot.model.elements import Block, Element, Sensitivity
from screenpilot.model.geometry import Box
from screenpilot.model.history import Step, Trajectory
from screenpilot.model.kinds import (
    WIDGET_CLASSES,
    ActionKind,
    BlockKind,
    Direction,
    ElementKind,
    Outcome,
    SensitiveCategory,
)
from screenpilot.model.record import SCHEMA_VERSION, Record
from screenpilot.model.screen import Screen, describe_element

__all__ = [
    "SCHEMA_VERSION",
    "SECRET_PLACEHOLDER",
    "WIDGET_CLASSES",
    "Action",
    "ActionKind",
    "Block",
    "BlockKind",
    "Box",
    "Demonstration",
    "Direction",
    "Element",
    "ElementKind",
    "Outcome",
    "Record",
    "Screen",
    "SensitiveCategory",
    "Sensitivity",
    "Step",
    "Trajectory",
    "describe_element",
]
