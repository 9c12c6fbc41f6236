"""scripts/gunicorn.conf.py as `make serve` runs it, on a disk that is about to be full: each worker's
SQLite connections may not grow the database file past a few pages more than it holds when the
worker starts (SQLite's max_page_count), as a full disk refuses the write that needs more room.
Used by tests/web/test_trust_served.py: `gunicorn -c tests/web/small_disk_gunicorn.py`."""

import runpy
from pathlib import Path

from sqlalchemy import event, text

globals().update(
    {
        name: value
        for name, value in runpy.run_path(
            str(Path(__file__).resolve().parents[2] / "scripts" / "gunicorn.conf.py")
        ).items()
        if not name.startswith("__")
    }
)
ROOM = 3  # pages the file may still grow by
serve_worker = post_worker_init  # noqa: F821 (scripts/gunicorn.conf.py's, loaded above)


def post_worker_init(worker):
    serve_worker(worker)
    from scorekeeper.extensions import db

    with worker.wsgi.app_context():
        pages = db.session.execute(text("PRAGMA page_count")).scalar()
        db.session.remove()
        db.engine.dispose()

        @event.listens_for(db.engine, "connect")
        def no_room(connection, record):
            connection.execute(f"PRAGMA max_page_count = {pages + ROOM}")
