"""The rules pages' blueprint: the routes' modules add to it (the package imports them)."""

from flask import Blueprint

bp = Blueprint("rules", __name__, url_prefix="/rules")
