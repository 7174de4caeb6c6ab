"""The REST routes of a club's house rules, tables and records: presets (named rule sets and
table settings), 禁止同桌 pairs, the club's open tables (listed to its members only; opened from
a preset, which the table keeps as it was), 和电脑玩 with a preset, the standings and a member's
club history (docs/protocol.md, "Clubs").

A club table is a private table (never in the public lobby) whose seats only the club's members
take (:mod:`..clubs.seating`). In cluster mode its listing reads the club's tables from the
database and each table's information from whichever node owns it."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, status

from ...ruleset import RuleSet
from ...setting import Variant
from ...store.async_store import StoreUnavailable
from ...store.club_records import Preset
from ...wire.clubs import (
    ClubHandView,
    ClubTable,
    OpenClubTable,
    Pair,
    Period,
    PresetBody,
    PresetView,
    Standings,
    StandingView,
)
from ...wire.rest import QuickPlayed, TableCreated
from ...wire.settings import TableSettings
from ...wire.table import ListedTable
from ..clubs.service import call, member_id, refusal, state_of
from ..security.sessions import SignedIn, unavailable
from ..table.seats import TableError
from .rest import check_creation_rate, default_name, store_of, tables_of

router = APIRouter()


def _preset(preset: Preset) -> PresetView:
    return PresetView.model_validate({"name": preset.name, "updated": preset.updated,
                                      "rules": preset.rules, "settings": preset.settings})


@router.get("/api/clubs/{club_id}/presets")
async def presets(club_id: str, request: Request, account: SignedIn) -> list[PresetView]:
    """The club's presets (members)."""
    listed = await call(request, state_of(request).records.presets, club_id, account.id)
    return [_preset(preset) for preset in listed]


@router.put("/api/clubs/{club_id}/presets/{name}")
async def put_preset(club_id: str, name: str, body: PresetBody, request: Request,
                     account: SignedIn) -> PresetView:
    """Make or replace a preset (admins); tables opened from it before keep what it was."""
    shown = name.strip()
    if not 1 <= len(shown) <= 40 or not shown.isprintable():
        raise refusal("bad_preset_name", "a preset's name is 1–40 printable characters")
    preset = await call(request, state_of(request).records.put_preset, club_id, account.id,
                        shown, body.rules.to_dict(), body.settings.model_dump())
    return _preset(preset)


@router.delete("/api/clubs/{club_id}/presets/{name}", status_code=status.HTTP_204_NO_CONTENT)
async def delete_preset(club_id: str, name: str, request: Request, account: SignedIn) -> None:
    """Delete a preset (admins)."""
    await call(request, state_of(request).records.delete_preset, club_id, account.id, name)


@router.get("/api/clubs/{club_id}/pairs")
async def pairs(club_id: str, request: Request, account: SignedIn) -> list[Pair]:
    """The pairs of members who may not sit at one table (admins)."""
    state = state_of(request)
    listed = await call(request, state.records.pairs, club_id, account.id)
    names = {m.account_id: m.username
             for m in await call(request, state.clubs.members, club_id, account.id)}
    return [Pair(first=names[a], second=names[b]) for a, b in listed
            if a in names and b in names]


async def _pair(request: Request, club_id: str, by: int, body: Pair, forbidden: bool) -> None:
    first = await member_id(request, club_id, by, body.first)
    second = await member_id(request, club_id, by, body.second)
    await call(request, state_of(request).records.forbid, club_id, by, first, second, forbidden)


@router.put("/api/clubs/{club_id}/pairs", status_code=status.HTTP_204_NO_CONTENT)
async def forbid_pair(club_id: str, body: Pair, request: Request, account: SignedIn) -> None:
    """禁止同桌: the two members may not sit at one table of the club (admins)."""
    await _pair(request, club_id, account.id, body, True)


@router.delete("/api/clubs/{club_id}/pairs", status_code=status.HTTP_204_NO_CONTENT)
async def allow_pair(club_id: str, body: Pair, request: Request, account: SignedIn) -> None:
    """The two members may sit at one table again (admins)."""
    await _pair(request, club_id, account.id, body, False)


@router.get("/api/clubs/{club_id}/tables")
async def club_tables(club_id: str, request: Request, account: SignedIn) -> list[ClubTable]:
    """The club's open tables (members): those with a free seat first (可以加入), then the
    ones being played (观战), then its events' tables (watched once their round is over: listed
    with their event to follow, not to watch)."""
    codes = await call(request, state_of(request).records.open_tables, club_id, account.id)
    listed = []
    for code, preset, event in codes:
        try:
            table = await tables_of(request).view(code)
        except StoreUnavailable:
            raise unavailable() from None
        if table is None or table.status == "finished":
            continue
        entry = ClubTable.model_validate({**ListedTable.of(table.public).model_dump(),
                                          "preset": preset, "event": event})
        listed.append(entry)
    return sorted(listed, key=lambda entry: (entry.event is not None, not entry.free_seats,
                                             -entry.active))


@router.post("/api/clubs/{club_id}/tables", status_code=status.HTTP_201_CREATED)
async def open_table(club_id: str, body: OpenClubTable, request: Request,
                     account: SignedIn) -> TableCreated | QuickPlayed:
    """Open a club table from a preset (members); with ``level``, 和电脑玩: the asker sits at
    South, computer players fill the other seats, and the match starts."""
    check_creation_rate(request)
    state = state_of(request)
    await call(request, state.clubs.club, club_id, account.id)
    rules, settings = RuleSet.create(variant="baofen"), TableSettings()
    if body.preset is not None:
        preset = await call(request, state.records.preset, club_id, account.id, body.preset)
        rules = RuleSet.from_dict(preset.rules)
        settings = TableSettings.from_stored(preset.settings)
    settings = settings.model_copy(update={"private": True})
    if body.level is not None:
        # 和电脑玩 as in the lobby: one rated match at a time, else this one is unrated.
        try:
            busy = settings.rated and await store_of(request).rated_table_of(account.id)
        except StoreUnavailable:
            raise unavailable() from None
        settings = settings.model_copy(update={"bot_level": body.level, "rated": not busy
                                               and settings.rated})
    try:
        table = await tables_of(request).create(rules, settings)
    except TableError as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, error.message) from None
    await call(request, state.records.opened, table.code, club_id, account.id, body.preset)
    link = f"{request.base_url}t/{table.code}"
    if body.level is None:
        return TableCreated(code=table.code, link=link, websocket=f"/ws/tables/{table.code}",
                            table=table.public)
    name = body.name or account.username or default_name()
    try:
        async with table.lock:
            token = await table.seat_player(0, name, account)
            await table.fill_bots(None)
            await table.start()
    except TableError as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, error.message) from None
    return QuickPlayed(code=table.code, seat=0, name=table.seats[0].name or name, token=token,
                       link=link, websocket=f"/ws/tables/{table.code}")


@router.get("/api/clubs/{club_id}/standings")
async def standings(club_id: str, request: Request, account: SignedIn,
                    variant: Variant = "baofen", period: Period = "week") -> Standings:
    """The members' records in one game over the last week, month or all time (members)."""
    rows = await call(request, state_of(request).records.standings, club_id, account.id,
                      variant, period)
    return Standings(variant=variant, period=period, rows=[
        StandingView(username=r.username, matches=r.matches, hands=r.hands, made=r.made,
                     failed=r.failed, result=r.result) for r in rows])


@router.get("/api/clubs/{club_id}/members/{username}/history")
async def history(club_id: str, username: str, request: Request,
                  account: SignedIn) -> list[ClubHandView]:
    """A member's latest club hands (战绩), each with its replay and 复盘 (members)."""
    who = await member_id(request, club_id, account.id, username)
    hands = await call(request, state_of(request).records.history, club_id, account.id, who)
    return [ClubHandView(
        table=h.table_code, hand=h.hand_number, variant=h.variant,
        role=h.role, made=h.made, result=h.result,
        finished=h.finished, replay=f"/api/tables/{h.table_code}/hands/{h.hand_number}/replay",
    ) for h in hands]
