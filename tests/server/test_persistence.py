"""Persistence: kill the server mid-hand, restart it, and go on with nothing lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from baofen import Hand, RuleSet
from baofen.store import Store
from baofen.wire.settings import TableSettings

from .databases import Database, database
from .harness import Client, ProcessServer, Seated, create_table, finished, free_port


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """Each persistence test runs on SQLite and on PostgreSQL."""
    yield from database(request.param, tmp_path)


def start(db: Database, port: int) -> ProcessServer:
    """``baofen serve`` on ``db``; players have ample time to come back after a restart."""
    env = {"BAOFEN_DROP_GRACE": "60"}
    if db.schema:
        env["BAOFEN_DB_SCHEMA"] = db.schema
    return ProcessServer(db.url, port, env)


def mid_hand(state: dict[str, Any]) -> bool:
    """My turn, in the middle of the play of the first hand."""
    observation = state["observation"]
    return (
        observation is not None
        and observation["phase"] == "playing"
        and len(observation["tricks"]) >= 5
        and observation["to_act"] == state["you"]
    )


def test_kill_and_restart_mid_hand(db: Database) -> None:
    rules = RuleSet.baofen(hands=2)
    port = free_port()
    server = start(db, port)
    try:
        code = create_table(server.base, rules.to_dict(), timer=None)
        me = Seated(Client(server.base, code), rules, seed=5)
        token = me.client.join(0, "Ann")["token"]
        me.client.send(type="fill_bots", level="random")
        me.client.send(type="start")
        before = me.until(mid_hand)
        seen = [m for m in me.client.received if m["type"] == "state"]
        server.kill()
        me.client.close()

        server = start(db, port)
        info = httpx.get(f"{server.base}/api/tables/{code}").json()
        assert info["status"] == "playing"
        assert info["version"] == before["table"]["version"]  # nothing lost, nothing added
        again = Seated(Client(server.base, code), rules, seed=6)
        again.client.send(type="reclaim", token=token)
        assert again.client.expect("joined")["seat"] == 0
        resumed = again.client.expect("state")
        assert resumed["observation"] == before["observation"]
        assert resumed["table"]["match"] == before["table"]["match"]
        again.act(resumed)
        final = again.until(finished)
        assert final["table"]["match"]["finished"]

        records = httpx.get(f"{server.base}/api/tables/{code}/records").json()
        assert len(records) == 2
        first = records[0]
        Hand.from_record(first)
        # Every action seen or acknowledged before the kill is in the record, in its place:
        # event 1 is the start, so version v is action v - 2 of the first hand.
        for state in seen:
            if state["last"] is not None and state["table"]["match"]["hand_number"] == 1:
                action = first["actions"][state["table"]["match"]["step"] - 1]
                assert action == state["last"] or "declare" in action
        for version, message in me.acked.items():
            action = first["actions"][version - 2]
            assert action["seat"] == 0
            assert message["type"] in action
    finally:
        server.stop()


def test_restore_rebuilds_every_table(db: Database, tmp_path: Path) -> None:
    """A graceful restart resumes unfinished tables; a finished table keeps its records."""
    rules = RuleSet.hongwu(hands=1)
    port = free_port()
    server = start(db, port)
    try:
        playing = create_table(server.base, rules.to_dict(), timer=None)
        waiting = create_table(server.base, rules.to_dict(), private=True)
        me = Seated(Client(server.base, playing), rules, seed=1)
        me.client.join(2, "Bo")
        me.client.send(type="fill_bots")
        me.client.send(type="start")
        final = me.until(finished)
        other = Client(server.base, waiting)
        other.join(1, "Cy")
        server.stop()

        server = start(db, port)
        done = httpx.get(f"{server.base}/api/tables/{playing}").json()
        assert done["status"] == "finished"
        assert done["match"] == final["table"]["match"]
        still = httpx.get(f"{server.base}/api/tables/{waiting}").json()
        assert still["status"] == "waiting"
        assert [s["kind"] for s in still["seats"]] == [None, "human", None, None]
        store = Store(db.url, db.schema)
        try:
            (record,) = store.hand_records(playing)
            assert Hand.from_record(record).result is not None
        finally:
            store.close()
    finally:
        server.stop()


def test_settings_stored_with_one_turn_timer_still_load() -> None:
    # Tables stored before the per-phase timers kept one ``timer_seconds`` for every turn.
    settings = TableSettings.from_stored({"timer_seconds": 12.0, "bot_level": "rule"})
    assert (settings.bid_seconds, settings.kitty_seconds, settings.play_seconds) == (12.0,) * 3
    assert TableSettings.from_stored({"timer_seconds": None}).play_seconds is None
    with pytest.raises(ValueError, match="nonsense"):
        TableSettings.from_stored({"nonsense": 1})
