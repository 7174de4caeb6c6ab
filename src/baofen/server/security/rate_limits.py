"""Rate limits: a token bucket per connection, and one per client address for what it creates
(tables, accounts)."""

from __future__ import annotations

import time


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self.last = time.monotonic()
        """When a message was last counted (``time.monotonic()``)."""

    def allow(self) -> bool:
        """Take one message's worth from the bucket; False when it is empty."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self.last) * self.rate)
        self.last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class CreationLimits:
    """A :class:`RateLimiter` of table creation per client address (``per_minute`` on
    average, bursts of ``burst``). Addresses whose bucket has refilled are forgotten, so the
    map stays as small as the set of recent creators."""

    def __init__(self, per_minute: float, burst: float) -> None:
        self.rate = per_minute / 60
        self.burst = burst
        self._limiters: dict[str, RateLimiter] = {}

    def allow(self, address: str) -> bool:
        """Count one creation from ``address``; False when it is over its limit."""
        limiter = self._limiters.get(address)
        if limiter is None:
            if len(self._limiters) >= 10_000:
                self._forget_refilled()
            limiter = self._limiters[address] = RateLimiter(self.rate, self.burst)
        return limiter.allow()

    def _forget_refilled(self) -> None:
        refill = self.burst / self.rate
        now = time.monotonic()
        self._limiters = {
            address: limiter for address, limiter in self._limiters.items()
            if now - limiter.last < refill
        }
