"""The players' pages' blueprint: the routes' modules add to it (the package imports them)."""

from flask import Blueprint

bp = Blueprint("players", __name__, url_prefix="/players")
