"""The challenge's day, and each game's deals of a day.

A day's deals are drawn when they are first asked for on that day (never before: a day in the
future is refused), from the server's secret when it has one (HMAC of the day's key: the same
on every server of a cluster, and after a restart) or else from a fresh random secret; either
way they are kept in the store, so that they never change during the day.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, date, datetime

from ...competition.daily import EventDeal, challenge_day, daily_key, event_deals
from ...store.challenges import Challenges
from ..config import ServerConfig


def utc_now() -> datetime:
    """The server's clock."""
    return datetime.now(UTC)


class Days:
    """The days of the challenge by ``clock`` (replaceable: the tests move the date)."""

    def __init__(self, config: ServerConfig, store: Challenges,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.config = config
        self.store = store
        self.clock = clock

    def today(self) -> date:
        """The challenge's day now, in the server's time zone."""
        return challenge_day(self.clock(), self.config.challenge_zone)

    def deals(self, variant: str, day: date) -> list[EventDeal]:
        """``variant``'s deals of ``day`` (today or before: ValueError for a later day; an
        earlier day that had no challenge has none). A blocking call (the store): run it off
        the event loop."""
        today = self.today()
        if day > today:
            raise ValueError(f"the challenge of {day.isoformat()} has not begun")
        if day < today:  # only today's are drawn: asking of a past day writes nothing
            return [EventDeal(int(deal["seed"]), int(deal["seat"]))
                    for deal in self.store.kept_deals(variant, day.isoformat())]
        secret = self.config.challenge_secret
        key = daily_key(variant, day)
        drawn = event_deals(secret.encode() if secret else secrets.token_bytes(32), key,
                            self.config.challenge_deals)
        kept = self.store.deals(variant, day.isoformat(),
                                [{"seed": deal.seed, "seat": deal.seat} for deal in drawn])
        return [EventDeal(int(deal["seed"]), int(deal["seat"])) for deal in kept]
