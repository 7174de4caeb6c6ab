"""A table's driver: the task that moves the match on when no player does.

It plays the computer's turns (computer players, 托管 and seats whose player left); when a
player's turn timer runs out it has the computer make that one move for them (a second timeout
in a row in the same phase puts the seat in 托管); between hands it deals the next hand once
every connected player has pressed 继续 (ready), or — with several players — once the ready
timer runs out. While no player is connected it waits: a table nobody attends does not play on
by itself. It only ever changes the table through the table's own methods, holding its lock,
after checking that nothing changed while it waited (``table.version``).
"""

from __future__ import annotations

import asyncio
import logging
import time

from ...actions import Action
from ...bots import make_bot
from ...errors import IllegalAction
from . import thinking
from .seats import TableError
from .table import Table

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""Pause before trying again after the store refused a write."""


async def drive(table: Table) -> None:
    """Run ``table`` until its match is over (or the task is cancelled)."""
    while table.status == "playing":
        try:
            await _step(table)
        except TableError as error:  # the store is down: the state is as before, try later
            log.warning("table %s: %s", table.code, error.message)
            await asyncio.sleep(RETRY_SECONDS)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug must not stop the table for good
            log.exception("table %s: the driver failed; going on", table.code)
            await asyncio.sleep(RETRY_SECONDS)
    table.timers.driver = None


async def _step(table: Table) -> None:
    table.timers.changed.clear()
    if not table.seating.attended:
        await table.timers.changed.wait()
        return
    async with table.lock:  # the committed state, not one a write is waiting on
        match = table.match
        assert match is not None
        hand, version = match.hand, table.version
    if hand.phase == "done":
        if table.everyone_ready or not await _wait(table):
            # everyone pressed 继续, or the ready timer ran out: the rest are made ready
            async with table.lock:
                if match.hand is hand:
                    await table.next_hand()
        return
    seat = hand.to_act
    assert seat is not None
    if table.seating.computer_plays(seat):
        await asyncio.sleep(table.config.bot_delay)
        if table.version != version or not table.seating.computer_plays(seat):
            return
        action = await _computer_action(table, seat)
        async with table.lock:
            if table.version != version or not table.seating.computer_plays(seat):
                return  # the player took the seat back while the computer was thinking
            try:
                await table.act(seat, action, by_computer=True)
            except IllegalAction as error:
                log.error("table %s: the computer's %s for seat %d was illegal (%s); playing "
                          "at random", table.code, action, seat, error)
                random = make_bot("random").act(hand.observation(seat))
                await table.act(seat, random, by_computer=True)
        return
    if await _wait(table) or table.version != version or table.seating.computer_plays(seat):
        return
    action = await _computer_action(table, seat)
    async with table.lock:
        if table.version == version and not table.seating.computer_plays(seat):
            await table.timed_out(seat, action, hand.phase)


async def _wait(table: Table) -> bool:
    """Wait for a change of the table; False when its deadline came first."""
    wait = None if table.timers.deadline is None else max(0.0, table.timers.deadline - time.time())
    try:  # not wait_for: it makes a task of the wait, after every change of every table
        async with asyncio.timeout(wait):
            await table.timers.changed.wait()
    except TimeoutError:
        return False
    return True


async def _computer_action(table: Table, seat: int) -> Action:
    """The computer's action for ``seat``, decided off the event loop (a search bot thinks), in
    the computer players' shared pool."""
    async with table.lock:  # the committed state only
        assert table.match is not None
        observation = table.match.hand.observation(seat)
    bot = table.seating.bot_for(seat)
    try:
        return await thinking.act(table, bot, observation)
    except Exception:
        # Never a random play in its place: the rule bot's choice is a sound move, and the
        # failure is counted where an operator looks (GET /health) as well as logged.
        count = thinking.FAILURES.add()
        log.exception("table %s: the computer player of seat %d could not decide; the rule bot "
                      "plays for it (%d such failures on this server)", table.code, seat, count)
        return make_bot("rule").act(observation)
