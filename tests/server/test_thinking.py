"""The computer players think in a bounded pool, in turns by client: one visitor's many tables
of computer players take one turn, not every thread (and the GIL the event loop needs)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

import httpx
import pytest

from baofen import RuleSet
from baofen.bots import Bot, make_bot
from baofen.observation import Observation
from baofen.server.table import thinking
from baofen.server.table.seating import Seating
from baofen.server.table.thinking import FairPool

from .harness import ThreadServer, play_until_finished, start_with_bots

T = TypeVar("T")


def test_each_client_gets_a_turn_whatever_its_number_of_tables() -> None:
    pool = FairPool(1)
    gate = threading.Event()
    ran: list[str] = []

    def call(name: str) -> Callable[[], str]:
        def run() -> str:
            if name == "a0":
                gate.wait(10)  # the one thread is busy while the others queue
            ran.append(name)
            return name
        return run

    futures = [pool.submit("visitor", call(f"a{i}")) for i in range(8)]  # eight tables
    futures += [pool.submit("other", call("b0")), pool.submit("third", call("c0"))]
    futures.append(pool.submit("other", call("b1")))
    gate.set()
    assert [future.result(10) for future in futures] == [
        *(f"a{i}" for i in range(8)), "b0", "c0", "b1"]
    # The visitor's queued decisions take turns with the others': after the one running (a0),
    # one each, round and round, however many the visitor queued first.
    assert ran == ["a0", "a1", "b0", "c0", "a2", "b1", "a3", "a4", "a5", "a6", "a7"]


def test_a_decision_cancelled_before_its_turn_never_runs() -> None:
    pool = FairPool(1)
    gate = threading.Event()
    ran: list[int] = []
    first = pool.submit("x", lambda: gate.wait(10))
    second = pool.submit("x", lambda: ran.append(2))
    third = pool.submit("y", lambda: ran.append(3))
    assert second.cancel()
    gate.set()
    first.result(10)
    third.result(10)
    assert ran == [3] and second.cancelled()


def test_a_failing_decision_frees_its_thread() -> None:
    pool = FairPool(1)

    def fail() -> None:
        raise ValueError("a bot's bug")

    failed = pool.submit("x", fail)
    assert isinstance(failed.exception(10), ValueError)
    assert pool.submit("x", lambda: 7).result(10) == 7


class SlowBot:
    """A random player that takes a while to decide, counting the decisions made at once."""

    lock = threading.Lock()
    thinking = 0
    most = 0

    def __init__(self) -> None:
        self.bot = make_bot("random")

    def act(self, observation: Observation) -> Any:
        """The random player's action, after a pause."""
        cls = SlowBot
        with cls.lock:
            cls.thinking += 1
            cls.most = max(cls.most, cls.thinking)
        time.sleep(0.01)
        with cls.lock:
            cls.thinking -= 1
        return self.bot.act(observation)


class Recording(FairPool):
    """The pool, noting whose turn each decision was asked in."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.clients: list[str] = []

    def submit(self, client: str, call: Callable[[], T]) -> Future[T]:
        """Note ``client``, then queue the call."""
        self.clients.append(client)
        return super().submit(client, call)


def test_the_servers_computer_players_think_in_the_pool(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = Recording(1)
    monkeypatch.setattr(thinking, "POOL", pool)
    bots: dict[tuple[int, int], Bot] = {}

    def bot_for(table: Seating, number: int) -> Bot:
        return bots.setdefault((id(table), number), SlowBot())  # type: ignore[return-value]

    monkeypatch.setattr(Seating, "bot_for", bot_for)
    rules = RuleSet.baofen(hands=1)
    players = [start_with_bots(server.base, rules)[0] for _ in range(4)]  # one visitor's tables
    play_until_finished(players, rules)
    for player in players:
        player.close()
    # Every decision was asked in the pool, in the visitor's turn, and one ran at a time.
    assert pool.clients and set(pool.clients) == {"127.0.0.1"}
    assert len(pool.clients) >= 4 * 3 * 10  # three computer players a table, their plays
    assert SlowBot.most == 1


class BrokenBot:
    """A computer player that cannot decide (as the native core could not, once, with more bid
    values than it had room for)."""

    def act(self, observation: Observation) -> Any:
        """Fail."""
        raise RuntimeError("cannot decide")


def test_a_computer_player_that_cannot_decide_plays_the_rule_bots_choice_and_is_counted(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures = thinking.Failures()
    monkeypatch.setattr(thinking, "FAILURES", failures)
    chosen: list[tuple[Observation, Any]] = []
    rule = make_bot("rule")

    monkeypatch.setattr(Seating, "bot_for", lambda table, number: BrokenBot())
    original_act = make_bot

    def watched_make_bot(name: str, **options: Any) -> Bot:
        bot = original_act(name, **options)
        if name == "rule":
            decide = bot.act

            def act(observation: Observation) -> Any:
                action = decide(observation)
                chosen.append((observation, action))
                return action
            bot.act = act  # type: ignore[method-assign]
        return bot

    monkeypatch.setattr("baofen.server.table.driver.make_bot", watched_make_bot)
    rules = RuleSet.baofen(hands=1)
    player = start_with_bots(server.base, rules)[0]
    play_until_finished([player], rules)
    player.close()
    # Every computer decision failed and was made by the rule bot: the same choice a rule bot
    # makes there, never a random one; each failure counted, and /health shows the count.
    assert chosen and failures.count == len(chosen)
    assert all(action == rule.act(observation) for observation, action in chosen)
    health = httpx.get(f"{server.base}/health").json()
    assert health == {"status": "ok", "computer_failures": failures.count}
