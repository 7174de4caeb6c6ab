"""每日复式挑战 over REST (docs/protocol.md, "每日复式挑战"): today's challenge and the asker's
progress, the next deal's table, a deal's traveller, the leaderboards and a player's history;
and the 比赛 page at ``/compete``.

An entrant is the signed-in account, or else the guest of this browser (the ``baofen_guest``
cookie, set on entering: a random token whose hash the store keeps). Every refusal carries a
machine-readable ``reason``; nothing is changed by a refused request.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable
from datetime import date, timedelta
from typing import Annotated, Literal, TypeVar

from fastapi import APIRouter, HTTPException, Query, Request, Response, status
from fastapi.responses import FileResponse
from sqlalchemy.exc import SQLAlchemyError

from ...accounts.usernames import MAX_LENGTH, canonical
from ...competition.daily_standings import Standing
from ...setting import Variant
from ...store.accounts import Account
from ...store.async_store import AsyncStore, StoreUnavailable
from ...store.challenges import Entrant, Entry, Play
from ...wire import challenge as wire
from ..challenge.results import DayBoard
from ..challenge.service import ChallengeError, Service
from ..security.sessions import accounts_of, run, session_account
from ..security.tokens import token_hash
from .pages import NO_CACHE, STATIC
from .rest import default_name

router = APIRouter()

T = TypeVar("T")

GUEST_COOKIE = "baofen_guest"
"""The cookie that makes a browser one guest entrant (a guest plays each day once a browser)."""

PAGE_SIZE = 50
"""Rows of a leaderboard page."""


def service_of(request: Request) -> Service:
    """The server's challenges (made on first use)."""
    service: Service | None = getattr(request.app.state, "challenge", None)
    if service is None:
        store: AsyncStore = request.app.state.store
        service = request.app.state.challenge = Service(
            request.app.state.config, request.app.state.tables, store)
    return service


def refused(error: ChallengeError) -> HTTPException:
    """The HTTP answer of a refused request: its reason code and message."""
    return HTTPException(error.status, {"reason": error.code, "message": error.message})


async def entrant_of(request: Request) -> tuple[Entrant | None, Account | None]:
    """Who asks: the signed-in account, or this browser's guest (None: a browser that never
    entered)."""
    account = await session_account(request)
    if account is not None:
        return Entrant(account.id, None), account
    guest = request.cookies.get(GUEST_COOKIE)
    if guest and len(guest) <= 128:
        return Entrant(None, token_hash(guest)), None
    return None, None


async def answer(pending: Awaitable[T]) -> T:
    """``pending``'s value; a refusal as its HTTP answer (503 when the store failed)."""
    try:
        return await pending
    except ChallengeError as error:
        raise refused(error) from None
    except ValueError as error:  # a day still to come
        raise refused(ChallengeError("no_such_day", 404, str(error))) from None
    except (TimeoutError, SQLAlchemyError, StoreUnavailable):
        raise refused(ChallengeError(
            "unavailable", 503, "the database is not answering: try again")) from None


def _standing(standing: Standing[int] | None) -> wire.Standing | None:
    if standing is None:
        return None
    return wire.Standing(percentage=round(standing.percentage, 2), count=standing.count,
                         total=standing.total)


def _deal(number: int, play: Play | None, board: DayBoard,
          entry: Entry | None) -> wire.ChallengeDeal:
    if play is None:
        return wire.ChallengeDeal(number=number, status="waiting", seat=None, table_code=None,
                                  result=None, percentage=None)
    if not play.finished:
        return wire.ChallengeDeal(number=number, status="playing", seat=play.seat,
                                  table_code=play.table_code, result=None, percentage=None)
    percentage = board.percentages.get(entry.id if entry else -1, {}).get(number)
    return wire.ChallengeDeal(
        number=number, status="finished", seat=play.seat, table_code=play.table_code,
        result=play.result, percentage=None if percentage is None else round(percentage, 2),
        contract=wire.Contract(**play.contract) if play.contract else None,
    )


@router.get("/api/challenge/{variant}")
async def challenge(variant: Variant, request: Request) -> wire.Challenge:
    """Today's challenge of ``variant`` and the asker's progress: each deal's status and, once
    finished, its result, contract and percentage; the asker's standing."""
    service = service_of(request)
    entrant, _ = await entrant_of(request)
    entry: Entry | None = None
    plays: list[Play] = []
    if entrant is None:
        day = service.days.today()
    else:
        day, entry, plays = await answer(service.progress(variant, entrant))
    count = len(await answer(service.call(service.days.deals, variant, day))) if entry else \
        service.config.challenge_deals
    board = await answer(service.call(service.results.day, variant, day))
    by_number = {play.deal: play for play in plays}
    finished = entry is not None and len(plays) == count and all(p.finished for p in plays)
    own = board.by_entry.get(entry.id) if entry else None
    return wire.Challenge(
        variant=variant, day=day,
        deals=[_deal(n, by_number.get(n), board, entry) for n in range(1, count + 1)],
        level=service.config.challenge_level, rated=service.config.challenge_rated,
        entered=entry is not None, name=entry.name if entry else None, finished=finished,
        standing=_standing(own),
        rank=own.rank if finished and own else None,
        entrants=len(board.standings) if finished else None,
    )


@router.post("/api/challenge/{variant}/play", status_code=status.HTTP_201_CREATED)
async def play(variant: Variant, body: wire.EnterChallenge, request: Request,
               response: Response) -> wire.ChallengeTable:
    """Enter today's challenge (once a day an account, once a browser a guest) and get the
    table of the deal in play, or of the next deal, started: the asker at the deal's seat, the
    computer in the others."""
    service = service_of(request)
    entrant, account = await entrant_of(request)
    if entrant is None:
        guest = secrets.token_urlsafe(24)
        response.set_cookie(GUEST_COOKIE, guest, max_age=400 * 86400, httponly=True,
                            samesite="lax")
        entrant = Entrant(None, token_hash(guest))
    name = account.username if account else (body.name or default_name())
    rated = False
    if account is not None and service.config.challenge_rated:
        rated = await service.store.rated_table_of(account.id) is None
    started = await answer(service.play(variant, entrant, name, account, rated))
    return wire.ChallengeTable(
        deal=started.deal, code=started.code, seat=started.seat, token=started.token,
        link=f"{request.base_url}t/{started.code}", websocket=f"/ws/tables/{started.code}",
    )


@router.get("/api/challenge/{variant}/deals/{number}")
async def traveller(variant: Variant, number: int, request: Request, day: date | None = None,
                    page: Annotated[int, Query(ge=1, le=10_000)] = 1) -> wire.Traveller:
    """A deal's traveller: every entrant's result on it, best first (50 a page, and the
    asker's own row), with the contracts; to an entrant who finished the deal, or to anyone
    once the day is over (``deal_not_finished`` before). Other entrants' tables (replays) only
    once the day is over."""
    service = service_of(request)
    day = await answer(service.check_day(day))
    over = service.day_over(day)
    entrant, _ = await entrant_of(request)
    entry: Entry | None = None
    plays: list[Play] = []
    if entrant is not None:
        entry, plays = await answer(service.entry_plays(variant, day, entrant))
    if not over and not service.finished(plays, number):
        raise refused(ChallengeError("deal_not_finished", 403,
                                     f"finish deal {number} before you see its results"))
    deals = await answer(service.call(service.days.deals, variant, day))
    if not 1 <= number <= len(deals):
        raise refused(ChallengeError("no_such_deal", 404, f"the day has no deal {number}"))
    kept = await answer(service.call(service.results.traveller, variant, day, number, over))
    mine = entry.id if entry is not None else None

    def row(play: Play) -> wire.TravellerRow:
        shown = play.entry_id == mine or over
        score = kept.scores[play.entry_id]
        return wire.TravellerRow(
            name=play.name, you=play.entry_id == mine, result=play.result or 0,
            matchpoints=score.matchpoints, percentage=round(score.percentage, 2),
            contract=wire.Contract(**play.contract) if play.contract else None,
            table_code=play.table_code if shown else None,
            replay=f"/api/tables/{play.table_code}/hands/1/replay" if shown else None,
        )

    start = (page - 1) * PAGE_SIZE
    own = next((play for play in kept.plays if play.entry_id == mine), None)
    return wire.Traveller(variant=variant, day=day, deal=number, seat=deals[number - 1].seat,
                          entrants=len(kept.plays), page=page,
                          yours=None if own is None else row(own),
                          rows=[row(play) for play in kept.plays[start:start + PAGE_SIZE]])


@router.get("/api/challenge/{variant}/leaderboard")
async def leaderboard(
    variant: Variant, request: Request,
    period: Literal["day", "week", "all"] = "day",
    day: date | None = None,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
) -> wire.ChallengeLeaderboard:
    """One page of a leaderboard. ``day``: a day's entrants by mean percentage (today's to an
    entrant who finished every deal, ``challenge_not_finished`` before; any earlier day to
    anyone). ``week`` (the seven days before today) and ``all`` (every day before today):
    accounts by the mean of their days, from ``challenge_min_days`` days."""
    service = service_of(request)
    entrant, account = await entrant_of(request)
    start = (page - 1) * PAGE_SIZE
    if period == "day":
        day = await answer(service.check_day(day))
        mine: int | None = None
        if entrant is not None:
            entry, plays = await answer(service.entry_plays(variant, day, entrant))
            mine = entry.id if entry else None
            count = len(await answer(service.call(service.days.deals, variant, day)))
            done = len(plays) == count and all(play.finished for play in plays)
        else:
            done = False
        if not done and not service.day_over(day):
            raise refused(ChallengeError("challenge_not_finished", 403, "finish today's "
                                         "challenge before you see its standings"))
        board = await answer(service.call(service.results.day, variant, day,
                                          service.day_over(day)))
        rows = [
            wire.LeaderboardRow(rank=s.rank, name=board.names[s.key][0], you=s.key == mine,
                                percentage=round(s.percentage, 2), count=s.count, total=s.total)
            for s in board.standings[start:start + PAGE_SIZE]
        ]
        return wire.ChallengeLeaderboard(
            variant=variant, period=period, first=day, last=day, min_days=1,
            entrants=len(board.standings), page=page, rows=rows)
    last = service.days.today() - timedelta(days=1)
    first = last - timedelta(days=6) if period == "week" else date.min
    min_days = service.config.challenge_min_days
    period_board = await answer(service.call(service.results.period, variant, first, last,
                                             min_days))
    me = account.id if account else None
    return wire.ChallengeLeaderboard(
        variant=variant, period=period, first=None if first == date.min else first, last=last,
        min_days=min_days, entrants=len(period_board.standings), page=page,
        rows=[wire.LeaderboardRow(rank=s.rank, name=period_board.names[s.key], you=s.key == me,
                                  percentage=round(s.percentage, 2), count=s.count,
                                  total=s.total)
              for s in period_board.standings[start:start + PAGE_SIZE]],
    )


@router.get("/api/challenge/{variant}/history")
async def history(variant: Variant, request: Request,
                  player: str | None = None) -> wire.ChallengeHistory:
    """A player's challenges (``player``: a username; default: the signed-in asker), newest
    first: each day's deals finished, percentage, total, rank and entrants. Today's only to the
    player itself (``not_signed_in`` without a player or a session, ``no_such_player``)."""
    service = service_of(request)
    account = await session_account(request)
    if player is not None:
        found = None
        if len(player) <= 4 * MAX_LENGTH:
            found = await run(request, accounts_of(request).credentials, canonical(player))
        if found is None:
            raise refused(ChallengeError("no_such_player", 404,
                                         f"no player is called {player!r}"))
        subject = found[0]
    elif account is not None:
        subject = account
    else:
        raise refused(ChallengeError("not_signed_in", 401, "sign in, or name a player"))
    today = service.days.today()
    own = account is not None and account.id == subject.id
    entries = await answer(service.call(service.challenges.entries_of, variant, subject.id))
    days = []
    for entry in entries:
        day = date.fromisoformat(entry.day)
        if day == today and not own:
            continue
        board = await answer(service.call(service.results.day, variant, day, day < today))
        standing = board.by_entry.get(entry.id)
        if standing is None:
            continue
        # Today's rank is a statistic of deals the player may not have finished yet.
        ranked = day < today or standing.count == service.config.challenge_deals
        days.append(wire.HistoryDay(
            day=day, deals=standing.count, percentage=round(standing.percentage, 2),
            total=standing.total, rank=standing.rank if ranked else None,
            entrants=len(board.standings) if ranked else None))
    return wire.ChallengeHistory(variant=variant, player=subject.username, days=days)


@router.get("/compete", include_in_schema=False)
def page() -> FileResponse:
    """The 比赛 page (the browser client's single page reads the address)."""
    return FileResponse(STATIC / "index.html", headers=NO_CACHE)
