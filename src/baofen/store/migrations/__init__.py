"""The store's schema migrations (Alembic), run by :func:`migrate` when a store opens.

Revision ``0001`` is the schema as it was before migrations (tables, seats, events,
hands); ``0002`` adds accounts, sessions, ratings, hand results and the seats' account
column; ``0003`` the kept 复盘 reviews; ``0004`` the cluster's fencing numbers; ``0005``
puzzles (残局练习); ``0006`` the daily challenge (每日复式挑战); ``0007`` tournaments; ``0008``
clubs (亲友圈); ``0009`` widens a hand's result to 64 bits; ``0010`` a tournament's club
(club events). A database made before migrations existed (baofen's tables, no version
table) is stamped at ``0001`` and upgraded in place. Each run is one transaction, DDL
included (on SQLite too). The version is kept in the table ``baofen_version`` (not
Alembic's default name, so that baofen can share a database). On PostgreSQL the
migrations run inside the store's schema (``db_schema``) under a transaction-wide
advisory lock (on SQLite, the database's write lock), so servers starting together
migrate one after the other.

To change the schema: change :mod:`baofen.store.schema`, and add the revision that makes the same
change as ``versions/vNNNN_what.py`` (``revision = "NNNN"``, ``down_revision`` the previous one),
written with ``op.*`` calls only (no SQL text, so that it runs on SQLite and PostgreSQL alike).
``tests/server/test_migrations.py`` checks that the migrated database and the schema module
agree, on both.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, text
from sqlalchemy.schema import CreateSchema

VERSION_TABLE = "baofen_version"
"""Where the schema's revision is kept."""

BASELINE = "0001"
"""The schema of a database made before migrations."""

HEAD = "head"

_LOCK = 0x6261_6F66_656E  # "baofen": the advisory lock all migrating servers take


class SchemaTooNew(Exception):
    """The database was migrated by a newer version of baofen than this one."""


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent))
    return config


def latest() -> str:
    """The latest revision (what :func:`migrate` brings a database to)."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def migrate(engine: Engine, schema: str | None = None, revision: str = HEAD) -> None:
    """Bring the database to ``revision`` (the latest by default), in one transaction, creating
    the PostgreSQL ``schema`` when missing; :class:`SchemaTooNew` (nothing changed) when a
    newer baofen made it."""
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            # pysqlite runs DDL outside any transaction unless one is begun: this makes the
            # migration all-or-nothing, and takes the write lock at once (one server at a time).
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        if conn.dialect.name == "postgresql":
            conn.execute(text("select pg_advisory_xact_lock(:key)"), {"key": _LOCK})
            if schema is not None:
                # Under the lock: two servers creating it at once would collide.
                conn.execute(CreateSchema(schema, if_not_exists=True))
                quoted = conn.dialect.identifier_preparer.quote_identifier(schema)
                conn.execute(text("select set_config('search_path', :path, true)"),
                             {"path": quoted})
        inspector = inspect(conn)
        config = _config()
        config.attributes["connection"] = conn
        if inspector.has_table("baofen_tables", schema) and not inspector.has_table(
            VERSION_TABLE, schema
        ):
            command.stamp(config, BASELINE)
        current = MigrationContext.configure(
            conn, opts={"version_table": VERSION_TABLE}
        ).get_current_revision()
        known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
        if current is not None and current not in known:
            raise SchemaTooNew(
                f"the database's schema is at revision {current}, which this version of baofen "
                "does not know (a newer version made it): run the newer version"
            )
        command.upgrade(config, revision)
