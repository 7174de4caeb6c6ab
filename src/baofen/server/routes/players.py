"""战绩 and the leaderboard over REST: a player's record and latest hands, and the best
ratings of each game. Only accounts have them: guests and computer players take part
in rated hands with fixed ratings and are listed nowhere."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request, status

from ...accounts.ratings import NEW
from ...accounts.usernames import MAX_LENGTH, canonical
from ...setting import GAMES, Variant
from ...store.accounts import Accounts, GameStats
from ...wire import accounts as wire
from ..security.sessions import run

router = APIRouter()


def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def _record(stats: GameStats) -> wire.GameRecord:
    return wire.GameRecord(
        hands=stats.hands,
        as_declarer=stats.as_declarer,
        as_defender=stats.hands - stats.as_declarer,
        made_rate=round(stats.made / stats.as_declarer, 4) if stats.as_declarer else None,
        average_result=round(stats.result_sum / stats.hands, 2) if stats.hands else None,
        rating=wire.Rating.of(stats.rating),
        rated_hands=stats.rated_hands,
    )


@router.get("/api/players/{username}", responses={404: {"description": "no such player"}})
async def player(username: str, request: Request) -> wire.PlayerProfile:
    """A player's 战绩: per game, hands, as declarer and defender, make rate, average result and
    rating; and the latest hands with their replays."""
    accounts = _accounts(request)
    found = None
    if len(username) <= 4 * MAX_LENGTH:
        found = await run(request, accounts.credentials, canonical(username))
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no player is called {username!r}")
    account = found[0]
    stats = await run(request, accounts.stats, account.id)
    recent = await run(request, accounts.recent, account.id)
    games = {
        variant: _record(stats.get(variant) or GameStats(0, 0, 0, 0, NEW, 0))
        for variant in GAMES
    }
    return wire.PlayerProfile(
        username=account.username,
        created=account.created,
        games=games,
        recent=[
            wire.RecentHand(
                table_code=hand.table_code if hand.listed else None,
                hand_number=hand.hand_number,
                variant=hand.variant,
                role=hand.role,
                result=hand.result,
                made=hand.made,
                finished=hand.finished,
                replay=(f"/api/tables/{hand.table_code}/hands/{hand.hand_number}/replay"
                        if hand.listed else None),
            )
            for hand in recent
        ],
    )


@router.get("/api/leaderboard")
async def leaderboard(
    request: Request,
    variant: Variant = "baofen",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[wire.LeaderboardEntry]:
    """The accounts with at least one rated hand in the game, best shown rating first."""
    rows = await run(request, _accounts(request).leaderboard, variant, limit)
    return [
        wire.LeaderboardEntry(rank=rank, username=name, rating=wire.Rating.of(rated), hands=hands)
        for rank, (name, rated, hands) in enumerate(rows, start=1)
    ]
