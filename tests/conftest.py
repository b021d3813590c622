"""Shared test set-up: no test may reach the network."""

from __future__ import annotations

from screenpilot.offline import enforce_offline

enforce_offline()

pytest_plugins = ["phone_fixtures"]
