"""The planner: from a described screen and a task to the next action.

One room per idea: ``llm/`` (the chat client) and ``prompts/`` (package data),
``chain.py`` (chain-of-screens planning with an LLM), ``offline/`` (the offline
planner, ``HeuristicPlanner``), ``autotask/`` (AutoTask's scoring, checking and
backtracking), ``probe/`` (probing an app from one demonstration for where it becomes
sensitive), ``safety/`` (sensitive screens), and what they share: ``base.py``
(``Planner``, ``Decision``), ``demos.py``, ``forms.py``, ``parse.py`` and
``encoding.py``."""
