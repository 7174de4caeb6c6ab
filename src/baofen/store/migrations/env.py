"""Alembic's environment: run on the connection :func:`baofen.store.migrations.migrate` gives."""

from __future__ import annotations

from alembic import context

from baofen.store.migrations import VERSION_TABLE
from baofen.store.schema import metadata

context.configure(
    connection=context.config.attributes["connection"],
    target_metadata=metadata,
    version_table=VERSION_TABLE,
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
