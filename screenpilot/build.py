"""Factories: the one place that turns the configuration into the parts of a run.

Commands, benchmarks and tests make the describer, the planner, the LLM client, the
safety check, the demonstration store, the embedder, a run's folder and the virtual
phone here, so each part is made one way. Only this module reads ``Config`` (beside
the CLI's own option parsing); libraries take keyword arguments.

Importing it is cheap: every heavy library (onnxruntime, chromadb, sentence-transformers,
the simulator) loads inside the factory that needs it, so ``screenpilot --help`` stays
fast. The return types are the real ones, imported for the type checker only.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from screenpilot.config import Config
from screenpilot.errors import ConfigError, StoreError
from screenpilot.model import SensitiveCategory

if TYPE_CHECKING:
    import numpy as np

    from screenpilot.agent import Agent, RunOptions
    from screenpilot.model import Demonstration, Screen, Trajectory
    from screenpilot.pbd.embed import Embedder
    from screenpilot.pbd.store import DemoStore
    from screenpilot.planner.autotask import AutoTaskPlanner, Checker, Targets
    from screenpilot.planner.base import PlanHints, Planner
    from screenpilot.planner.encoding import Encoder
    from screenpilot.planner.llm import ChatModel, OpenAIChat
    from screenpilot.planner.safety import Safety
    from screenpilot.simulator.phone import VirtualPhone
    from screenpilot.vision.incremental import IncrementalDescriber

#: The planners ``planner.kind`` names.
PLANNERS = ("heuristic", "llm")
#: The three global settings that slow every screen change while they are not 0.
ANIMATION_SCALES = (
    "window_animation_scale",
    "transition_animation_scale",
    "animator_duration_scale",
)
#: The sensitive categories ``--allow`` and ``safety.allow`` take.
CATEGORIES: tuple[str, ...] = tuple(
    c.value for c in SensitiveCategory if c is not SensitiveCategory.NONE
)


class Dense(Protocol):
    """A phone that tells its screen density (a real one, the virtual one)."""

    def density(self) -> int: ...


#: Said while something slow happens (``say``) or goes wrong but the run goes on (``warn``).
Say = Callable[[str], None]


def _quiet(_: str) -> None:
    """A ``Say`` that says nothing."""


# --- checks before anything is built ----------------------------------------------------------
def check_allow(allow: Sequence[str]) -> list[str]:
    """``allow`` as given, once each name is a sensitive category (``ConfigError`` if not)."""
    for a in allow:
        if a not in CATEGORIES:
            raise ConfigError(
                f"unknown category {a!r} for --allow", hint=f"one of {', '.join(CATEGORIES)}"
            )
    return list(allow)


def allowed(allow: Sequence[str]) -> frozenset[SensitiveCategory]:
    """The categories of ``allow`` (checked names) as the run options take them."""
    return frozenset(SensitiveCategory(a) for a in allow)


def check_llm(cfg: Config) -> None:
    """When the run will ask the LLM (planner.kind llm, safety.llm), refuse settings that
    cannot work (``ConfigError``, exit 2) before the phone is touched."""
    if cfg["planner.kind"] != "llm" and not cfg["safety.llm"]:
        return
    check_llm_settings(cfg)


def check_llm_settings(cfg: Config) -> None:
    """Refuse LLM settings (llm.*) that cannot work (``ConfigError``), whoever asks."""
    from screenpilot.planner.llm import check_settings

    check_settings(
        cfg["llm.base_url"],
        cfg["llm.api_key"],
        cfg["llm.model"],
        timeout=cfg["llm.timeout"],
        deadline=cfg["llm.deadline"],
        max_retries=cfg["llm.max_retries"],
    )


# --- the parts of a run -----------------------------------------------------------------------
def llm(cfg: Config) -> OpenAIChat:
    """The OpenAI-compatible chat client the configuration names (llm.*), with the user's
    timeout per try, deadline per call and retries."""
    from screenpilot.planner.llm import OpenAIChat

    return OpenAIChat(
        base_url=cfg["llm.base_url"],
        model=cfg["llm.model"],
        api_key=cfg["llm.api_key"],
        timeout=cfg["llm.timeout"],
        deadline=cfg["llm.deadline"],
        max_retries=cfg["llm.max_retries"],
    )


def encoder(cfg: Config) -> Embedder:
    """The sentence embedder ``embed.model`` names (loaded once per process)."""
    from screenpilot.pbd.embed import load_embedder

    return load_embedder(cfg["embed.model"])


def describer(cfg: Config, device: Dense | None = None) -> IncrementalDescriber:
    """Screenshot -> ``Screen``, re-reading only what changed between screens (vision.*);
    ``device``: the phone, whose density (read when a screen is first described) sizes a
    tablet's screen."""
    from screenpilot.vision.incremental import IncrementalDescriber

    return IncrementalDescriber(
        ocr_threshold=cfg["vision.ocr_threshold"],
        density=device.density if device is not None else None,
    )


def planner(cfg: Config, *, chat: ChatModel | None = None) -> Planner:
    """The planner ``planner.kind`` names: the chain-of-screens LLM planner (asking
    ``chat``, else the configured endpoint) or the offline planner (loads the embedder)."""
    if cfg["planner.kind"] == "llm":
        from screenpilot.planner.chain import ChainPlanner

        return ChainPlanner(
            chat if chat is not None else llm(cfg), max_steps=cfg["planner.max_steps"]
        )
    from screenpilot.planner.offline import HeuristicPlanner

    return HeuristicPlanner(encoder(cfg).encode, max_steps=cfg["planner.max_steps"])


def safety(cfg: Config) -> Safety:
    """The safety check: keywords and widgets, plus the labelled exemplars (the embedder
    loads at the first screen that needs it) and the LLM, as configured (safety.*)."""
    from screenpilot.planner.safety import ExemplarSafety, LLMSafety, Safety

    exemplars = None
    if cfg["safety.exemplars"]:
        name = cfg["embed.model"]

        def encode(texts: Sequence[str]) -> np.ndarray:
            from screenpilot.pbd.embed import load_embedder

            return load_embedder(name).encode(texts)

        exemplars = ExemplarSafety(encode)
    judge = LLMSafety(llm(cfg)) if cfg["safety.llm"] else None
    return Safety(exemplars=exemplars, llm=judge)


def autotask_planning(
    cfg: Config, encode: Encoder, targets: Callable[[Screen], Targets] | None = None
) -> tuple[AutoTaskPlanner, Checker, OpenAIChat | None]:
    """AutoTask's deciding and checking halves as ``planner.kind`` says, with a budget of
    ``autotask.max_steps``: the LLM's scorer and checker, or the offline ones built on
    the heuristic planner. Returns (planner, checker, the LLM for lessons or None);
    ``targets`` says what knowledge saw behind each element of a screen."""
    from screenpilot.planner.autotask import (
        AutoTaskPlanner,
        HeuristicChecker,
        HeuristicScorer,
        LLMChecker,
        LLMScorer,
    )

    budget = cfg["autotask.max_steps"]
    if cfg["planner.kind"] == "llm":
        chat = llm(cfg)
        scored = AutoTaskPlanner(LLMScorer(chat), encode, targets=targets)
        return scored, LLMChecker(chat, max_steps=budget), chat
    from screenpilot.planner.offline import HeuristicPlanner

    heuristic = HeuristicPlanner(encode, max_steps=budget)
    scored = AutoTaskPlanner(
        HeuristicScorer(heuristic), heuristic.encode, proposer=heuristic, targets=targets
    )
    return scored, HeuristicChecker(scored, max_steps=budget), None


# --- demonstrations and knowledge -------------------------------------------------------------
def store(cfg: Config, *, embedder: Embedder | None = None) -> DemoStore:
    """The demonstration store the configuration names (``store.*``, ``embed.model``);
    ``embedder`` embeds its texts (default: ``embed.model``, loaded when first needed)."""
    from screenpilot.pbd.store import DemoStore

    return DemoStore.open(
        cfg["store.path"] or None,
        host=cfg["store.host"],
        port=cfg["store.port"],
        embedder=embedder,
        model=cfg["embed.model"],
    )


def store_exists(cfg: Config) -> bool:
    """Whether the configured local store has a ledger (a server store always counts)."""
    if cfg["store.host"]:
        return True
    from screenpilot.pbd.store import LEDGER_FILE, default_path

    root = Path(cfg["store.path"]).expanduser() if cfg["store.path"] else default_path()
    return (root / LEDGER_FILE).is_file()


def demonstrations(
    cfg: Config, task: str, wanted: bool | None, *, say: Say = _quiet, warn: Say = _quiet
) -> tuple[Demonstration, ...]:
    """The demonstrations that guide a run of ``task``: with ``wanted`` None, only when the
    configured store exists and has any. ``say`` tells what was found; ``warn`` why none
    were used when the store failed and they were not asked for (asked for: it raises)."""
    from screenpilot.pbd.store import retrieve

    if wanted is False or (wanted is None and not store_exists(cfg)):
        return ()
    try:
        demos = store(cfg, embedder=encoder(cfg))
        total = demos.count()
        if total == 0:
            if wanted:
                say("demonstrations: the store is empty")
            return ()
        found = retrieve(demos, task, k=cfg["pbd.k"], threshold=cfg["pbd.threshold"])
    except StoreError as exc:
        if wanted:
            raise
        warn(f"demonstrations not used: {exc}")
        return ()
    if found:
        shown = ", ".join(f"'{d.instruction}' {d.score:.2f}" for d in found)
        say(f"demonstrations: {len(found)} similar ({shown})")
    else:
        say(f"demonstrations: none above {cfg['pbd.threshold']:.2f} ({total} in the store)")
    return found


def knowledge_path(cfg: Config, given: Path | None = None) -> Path:
    """The knowledge file: ``given``, else ``knowledge.path``, else next to the store."""
    from screenpilot.pbd.knowledge import default_path

    if given is not None:
        return given
    if cfg["knowledge.path"]:
        return Path(cfg["knowledge.path"]).expanduser()
    return default_path(cfg["store.path"])


# --- runs ------------------------------------------------------------------------------------
def run_folder(root: Path, task: str) -> Path:
    """A new run's folder under ``root``: the time, then the task as a slug."""
    slug = re.sub(r"[^a-z0-9]+", "-", task.lower()).strip("-")[:40] or "task"
    return root / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{slug}"


def run_options(
    cfg: Config,
    out: Path,
    *,
    allow: Sequence[str] = (),
    hints: PlanHints | None = None,
    max_steps: int | None = None,
    long_pages: bool = False,
) -> RunOptions:
    """The options of one run: the step budget (``planner.max_steps`` unless given), the
    settling of the device (``device.settle_*``), the pre-approved sensitive categories."""
    from screenpilot.agent import RunOptions
    from screenpilot.planner.base import PlanHints

    return RunOptions(
        out=out,
        max_steps=cfg["planner.max_steps"] if max_steps is None else max_steps,
        long_pages=long_pages,
        settle_timeout=cfg["device.settle_timeout"],
        settle_interval=cfg["device.settle_interval"],
        allow=allowed(allow),
        hints=hints or PlanHints(),
    )


class _Query(Protocol):
    """What a roll-out runs: a query's words."""

    @property
    def text(self) -> str: ...


def rollout(
    make_agent: Callable[[Path], Agent], reset: Callable[[], None] | None = None
) -> Callable[[_Query, Path], Trajectory]:
    """A roll-out for query exploration: reset the phone, run the query with a fresh agent
    writing into the folder, and return its trajectory (also when the run stopped at a
    sensitive screen, was aborted by the person, or failed: the trajectory says so)."""
    from screenpilot.errors import ScreenpilotError
    from screenpilot.model import Trajectory

    def run(query: _Query, folder: Path) -> Trajectory:
        if reset is not None:
            reset()
        agent = make_agent(folder)
        try:
            return agent.run(query.text)
        except ScreenpilotError:
            return Trajectory.from_json(agent.trajectory_path.read_text(encoding="utf-8"))

    return run


# --- the virtual phone -----------------------------------------------------------------------
def parse_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` of a phone or tablet screen (``ConfigError`` otherwise)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise ConfigError(f"bad size {text!r}", hint="use WIDTHxHEIGHT, e.g. 1080x2400") from exc
    if not (240 <= w <= 4000 and 320 <= h <= 6000):
        raise ConfigError(
            f"size {text} is not a phone or tablet screen",
            hint="e.g. 1080x2400, 1080x1920, 720x1600, 1200x2000",
        )
    return w, h


def phone(cfg: Config) -> VirtualPhone:
    """A virtual phone of the configured size, theme and language (phone.*), not served."""
    from screenpilot.simulator.phone import VirtualPhone

    dpi = int(cfg["phone.density"])
    if dpi and not 60 <= dpi <= 1000:
        raise ConfigError(
            f"phone.density {dpi} is not a screen density",
            hint="dots per inch, 60-1000 (phones 320-560, tablets 213-320), or 0 for the usual",
        )
    device = VirtualPhone(
        size=parse_size(cfg["phone.size"]),
        theme=cfg["phone.theme"],
        locale=cfg["phone.locale"],
        density=dpi or None,
    )
    if not cfg["phone.animations"]:  # set up as the README asks of a real phone
        for key in ANIMATION_SCALES:
            device.put_setting("global", key, "0")
    return device


@contextlib.contextmanager
def virtual_phone(
    cfg: Config, setup: Callable[[VirtualPhone], object] | None = None
) -> Iterator[tuple[str, VirtualPhone]]:
    """Start the virtual phone (after ``setup(phone)``), connect adb to it and yield
    (serial, phone); disconnect and stop it after."""
    from screenpilot.simulator.serve import serve_phone

    device = phone(cfg)
    if setup is not None:
        setup(device)
    with serve_phone(device, host=cfg["phone.host"], port=cfg["phone.port"]) as serial:
        yield serial, device


@contextlib.contextmanager
def on_phone(
    cfg: Config, virtual: bool, setup: Callable[[VirtualPhone], object] | None = None
) -> Iterator[tuple[str, VirtualPhone | None]]:
    """The phone a command works on: the virtual phone started for it (after ``setup``),
    or the connected phone ``device.serial`` names (the only one, when empty). Yields
    (serial, the virtual phone or None)."""
    if virtual:
        with virtual_phone(cfg, setup) as (serial, device):
            yield serial, device
        return
    from screenpilot.executor.adb import choose_serial

    yield choose_serial(cfg["device.serial"] or None), None


__all__ = [
    "ANIMATION_SCALES",
    "CATEGORIES",
    "PLANNERS",
    "Say",
    "allowed",
    "autotask_planning",
    "check_allow",
    "check_llm",
    "check_llm_settings",
    "demonstrations",
    "describer",
    "encoder",
    "knowledge_path",
    "llm",
    "on_phone",
    "parse_size",
    "phone",
    "planner",
    "rollout",
    "run_folder",
    "run_options",
    "safety",
    "store",
    "store_exists",
    "virtual_phone",
]
