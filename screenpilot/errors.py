"""The errors screenpilot raises, one tree for the whole package.

Third-party errors (adb, onnxruntime, chromadb, HTTP) are translated at the
boundary of the subpackage that meets them (``raise ... from exc``), so callers
only ever branch on these classes. The CLI turns every ``ScreenpilotError`` into
a one-line message and the exit code of its class; it never prints a traceback
for them.

    ScreenpilotError                 exit 1
    ├── ConfigError                  exit 2   bad key, bad value, unreadable TOML
    ├── DeviceError                  exit 3   no phone, two phones, unplugged, adb failed
    ├── VisionError                  exit 4   unreadable or unusable screenshot, model failed
    │   └── ImageError                        corrupt, empty, absurd size
    ├── PlannerError                 exit 5   the planner could not choose an action
    │   ├── LLMError                          endpoint unreachable, timed out, auth, quota,
    │   │                                     an answer that is not a chat completion
    │   └── LLMResponseError                  answer not JSON, names no element on screen
    ├── StoreError                   exit 6   demonstration store locked, corrupt, mixed models
    ├── DataError                    exit 8   datasets and training input that cannot be used
    ├── SafetyStop                   exit 7   a sensitive screen or action needs the person
    └── UserAbort                    exit 130 the person stopped the run (Ctrl-C, "abort")
"""

from __future__ import annotations


class ScreenpilotError(Exception):
    """Base class: every error screenpilot raises on purpose."""

    exit_code: int = 1

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class ConfigError(ScreenpilotError):
    """A configuration key or value that cannot be used."""

    exit_code = 2


class DeviceError(ScreenpilotError):
    """The phone cannot be reached or did not do what was asked."""

    exit_code = 3


class VisionError(ScreenpilotError):
    """A screenshot could not be turned into a ``Screen``."""

    exit_code = 4


class ImageError(VisionError):
    """An image file or buffer that is corrupt, empty, or of an unusable size."""


class PlannerError(ScreenpilotError):
    """The planner could not produce a valid next action."""

    exit_code = 5


class LLMError(PlannerError):
    """The LLM endpoint failed: unreachable, unauthorised, out of quota.

    ``kind`` names the failure in a few words ("unreachable", "timed out", "server
    error", "refused the key", "not a chat answer"...): a run's trajectory records
    it as its note (``llm unreachable: ...``).
    """

    def __init__(self, message: str, *, hint: str = "", kind: str = "failed") -> None:
        super().__init__(message, hint=hint)
        self.kind = kind


class LLMResponseError(PlannerError):
    """The LLM answered, but the answer cannot be used (not JSON, unknown element)."""


class StoreError(ScreenpilotError):
    """The demonstration / knowledge store cannot be read or written."""

    exit_code = 6


class SafetyStop(ScreenpilotError):
    """A sensitive screen or action needs the person, and nobody approved it."""

    exit_code = 7

    def __init__(self, message: str, *, category: str, hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.category = category


class DataError(ScreenpilotError):
    """A dataset, label file or weights file that cannot be used."""

    exit_code = 8


class UserAbort(ScreenpilotError):
    """The person stopped the run."""

    exit_code = 130
