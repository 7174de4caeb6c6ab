"""The REST bodies of 每日复式挑战, the daily duplicate challenge against the computer
(docs/protocol.md, "每日复式挑战"; the scoring in docs/competition.md).

Nothing here ever carries what an entrant may not know yet: a deal's seat, result, traveller or
statistic only once the asking entrant has finished that deal, other entrants' tables only once
the day is over, and never a deal's seed before its hand is over.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..setting import BotLevel, Variant
from .cards import SeatNumber
from .names import PlayerName

DealStatus = Literal["waiting", "playing", "finished"]
"""Where an entrant is with a deal: not started, at its table, or over."""


class EnterChallenge(BaseModel):
    """Body of ``POST /api/challenge/{variant}/play``: play the next deal of today's challenge."""

    model_config = ConfigDict(extra="forbid")

    name: PlayerName = Field(
        "", description="a guest's name (an account plays under its username); empty: a "
        "readable default such as 玩家4821"
    )


class Contract(BaseModel):
    """What a traveller shows of a finished hand, seen from the entrant's seat."""

    declarer: int | None = Field(
        description="the declarer relative to the entrant: 0 the entrant, 1 the next seat in "
        "turn (right-hand opponent), 2 the partner side's seat across, 3 the last; null: no bid"
    )
    target: int | None = Field(description="the contract's target (包分 points to make)")
    declarer_points: int | None
    made: bool | None
    kind: str | None = Field(description="full_sweep, half_sweep, shutout, no_bid or null")


class ChallengeDeal(BaseModel):
    """One deal of the day's challenge, as the asking entrant may see it."""

    number: int = Field(description="1 for the first deal")
    status: DealStatus
    seat: SeatNumber | None = Field(description="the entrant's seat (once started)")
    table_code: str | None = Field(description="the entrant's own table (once started)")
    result: int | None = Field(description="the seat's result: 包分 points, 包红五 levels")
    percentage: float | None = Field(
        description="matchpoints in percent among every entrant who finished the deal so far"
    )
    contract: Contract | None = None


class Standing(BaseModel):
    """An entrant's standing: mean percentage over the deals (days) counted, and the total."""

    percentage: float
    count: int = Field(description="deals (in a day) or days (in a period) counted")
    total: int = Field(description="sum of the results (包分 points, 包红五 levels)")


class Challenge(BaseModel):
    """Answer to ``GET /api/challenge/{variant}``: today's challenge and the asker's progress."""

    variant: Variant
    day: date = Field(description="the challenge's day (the server's date in its time zone)")
    deals: list[ChallengeDeal]
    level: BotLevel = Field(description="the computer players' level")
    rated: bool = Field(description="whether signed-in entrants' hands are rated")
    entered: bool = Field(description="whether the asker has started today's challenge")
    name: str | None = Field(description="the asker's name in the challenge (once entered)")
    finished: bool = Field(description="whether the asker has finished every deal")
    standing: Standing | None = Field(description="the asker's standing over its finished deals")
    rank: int | None = Field(description="the asker's rank today (once it finished every deal)")
    entrants: int | None = Field(description="entrants ranked today (once it finished)")


class ChallengeTable(BaseModel):
    """Answer to ``POST /api/challenge/{variant}/play``: the table of the asker's next deal (or
    of the deal it is playing), started, with the computer in the other seats."""

    deal: int
    code: str
    seat: SeatNumber
    token: str | None = Field(
        description="the seat token, on the deal's first asking (send `reclaim` with it); "
        "null after: an account reclaims by its session, a guest with the token it kept"
    )
    link: str
    websocket: str


class TravellerRow(BaseModel):
    """One entrant's result on a deal."""

    name: str
    you: bool
    result: int
    matchpoints: float
    percentage: float
    contract: Contract | None
    table_code: str | None = Field(description="its table: the asker's own, or anyone's once "
                                   "the day is over")
    replay: str | None = Field(description="the hand's replay (same rule as table_code)")


class Traveller(BaseModel):
    """Answer to ``GET /api/challenge/{variant}/deals/{number}``: every result on one deal, best
    first, as a bridge traveller (a page of it)."""

    variant: Variant
    day: date
    deal: int
    seat: SeatNumber
    entrants: int = Field(description="entrants who finished the deal")
    page: int
    yours: TravellerRow | None = Field(description="the asker's own row (wherever it ranks)")
    rows: list[TravellerRow] = Field(description="this page's rows (50 a page), best first")


class LeaderboardRow(BaseModel):
    """One place of a challenge leaderboard."""

    rank: int
    name: str
    you: bool
    percentage: float
    count: int = Field(description="deals (the day's board) or days (a period's) counted")
    total: int


class ChallengeLeaderboard(BaseModel):
    """Answer to ``GET /api/challenge/{variant}/leaderboard``: one page of a leaderboard."""

    variant: Variant
    period: Literal["day", "week", "all"]
    first: date | None = Field(description="the first day counted (null: since the first)")
    last: date = Field(description="the last day counted")
    min_days: int = Field(description="days played to be listed (1 for the day's board)")
    entrants: int = Field(description="entrants listed in all")
    page: int
    rows: list[LeaderboardRow]


class HistoryDay(BaseModel):
    """One day of a player's challenge history."""

    day: date
    deals: int = Field(description="deals finished")
    percentage: float
    total: int
    rank: int | None = Field(description="the day's rank (null today until every deal is "
                             "finished)")
    entrants: int | None = Field(description="entrants ranked that day (same rule)")


class ChallengeHistory(BaseModel):
    """Answer to ``GET /api/challenge/{variant}/history``: a player's challenges, newest first
    (today's only to the player itself)."""

    variant: Variant
    player: str
    days: list[HistoryDay]
