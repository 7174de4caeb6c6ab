"""Who may sit at (or watch) a club table: the club's members only (``not_member``), and not
at one table with a member the club forbids them to sit with (禁止同桌), nor from the network
address of another seat there (同IP禁止同桌, the club's ``same_address`` setting: by default at
rated and event tables) — both ``seat_forbidden``. In this 1-against-3 game a player holding
two seats sees half the deck.

Addresses are compared as :func:`~..security.addresses.network_of` says (as 匹配 compares
them), with the live connections of the seats' players (through another node of a cluster: the
address that node saw); a seat whose player is away has no address to compare.
"""

from __future__ import annotations

import asyncio

from ...errors import Reason
from ...store.club_records import ClubRecords, ClubSeat
from ..security.addresses import network_of
from ..table.table import Table
from ..transport.connections import Connection
from ..transport.gate import Refused

PLAIN: set[str] = set()
"""Codes of tables known to be no club's. A table becomes a club's before its code is given to
anybody (the club's route records it, then answers), so a table found plain stays plain: its
joins, reclaims and watchers are not asked of the database again."""
PLAIN_KEPT = 100_000
"""Codes kept at most (then forgotten all at once: they are only asked again)."""


async def check_club_seat(connection: Connection, table: Table, seat: int | None,
                          reclaim: bool = False) -> None:
    """Refuse ``connection`` a seat (``seat``; None: to watch) at ``table`` when it is a
    club's table and the club's rules forbid it; nothing for any other table. A seat
    ``reclaim``-ed stays its player's (a member removed since keeps it until the match ends),
    except at a club event's table, where the seats were dealt by the director: there the
    同IP rule is checked as the player comes (refused, the seat plays on by 托管)."""
    account = connection.account
    if table.code in PLAIN or not table.settings.private or (reclaim and account is None):
        # A club's or an event's table is private from its creation: a public one is no
        # club's. A guest reclaiming a seat meets no club rule (the event's address rule is
        # about accounts). Neither is asked of the database.
        return
    store = table.store
    try:
        rules = await asyncio.wait_for(asyncio.to_thread(
            ClubRecords(store.store).seat, table.code, None if account is None else account.id
        ), store.timeout)
    except Exception:
        raise Refused("unavailable", "the database is not answering: try again") from None
    if rules is None:
        if len(PLAIN) >= PLAIN_KEPT:
            PLAIN.clear()
        PLAIN.add(table.code)
        return
    if reclaim:
        if rules.event is not None and account is not None:
            _check_address(connection, table, rules, account.id)
        return
    if account is None or not rules.member:
        raise Refused("not_member", "only the club's members sit at or watch its tables: "
                      "sign in with a member's account")
    if seat is not None:
        _check_neighbours(connection, table, rules, account.id)


def _check_neighbours(connection: Connection, table: Table, rules: ClubSeat,
                      account_id: int) -> None:
    others = [s for s in table.seats if s.kind == "human" and s.account_id != account_id]
    for other in others:
        if other.account_id is not None and other.account_id in rules.forbidden:
            reason = Reason("forbidden_pair", name=other.name)
            raise Refused("seat_forbidden", reason, reason)
    _check_address(connection, table, rules, account_id)


def _check_address(connection: Connection, table: Table, rules: ClubSeat,
                   account_id: int) -> None:
    others = [s for s in table.seats if s.kind == "human" and s.account_id != account_id]
    applies = rules.same_address == "always" or (
        rules.same_address == "rated" and (table.settings.rated or rules.event is not None))
    mine = network_of(connection.address)
    if not applies or not mine:
        return
    for other in others:
        theirs = other.connection.address if other.connection is not None else None
        if network_of(theirs) == mine:
            reason = Reason("same_address")
            raise Refused("seat_forbidden", reason, reason)
