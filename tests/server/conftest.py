"""Fixtures: a live server on loopback with a fresh SQLite file per test, or on each database
(SQLite, then PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from baofen.server import ServerConfig

from .databases import database, serving
from .harness import FAST, ThreadServer


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'baofen.db'}"


@pytest.fixture
def server(db_url: str) -> Iterator[ThreadServer]:
    """A running server (fast timers) on a fresh database."""
    live = ThreadServer(ServerConfig(db=db_url, **FAST))
    yield live
    live.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ThreadServer]:
    """A running server (fast timers) on SQLite, then on PostgreSQL."""
    for db in database(request.param, tmp_path):
        with serving(db) as live:
            yield live
