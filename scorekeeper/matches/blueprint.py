"""The scoring pages' blueprint: the routes' modules add to it (the package imports them)."""

import mimetypes

from flask import Blueprint

mimetypes.add_type("application/manifest+json", ".webmanifest")  # the home-screen manifest
bp = Blueprint("matches", __name__)
