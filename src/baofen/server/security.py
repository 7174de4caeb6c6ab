"""Secrets and limits: unguessable table codes and seat tokens, token hashes, rate limiting.

Codes and tokens come from :mod:`secrets`; only a token's SHA-256 hash is stored, so a leaked
database does not hand out seats. A token carries 192 random bits, so a fast hash is enough.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

CODE_BYTES = 12
"""Random bytes in a table code (96 bits: 16 URL-safe characters)."""
TOKEN_BYTES = 24
"""Random bytes in a seat token (192 bits: 32 URL-safe characters)."""


def new_table_code() -> str:
    """A fresh, unguessable table code."""
    return secrets.token_urlsafe(CODE_BYTES)


def new_seat_token() -> str:
    """A fresh, unguessable seat token (given once to the player, never stored)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_seed() -> int:
    """A fresh match seed (the deals follow from it, so it never leaves the server)."""
    return secrets.randbits(63)


def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """True when ``token`` is the one whose hash is ``stored_hash`` (constant-time compare)."""
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)


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
