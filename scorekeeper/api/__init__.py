from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from . import history, views  # noqa: E402,F401
