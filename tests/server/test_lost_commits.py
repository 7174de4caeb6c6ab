"""A commit whose answer is lost: the database stored the event but the
server was told the write failed. The server reads its log back and every view shows the true
state; the acting client learns the real outcome; a table left stale recovers on its own once
the database answers again. Real servers on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .databases import Database, database, serving
from .harness import Client, ThreadServer, my_turn_at_new_table


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """Each test runs on SQLite and on PostgreSQL."""
    yield from database(request.param, tmp_path)


def answer_lost_once(live: ThreadServer) -> Callable[[], None]:
    """The store's next commit reaches the database, but its answer is lost (an error is
    raised after it). Returns what puts the store back."""
    store = live.app.state.lobby.store.store
    commit = store.commit
    lost = [False]

    def commit_then_fail(*args: Any, **kwargs: Any) -> Any:
        commit(*args, **kwargs)
        if not lost[0]:
            lost[0] = True
            raise OSError("the connection closed before COMMIT was answered")

    store.commit = commit_then_fail

    def restore() -> None:
        store.commit = commit

    return restore


def watcher(live: ThreadServer, code: str) -> Client:
    """A spectator of the table."""
    spectator = Client(live.base, code)
    spectator.send(type="watch")
    spectator.expect("joined")
    spectator.expect("state")
    return spectator


def my_bids(state: dict[str, Any]) -> list[int]:
    return [value for seat, value in state["observation"]["bids"] if seat == 0]


def wait_for_bid(client: Client, limit: float = 10.0) -> dict[str, Any]:
    """The first state ``client`` receives in which seat 0 has bid."""
    deadline = time.monotonic() + limit
    while True:
        state = client.expect("state", timeout=max(0.0, deadline - time.monotonic()))
        if my_bids(state):
            return state


def test_a_lost_commit_answer_is_read_back_and_shown(db: Database) -> None:
    with serving(db, db_timeout=2.0) as live:
        me = my_turn_at_new_table(live.base)
        code = me.url.rsplit("/", 1)[1]
        spectator = watcher(live, code)
        restore = answer_lost_once(live)
        try:
            me.send(type="bid", value=85, id="lost")
            answer = me.expect("ack", timeout=10)  # the bid is stored: that is the outcome
            assert answer["id"] == "lost"
        finally:
            restore()
        assert my_bids(wait_for_bid(spectator)) == [85]  # every view shows the stored bid
        assert my_bids(me.snapshot()) == [85]
        me.close()
        spectator.close()


def test_a_stale_table_recovers_and_answers_the_retry_from_its_log(db: Database) -> None:
    with serving(db, db_timeout=2.0) as live:
        me = my_turn_at_new_table(live.base)
        code = me.url.rsplit("/", 1)[1]
        spectator = watcher(live, code)
        store = live.app.state.lobby.store.store
        load = store.load

        def down(*args: Any, **kwargs: Any) -> Any:
            raise OSError("the database is down")

        restore = answer_lost_once(live)
        store.load = down  # the log cannot be read back at once either
        try:
            me.send(type="bid", value=85, id="lost")
            assert me.expect("error", timeout=10)["code"] == "unavailable"
        finally:
            restore()
            store.load = load
        # Nobody acts: the table reads its log as soon as the database answers and shows it.
        assert my_bids(wait_for_bid(spectator)) == [85]
        me.send(type="bid", value=85, id="retry")  # the player's retry of the stored bid
        assert me.expect("ack", timeout=10)["id"] == "retry"
        assert my_bids(me.snapshot()) == [85]
        assert my_bids(spectator.snapshot()) == [85]
        me.close()
        spectator.close()


def test_a_write_given_up_on_that_lands_later_is_shown_at_the_next_change(db: Database) -> None:
    """The first write's answer never comes and the log read back does not hold it yet: the
    player is told it failed. It lands a moment later; the player's next (other) action then
    collides with it. The table reads the log back and shows every view the stored bid at
    once: nobody is left acting on a state that is gone."""
    with serving(db, db_timeout=2.0) as live:
        me = my_turn_at_new_table(live.base)
        code = me.url.rsplit("/", 1)[1]
        spectator = watcher(live, code)
        store = live.app.state.lobby.store.store
        commit = store.commit
        late: list[tuple[Any, Any]] = []

        def slow_commit(*args: Any, **kwargs: Any) -> Any:
            if not late:  # the first write is still under way when its caller stops waiting
                late.append((args, kwargs))
                raise OSError("the database did not answer in time")
            commit(*late[0][0], **late[0][1])  # ... and lands just before the next one
            store.commit = commit
            return commit(*args, **kwargs)

        store.commit = slow_commit
        try:
            me.send(type="bid", value=85, id="lost")
            assert me.expect("error", timeout=10)["code"] == "unavailable"
            me.send(type="bid", value=90, id="other")
            assert me.expect("error", timeout=10)["code"] == "unavailable"
        finally:
            store.commit = commit
        assert my_bids(wait_for_bid(spectator)) == [85]
        assert my_bids(me.snapshot()) == [85]
        me.close()
        spectator.close()
