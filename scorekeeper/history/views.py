"""The history pages."""

from __future__ import annotations

from . import bp  # noqa: F401
