"""``screenpilot console``: a local web page to watch and drive the phone.

The page (plain HTML, CSS and JavaScript under ``static/``, no build step) shows the
phone's screen live and what screenpilot reads on it, starts and stops runs (the same
``Agent``, planner, describer and safety check as ``screenpilot run``), answers
handovers, records demonstrations, and lists past runs and stored demonstrations.
A click on the live screen taps the phone, through the same executor and safety
rules as a run.

The server (Starlette on uvicorn) listens on 127.0.0.1 only, and every request needs
the random token of the URL it prints. One module per part: ``auth`` (the token),
``hub`` (live events to the page), ``live`` (frames), ``reading`` (the overlay),
``control`` (taps from the page), ``runs`` (a run), ``recording`` (a demonstration),
``library`` (past runs, the store), ``routes`` and ``app`` (the web side).
"""

from __future__ import annotations

from screenpilot.console.app import Console, serve
from screenpilot.console.parts import Parts

__all__ = ["Console", "Parts", "serve"]
