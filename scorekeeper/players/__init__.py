from flask import Blueprint

bp = Blueprint("players", __name__, url_prefix="/players")

from . import views  # noqa: E402,F401
