"""Shared test set-up: no test may reach the network; property tests do not time out
on a loaded 2-core machine (the examples and assertions are the same)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from screenpilot.core.offline import enforce_offline

enforce_offline()

settings.register_profile(
    "screenpilot", deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("screenpilot")

pytest_plugins = ["phone_fixtures"]
