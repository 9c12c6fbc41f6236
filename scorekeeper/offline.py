"""A phone without a connection: the service worker's script at the site's root, and the first
answer to a write sent with a one-time token kept so that the same write sent again is not done twice."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register the offline parts on `app` (after the blueprints: their hooks run first)."""
