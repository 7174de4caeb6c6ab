"""The server's hot path built directly (issue 27, item 6), checked against its definitions:
each seat's view made of what every seat sees alike and of its own part, and the patch found
part by part, rebuild exactly the whole views the table makes (the table's information the
:class:`TableInfo` model's JSON, the 记牌器 the engine's); an action's stored record is the
record model's JSON; a group of actions is stored in one statement and reads back in order."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy.exc import IntegrityError

from baofen import Hand, RuleSet
from baofen.bots import make_bot
from baofen.record import action_json
from baofen.server.connections import Connection
from baofen.server.tables import Table
from baofen.store import Event, Store
from baofen.store.async_store import AsyncStore
from baofen.store.database import event_appended
from baofen.wire.actions import action_record
from baofen.wire.cards import NAMES
from baofen.wire.observation import ObservationView
from baofen.wire.patch import apply
from baofen.wire.settings import TableSettings
from baofen.wire.table import TableInfo

from .databases import Database, database
from .doubles import SERVER, FakeStore, connection, no_driver
from .harness import run_async


class Watcher:
    """A connection's views, rebuilt from what the table queued to it."""

    def __init__(self, table: Table, connection: Connection) -> None:
        self.table, self.connection = table, connection
        self.view: dict[str, Any] | None = None
        self.patches = 0

    def check(self) -> int:
        """Rebuild every queued message; each view must be the table's whole view now."""
        checked = 0
        queue = self.connection._queue
        while not queue.empty():
            text = queue.get_nowait()
            assert text is not None
            message = json.loads(text)
            if message["type"] == "patch":
                assert self.view is not None and self.view["view"] == message["since"]
                message = apply(self.view, message)
                self.patches += 1
            assert message["type"] == "state"
            self.view = message
            seat = self.connection.view_seat
            assert {**message, "view": None} == {**self.table.state(seat), "view": None}
            info = message["table"]
            assert TableInfo.model_validate(info).model_dump(mode="json") == info
            observation = message["observation"]
            if observation is not None:
                seen = self.table.match.hand.observation(seat)  # type: ignore[union-attr]
                assert ObservationView.of(seen, self.table._tricks, bool(
                    observation["counter"])).model_dump(mode="json") == observation
                if observation["counter"] is not None:
                    assert observation["counter"] == dict(zip(NAMES, seen.counter(), strict=True))
            checked += 1
        return checked


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_patches_rebuild_the_whole_views(variant: str) -> None:
    async def test() -> None:
        checked = 0
        for seed, counter in ((0, True), (1, False)):
            settings = TableSettings(bid_seconds=None, kitty_seconds=None, play_seconds=None,
                                     card_counter=counter)
            table = await Table.create(
                "unit", RuleSet.create(variant=variant, hands=2), settings,
                cast(AsyncStore, FakeStore()), SERVER, no_driver,
            )
            watchers: list[Watcher] = []
            for seat in range(3):
                watchers.append(Watcher(table, connection()))
                await table.join(watchers[-1].connection, seat, f"p{seat}")
                checked += sum(watcher.check() for watcher in watchers)
            await table.fill_bots("random")
            spectator = Watcher(table, connection())
            table.watch(spectator.connection)
            table.send_state(spectator.connection)
            watchers.append(spectator)
            checked += sum(watcher.check() for watcher in watchers)
            await table.start()
            bots = [make_bot("random", seed=seed * 4 + seat) for seat in range(4)]
            while table.status == "playing":
                checked += sum(watcher.check() for watcher in watchers)
                assert table.match is not None
                hand = table.match.hand
                if hand.phase == "done":
                    for seat in range(3):
                        table.set_ready(seat)
                        checked += sum(watcher.check() for watcher in watchers)
                    await table.next_hand()
                    continue
                seat = hand.to_act
                assert seat is not None
                await table.act(seat, bots[seat].act(hand.observation(seat)))
            checked += sum(watcher.check() for watcher in watchers)
            assert all(watcher.patches > 10 for watcher in watchers), [w.patches for w in watchers]
            assert table.public == TableInfo.model_validate(table.state(None)["table"])
            table.close()
        assert checked > 1000

    run_async(test())


def test_an_actions_stored_record_is_the_record_models() -> None:
    for variant in ("baofen", "hongwu"):
        for seed in range(6):
            hand = Hand(RuleSet.create(variant=variant), seed=seed)
            bots = [make_bot("random", seed=seed * 4 + seat) for seat in range(4)]
            for seat in hand.turns():
                action = bots[seat].act(hand.observation(seat))
                record = action_record(seat, action).model_dump(mode="json")
                assert json.dumps(action_json(seat, action)) == json.dumps(record)
                hand.apply(seat, action)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    yield from database(request.param, tmp_path)


def test_a_group_of_actions_is_stored_in_one_statement_in_order(db: Database) -> None:
    store = Store(db.url, db.schema)
    try:
        for code in ("AAAA", "BBBB"):
            store.create_table(code, {}, {}, 1)
        writes = []
        for seq in range(1, 6):
            for code in ("AAAA", "BBBB"):
                payload = {"seat": seq % 4, "play": f"S{seq + 1}"}
                writes.append(event_appended(code, Event(seq, "action", payload)))
        writes.insert(3, event_appended("AAAA", Event(6, "next", {}), status="playing"))
        with pytest.raises(IntegrityError):  # a seq already stored: the whole group is refused
            store.commit([*writes, event_appended("BBBB", Event(1, "action", {}))])
        assert store.load("AAAA").events == []  # type: ignore[union-attr]
        store.commit(writes)
        events = store.load("AAAA").events  # type: ignore[union-attr]
        assert [(e.seq, e.kind) for e in events] == [(n, "action") for n in range(1, 6)] + [
            (6, "next")
        ]
        assert events[2].payload == {"seat": 3, "play": "S4"}
        assert len(store.load("BBBB").events) == 5  # type: ignore[union-attr]
    finally:
        store.drop() if db.schema is not None else store.close()


def test_a_writers_group_of_log_rows_alone_is_stored_whole_or_not_at_all(db: Database) -> None:
    """The writer thread's held connection: a group of log rows is refused whole when one row
    is; a new one serves the writes after it, groups of rows alone and of other writes."""
    store = Store(db.url, db.schema)
    writer = store.writer()
    try:
        store.create_table("CCCC", {}, {}, 1)
        writes = [event_appended("CCCC", Event(seq, "action", {"seat": seq % 4, "bid": None}))
                  for seq in range(1, 5)]
        with pytest.raises(Exception) as refused:  # seq 1 twice: none of them is stored
            store.commit([*writes, event_appended("CCCC", Event(1, "action", {}))], writer)
        assert "unique" in str(refused.value).lower()
        writer.close()
        writer = store.writer()
        assert store.load("CCCC").events == []  # type: ignore[union-attr]
        store.commit(writes, writer)
        store.commit([event_appended("CCCC", Event(5, "next", {}), status="playing")], writer)
        store.commit([event_appended("CCCC", Event(6, "action", {"seat": 1, "bid": 90}))], writer)
        stored = store.load("CCCC")
        assert stored is not None and stored.status == "playing"
        assert [(e.seq, e.kind) for e in stored.events] == [
            (1, "action"), (2, "action"), (3, "action"), (4, "action"), (5, "next"), (6, "action")
        ]
        assert stored.events[5].payload == {"seat": 1, "bid": 90}
    finally:
        writer.close()
        store.drop() if db.schema is not None else store.close()


def test_writes_of_one_round_are_committed_together(tmp_path: Path) -> None:
    async def test() -> None:
        store = AsyncStore(Store(f"sqlite:///{tmp_path / 'group.db'}"), 5.0)
        try:
            await store.create_table("CCCC", {}, {}, 1)
            groups = store.groups
            await asyncio.gather(*(
                store.append("CCCC", Event(seq, "action", {"seat": 0, "bid": None}), None, None)
                for seq in range(1, 11)
            ))
            assert store.groups == groups + 1 and store.writes == 11
        finally:
            store.close()
        events = Store(f"sqlite:///{tmp_path / 'group.db'}").load("CCCC").events  # type: ignore[union-attr]
        assert [event.seq for event in events] == list(range(1, 11))

    run_async(test())
