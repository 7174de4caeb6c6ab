"""The databases the persistence tests run on: a SQLite file, and PostgreSQL when reachable."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from baofen.server import ServerConfig
from baofen.store import Store

from .harness import FAST, ThreadServer

POSTGRES_URL = os.environ.get(
    "BAOFEN_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1/test"
)


class Database(NamedTuple):
    """Where a test's server keeps its tables."""

    url: str
    schema: str | None


def postgres_unreachable() -> str | None:
    """Why PostgreSQL cannot be used, or None when it can."""
    try:
        import psycopg
    except ImportError as error:
        return f"psycopg is not installed ({error})"
    try:
        plain = POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(plain, connect_timeout=3) as conn:
            conn.execute("select 1")
    except psycopg.Error as error:
        return f"PostgreSQL is unreachable at {POSTGRES_URL}: {error}"
    return None


def database(kind: str, tmp_path: Path) -> Iterator[Database]:
    """A fresh database of ``kind`` (a PostgreSQL schema of its own, dropped afterwards)."""
    if kind == "sqlite":
        yield Database(f"sqlite:///{tmp_path / 'baofen.db'}", None)
        return
    reason = postgres_unreachable()
    if reason is not None and os.environ.get("BAOFEN_TEST_REQUIRE_POSTGRES"):
        pytest.fail(reason)  # CI (.ci/run) has started it: its absence is a failure there
    if reason is not None:
        pytest.skip(reason)
    schema = f"baofen_test_{secrets.token_hex(6)}"
    try:
        yield Database(POSTGRES_URL, schema)
    finally:
        Store(POSTGRES_URL, schema).drop()


@contextmanager
def serving(db: Database, **settings: Any) -> Iterator[ThreadServer]:
    """A server (fast timers) on ``db`` with ``settings``."""
    live = ThreadServer(ServerConfig(
        db=db.url, db_schema=db.schema, **{**FAST, **settings}
    ))
    try:
        yield live
    finally:
        live.stop()
