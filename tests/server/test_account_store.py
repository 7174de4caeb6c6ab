"""The account store on its own (SQLite and PostgreSQL): a finished hand's results with a seat
whose account was deleted meanwhile are stored as a guest's, and rate nobody who is gone; a
deleted account's id is never given to a new account."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from baofen.store import Store
from baofen.store import schema as db
from baofen.store.accounts import Accounts, SeatResult, hand_results

from .databases import database


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh store on SQLite, then on PostgreSQL."""
    for where in database(request.param, tmp_path):
        opened = Store(where.url, where.schema)
        yield opened
        opened.close()


def test_results_of_a_deleted_account_are_a_guests(store: Store) -> None:
    accounts = Accounts(store)
    kept = accounts.create("Kept", "kept", "kept", "hash")
    gone = accounts.create("Gone", "gone", "gone", "hash")
    accounts.delete(gone.id)
    store.create_table("t1", {"variant": "baofen"}, {}, 1)
    seats = [SeatResult(0, "human", kept.id, None), SeatResult(1, "human", gone.id, None),
             SeatResult(2, "bot", None, "hard"), SeatResult(3, "human", None, None)]
    result = SimpleNamespace(declarer=1, made=False)
    store.commit([hand_results("t1", 1, "baofen", True, False, seats, result, [5, -15, 5, 5])])
    with store.engine.connect() as conn:
        rows = conn.execute(select(db.results).order_by(db.results.c.seat)).all()
        rated = conn.execute(select(db.ratings)).all()
    assert [row.account_id for row in rows] == [kept.id, None, None, None]
    assert [row.role for row in rows] == ["defender", "declarer", "defender", "defender"]
    assert [row.result for row in rows] == [5, -15, 5, 5]
    assert [(row.account_id, row.hands) for row in rated] == [(kept.id, 1)]
    assert rated[0].mu > 25  # the declarer (a guest now) failed: the defenders gain
    stats = accounts.stats(kept.id)["baofen"]
    assert (stats.hands, stats.as_declarer, stats.result_sum, stats.rated_hands) == (1, 0, 5, 1)


def test_a_result_beyond_32_bits_is_stored(store: Store) -> None:
    """A 包分 pot doubled by 25 failed declarers in a row: the hand's result still fits."""
    store.create_table("t2", {"variant": "baofen"}, {}, 1)
    seats = [SeatResult(seat, "bot", None, "random") for seat in range(4)]
    pot = 100 * 2**25
    deltas = [-pot - 10, pot // 3, pot // 3, pot // 3]
    store.commit([hand_results("t2", 49, "baofen", False, False, seats,
                               SimpleNamespace(declarer=0, made=False), deltas)])
    with store.engine.connect() as conn:
        stored = conn.execute(select(db.results.c.result).order_by(db.results.c.seat)).scalars()
        assert list(stored) == deltas


def test_a_deleted_accounts_id_is_never_given_again(store: Store) -> None:
    accounts = Accounts(store)
    first = accounts.create("First", "first", "first", "hash")
    last = accounts.create("Last", "last", "last", "hash")
    accounts.open_session(last.id, "token", timedelta(hours=1))
    accounts.delete(last.id)  # the highest id: SQLite would hand it out again without a tombstone
    newcomer = accounts.create("Last", "last", "last", "hash2")  # the name is free again
    assert newcomer.id not in (first.id, last.id)
    assert accounts.session("token") is None
    assert accounts.password_hash(last.id) is None
    assert accounts.credentials("last") == (newcomer, "hash2")
    assert accounts.password_hash(newcomer.id) == "hash2"
