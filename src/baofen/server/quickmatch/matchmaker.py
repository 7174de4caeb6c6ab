"""匹配 (quick match): players asking for a game of one variant are seated together as they
come; four start at once, and once the first of them has waited ``match_wait_seconds`` the
computer (level normal) fills the empty seats and the match starts. Quick-match tables are
private, and rated when every player at them is signed in. Two tickets of one client address
(behind the trusted proxies), or of one browser (its
:data:`~..routes.quickmatch.BROWSER_COOKIE`), are never seated at one table, unless they are one
account's (:func:`.line.table_group`).

Nothing runs in the background: asking for a ticket, and every poll of one, moves its line on
(:meth:`Matchmaker.step`). Whichever server process takes a group makes the table; the other
players' processes read their seats from the shared line.
"""

from __future__ import annotations

import logging
import secrets

from ...bots import BotLevel
from ...ruleset import RuleSet
from ...setting import Variant
from ...store.accounts import Account
from ...store.async_store import AsyncStore, StoreUnavailable
from ...wire.quickmatch import MatchTicket
from ...wire.settings import TableSettings
from ..lobby.directory import Tables
from ..table.seats import TableError
from .line import STALE_SECONDS, MatchQueue, SeatAssignment, TicketState, Waiting

log = logging.getLogger(__name__)

BOT_LEVEL: BotLevel = "normal"
"""Level of the computer players who fill a quick-match table."""


class Matchmaker:
    """Seats the players of ``queue`` at new tables of ``tables``."""

    def __init__(self, queue: MatchQueue, tables: Tables, wait: float, store: AsyncStore) -> None:
        self.queue = queue
        self.tables = tables
        self.wait = wait
        self.store = store

    async def ask(self, variant: Variant, name: str, account: Account | None,
                  address: str = "", browser: str = "") -> MatchTicket:
        """A new ticket in ``variant``'s line (seated at once when it makes four) for a client
        at ``address`` in ``browser``; a signed-in player waits under the account's name."""
        if account is not None:
            name = account.username
        ticket = secrets.token_urlsafe(16)
        await self.queue.put(Waiting(ticket, variant, name, account, address, browser))
        view = await self.view(ticket)
        assert view is not None
        return view

    async def view(self, ticket: str, claim: bool = True) -> MatchTicket | None:
        """The ticket as its holder sees it, after moving its line on (None: no such ticket);
        its seat token only the first time it is seated, with ``claim``."""
        state = await self.queue.state(ticket, claim)
        if state is None:
            return None
        if state.status == "waiting" and await self.step(state.waiting.variant):
            state = await self.queue.state(ticket, claim) or state
        return self._ticket(state)

    async def step(self, variant: Variant) -> bool:
        """Seat the group of ``variant``'s line that is due, if any; True if one was."""
        group = await self.queue.take(variant, self.wait, STALE_SECONDS)
        if group:
            await self._seat(variant, group)
        return bool(group)

    async def _seat(self, variant: Variant, group: list[Waiting]) -> None:
        """A started table with ``group`` in seats 0, 1, … as they came and the
        computer in the others; when it cannot be made, the group's tickets are cancelled.
        An account that asked twice (two tabs) has one seat, which both tickets are given."""
        assignments: dict[str, SeatAssignment] = {}
        try:
            rated = await self._rated(group)
            table = await self.tables.create(
                RuleSet.create(variant=variant), TableSettings(private=True, rated=rated)
            )
            async with table.lock:
                by_account: dict[int, SeatAssignment] = {}
                number = 0
                for waiting in group:
                    account = waiting.account
                    if account is not None and account.id in by_account:
                        assignments[waiting.ticket] = by_account[account.id]
                        continue
                    token = await table.seat_player(number, waiting.name, account)
                    assignment = SeatAssignment(table.code, number, token)
                    assignments[waiting.ticket] = assignment
                    number += 1
                    if account is not None:
                        by_account[account.id] = assignment
                await table.fill_bots(BOT_LEVEL)
                await table.start()
        except (TableError, StoreUnavailable) as error:
            log.warning("quick match: no table for %d players: %s", len(group), error)
            assignments = {}
        for waiting in group:
            await self.queue.settle(waiting.ticket, assignments.get(waiting.ticket))

    async def _rated(self, group: list[Waiting]) -> bool:
        """Rated only when every player is signed in (guests' tickets cost nothing, so a table
        with them could be one client's several seats around an account it boosts) and none
        plays a rated match already (one at a time)."""
        for waiting in group:
            if waiting.account is None:
                return False
            if await self.store.rated_table_of(waiting.account.id) is not None:
                return False
        return True

    def _ticket(self, state: TicketState) -> MatchTicket:
        assignment = state.assignment
        waiting = state.status in ("waiting", "starting")
        return MatchTicket(
            ticket=state.waiting.ticket,
            variant=state.waiting.variant,
            status="waiting" if waiting else state.status,
            waiting_players=state.waiting_players,
            seconds_left=max(0.0, self.wait - state.waited) if state.status == "waiting" else 0.0,
            code=assignment and assignment.code,
            seat=assignment and assignment.seat,
            token=assignment and assignment.token,
        )
