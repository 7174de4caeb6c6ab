"""Tournaments (比赛) over REST: create and list events, register and withdraw, the standings,
one's table this round, and the travellers of the deals the whole field has played.

A refused request answers ``{"detail": {"code", "message"}}`` (:mod:`baofen.wire.tournaments`)
and changes nothing. A guest entrant proves who they are with the token their registration
returned, in the ``X-Entrant-Token`` header; an account holder with their session.

A club's event (``club``) is its members' only: anybody else is answered as if it did not
exist (``no_tournament``), except that registering says ``not_member``.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request, Response, status

from ...store.accounts import Account
from ...store.async_store import StoreUnavailable
from ...store.tournaments import Refused, StoredEntrant, StoredTournament, Tournaments
from ...wire.tournaments import (
    CreateTournament,
    EntrantView,
    MyTable,
    Register,
    Registered,
    RoundTableView,
    StandingView,
    TournamentInfo,
    TournamentRefusal,
    TournamentSettings,
    Traveller,
    TravellerLine,
)
from ..security.sessions import session_account
from ..security.tokens import new_seat_token, new_seed, new_table_code, token_hash
from ..tournaments.results import counted, round_hands, standings
from .rest import check_creation_rate, store_of

router = APIRouter()

REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": TournamentRefusal} for code in (400, 403, 404, 409)
}

_STATUS = {
    "no_tournament": status.HTTP_404_NOT_FOUND,
    "not_registered": status.HTTP_404_NOT_FOUND,
    "not_signed_in": status.HTTP_403_FORBIDDEN,
    "not_organiser": status.HTTP_403_FORBIDDEN,
    "guests_not_allowed": status.HTTP_403_FORBIDDEN,
    "name_required": status.HTTP_400_BAD_REQUEST,
    "not_found": status.HTTP_404_NOT_FOUND,
    "not_admin": status.HTTP_403_FORBIDDEN,
    "not_member": status.HTTP_403_FORBIDDEN,
}
"""The HTTP status of each refusal (409 unless named)."""


def refused(code: str, message: str) -> HTTPException:
    """A refusal with its reason code."""
    return HTTPException(_STATUS.get(code, status.HTTP_409_CONFLICT),
                         {"code": code, "message": message})


def _tournaments(request: Request) -> Tournaments:
    """The stored events (every node reads and writes them; the director picks changes up)."""
    tournaments: Tournaments = request.app.state.tournaments
    return tournaments


async def _call(request: Request, call: Any, *args: Any) -> Any:
    """A store call off the event loop; its :class:`Refused` as the refusal."""
    try:
        return await asyncio.to_thread(call, *args)
    except Refused as error:
        raise refused(error.code, error.message) from None


async def _event(request: Request, code: str, hidden: bool = True) -> StoredTournament:
    """The event of ``code``; a club's is ``hidden`` from anybody but its members."""
    event = await _call(request, _tournaments(request).get, code)
    if event is not None and hidden and event.club_id is not None:
        account = await session_account(request)
        if not await _call(request, _tournaments(request).member, event.club_id,
                           None if account is None else account.id):
            event = None
    if event is None:
        raise refused("no_tournament", f"no tournament has the code {code!r}")
    assert isinstance(event, StoredTournament)
    return event


async def _signed_in(request: Request) -> Account:
    account = await session_account(request)
    if account is None:
        raise refused("not_signed_in", "sign in first")
    return account


def _info(event: StoredTournament) -> TournamentInfo:
    return TournamentInfo(
        code=event.code, organiser=event.organiser, rules=event.rules,
        settings=TournamentSettings.model_validate(event.settings), status=event.status,
        round=event.round, next_start=event.next_start,
        registered=sum(not e.filler for e in event.entrants), club=event.club_id,
    )


@router.post("/api/tournaments", status_code=status.HTTP_201_CREATED, responses=REFUSALS)
async def create_tournament(body: CreateTournament, request: Request) -> TournamentInfo:
    """Organise an event (signed in)."""
    account = await _signed_in(request)
    check_creation_rate(request)
    code = new_table_code()
    settings = body.settings.model_dump(mode="json")
    if body.club is not None:
        settings["guests"] = False  # a club's members have accounts
    await _call(request, _tournaments(request).create, code, (account.id, account.username),
                body.rules.replace(hands=body.settings.hands).to_dict(), settings, new_seed(),
                body.settings.start, body.club)
    return _info(await _event(request, code))


@router.get("/api/tournaments", responses=REFUSALS)
async def list_tournaments(request: Request, club: str | None = None) -> list[TournamentInfo]:
    """The latest events: upcoming and running first, then finished; those of no club, or
    the events of ``club`` (its members: ``not_found`` to anybody else)."""
    tournaments = _tournaments(request)
    if club is not None:
        account = await session_account(request)
        if not await _call(request, tournaments.member, club,
                           None if account is None else account.id):
            raise refused("not_found", f"no club {club!r} of yours")
    return [_info(e) for e in await _call(request, tournaments.listing, 100, club)]


@router.get("/api/tournaments/{code}", responses=REFUSALS)
async def get_tournament(code: str, request: Request) -> TournamentInfo:
    """An event: settings, entrants, live standings, the tables of the rounds played."""
    event = await _event(request, code)
    try:
        lines, now = await standings(store_of(request), event)
    except StoreUnavailable as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(error)) from None
    names = {str(e.number): e for e in event.entrants}
    info = _info(event)
    info.entrants = [EntrantView(number=e.number, name=e.name, filler=e.filler,
                                 guest=not e.filler and e.account_id is None)
                     for e in event.entrants]
    info.standings = [StandingView(number=int(s.entrant), name=names[s.entrant].name,
                                   filler=s.filler, rank=s.rank, points=round(s.points, 2),
                                   score=s.score, hands=s.hands) for s in lines]
    info.counted = now
    running = event.status == "playing"
    info.tables = [RoundTableView(round=t.round, table=t.table,
                                  code=None if running and t.round == event.round else t.code,
                                  entrants=list(t.entrants)) for t in event.tables]
    return info


@router.post("/api/tournaments/{code}/entrants", status_code=status.HTTP_201_CREATED,
             responses=REFUSALS)
async def register(code: str, body: Register, request: Request) -> Registered:
    """Register: an account under its username, a guest (where the event allows) by name;
    a club's event its members only (``not_member``)."""
    event = await _event(request, code, hidden=False)
    if event.next_start is not None and event.status == "registering" and (
            datetime.now(UTC) >= event.next_start):
        raise refused("registration_closed", "the tournament has started: registration is "
                      "closed")
    account = await session_account(request)
    if event.club_id is not None and account is None:
        raise refused("not_member", "only the club's members register for its event: sign in")
    limit = event.settings["seat_limit"]
    if account is not None:
        number = await _call(request, _tournaments(request).register, code, account.username,
                             account.id, None, limit)
        return Registered(number=number, name=account.username, token=None)
    if not event.settings["guests"]:
        raise refused("guests_not_allowed", "this tournament takes signed-in players only")
    if not body.name:
        raise refused("name_required", "a guest registers with a name")
    token = new_seat_token()
    number = await _call(request, _tournaments(request).register, code, body.name, None,
                         token_hash(token), limit)
    return Registered(number=number, name=body.name, token=token)


def _entrant_of(event: StoredTournament, account: Account | None,
                token: str | None) -> StoredEntrant | None:
    hashed = None if token is None else token_hash(token)
    for entrant in event.entrants:
        if account is not None and entrant.account_id == account.id:
            return entrant
        if hashed is not None and entrant.token_hash == hashed:
            return entrant
    return None


@router.delete("/api/tournaments/{code}/entrants/{number}",
               status_code=status.HTTP_204_NO_CONTENT, responses=REFUSALS)
async def withdraw(code: str, number: int, request: Request,
                   x_entrant_token: str | None = Header(None)) -> Response:
    """Withdraw (the entrant) or remove (the organiser) an entrant, before the start."""
    event = await _event(request, code)
    account = await session_account(request)
    me = _entrant_of(event, account, x_entrant_token)
    organiser = account is not None and account.id == event.organiser_id
    if not organiser and (me is None or me.number != number):
        raise refused("not_organiser", "only the organiser removes another entrant")
    await _call(request, _tournaments(request).withdraw, code, number)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/api/tournaments/{code}/mine", responses=REFUSALS)
async def my_table(code: str, request: Request,
                   x_entrant_token: str | None = Header(None)) -> MyTable:
    """The caller's table and seat in the round being played (connect and ``reclaim`` it:
    an account by its session, a guest with their entrant token)."""
    event = await _event(request, code)
    me = _entrant_of(event, await session_account(request), x_entrant_token)
    if me is None:
        raise refused("not_registered", "you are not an entrant of this tournament")
    if event.status != "playing":
        raise refused("not_playing", "no round is being played")
    for table in event.round_tables(event.round):
        if me.number in table.entrants:
            return MyTable(round=event.round, table=table.table, code=table.code,
                           seat=table.entrants.index(me.number),
                           websocket=f"/ws/tables/{table.code}")
    raise refused("not_playing", "the round is being seated: ask again in a moment")


@router.get("/api/tournaments/{code}/travellers/{number}/{deal}", responses=REFUSALS)
async def traveller(code: str, number: int, deal: int, request: Request) -> Traveller:
    """Every table's result on deal ``deal`` (from 1) of round ``number``, once every table of
    the round has finished that deal."""
    event = await _event(request, code)
    try:
        hands = await round_hands(store_of(request), event, number)
    except StoreUnavailable as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(error)) from None
    if not 1 <= deal <= counted(event, number, hands):
        raise refused("not_finished", f"deal {deal} of round {number} is not finished at "
                      "every table")
    seats = {t.table: list(t.entrants) for t in event.round_tables(number)}
    return Traveller(round=number, deal=deal, lines=[
        TravellerLine(table=table, entrants=seats[table], result=summaries[deal - 1]["result"])
        for table, summaries in sorted(hands.items())])
