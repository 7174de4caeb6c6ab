"""每日复式挑战 and other duplicate events: which deals an event plays, drawn so that nobody can
know them in advance.

An event (a day's challenge of one game, a tournament's round) is named by a key, e.g.
``daily/baofen/2026-12-06``. Its deals follow from a secret and that key through HMAC-SHA256:
without the secret no deal of any key can be worked out, and knowing some keys' deals (a
finished deal's seed is shown with its record) tells nothing of another key's. Each deal fixes
the match seed (the cards and, through it, the first caller) and the seat the entrant plays; the
computer players' seeds follow from the deal and their seat, so that two entrants who play
alike meet the same answers.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

SEED_BITS = 63
"""A match seed's bits (the store keeps it as a signed 64-bit integer)."""


@dataclass(frozen=True, slots=True)
class EventDeal:
    """One deal of an event: the match seed its table plays and the entrant's seat there."""

    seed: int
    seat: int

    def bot_seed(self, seat: int) -> int:
        """The seed of the computer player at ``seat`` of this deal (the same for everyone)."""
        if seat not in range(4):
            raise ValueError(f"a seat is 0–3, not {seat!r}")
        digest = hashlib.sha256(f"{self.seed}/{seat}".encode()).digest()
        return int.from_bytes(digest[:4], "big")


def event_deals(secret: bytes, key: str, count: int) -> list[EventDeal]:
    """The ``count`` deals of the event ``key`` under ``secret`` (deal ``n`` is item ``n-1``)."""
    if not secret:
        raise ValueError("the secret of an event's deals must not be empty")
    if count < 1:
        raise ValueError(f"an event has at least one deal, not {count}")
    deals = []
    for number in range(1, count + 1):
        digest = hmac.new(secret, f"{key}#{number}".encode(), hashlib.sha256).digest()
        seed = int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
        deals.append(EventDeal(seed, digest[8] % 4))
    return deals


def daily_key(variant: str, day: date) -> str:
    """The event key of ``variant``'s daily challenge of ``day``."""
    return f"daily/{variant}/{day.isoformat()}"


def challenge_day(now: datetime, zone: str) -> date:
    """The challenge's day at the moment ``now`` (aware), in the time zone ``zone``."""
    return now.astimezone(ZoneInfo(zone)).date()


def week_start(day: date) -> date:
    """The Monday of ``day``'s week (the week's leaderboard runs Monday to Sunday)."""
    return day - timedelta(days=day.weekday())
