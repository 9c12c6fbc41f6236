"""The tests' own PostgreSQL tables (conftest `make_app`): the schema is built once a process and
emptied for each app after, and a test that changes the schema leaves the next app the models' own."""

from __future__ import annotations

import os

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scorekeeper.extensions import db
from tests.conftest import Actions, database_url, make_app

pytestmark = pytest.mark.skipif(not os.environ.get("TEST_POSTGRES_URL"), reason="needs TEST_POSTGRES_URL")


def differences(app) -> list:
    with app.app_context(), db.engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), db.metadata)


def started(app) -> int:
    return Actions(app.test_client()).start("court_piece", ["Ann", "Bo", "Cy", "Di"])


def test_each_app_starts_empty_with_the_models_schema_even_after_a_test_changed_it(tmp_path):
    url = database_url("postgresql", tmp_path)
    apps = [make_app(url)]
    assert started(apps[0]) == 1 and started(apps[0]) == 2
    apps.append(make_app(url))
    assert started(apps[1]) == 1  # emptied, its ids from 1 again
    with apps[1].app_context():
        db.session.execute(db.text("DROP TABLE hand CASCADE"))
        db.session.execute(db.text("ALTER TABLE player ADD COLUMN nickname text"))
        db.session.commit()
    assert differences(apps[1])
    apps.append(make_app(url))
    assert differences(apps[2]) == [] and started(apps[2]) == 1
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
