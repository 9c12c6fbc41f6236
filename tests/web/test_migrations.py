"""The schema is built by the Alembic migrations, and they match the models exactly."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.conftest import DATABASES, database_url


@pytest.fixture(params=DATABASES)
def empty_app(request, tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(request.param, tmp_path), "SECRET_KEY": "t"})
    with app.app_context():
        db.drop_all()
        db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
    yield app
    with app.app_context():
        db.drop_all()
        db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        db.engine.dispose()


def test_upgrade_builds_the_schema_the_models_describe(empty_app):
    with empty_app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []


def test_downgrade_removes_every_table(empty_app):
    with empty_app.app_context():
        upgrade()
        downgrade(revision="base")
        tables = set(db.inspect(db.engine).get_table_names()) - {"alembic_version"}
        assert tables == set()
