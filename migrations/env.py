import logging
from contextlib import contextmanager
from logging.config import fileConfig

from alembic import context
from flask import current_app
from sqlalchemy import TypeDecorator, text

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging.
# This line sets up loggers basically.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")


def get_engine():
    # Flask-SQLAlchemy 3 names the engine directly (get_engine() is deprecated).
    return current_app.extensions["migrate"].db.engine


def get_engine_url():
    try:
        return get_engine().url.render_as_string(hide_password=False).replace("%", "%%")
    except AttributeError:
        return str(get_engine().url).replace("%", "%%")


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option("sqlalchemy.url", get_engine_url())
target_db = current_app.extensions["migrate"].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, "metadatas"):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=get_metadata(), literal_binds=True)

    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives

    conf_args.setdefault("render_item", render_plain_types)
    connectable = get_engine()

    with connectable.connect() as connection, one_upgrade_at_a_time(connection), sqlite_rebuilds(connection):
        context.configure(connection=connection, target_metadata=get_metadata(), **conf_args)

        with context.begin_transaction():
            context.run_migrations()


# Any fixed number, the same in every instance: the key of the PostgreSQL advisory lock below.
UPGRADE_LOCK = 0x5C0E_4EE9


@contextmanager
def one_upgrade_at_a_time(connection):
    """Two instances starting at once on one PostgreSQL: the second waits until the first has
    upgraded, then finds nothing left to do (without the lock both create the tables and one
    fails). The session lock outlives the transactions; it is committed so Alembic starts clean."""
    if connection.dialect.name != "postgresql":
        yield
        return
    connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": UPGRADE_LOCK})
    connection.commit()
    try:
        yield
    finally:
        connection.rollback()  # a failed migration leaves its transaction aborted
        connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": UPGRADE_LOCK})
        connection.commit()


@contextmanager
def sqlite_rebuilds(connection):
    """SQLite rebuilds a table to change it (Alembic's batch mode): dropping the old one with foreign
    keys on would delete every row that refers to it (ON DELETE CASCADE). So the checks are off while
    the migrations run (a PRAGMA outside any transaction, as SQLite requires) and every reference is
    checked once they are done."""
    if connection.dialect.name != "sqlite":
        yield
        return
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    connection.commit()  # SQLAlchemy began a transaction around the PRAGMA: Alembic begins its own
    try:
        yield
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"the upgrade left {len(broken)} rows referring to nothing: {broken[:3]}")
    finally:
        connection.rollback()
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()


def render_plain_types(type_, obj, autogen_context):
    """Autogenerated migrations name a model's own column type by the SQLAlchemy type it stores
    (UtcDateTime as DateTime(timezone=True)), so a migration never imports the app."""
    if type_ == "type" and isinstance(obj, TypeDecorator):
        return f"sa.{obj.impl!r}"
    return False


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
