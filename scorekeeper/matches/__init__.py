import mimetypes

from flask import Blueprint

mimetypes.add_type("application/manifest+json", ".webmanifest")  # the home-screen manifest
bp = Blueprint("matches", __name__)

from . import script_words, views  # noqa: E402,F401
