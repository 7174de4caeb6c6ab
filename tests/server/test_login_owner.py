"""Password tries limited without handing anyone a weapon against an account's owner
(:class:`baofen.server.security.login_limits.MemoryLimits`, the rules RedisLimits shares): the
guesses from one address stop at the limit, while the owner, from another address, gets in after
a second at most; guesses spread over many addresses slow the name down to one try per
``window / failures`` seconds, never lock it for the window."""

from __future__ import annotations

import asyncio

import pytest

from baofen.server.security import login_limits
from baofen.server.security.login_limits import Attempt, MemoryLimits

FAILURES, WINDOW = 5, 300.0


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(login_limits.time, "monotonic", clock)
    return clock


def attempt(limits: MemoryLimits, address: str, name: str) -> Attempt | int:
    return asyncio.run(limits.attempt(address, name))


def test_an_attackers_guesses_stop_but_the_owner_gets_in(clock: Clock) -> None:
    limits = MemoryLimits(FAILURES, WINDOW)
    for _ in range(FAILURES):
        assert isinstance(attempt(limits, "10.0.0.66", "bob"), Attempt)  # wrong: never forgiven
    # the guessing address is refused for about the window, on this name and any other
    refused = attempt(limits, "10.0.0.66", "bob")
    assert isinstance(refused, int) and refused >= WINDOW - 1
    assert isinstance(attempt(limits, "10.0.0.66", "carol"), int)
    clock.now += 1.0
    owner = attempt(limits, "192.0.2.7", "bob")  # the owner, elsewhere, a second later
    assert isinstance(owner, Attempt)
    asyncio.run(limits.forgive(owner))  # the right password: the try no longer counts
    clock.now += WINDOW
    assert isinstance(attempt(limits, "10.0.0.66", "bob"), Attempt)  # the window passed


def test_guesses_from_many_addresses_slow_the_name_never_lock_it(clock: Clock) -> None:
    limits = MemoryLimits(FAILURES, WINDOW)
    waits = []
    for n in range(40):
        answer = attempt(limits, f"10.1.{n}.1", "bob")
        while isinstance(answer, int):
            waits.append(answer)
            clock.now += answer
            answer = attempt(limits, f"10.1.{n}.1", "bob")
    assert waits and max(waits) <= WINDOW / FAILURES  # at most a minute, never the window
    clock.now += WINDOW / FAILURES
    assert isinstance(attempt(limits, "192.0.2.7", "bob"), Attempt)  # the owner's turn comes
