"""A :class:`Table` driven directly with asyncio against a store double held in memory (no
uvicorn, no database, :mod:`.fakes`): its seating, its log and its views one step at a time,
what :mod:`.test_lost_commits` and :mod:`.test_seats` check through a live server."""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

import pytest

from baofen.errors import IllegalAction
from baofen.server.table import Table, TableError
from baofen.server.table import table as table_module
from baofen.store.async_store import AsyncStore
from baofen.wire.actions import action_record
from baofen.wire.events import ActionEvent, AwayEvent, NextEvent, StartEvent, read_event

from .fakes import (
    SERVER,
    FakeStore,
    connection,
    legal,
    new_table,
    no_driver,
    received,
    run,
    started,
    state_of,
)

# -- seating -----------------------------------------------------------------------------------


def test_join_and_leave_before_the_start() -> None:
    async def test() -> None:
        store = FakeStore()
        table = await new_table(store)
        me = connection()
        token = await table.join(me, 1, "Ann")
        assert token and me.role == "player" and me.seat == 1
        seats = store.tables["unit"].seats
        assert [(seat.seat, seat.kind, seat.name) for seat in seats] == [(1, "human", "Ann")]
        with pytest.raises(TableError) as taken:
            await table.join(connection(), 1, "Bob")
        assert taken.value.code == "seat_taken"
        await table.leave(me)
        assert table.seats[1].kind is None and store.tables["unit"].seats == []
        assert me.role == "spectator" and received(me)[-1]["type"] in ("state", "patch")
        assert store.log() == []

    run(test)


def test_a_refused_seat_write_changes_nothing() -> None:
    async def test() -> None:
        store = FakeStore()
        table = await new_table(store)
        before = state_of(table, None)
        store.refuse = 1
        with pytest.raises(TableError) as refused:
            await table.join(connection(), 0, "Ann")
        assert refused.value.code == "unavailable"
        assert table.seats[0].kind is None and not table.seating.connections
        assert state_of(table, None) == before

    run(test)


def test_fill_and_start_write_the_seats_and_the_start_event() -> None:
    async def test() -> None:
        store = FakeStore()
        table = await new_table(store)
        with pytest.raises(TableError) as empty:
            await table.start()
        assert empty.value.code == "seats_empty"
        me = connection()
        await table.join(me, 0, "me")
        assert await table.fill_bots("random") == [1, 2, 3]
        await table.start()
        assert table.status == "playing" and table.version == 1
        assert store.log() == [("start", {})] and store.tables["unit"].status == "playing"
        assert [s.kind for s in store.tables["unit"].seats] == ["human", "bot", "bot", "bot"]
        with pytest.raises(TableError) as again:
            await table.fill_bots("random")
        assert again.value.code == "already_started"
        assert received(me)[-1]["type"] == "patch" and table.public.status == "playing"

    run(test)


def test_leaving_and_reclaiming_in_the_match_are_away_events() -> None:
    async def test() -> None:
        store = FakeStore()
        table, me, token = await started(store)
        await table.leave(me)
        assert table.match is not None and table.match.away == {0}
        assert table.seating.computer_plays(0)
        again = connection()
        seat, _ = await table.reclaim(again, token)
        assert seat.number == 0 and not table.match.away and not table.seating.computer_plays(0)
        assert store.log()[1:] == [("away", {"seat": 0, "away": True}),
                                   ("away", {"seat": 0, "away": False})]

    run(test)


def test_a_dropped_player_has_left_after_the_grace() -> None:
    async def test() -> None:
        store = FakeStore()
        table = await new_table(store, SERVER.model_copy(update={"drop_grace": 0.01}))
        me = connection()
        await table.join(me, 0, "me")
        await table.fill_bots("random")
        await table.start()
        table.disconnect(me)
        assert table.seats[0].drop_timer is not None and not table.seating.attended
        await asyncio.sleep(0.1)
        assert table.match is not None and table.match.away == {0}
        assert store.log()[-1] == ("away", {"seat": 0, "away": True})
        table.close()

    run(test)


# -- the match and its log ---------------------------------------------------------------------


def test_an_action_is_stored_as_its_record_and_shown() -> None:
    async def test() -> None:
        store = FakeStore()
        table, me, _ = await started(store)
        received(me)
        seat, action = legal(table)
        await table.act(seat, action)
        assert table.version == 2
        assert store.log()[-1] == ("action", action_record(seat, action).model_dump(mode="json"))
        assert [message["type"] for message in received(me)] == ["patch"]

    run(test)


def test_a_refused_action_leaves_the_table_as_it_was() -> None:
    async def test() -> None:
        store = FakeStore()
        table, _, _ = await started(store)
        seat, action = legal(table)
        before, log = state_of(table), store.log()
        store.refuse = 1
        with pytest.raises(TableError) as refused:
            await table.act(seat, action)
        assert refused.value.code == "unavailable"
        assert state_of(table) == before and table.version == 1 and store.log() == log
        other = (seat + 1) % 4  # not this seat's turn: illegal, nothing written
        with pytest.raises(IllegalAction):
            await table.act(other, action)
        assert state_of(table) == before and store.writes == 6  # the table, 4 seats, start
        await table.act(seat, action)  # the store answers again: the action goes through
        assert table.version == 2

    run(test)


def test_a_lost_commit_answer_is_read_back() -> None:
    async def test() -> None:
        store = FakeStore()
        table, _, _ = await started(store)
        seat, action = legal(table)
        store.lose = 1
        await table.act(seat, action)  # stored: that is the outcome, no error
        assert table.version == 2 and len(store.log()) == 2
        assert table.match is not None and len(table.match.hand.actions) == 1

    run(test)


def test_a_stale_table_recovers_and_answers_the_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "RECOVER_SECONDS", 0.01)

    async def test() -> None:
        store = FakeStore()
        table, me, _ = await started(store)
        seat, action = legal(table)
        store.lose, store.down = 1, True
        with pytest.raises(TableError) as lost:
            await table.act(seat, action)
        assert lost.value.code == "unavailable" and table.version == 1
        received(me)
        store.down = False
        for _ in range(100):  # the table reads its log once the store answers, on its own
            await asyncio.sleep(0.01)
            if table.version == 2:
                break
        assert table.version == 2 and received(me)
        writes = store.writes
        await table.act(seat, action)  # the player's retry of the stored action: answered
        assert store.writes == writes and table.version == 2

    run(test)


def test_a_fenced_write_closes_the_table() -> None:
    async def test() -> None:
        store = FakeStore()
        table, me, _ = await started(store)
        seat, action = legal(table)
        store.refuse, store.fenced = 1, True
        with pytest.raises(TableError):
            await table.act(seat, action)
        await asyncio.sleep(0)
        assert table.closed and me.closing and table.version == 1

    run(test)


def test_a_restored_table_is_the_live_one() -> None:
    async def test() -> None:
        store = FakeStore()
        table, me, _ = await started(store)
        for step in range(40):
            seat, action = legal(table, seed=step)
            await table.act(seat, action)
        await table.leave(me)
        stored = await store.load("unit")
        assert stored is not None
        again = Table.restore(stored, cast(AsyncStore, store), SERVER, no_driver)
        assert again.version == table.version == 42
        for seat in (None, 0, 1):
            assert state_of(again, seat) == state_of(table, seat)

    run(test)


def test_a_whole_hand_then_the_next_deal() -> None:
    async def test() -> None:
        store = FakeStore()
        table, _, _ = await started(store)
        assert table.match is not None
        step = 0
        while table.match.hand.phase != "done":
            seat, action = legal(table, seed=step)
            await table.act(seat, action)
            step += 1
        assert table.between_hands
        table.set_ready(0)
        assert table.everyone_ready
        await table.next_hand()
        assert table.match.number == 2 and store.log()[-1] == ("next", {})

    run(test)


# -- the events on the wire --------------------------------------------------------------------


STORED = [
    ("start", {}),
    ("action", {"seat": 0, "bid": 85}),
    ("action", {"seat": 1, "bid": None}),
    ("action", {"seat": 0, "declare": {"trump": "S", "bury": "C3 C4 C5 C6 C7 C8 C9 CT"}}),
    ("action", {"seat": 0, "play": "SA SK"}),
    ("away", {"seat": 2, "away": True}),
    ("next", {}),
]
"""Rows as the store has always kept them."""


@pytest.mark.parametrize(("kind", "payload"), STORED)
def test_stored_events_read_and_write_the_same_json(kind: str, payload: dict[str, Any]) -> None:
    event = read_event(kind, payload)
    assert event.kind == kind
    assert json.dumps(event.payload_data()) == json.dumps(payload)


def test_each_kind_is_its_own_type() -> None:
    kinds = [type(read_event(kind, payload)) for kind, payload in STORED]
    assert kinds == [StartEvent, ActionEvent, ActionEvent, ActionEvent, ActionEvent, AwayEvent,
                     NextEvent]
    for kind, payload in [("bogus", {}), ("start", {"x": 1}), ("away", {"seat": 4, "away": True}),
                          ("action", {"seat": 0})]:
        with pytest.raises(ValueError):
            read_event(kind, payload)



def test_a_whole_view_pairs_the_match_with_its_own_version() -> None:
    """The match moved without a broadcast (its log read back from the store): a ``sync``
    is answered with the version of the match it shows, not the last broadcast's."""
    async def test() -> None:
        store = FakeStore()
        table, me, _ = await started(store)
        seat, action = legal(table)
        events = list(table.log._events)
        await table.act(seat, action)
        moved = list(table.log._events)
        table.log.replay(events)  # as the last broadcast showed it ...
        table.views.broadcast()
        table.log.replay(moved)  # ... then read back from the store, not broadcast
        received(me)
        table.views.send_state(me)
        (state,) = received(me)
        assert state["table"]["version"] == table.version == 2
        assert state["observation"] == table.views.state(0)["observation"]

    run(test)
