"""The tournament director: runs each event's rounds on time, whatever happens.

Every event's state is in the store (:mod:`baofen.store.tournaments`), its tables are the
lobby's like any other, so the director keeps nothing of its own: each tick it reads every
event not over and moves it on — at the start time it closes registration (computer fillers
make up the last table) and seats round 1; when every table of a round has played its hands,
the countdown to the next round (or the end); when the countdown is out, the next round. A
server restarted mid-round finds the round's tables resumed by the lobby and goes on; a round
whose tables were stored but not yet started is started.

A round's tables play with nobody connected (the round keeps its time: an absent player's seat
is played by the computer, 托管, until they come back with their account or guest token) and
take no spectator until the round is over (:attr:`~..table.seating.Seating.tournament`).
A club's event records each table in its club (as a club table of the event) before anybody
is seated, so that its hands count in the club's results and the club's seating rules apply.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from ...competition.schedule import Format, fillers_for, round_seed, round_tables
from ...competition.seating import History
from ...ruleset import RuleSet
from ...store.accounts import Account
from ...store.async_store import AsyncStore
from ...store.club_records import ClubRecords
from ...store.clubs import ClubError
from ...store.tournaments import StoredRoundTable, StoredTournament, Tournaments
from ...wire.settings import TableSettings
from ..lobby.lobby import Lobby
from ..table.table import Table
from .results import standings

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5
"""How often the director looks at every event."""

READY_SECONDS = 10.0
"""Between two hands of a tournament table: the wait for the players' 继续."""


class Director:
    """Moves every event of ``tournaments`` on, seating its rounds in ``lobby``."""

    def __init__(self, tournaments: Tournaments, lobby: Lobby, store: AsyncStore) -> None:
        self.tournaments = tournaments
        self.lobby = lobby
        self.store = store
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the ticks (after the lobby has resumed its tables)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop the ticks (everything is already stored)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                for code in await asyncio.to_thread(self.tournaments.active):
                    await self.advance(code)
            except asyncio.CancelledError:
                raise
            except Exception:  # the store is down, or a bug: the next tick tries again
                log.exception("tournaments: a tick failed; trying again")
            await asyncio.sleep(TICK_SECONDS)

    async def advance(self, code: str) -> None:
        """Move one event on, as far as its time and its tables allow."""
        event = await asyncio.to_thread(self.tournaments.get, code)
        if event is None:
            return
        now = datetime.now(UTC)
        if event.status == "registering" and event.next_start and now >= event.next_start:
            people = [str(e.number) for e in event.entrants]
            fillers = fillers_for(people)
            if await asyncio.to_thread(self.tournaments.close_registration, code,
                                       [f"computer-{n}" for n in range(1, len(fillers) + 1)]):
                await self._seat(await self._get(code), 1)
        elif event.status == "playing":
            if not event.round_tables(event.round):  # stopped between registration and round 1
                await self._seat(event, max(1, event.round))
                return
            tables = await self._tables(event, event.round)
            await self._keep_playing(tables)
            # Over when every table's match is (in memory: no read of the store each tick).
            if len(tables) == len(event.round_tables(event.round)) and all(
                    table.status == "finished" for table in tables):
                await self._end_round(event)
        elif event.status == "break" and event.next_start and now >= event.next_start:
            await self._seat(event, event.round + 1)

    async def _get(self, code: str) -> StoredTournament:
        event = await asyncio.to_thread(self.tournaments.get, code)
        assert event is not None
        return event

    async def _tables(self, event: StoredTournament, number: int) -> list[Table]:
        tables = []
        for stored in event.round_tables(number):
            table = await self.lobby.get(stored.code)
            if table is not None:
                tables.append(table)
        return tables

    async def _keep_playing(self, tables: list[Table]) -> None:
        """The round's tables play on unattended, closed to spectators; a table stored but not
        started (the server stopped in between) starts."""
        for table in tables:
            if table.status == "finished" or table.seating.tournament:
                continue
            table.seating.tournament = True
            async with table.lock:
                if table.status == "waiting":
                    await table.start()
            table.timers.changed.set()  # the driver waited for somebody to attend

    async def _end_round(self, event: StoredTournament) -> None:
        for table in await self._tables(event, event.round):
            table.seating.tournament = False  # its play may be watched and replayed now
        settings = event.settings
        if event.round >= settings["rounds"]:
            await asyncio.to_thread(self.tournaments.set_status, event.code, "finished")
            log.info("tournament %s finished", event.code)
            return
        start = datetime.now(UTC) + timedelta(seconds=settings["break_seconds"])
        await asyncio.to_thread(self.tournaments.set_status, event.code, "break", start)

    async def _record_in_club(self, event: StoredTournament, code: str) -> None:
        """Record table ``code`` as a table of the club's event (a club dissolved since:
        the event plays on, recorded nowhere)."""
        assert event.club_id is not None
        try:
            await asyncio.to_thread(ClubRecords(self.store.store).opened, code, event.club_id,
                                    None, None, event.code)
        except ClubError:
            log.warning("tournament %s: its club is gone; table %s is no club's", event.code,
                        code)

    async def _seat(self, event: StoredTournament, number: int) -> None:
        """Seat round ``number``: its tables created, players and fillers seated, stored, then
        started."""
        if event.status == "cancelled" or number > event.settings["rounds"]:
            return
        settings = event.settings
        form = Format(settings["format"])
        history = History()
        for earlier in range(1, number):
            history.record(tuple(str(e) for e in t.entrants)  # type: ignore[misc]
                           for t in event.round_tables(earlier))
        order = [] if form is Format.duplicate else (await standings(self.store, event))[0]
        people = [str(e.number) for e in event.entrants if not e.filler]
        fillers = [str(e.number) for e in event.entrants if e.filler]
        seating = round_tables(form, people, fillers, history, order, number - 1, event.seed)
        rules = RuleSet.from_dict(event.rules).replace(hands=settings["hands"])
        table_settings = TableSettings(
            private=True, rated=settings["rated"], bot_level=settings["bot_level"],
            bid_seconds=settings["play_seconds"], kitty_seconds=3 * settings["play_seconds"],
            play_seconds=settings["play_seconds"], ready_seconds=READY_SECONDS,
            name=f"{settings['name'] or event.code}"[:32] + f" R{number}",
        )
        by_number = {e.number: e for e in event.entrants}
        stored: list[StoredRoundTable] = []
        games: list[Table] = []
        for index, seats in enumerate(seating):
            table = await self.lobby.create(rules, table_settings, round_seed(event.seed,
                                                                               number - 1))
            if event.club_id is not None:
                await self._record_in_club(event, table.code)
            async with table.lock:
                for seat, entrant_id in enumerate(seats):
                    entrant = by_number[int(entrant_id)]
                    if entrant.filler:
                        continue
                    account = None if entrant.account_id is None else Account(
                        entrant.account_id, entrant.name, event.created)
                    await table.seat_player(seat, entrant.name, account, entrant.token_hash)
                await table.fill_bots(settings["bot_level"])
            games.append(table)
            stored.append(StoredRoundTable(number, index, table.code,
                                           tuple(int(e) for e in seats)))  # type: ignore[arg-type]
        await asyncio.to_thread(self.tournaments.start_round, event.code, number, stored)
        log.info("tournament %s: round %d seated at %d tables", event.code, number, len(games))
        await self._keep_playing(games)
