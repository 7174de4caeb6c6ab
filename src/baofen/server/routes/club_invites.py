"""The REST routes of invitations to a club table (入座邀请): a member invites other members of
the club to take a seat at one of its tables waiting for players; the invited member's club
page and lobby show the invitation (they ask every few seconds) with a button to the seat
(docs/protocol.md, "Clubs"; kept by :mod:`..clubs.invites`).

Only members invite, only members are invited, to a table of their club that has a free seat
and is no club event's; invitations are rate-limited per account. Every refusal names its
reason and changes nothing."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request, status

from ...accounts.usernames import canonical
from ...store.async_store import StoreUnavailable
from ...wire.clubs import InviteToTable, TableClub, TableInviteView
from ...wire.table import TableInfo
from ..clubs.invites import InvitesUnavailable, TableInvite, TableInvites
from ..clubs.service import call, limit, member_id, refusal, state_of
from ..security.sessions import SignedIn, unavailable
from .rest import tables_of

router = APIRouter()


def _invites(request: Request) -> TableInvites:
    return state_of(request).table_invites


async def _table(request: Request, code: str) -> TableInfo | None:
    """The table's public information (in cluster mode as its node last published it: the
    invited members' pages ask every few seconds, so no table is rebuilt for them)."""
    try:
        return await tables_of(request).info(code)
    except StoreUnavailable:
        raise unavailable() from None


def _seated(table: TableInfo, username: str) -> bool:
    """Whether the account ``username`` holds a seat at the table."""
    wanted = canonical(username)
    return any(seat.account and seat.name is not None and canonical(seat.name) == wanted
               for seat in table.seats)


def _view(invite: TableInvite, table: TableInfo) -> TableInviteView:
    return TableInviteView(
        club=invite.club, club_name=invite.club_name, table=invite.table,
        table_name=table.settings.name, variant=table.rules.variant, by=invite.by,
        created=invite.created, expires=invite.expires, seat=f"/t/{invite.table}#sit",
    )


def _open_seat(table: TableInfo) -> bool:
    return table.status == "waiting" and any(seat.kind is None for seat in table.seats)


@router.post("/api/clubs/{club_id}/tables/{code}/invitations",
             status_code=status.HTTP_201_CREATED)
async def invite_to_table(club_id: str, code: str, body: InviteToTable, request: Request,
                          account: SignedIn) -> TableInviteView:
    """Invite a member of the club to a seat at the club's table ``code`` (members)."""
    state = state_of(request)
    club, _ = await call(request, state.clubs.club, club_id, account.id)
    limit(state.invites_sent, str(account.id), "invitations to a table")
    who = await member_id(request, club_id, account.id, body.username)
    if who == account.id:
        raise refusal("self_invitation", "you cannot invite yourself")
    members_tables = await call(request, state.records.open_tables, club_id, account.id)
    if not any(listed == code and event is None for listed, _, event in members_tables):
        raise refusal("no_such_table", f"{code!r} is no open table of the club that members "
                      "open (an event's table is seated by its director)")
    table = await _table(request, code)
    if table is not None and _seated(table, body.username):
        raise refusal("already_seated", f"{body.username} has a seat at this table already")
    if table is None or not _open_seat(table):
        raise refusal("table_full", "the table has no free seat (or its match has started)")
    assert account.username is not None
    invite = TableInvite(club=club.id, club_name=club.name, table=code, by=account.username,
                         created=time.time())
    try:
        await _invites(request).put(who, invite)
    except InvitesUnavailable:
        raise unavailable() from None
    return _view(invite, table)


@router.get("/api/table-invitations")
async def my_invitations(request: Request, account: SignedIn) -> list[TableInviteView]:
    """The signed-in member's invitations to club tables still to take: not expired, to a
    table still waiting with a free seat where they have none, of a club they still belong to;
    newest first."""
    try:
        invites = await _invites(request).mine(account.id)
    except InvitesUnavailable:
        raise unavailable() from None
    if not invites:
        return []
    clubs = {club.id for club, _ in
             await call(request, state_of(request).clubs.mine, account.id)}
    shown = []
    for invite in invites:
        table = await _table(request, invite.table) if invite.club in clubs else None
        if table is not None and _open_seat(table) and not _seated(table, account.username or ""):
            shown.append(_view(invite, table))
    return shown


@router.delete("/api/table-invitations/{code}", status_code=status.HTTP_204_NO_CONTENT)
async def dismiss(code: str, request: Request, account: SignedIn) -> None:
    """Dismiss the signed-in member's invitation to table ``code`` (忽略)."""
    try:
        found = await _invites(request).drop(account.id, code)
    except InvitesUnavailable:
        raise unavailable() from None
    if not found:
        raise refusal("no_such_invitation", "no invitation to that table")


@router.get("/api/tables/{code}/club")
async def club_of_table(code: str, request: Request, account: SignedIn) -> TableClub:
    """The club of table ``code``, for its members (the table page offers to invite them);
    ``not_found`` for a table of no club, of a club event, or of a club one is not in."""
    state = state_of(request)
    seat = await call(request, state.records.seat, code, account.id)
    if seat is None or seat.event is not None or not seat.member:
        raise refusal("not_found", "no club of yours opened this table")
    club, _ = await call(request, state.clubs.club, seat.club_id, account.id)
    return TableClub(club=club.id, club_name=club.name)
