"""Fixtures of the API tests (the app, `client` and `actions` are tests/conftest.py's)."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_propagation(app):
    """Let the app answer a crash with its 500, as in production, so tests can check the status."""
    app.config["PROPAGATE_EXCEPTIONS"] = False
    return app
