"""Limits on password tries (sign-in, password change, account deletion), per client address and
per username.

A try is *taken* before its password is verified, atomically with the check that it is allowed,
and forgiven once the password proves right (or was never verified): so however many tries
arrive at once, no more are verified than the limits let through. Two limits:

- a client address may take ``failures`` tries per ``window`` seconds; then it waits until its
  oldest try leaves the window;
- a username may take ``failures`` tries per window at once; after them it *backs off*: each
  further try waits 1, 2, 4, … seconds after the name's latest one, at most
  ``window / failures`` seconds (so, from many addresses, about ``failures`` tries a window).
  A name is never locked for the whole window, so wrong passwords sent from elsewhere delay its
  owner by seconds, not minutes.

One server keeps the tries in memory (:class:`MemoryLimits`); the nodes of a cluster share them
in Redis (:class:`~..cluster.login_limits.RedisLimits`), so that more nodes do not give an
attacker more tries.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections import deque
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Attempt:
    """A password try taken against a client address and a username."""

    keys: tuple[str, str]
    """The address's key, then the name's."""
    mark: str
    """Tells this try from the others of its keys (what :meth:`LoginLimits.forgive` removes)."""
    local: bool = False
    """Counted in this process only (Redis did not answer)."""


class LoginLimits(Protocol):
    """Password tries by client address and username."""

    async def attempt(self, address: str, name: str) -> Attempt | int:
        """Take a try for ``address`` and the canonical username ``name``; when the limits
        refuse it, the whole seconds to wait instead (nothing is taken)."""

    async def forgive(self, attempt: Attempt) -> None:
        """The try's password was right (or not verified): it no longer counts."""

    async def close(self) -> None:
        """Let go of any connection."""


def try_keys(address: str, name: str) -> tuple[str, str]:
    """The keys a try of ``name`` from ``address`` counts under."""
    return "addr:" + address, "user:" + name


def whole_seconds(seconds: float) -> int:
    """A wait in whole seconds (at least one)."""
    return max(1, math.ceil(seconds))


class MemoryLimits:
    """The tries of one server process (each method runs on the event loop without awaiting,
    so the check and the take are one step)."""

    def __init__(self, failures: int, window: float) -> None:
        self.failures = failures
        self.window = window
        self._tries: dict[str, deque[tuple[float, str]]] = {}

    async def attempt(self, address: str, name: str) -> Attempt | int:
        """See :class:`LoginLimits`."""
        now = time.monotonic()
        if len(self._tries) >= 100_000:
            self._tries = {k: v for k, v in self._tries.items() if self._recent(k, now)}
        keys = try_keys(address, name)
        by_address, by_name = (self._recent(key, now) for key in keys)
        wait = 0.0
        if len(by_address) >= self.failures:
            wait = by_address[0][0] + self.window - now
        if len(by_name) >= self.failures:
            pause = min(self.window / self.failures, 2.0 ** (len(by_name) - self.failures))
            wait = max(wait, by_name[-1][0] + pause - now)
        if wait > 0:
            return whole_seconds(wait)
        attempt = Attempt(keys, secrets.token_hex(8))
        for key in keys:
            self._tries.setdefault(key, deque()).append((now, attempt.mark))
        return attempt

    async def forgive(self, attempt: Attempt) -> None:
        """See :class:`LoginLimits`."""
        for key in attempt.keys:
            tries = self._tries.get(key)
            if tries is not None:
                self._tries[key] = deque(t for t in tries if t[1] != attempt.mark)

    async def close(self) -> None:
        """Nothing to let go of."""

    def _recent(self, key: str, now: float) -> deque[tuple[float, str]]:
        tries = self._tries.get(key, deque())
        while tries and tries[0][0] <= now - self.window:
            tries.popleft()
        return tries
