"""``baofen puzzles generate --from-db``: puzzles from the finished hands of the players who
consent, from their own seats only (never a guest's nor another player's), resumable, and
stored with the player's account."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from baofen.cli import app
from baofen.puzzles.shipped import shipped
from baofen.store import Store
from baofen.store import schema as db
from baofen.store.accounts import Accounts

from .accounts import finished_hand
from .databases import Database, database


@pytest.fixture
def sqlite(tmp_path: Path) -> Iterator[Database]:
    yield from database("sqlite", tmp_path)


def generate(*args: str) -> str:
    result = CliRunner().invoke(app, ["puzzles", "generate", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_only_a_consenting_players_own_seat_is_searched(sqlite: Database,
                                                        tmp_path: Path) -> None:
    store = Store(sqlite.url)
    accounts = Accounts(store)
    ann = accounts.create("Ann", "ann", "ann", "hash")
    bob = accounts.create("Bob", "bob", "bob", "hash")
    accounts.set_puzzle_consent(ann.id, True)
    # A hand whose seat 3 gives puzzles: Ann there; Bob (who did not consent) and guests
    # elsewhere. In the second, Bob holds seat 3.
    record = shipped("hongwu")[0]["record"]
    finished_hand(store, "t1", [bob.id, None, None, ann.id], record=record)
    finished_hand(store, "t2", [ann.id, None, None, bob.id], record=record)
    out = tmp_path / "players.jsonl"
    said = generate("5", "--game", "hongwu", "--workers", "1", "--out", str(out),
                    "--from-db", sqlite.url, "--store", "--db", sqlite.url)
    assert "2 seats of consenting players' finished hands" in said
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert found and all(p["seat"] == 3 and p["source"] == f"player:{ann.id}" for p in found)
    assert out.with_name("players.jsonl.hands").read_text().split() == ["t1/1/3", "t2/1/0"]
    with store.engine.connect() as conn:
        stored = conn.execute(select(db.puzzles.c.account_id)).scalars().all()
    assert stored == [ann.id] * len(found)
    # Run again: the hands searched are not searched again.
    again = generate("5", "--game", "hongwu", "--workers", "1", "--out", str(out),
                     "--from-db", sqlite.url)
    assert "deal t1" not in again and f"{len(found)} puzzles" in again
    accounts.set_puzzle_consent(ann.id, False)  # withdrawn: nothing of hers is searched
    assert "0 seats" in generate("5", "--game", "hongwu", "--out", str(tmp_path / "none.jsonl"),
                                 "--from-db", sqlite.url)
    store.close()
