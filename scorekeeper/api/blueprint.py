"""The JSON API's blueprint: the routes' modules add to it (the package imports them)."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
