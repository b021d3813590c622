"""The command language: what a person's command asks for, read once as data that the
offline planner, the LLM prompt and AutoTask's knowledge all share (``parse_command``).
Lexicons are package data (``data/*.json``), general Android knowledge, one reason per
entry."""

from screenpilot.language.command import Command, parse_command

__all__ = ["Command", "parse_command"]
