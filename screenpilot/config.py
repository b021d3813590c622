"""Configuration: one defaults table, merged in layers, strictly.

Layers, lowest first: the defaults below < a TOML file in the platform's user
config dir (or the file named by ``SCREENPILOT_CONFIG``) < ``SCREENPILOT_*``
environment variables (``llm.base_url`` is ``SCREENPILOT_LLM_BASE_URL``) < CLI
flags. An unknown key in any layer is a ``ConfigError`` with a did-you-mean.

Only the CLI reads configuration; library functions take keyword arguments.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from screenpilot.errors import ConfigError

ENV_PREFIX = "SCREENPILOT_"
#: Environment variables of ours that are not configuration keys (the last two name the
#: models ``vision.shipped`` loads instead of ``models/``: a candidate detector is tried so).
ENV_RESERVED = frozenset(
    {"SCREENPILOT_CONFIG", "SCREENPILOT_HOME", "SCREENPILOT_DETECTOR", "SCREENPILOT_ICONS"}
)


@dataclass(frozen=True, slots=True)
class Option:
    """One configuration key: its type, default and a one-line comment."""

    type: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()


#: Every key screenpilot understands. ``list`` values are lists of strings.
DEFAULTS: dict[str, Option] = {
    # device
    "device.serial": Option(str, "", "adb serial of the phone; empty = the only one connected"),
    "device.settle_timeout": Option(float, 3.0, "seconds to wait for the screen to stop changing"),
    "device.settle_interval": Option(float, 0.15, "seconds between frames when waiting to settle"),
    "device.capture": Option(
        str,
        "auto",
        "how screenshots are taken: raw pixels or PNG (auto: time both on the first "
        "captures, keep the faster)",
        ("auto", "raw", "png"),
    ),
    # the virtual phone
    "phone.host": Option(str, "127.0.0.1", "address the virtual phone listens on"),
    "phone.port": Option(int, 0, "TCP port of the virtual phone; 0 = a free port"),
    "phone.size": Option(str, "1080x2400", "virtual phone screen size, WIDTHxHEIGHT"),
    "phone.density": Option(
        int,
        0,
        "virtual phone screen density in dpi (wm density); 0 = the size's usual one "
        "(420 from 1000 px across, else 320)",
    ),
    "phone.theme": Option(str, "light", "virtual phone theme", ("light", "dark")),
    "phone.locale": Option(str, "en", "virtual phone language", ("en", "zh")),
    "phone.animations": Option(
        bool,
        False,
        "the virtual phone starts with its animation scales "
        "at 1 (as a new phone) instead of 0 (as the README asks of a phone "
        "screenpilot drives); it draws no animation either way",
    ),
    # vision
    "vision.ocr_threshold": Option(float, 0.90, "drop OCR lines recognised below this score"),
    "vision.ocr_det_width": Option(
        int,
        720,
        "OCR finds text lines on the screen scaled to this width (480: describe ~35 % "
        "faster, a few small lines lost; models/MODELS.md has the figures)",
    ),
    "vision.ocr_det_model": Option(
        str,
        "int8",
        "OCR's text detector: int8 (rapidocr's quantised here, the default: describe "
        "1.2-1.9x faster, by CPU), fp32 (rapidocr's own float one; models/MODELS.md) "
        "or an ONNX file",
    ),
    "vision.ocr_squeeze": Option(
        bool,
        True,
        "OCR looks for text lines on the screen with its long plain bands left out "
        "(faster; false: the whole screen, as before stop 41)",
    ),
    "vision.ocr_rec_width": Option(
        int,
        160,
        "OCR reads each line padded to at least this many pixels wide at 48 tall "
        "(rapidocr's own: 320, slower)",
    ),
    "vision.detector": Option(
        str,
        "",
        "widget detector: empty or int8 = the shipped one quantised to int8 (detector "
        "twice as fast, about the same targets found; models/MODELS.md), fp32 = the "
        "shipped float one, or an ONNX file",
    ),
    "vision.icons": Option(str, "", "ONNX icon labeller; empty = the shipped model"),
    # planner
    "planner.kind": Option(str, "heuristic", "who plans the next action", ("heuristic", "llm")),
    "planner.max_steps": Option(int, 20, "give up after this many steps"),
    # the LLM endpoint (OpenAI-compatible)
    "llm.base_url": Option(str, "https://api.openai.com/v1", "OpenAI-compatible API base URL"),
    "llm.api_key": Option(str, "", "API key for the endpoint (never shown by `config show`)"),
    "llm.model": Option(str, "gpt-4o-mini", "model name at the endpoint"),
    "llm.timeout": Option(float, 60.0, "seconds before one LLM request times out"),
    "llm.max_retries": Option(int, 3, "retries on 429 and 5xx answers, with backoff"),
    "llm.deadline": Option(
        float,
        60.0,
        "most seconds one LLM call takes, every retry included: a hung endpoint fails after this",
    ),
    # demonstrations and knowledge
    "store.path": Option(str, "", "demonstration store folder; empty = the user data dir"),
    "store.host": Option(str, "", "Chroma server host for a shared store; empty = local folder"),
    "store.port": Option(int, 8000, "Chroma server port"),
    "embed.model": Option(str, "bge-small-en-v1.5", "sentence-transformers model name or path"),
    "knowledge.path": Option(
        str,
        "",
        "exploration knowledge file (JSON); empty = knowledge.json "
        "in the demonstration store folder",
    ),
    # explore and learn (`screenpilot autotask`, AutoTask)
    "autotask.max_steps": Option(int, 20, "autotask: more than this many actions counts as done"),
    "autotask.replay": Option(
        bool, True, "autotask: replay the stored path of a known task with the new command's values"
    ),
    "pbd.threshold": Option(
        float, 0.6, "least cosine similarity for a demonstration to guide a run"
    ),
    "pbd.k": Option(int, 2, "most demonstrations handed to the planner per run"),
    "pbd.idle": Option(
        float,
        20.0,
        "`record` ends after this many seconds without a touch or a change on the screen",
    ),
    # safety and runs
    "safety.allow": Option(list, [], "sensitive categories pre-approved for handover-free runs"),
    "safety.exemplars": Option(
        bool, True, "also compare each screen's text with labelled sensitive screens (embed.model)"
    ),
    "safety.llm": Option(bool, False, "also ask the LLM (llm.*) whether a screen is sensitive"),
    # probing an app from one task (`screenpilot probe`)
    "explore.per_batch": Option(int, 8, "queries the proxy user proposes per batch"),
    "explore.max_batches": Option(int, 10, "stop exploring after this many batches"),
    "explore.tau": Option(float, 0.85, "drop a query this similar (cosine) to one already kept"),
    "explore.max_steps": Option(int, 8, "steps per roll-out of a proposed query"),
    "run.out": Option(str, "runs", "folder for trajectories and reports"),
}

SECRET_KEYS = frozenset({"llm.api_key"})


def user_config_path() -> Path:
    """The TOML file read as the user layer (``SCREENPILOT_CONFIG`` overrides it)."""
    explicit = os.environ.get("SCREENPILOT_CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("screenpilot")) / "config.toml"


def _unknown(key: str, where: str) -> ConfigError:
    close = difflib.get_close_matches(key, DEFAULTS, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else "see `screenpilot config show`"
    return ConfigError(f"unknown configuration key '{key}' in {where}", hint=hint)


def coerce(key: str, value: Any, where: str) -> Any:
    """Check ``value`` against the key's type; strings (env, flags) are parsed."""
    opt = DEFAULTS[key]
    try:
        out = _coerce(opt.type, value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(
            f"bad value {value!r} for '{key}' in {where}: {exc}",
            hint=f"expected {opt.type.__name__}",
        ) from exc
    if opt.choices and out not in opt.choices:
        raise ConfigError(
            f"bad value {value!r} for '{key}' in {where}", hint=f"one of {', '.join(opt.choices)}"
        )
    return out


def _coerce(tp: type, value: Any) -> Any:
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in {"1", "true", "yes", "on"}:
            return True
        if isinstance(value, str) and value.strip().lower() in {"0", "false", "no", "off"}:
            return False
        raise ValueError("not a boolean (true/false)")
    if tp is list:
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        raise TypeError("not a list of strings")
    if tp is int and (isinstance(value, (bool, float))):
        raise TypeError("not an integer")
    if tp is str and not isinstance(value, str):
        raise TypeError("not a string")
    if tp is float and isinstance(value, bool):
        raise TypeError("not a number")
    return tp(value)


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in data.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        return _flatten(tomllib.loads(path.read_text(encoding="utf-8")))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"cannot read config file {path}: {exc}", hint="fix or remove the file"
        ) from exc


def _env_key(name: str) -> str | None:
    rest = name[len(ENV_PREFIX) :].lower()
    for key in DEFAULTS:
        if key.replace(".", "_") == rest:
            return key
    return None


@dataclass(frozen=True)
class Config:
    """Merged configuration: ``values[key]`` and ``sources[key]`` (where it came from)."""

    values: Mapping[str, Any]
    sources: Mapping[str, str]

    def __getitem__(self, key: str) -> Any:
        if key not in self.values:
            raise _unknown(key, "code")
        return self.values[key]

    def shown(self, key: str) -> Any:
        """The value as safe to print: secrets masked."""
        value = self.values[key]
        return "****" if key in SECRET_KEYS and value else value


def load_config(
    overrides: Mapping[str, Any] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    path: Path | None = None,
) -> Config:
    """Merge defaults < TOML file < environment < ``overrides`` (the CLI's flags)."""
    env = os.environ if env is None else env
    values = {k: o.default for k, o in DEFAULTS.items()}
    sources = dict.fromkeys(DEFAULTS, "default")
    path = user_config_path() if path is None else path
    for key, value in _read_toml(path).items():
        if key not in DEFAULTS:
            raise _unknown(key, str(path))
        values[key], sources[key] = coerce(key, value, str(path)), f"file {path}"
    for name, value in env.items():
        if not name.startswith(ENV_PREFIX) or name in ENV_RESERVED:
            continue
        env_key = _env_key(name)
        if env_key is None:
            close = difflib.get_close_matches(
                name, [ENV_PREFIX + k.replace(".", "_").upper() for k in DEFAULTS], n=1
            )
            raise ConfigError(
                f"unknown environment variable {name}",
                hint=f"did you mean {close[0]}?" if close else "see `screenpilot config show`",
            )
        values[env_key] = coerce(env_key, value, f"${name}")
        sources[env_key] = f"env {name}"
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise _unknown(key, "command-line flags")
        if value is None:
            continue
        values[key], sources[key] = coerce(key, value, "command-line flags"), "flag"
    return Config(values=values, sources=sources)


def parse_assignments(items: list[str]) -> dict[str, str]:
    """``["llm.model=qwen-max", ...]`` -> ``{"llm.model": "qwen-max"}``."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(
                f"--set expects KEY=VALUE, got {item!r}", hint="e.g. --set llm.model=qwen-max"
            )
        out[key.strip()] = value.strip()
    return out
