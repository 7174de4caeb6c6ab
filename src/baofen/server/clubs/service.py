"""The club store reached from the routes: its calls run off the event loop, a refusal
(:class:`~baofen.store.clubs.ClubError`) becomes an HTTP answer naming its reason, and the
limits of the server's configuration apply (members a club, clubs an account, joins and
invitations a minute).

A removed member loses access at once: every club route asks the store whether the account is
a member, so their open club page's next poll is answered 404 and the page stops; their
connections watching the club's tables are closed, on every node of a cluster
(:func:`close_club_sockets`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TypeVar

from fastapi import HTTPException, Request, status

from ...accounts.usernames import canonical
from ...store.club_records import ClubRecords
from ...store.clubs import ClubError, Clubs
from ..config import ServerConfig
from ..lobby.directory import Tables
from ..security.rate_limits import CreationLimits
from ..security.sessions import unavailable
from .invites import MemoryInvites, TableInvites

log = logging.getLogger(__name__)
T = TypeVar("T")

STATUS = {
    "not_found": 404, "no_such_invitation": 404, "no_such_member": 404, "no_such_preset": 404,
    "no_such_request": 404, "not_admin": 403, "not_owner": 403, "not_member": 403,
    "club_full": 409, "too_many_clubs": 409, "name_taken": 409, "already_member": 409,
    "owner_must_hand_over": 409, "table_taken": 409, "invitation_expired": 410,
    "rate_limited": 429, "no_such_table": 404, "already_seated": 409, "table_full": 409,
}
"""The HTTP status of each refusal (any other reason: 422, the request itself is wrong)."""


def refusal(reason: str, message: str) -> HTTPException:
    """The HTTP answer of a refused club request: ``{"detail": {"reason", "message"}}``."""
    return HTTPException(STATUS.get(reason, status.HTTP_422_UNPROCESSABLE_CONTENT),
                         {"reason": reason, "message": message})


class ClubState:
    """The clubs of the app (``app.state.clubs``): the store's, the invitations to its tables
    (``table_invites``), and the rate limits of joins (per client address), of invitation links
    and of invitations to a table (per account)."""

    def __init__(self, clubs: Clubs, records: ClubRecords, config: ServerConfig,
                 table_invites: TableInvites | None = None) -> None:
        self.clubs = clubs
        self.records = records
        self.config = config
        self.joins = CreationLimits(config.club_joins_per_minute, config.club_joins_burst)
        self.invitations = CreationLimits(config.club_joins_per_minute,
                                          config.club_joins_burst)
        self.table_invites: TableInvites = table_invites or MemoryInvites()
        self.invites_sent = CreationLimits(config.club_joins_per_minute,
                                           config.club_joins_burst)


def state_of(request: Request) -> ClubState:
    """The app's :class:`ClubState`."""
    clubs: ClubState = request.app.state.clubs
    return clubs


def limit(limits: CreationLimits, key: str, what: str) -> None:
    """``rate_limited`` when ``key`` does ``what`` too often."""
    if not limits.allow(key):
        raise refusal("rate_limited", f"too many {what}: try again later")


async def call(request: Request, method: Callable[..., T], *args: object) -> T:
    """``method(*args)`` of the club store in a worker thread: a refusal becomes its HTTP
    answer, a store that fails or is slow 503."""
    config: ServerConfig = request.app.state.config
    try:
        return await asyncio.wait_for(asyncio.to_thread(method, *args), config.db_timeout)
    except ClubError as error:
        raise refusal(error.reason, error.message) from None
    except Exception as error:
        log.warning("the store failed a club request: %r", type(error).__name__)
        raise unavailable() from None


async def member_id(request: Request, club_id: str, by: int, username: str) -> int:
    """The account id of the club's member ``username`` (asked by member ``by``)."""
    wanted = canonical(username)
    members = await call(request, state_of(request).clubs.members, club_id, by)
    for member in members:
        if canonical(member.username) == wanted:
            return member.account_id
    raise refusal("no_such_member", f"{username!r} is not a member of the club")


async def close_club_sockets(request: Request, club_id: str, account_id: int) -> None:
    """Close the connections of ``account_id`` that watch the club's open tables (on every
    node); a seat it plays stays its own until the match ends (the others' game goes on), but
    it takes no new one."""
    tables: Tables = request.app.state.tables
    records = state_of(request).records
    config: ServerConfig = request.app.state.config
    try:
        codes = await asyncio.wait_for(asyncio.to_thread(records.table_codes, club_id),
                                       config.db_timeout)
    except Exception:
        return  # the store's refusal reached the member already: nothing more to close
    if codes:
        await tables.close_watchers(codes, account_id)
