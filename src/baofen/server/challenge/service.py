"""Entering today's challenge, playing its next deal, and what an entrant may see of a deal.

A deal is played at a table of the lobby's, like 和电脑玩: private, one hand (the deal's seed
is the match's), no turn timers (the player's own pace), the entrant at the deal's seat and the
computer players of the challenge's level, each seeded from the deal and its seat. The deals are
played one by one: the next table is made only once the last deal is over.

What crosses to an entrant (docs/competition.md): of a deal, nothing before it has finished it;
then the deal's traveller, with other entrants' tables once the day is over. The day's board
is shown once the entrant has finished every deal, or once the day is over.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from ...ruleset import RuleSet
from ...store.accounts import Account
from ...store.async_store import AsyncStore
from ...store.challenges import Challenges, Entrant, Entry, Play
from ...wire.settings import TableSettings
from ..config import ServerConfig
from ..lobby.directory import Tables
from ..table.seats import TableError
from .days import Days
from .results import Results

T = TypeVar("T")


class ChallengeError(Exception):
    """A challenge request refused: ``code`` (machine-readable), ``status`` (HTTP), message."""

    def __init__(self, code: str, status: int, message: str) -> None:
        super().__init__(message)
        self.code, self.status, self.message = code, status, message


@dataclass(frozen=True, slots=True)
class Started:
    """The table of an entrant's deal: its code, the entrant's seat, and the seat token (on the
    deal's first asking only)."""

    deal: int
    code: str
    seat: int
    token: str | None


class Service:
    """The server's daily challenges."""

    def __init__(self, config: ServerConfig, tables: Tables, store: AsyncStore) -> None:
        self.config = config
        self.tables = tables
        self.store = store
        self.challenges = Challenges(store.store)
        self.days = Days(config, self.challenges)
        self.results = Results(self.challenges)
        self._starting: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        """Each entry's lock while a request of it is making its next table."""

    async def call(self, call: Callable[..., T], *args: object) -> T:
        """``call(*args)`` on the store in a worker thread, bounded by the database timeout."""
        return await asyncio.wait_for(asyncio.to_thread(call, *args), self.config.db_timeout)

    async def progress(self, variant: str, entrant: Entrant) -> tuple[date, Entry | None,
                                                                      list[Play]]:
        """Today, the entrant's entry (None before it entered) and its plays, settled now."""
        day = self.days.today()
        entry, plays = await self.entry_plays(variant, day, entrant)
        return day, entry, plays

    async def entry_plays(self, variant: str, day: date,
                          entrant: Entrant) -> tuple[Entry | None, list[Play]]:
        """The entrant's entry of ``day`` (None: it did not enter) and its plays, settled now."""
        entry = await self.call(self.challenges.entry, variant, day.isoformat(), entrant)
        if entry is None:
            return None, []
        await self.call(self.results.settle, variant, day, entry.id)
        return entry, await self.call(self.challenges.plays, entry.id)

    async def play(self, variant: str, entrant: Entrant, name: str, account: Account | None,
                   rated: bool) -> Started:
        """The table of the entrant's deal in play, or of its next deal, made and started now
        (the seat bound to ``account``, rated when ``rated``)."""
        day = self.days.today()
        deals = await self.call(self.days.deals, variant, day)
        entry = await self.call(self.challenges.enter, variant, day.isoformat(), entrant, name)
        lock = self._starting.setdefault(entry.id, asyncio.Lock())
        async with lock:  # one table a deal, however often the entrant asks at once
            await self.call(self.results.settle, variant, day, entry.id)
            plays = await self.call(self.challenges.plays, entry.id)
            current = next((play for play in plays if not play.finished), None)
            if current is not None:
                return Started(current.deal, current.table_code, current.seat, None)
            if len(plays) >= len(deals):
                raise ChallengeError("challenge_finished", 409,
                                     "you have played every deal of today's challenge")
            number = len(plays) + 1
            deal = deals[number - 1]
            settings = TableSettings(
                private=True, rated=rated, bot_level=self.config.challenge_level,
                bid_seconds=None, kitty_seconds=None, play_seconds=None, ready_seconds=None,
            )
            try:
                table = await self.tables.create(RuleSet.create(variant=variant, hands=1),
                                                 settings, deal.seed)
                if not await self.call(self.challenges.start, entry, number, table.code,
                                       deal.seat):
                    raise ChallengeError("try_again", 409, "the deal was started meanwhile")
                async with table.lock:
                    token = await table.seat_player(deal.seat, entry.name, account)
                    await table.fill_bots(self.config.challenge_level,
                                          {seat: deal.bot_seed(seat) for seat in range(4)})
                    await table.start()
            except TableError as error:
                raise ChallengeError("unavailable", 503, error.message) from None
            return Started(number, table.code, deal.seat, token)

    def finished(self, plays: list[Play], number: int) -> bool:
        """True when the entrant finished deal ``number``."""
        return any(play.deal == number and play.finished for play in plays)

    def day_over(self, day: date) -> bool:
        """True once ``day``'s challenge is over (every result may be shown)."""
        return day < self.days.today()

    async def check_day(self, day: date | None) -> date:
        """``day`` (default: today), refused when it is still to come."""
        today = self.days.today()
        if day is None:
            return today
        if day > today:
            raise ChallengeError("no_such_day", 404,
                                 f"the challenge of {day.isoformat()} has not begun")
        return day

