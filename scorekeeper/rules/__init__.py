from flask import Blueprint

bp = Blueprint("rules", __name__, url_prefix="/rules")

from . import views  # noqa: E402,F401
