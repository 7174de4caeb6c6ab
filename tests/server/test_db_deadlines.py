"""A PostgreSQL connection of the store gives up on a peer that stopped answering within about
the store's timeout (TCP keepalives and ``tcp_user_timeout``), so that a node's writes move
again within seconds of a network cut healing instead of after TCP's retransmissions."""

from __future__ import annotations

import os
import time

import pytest
from sqlalchemy import text

from baofen.store import Store
from baofen.store.deadlines import tcp_deadlines

from .databases import POSTGRES_URL, postgres_unreachable


def test_the_deadlines_follow_the_timeout() -> None:
    assert tcp_deadlines(5.0) == {"keepalives": 1, "keepalives_idle": 3, "keepalives_interval": 1,
                                  "keepalives_count": 3, "tcp_user_timeout": 5000}
    short = tcp_deadlines(0.2)
    assert short["tcp_user_timeout"] == 1000 and short["keepalives_idle"] == 1


def test_every_postgresql_connection_has_them() -> None:
    reason = postgres_unreachable()
    if reason is not None:
        if os.environ.get("BAOFEN_TEST_REQUIRE_POSTGRES"):
            pytest.fail(reason)
        pytest.skip(reason)
    store = Store(POSTGRES_URL, timeout=2.0)
    try:
        raw = store.engine.raw_connection()
        try:
            parameters = raw.dbapi_connection.info.get_parameters()  # type: ignore[union-attr]
        finally:
            raw.close()
    finally:
        store.close()
    assert parameters["tcp_user_timeout"] == "2000"
    assert parameters["keepalives"] == "1" and parameters["keepalives_count"] == "1"


def test_a_transaction_whose_client_went_silent_ends_with_its_locks() -> None:
    """A node cut off between two statements of a write (its fence row locked) leaves an idle
    transaction on the server: it ends after the store's timeout, so the table is writable."""
    reason = postgres_unreachable()
    if reason is not None:
        if os.environ.get("BAOFEN_TEST_REQUIRE_POSTGRES"):
            pytest.fail(reason)
        pytest.skip(reason)
    store = Store(POSTGRES_URL, timeout=0.5)
    try:
        with store.engine.connect() as silent, store.engine.connect() as watcher:
            silent.begin()
            pid = silent.execute(text("select pg_backend_pid()")).scalar_one()
            time.sleep(2.0)  # no COMMIT comes: the client is cut off
            alive = watcher.execute(text(
                "select count(*) from pg_stat_activity where pid = :pid"
            ), {"pid": pid}).scalar_one()
            assert alive == 0
            silent.invalidate()
    finally:
        store.close()
