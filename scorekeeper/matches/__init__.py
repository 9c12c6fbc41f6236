from flask import Blueprint

bp = Blueprint("matches", __name__)

from . import views  # noqa: E402,F401
