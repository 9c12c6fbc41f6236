"""Scorekeeper: keep the score of card games played at a real table, from a phone."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy import event
from sqlalchemy.engine import Engine

from .extensions import csrf, db, migrate
from .games.base import forget_side_names
from .service import ReplayCache

ROOT = Path(__file__).resolve().parent.parent


def database_url(instance_path: str) -> str:
    """DATABASE_URL from the environment, else SQLite in instance/."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + os.path.join(instance_path, "scorekeeper.sqlite")
    return sqlalchemy_url(url)


def sqlalchemy_url(url: str) -> str:
    """A postgres:// or postgresql:// URL as SQLAlchemy wants it, through psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one generated once into instance/ (never committed)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path, "secret_key")
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder="static",
    )
    # The instance folder holds the SQLite file and the generated secret.
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        WTF_CSRF_TIME_LIMIT=None,  # a match can last an evening; the form must still post
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    # Deployment settings live in instance/config.py, outside the repository.
    app.config.from_pyfile("config.py", silent=True)
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    app.extensions["scorekeeper.replays"] = ReplayCache()
    register_blueprints(app)
    register_errors(app)
    app.teardown_request(lambda error: forget_side_names())
    app.json.sort_keys = False  # keep the API's fields in the order API.md lists them
    app.json.compact = True
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    return app


def register_blueprints(app: Flask) -> None:
    from .api import bp as api_bp
    from .matches import bp as matches_bp
    from .players import bp as players_bp
    from .rules import bp as rules_bp

    app.register_blueprint(matches_bp)
    app.register_blueprint(players_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(api_bp)
    csrf.exempt(api_bp)  # the JSON API is for scripts and apps, which carry no browser cookie


def register_errors(app: Flask) -> None:
    def page(code: int, title: str, message: str):
        if request.path.startswith("/api/"):
            return jsonify(error=message, fields={}), code
        return render_template("error.html", code=code, title=title, message=message), code

    @app.errorhandler(404)
    def not_found(error):
        return page(404, "Not found", "There is no such page or match here.")

    @app.errorhandler(405)
    def not_allowed(error):
        return page(405, "Not here", "That page does not take this kind of request.")

    @app.errorhandler(CSRFError)
    def csrf_failed(error):
        return page(400, "Form expired", "The form was too old or came from elsewhere. Go back, reload and try again.")

    @app.errorhandler(413)
    def too_large(error):
        return page(413, "Too much", "That was far more than any hand needs.")


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):
    """WAL lets pages read while a hand is written; SQLite leaves foreign keys off unless asked."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()
