"""The tournament director: runs each event's rounds on time, whatever happens.

Every event's state is in the store (:mod:`baofen.store.tournaments`), its tables are the
lobby's like any other, so the director keeps nothing of its own: each tick it reads every
event not over and moves it on — at the start time it closes registration (computer fillers
make up the last table) and seats round 1; when every table of a round has played its hands,
the countdown to the next round (or the end); when the countdown is out, the next round. A
server restarted mid-round finds the round's tables resumed by the lobby and goes on; a round
whose tables were stored but not yet started is started.

In cluster mode one node runs the director (:mod:`..cluster.directing`: the node that holds
its lease); a round's tables are the cluster's, served by any node, and the director reaches
them through :class:`RoundTables`.

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
from typing import Protocol

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


class RoundTables(Protocol):
    """The tables of the rounds, as the director reaches them."""

    async def create(self, rules: RuleSet, settings: TableSettings, seed: int) -> Table:
        """A new table, served here."""

    async def local(self, code: str) -> Table | None:
        """The table when it is served here (in cluster mode taken when no node serves it),
        else None."""

    async def status(self, code: str) -> str | None:
        """The status of a table served by another node (None: not known now)."""

    async def attend(self, code: str, playing: bool) -> None:
        """Tell the node serving the table that its round runs (or is over): :func:`attend`
        there."""


class LobbyRounds:
    """One server's round tables: all in its lobby."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def create(self, rules: RuleSet, settings: TableSettings, seed: int) -> Table:
        return await self.lobby.create(rules, settings, seed)

    async def local(self, code: str) -> Table | None:
        return await self.lobby.get(code)

    async def status(self, code: str) -> str | None:
        return None

    async def attend(self, code: str, playing: bool) -> None:
        return None


async def attend(table: Table, playing: bool) -> None:
    """While its round runs a table plays on unattended, closed to spectators; one stored but
    not started (the server stopped in between) starts. Once the round is over it may be
    watched and replayed."""
    if not playing:
        table.seating.tournament = False
        return
    if table.status == "finished" or table.seating.tournament:
        return
    table.seating.tournament = True
    async with table.lock:
        if table.status == "waiting":
            await table.start()
    table.timers.changed.set()  # the driver waited for somebody to attend


class Director:
    """Moves every event of ``tournaments`` on, seating its rounds at ``tables``."""

    def __init__(self, tournaments: Tournaments, tables: RoundTables, store: AsyncStore) -> None:
        self.tournaments = tournaments
        self.tables = tables
        self.store = store
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Whether the ticks run (here)."""
        return self._task is not None

    def start(self) -> None:
        """Start the ticks (after the lobby has resumed its tables)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop the ticks (everything is already stored)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

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
            statuses = [await self._keep_playing(t.code) for t in event.round_tables(event.round)]
            # Over when every table's match is (in memory, or as its node published it: no
            # read of the store each tick).
            if all(status == "finished" for status in statuses):
                await self._end_round(event)
        elif event.status == "break" and event.next_start and now >= event.next_start:
            await self._seat(event, event.round + 1)

    async def _get(self, code: str) -> StoredTournament:
        event = await asyncio.to_thread(self.tournaments.get, code)
        assert event is not None
        return event

    async def _keep_playing(self, code: str) -> str | None:
        """:func:`attend` a table of the round being played: its status (None: not known)."""
        table = await self.tables.local(code)
        if table is not None:
            await attend(table, True)
            return table.status
        status = await self.tables.status(code)
        if status != "finished":
            await self.tables.attend(code, True)
        return status

    async def _end_round(self, event: StoredTournament) -> None:
        for stored in event.round_tables(event.round):
            table = await self.tables.local(stored.code)
            if table is not None:
                await attend(table, False)
            else:
                await self.tables.attend(stored.code, False)
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
            table = await self.tables.create(rules, table_settings,
                                             round_seed(event.seed, number - 1))
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
        for table in games:
            await attend(table, True)
