"""The account store on its own (SQLite and PostgreSQL): a finished hand's results with a seat
whose account was deleted meanwhile are stored as a guest's, and rate nobody who is gone; a
deleted account's id is never given to a new account; puzzles from a player's hands only with
their consent, gone when it is withdrawn or the account deleted."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import insert, select

from baofen.store import Store
from baofen.store import schema as db
from baofen.store.accounts import Accounts, SeatResult, hand_results
from baofen.store.puzzles import Puzzles, consenting_hands

from .accounts import finished_hand
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


def player_puzzle(ident: str, account_id: int | None) -> dict[str, Any]:
    """A puzzle's data as the generator writes it (only what the store reads)."""
    source = "arena:easy" if account_id is None else f"player:{account_id}"
    return {"id": ident, "game": "hongwu", "kind": "play", "source": source}


def puzzle_rows(store: Store) -> dict[str, int | None]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(db.puzzles.c.id, db.puzzles.c.account_id)).all()
    return {ident: account for ident, account in rows}


def test_puzzles_from_a_players_hands_need_their_consent(store: Store) -> None:
    accounts = Accounts(store)
    ann = accounts.create("Ann", "ann", "ann", "hash")
    bob = accounts.create("Bob", "bob", "bob", "hash")
    assert not accounts.puzzle_consent(ann.id)  # off until the player says so
    accounts.set_puzzle_consent(ann.id, True)
    assert accounts.puzzle_consent(ann.id) and not accounts.puzzle_consent(bob.id)
    added = Puzzles(store).add([player_puzzle("a1", ann.id), player_puzzle("b1", bob.id),
                                player_puzzle("arena", None)])
    assert added == 2 and puzzle_rows(store) == {"a1": ann.id, "arena": None}
    solver = accounts.create("Sol", "sol", "sol", "hash")
    Puzzles(store).attempt("a1", solver.id, "S3", True, lambda s, p, won: (s, p))
    assert accounts.set_puzzle_consent(ann.id, False) == 1  # withdrawn: its puzzles go
    assert puzzle_rows(store) == {"arena": None}
    with store.engine.connect() as conn:
        assert conn.execute(select(db.puzzle_attempts)).all() == []


def test_a_deleted_accounts_puzzles_and_consent_are_gone(store: Store) -> None:
    accounts = Accounts(store)
    ann = accounts.create("Ann", "ann", "ann", "hash")
    accounts.set_puzzle_consent(ann.id, True)
    Puzzles(store).add([player_puzzle("a1", ann.id), player_puzzle("arena", None)])
    accounts.delete(ann.id)
    assert puzzle_rows(store) == {"arena": None}
    assert not accounts.puzzle_consent(ann.id)


def test_only_consenting_players_seats_of_finished_hands_are_searched(store: Store) -> None:
    accounts = Accounts(store)
    ann = accounts.create("Ann", "ann", "ann", "hash")
    bob = accounts.create("Bob", "bob", "bob", "hash")
    accounts.set_puzzle_consent(ann.id, True)
    finished_hand(store, "t1", [None, ann.id, bob.id, None])  # guests, Ann, Bob (no consent)
    finished_hand(store, "t2", [ann.id, None, None, None], status="playing")  # match goes on
    finished_hand(store, "t3", [ann.id, None, None, None], variant="baofen")  # another game
    finished_hand(store, "t4", [None, None, ann.id, None])
    with store.engine.begin() as conn:  # a daily challenge's deal: the challenge's own
        entry = conn.execute(insert(db.challenge_entries).values(
            variant="hongwu", day="2026-12-06", account_id=ann.id, name="Ann",
            created=datetime.now(UTC))).inserted_primary_key
        assert entry is not None
        conn.execute(insert(db.challenge_plays).values(
            entry_id=entry[0], deal=1, variant="hongwu", day="2026-12-06", table_code="t4",
            seat=2))
    hands = consenting_hands(store, "hongwu")
    assert [(h.key, h.account_id, h.record) for h in hands] == [
        ("t1/1/1", ann.id, {"hand": 1})]
    assert [h.key for h in consenting_hands(store, "baofen")] == ["t3/1/0"]
    accounts.set_puzzle_consent(ann.id, False)
    assert consenting_hands(store, "hongwu") == []
