"""Scorekeeper: keep the score of card games played at a real table, from a phone."""

from __future__ import annotations

import gc
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.engine import make_url
from sqlalchemy.orm import configure_mappers
from werkzeug.middleware.proxy_fix import ProxyFix

from . import faults
from .errors import error_answer
from .extensions import COMPRESSED, compress, csrf, db, migrate, protect
from .games.base import mark_sides
from .records import connections, jsontext
from .records.stories import rerating
from .records.verify import register as register_verify
from .web import cookies, i18n, live, offline, stalls
from .web.links import remembered_url_for

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
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one generated once into instance/ (never committed)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path, "secret_key")
    if not path.exists():
        write_private_file_once(path, secrets.token_hex(32))
    return path.read_text().strip()


def write_private_file_once(path: Path, text: str) -> None:
    """Create `path` holding `text`, readable by its owner only from the first byte (os.open with
    0600, never a chmod after), and put in place whole: a worker starting at the same moment sees
    no file or the complete one, and the first writer wins."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.link(temp, path)
    except FileExistsError:
        pass  # another worker made it first; use theirs
    finally:
        temp.unlink(missing_ok=True)


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names, or None (another database, or SQLite in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    if parsed.database.startswith("file:"):
        return None
    return Path(parsed.database)


def keep_database_private(url: str) -> None:
    """The SQLite file (and its -wal and -shm, which SQLite makes with the same mode) readable by
    its owner only: created 0600 before SQLite opens it, and tightened if an older one was not."""
    path = sqlite_file(url)
    if path is None:
        return
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if part.stat().st_mode & 0o077:
                part.chmod(0o600)
        except (FileNotFoundError, PermissionError):
            pass  # not there yet, or owned by another user: leave it to them


# Settings read from the environment (or instance/config.py), with their defaults.
OPERATOR_SETTINGS: dict[str, object] = {
    # A serving process runs the re-rating job (records/stories/rerating.py): `make run` and
    # `make serve` set it; a `flask` command (an upgrade, an import) leaves it off.
    "SCOREKEEPER_RERATE_RUNNER": False,
    # Behind an HTTPS proxy: Secure cookies, https links, HSTS.
    "SCOREKEEPER_HTTPS": False,
    # How many proxies in front of the app set X-Forwarded-For/-Proto/-Host (0: none).
    "SCOREKEEPER_PROXIES": 0,
    # Host names (comma-separated) the app answers to, besides localhost and 127.0.0.1.
    "SCOREKEEPER_HOSTS": "",
    # Per client address. Generous for a table (a hand a minute), tight for a script flooding it.
    "SCOREKEEPER_NEW_MATCH_LIMIT": "30 per minute; 500 per day",
    "SCOREKEEPER_WRITE_LIMIT": "120 per minute",
    # Wrong table codes (or scorer links) per client address: a code has 49.5 bits, so at this pace
    # finding one by guessing takes longer than anyone plays.
    "SCOREKEEPER_TABLE_CODE_LIMIT": "10 per minute",
    # Exports (CSV, JSON) per client address: long answers, a few a minute is plenty.
    "SCOREKEEPER_EXPORT_LIMIT": "20 per minute",
    # Host passwords tried per client address (the host's page): a host types it once a night.
    "SCOREKEEPER_HOST_SIGN_IN_LIMIT": "10 per minute; 100 per hour",
    # Where the rate limits count: memory:// counts per process; with more than one process
    # (WORKERS above 1, or several hosts) a shared store such as redis://127.0.0.1:6379/0.
    "SCOREKEEPER_RATELIMIT_STORAGE": "memory://",
    # The address the Share page's links and QR codes start with (such as http://192.168.1.20:8000 or
    # https://scores.example.org); empty: the address the phone used, or this computer's on the network.
    "SCOREKEEPER_PUBLIC_URL": "",
    # The host's password for the players' page (rename, merge); empty: no such page.
    "SCOREKEEPER_ADMIN_PASSWORD": "",
    # Database connections per process: a request holds one only while it reads or writes (never
    # while it waits on the network), so a few serve hundreds of phones. A request that cannot get
    # one within the timeout (seconds) is answered 503 at once instead of waiting on the crowd.
    "SCOREKEEPER_POOL_SIZE": 10,
    "SCOREKEEPER_POOL_OVERFLOW": 5,
    "SCOREKEEPER_POOL_TIMEOUT": 3,
}
LOCAL_HOSTS = ["localhost", "127.0.0.1"]


def operator_settings() -> dict[str, object]:
    settings = {}
    for name, default in OPERATOR_SETTINGS.items():
        given = os.environ.get(name)
        if given is None:
            settings[name] = default
        elif isinstance(default, bool):
            settings[name] = given.strip().lower() in ("1", "true", "yes", "on")
        elif isinstance(default, int):
            settings[name] = int(given)
        else:
            settings[name] = given
    return settings


def pool_settings(config) -> dict:
    """The pool's size, overflow and checkout timeout as the host set them (SQLite in memory, one
    connection shared by the tests, has no pool to size)."""
    if (
        config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
        and sqlite_file(config["SQLALCHEMY_DATABASE_URI"]) is None
    ):
        return {}
    return {
        "pool_size": config["SCOREKEEPER_POOL_SIZE"],
        "max_overflow": config["SCOREKEEPER_POOL_OVERFLOW"],
        "pool_timeout": config["SCOREKEEPER_POOL_TIMEOUT"],
    }


def host_list(hosts: str | list[str]) -> list[str]:
    if isinstance(hosts, str):
        hosts = hosts.split(",")
    return [host.strip() for host in hosts if host.strip()]


def public_host(url: str) -> list[str]:
    """The host of SCOREKEEPER_PUBLIC_URL, which the app must answer to (its links lead there)."""
    host = urlsplit(url.strip()).hostname if url.strip() else None
    return [host] if host else []


class ScorekeeperApp(Flask):
    json_provider_class = jsontext.FastJSONProvider


def create_app(test_config: dict | None = None) -> Flask:
    app = ScorekeeperApp(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder="static",
    )
    # The instance folder holds the SQLite file and the generated secret: the owner's only.
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        # No pool_pre_ping: connections.py checks a PostgreSQL connection with its BEGIN instead.
        SQLALCHEMY_ENGINE_OPTIONS={"json_serializer": jsontext.dumps, "json_deserializer": jsontext.loads},
        # A match lasts an evening: its forms must still post hours later, but not forever.
        WTF_CSRF_TIME_LIMIT=12 * 3600,
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        RATELIMIT_HEADERS_ENABLED=True,
        **operator_settings(),
    )
    # Deployment settings live in instance/config.py, outside the repository.
    app.config.from_pyfile("config.py", silent=True)
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config["SCOREKEEPER_RATELIMIT_STORAGE"] or "memory://")
    # The suite posts far faster than any table; the rate-limit tests switch limits back on.
    app.config.setdefault("RATELIMIT_ENABLED", not app.config.get("TESTING"))
    if app.config["TRUSTED_HOSTS"] is None:  # Flask's default, None, would trust any Host header
        app.config["TRUSTED_HOSTS"] = (
            LOCAL_HOSTS + host_list(app.config["SCOREKEEPER_HOSTS"]) + public_host(app.config["SCOREKEEPER_PUBLIC_URL"])
        )
    if app.config["SCOREKEEPER_HTTPS"]:
        # The session's cookie a __Host- one too (cookies.py): Secure, the whole site, no Domain.
        app.config.update(
            SESSION_COOKIE_SECURE=True,
            PREFERRED_URL_SCHEME="https",
            SESSION_COOKIE_NAME=cookies.HOST_PREFIX + app.config["SESSION_COOKIE_NAME"],
        )
    if app.config["SCOREKEEPER_PROXIES"]:
        hops = app.config["SCOREKEEPER_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    warn_if_the_host_password_is_short(app)
    keep_database_private(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {**pool_settings(app.config), **app.config["SQLALCHEMY_ENGINE_OPTIONS"]}
    db.init_app(app)
    with app.app_context():
        connections.watch(db.engine)
        app.extensions["live"] = live.Hub(db.engine)
    stalls.guard(app)  # first of the request hooks: a body is read before anything else runs
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Static files are sent as streams; the live views' event streams are not of those types, so they
    # go out as written.
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "deflate"])
    compress.init_app(app)
    protect(app)
    register_blueprints(app)
    i18n.init_app(app)
    offline.init_app(app)
    faults.init_app(app)
    register_errors(app)
    register_commands(app)
    register_verify(app)
    # Texts made inside a request name sides by marks, rendered as names (pages) or letters (API).
    app.before_request(lambda: mark_sides(True))
    app.teardown_request(lambda error: mark_sides(False))
    app.json.sort_keys = False  # keep the API's fields in the order API.md lists them
    app.json.compact = True
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["url_for"] = remembered_url_for
    app.jinja_env.globals["cookie"] = cookies.read
    if app.config["SCOREKEEPER_RERATE_RUNNER"]:
        rerating.Runner(app).start()
    if not app.testing:
        compile_templates(app)
        configure_mappers()  # the models' relationships are worked out now, not on a first request
        # Start-up allocations would set off a full garbage collection on the first request (50 to
        # 70 ms, measured by the bench): collect now, and keep what start-up made out of later ones.
        gc.collect()
        gc.freeze()
    return app


def compile_templates(app: Flask) -> None:
    """Compile every template when the app starts, not on the first request that needs it: the
    first phone to open a match after a restart gets its page as fast as the next one does."""
    for name in app.jinja_env.list_templates(extensions=("html",)):
        app.jinja_env.get_template(name)


HOST_PASSWORD_LENGTH = 12


def warn_if_the_host_password_is_short(app: Flask) -> None:
    """A host password shorter than 12 characters is said loudly at start (it is still taken)."""
    password = app.config["SCOREKEEPER_ADMIN_PASSWORD"] or ""
    if 0 < len(password) < HOST_PASSWORD_LENGTH:
        app.logger.warning(
            "WARNING: SCOREKEEPER_ADMIN_PASSWORD is %d characters long: use %d or more, or anyone "
            "on the Wi-Fi may guess their way onto the host's page.",
            len(password),
            HOST_PASSWORD_LENGTH,
        )


def register_blueprints(app: Flask) -> None:
    from .api import bp as api_bp
    from .history import bp as history_bp
    from .matches import bp as matches_bp
    from .players import bp as players_bp
    from .rules import bp as rules_bp

    app.register_blueprint(matches_bp)
    app.register_blueprint(players_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(api_bp)
    csrf.exempt(api_bp)  # the JSON API is for scripts and apps, which carry no browser cookie


def register_errors(app: Flask) -> None:
    """The error pages, in the page's language (an /api/ request's, English, for the API's JSON)."""
    page = error_answer

    @app.errorhandler(404)
    def not_found(error):
        return page(404, _("Not found"), _("There is no such page or match here."))

    @app.errorhandler(405)
    def not_allowed(error):
        return page(405, _("Not here"), _("That page does not take this kind of request."))

    @app.errorhandler(CSRFError)
    def csrf_failed(error):
        return page(
            400, _("Form expired"), _("The form was too old or came from elsewhere. Go back, reload and try again.")
        )

    @app.errorhandler(413)
    def too_large(error):
        return page(413, _("Too much"), _("That was far more than any hand needs."))

    @app.errorhandler(429)
    def too_many(error):
        # Translators: the title of the page a phone gets when it sent too many changes in a minute
        return page(429, _("Slow down"), error.description)


def register_commands(app: Flask) -> None:
    from .cli import commands

    for command in commands:
        app.cli.add_command(command)
