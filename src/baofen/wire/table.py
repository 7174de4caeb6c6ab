"""A table's public information on the wire: seats, the match's books, settings and rules.

Everything here is public by construction: no field can hold a hidden card.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..match import MatchEntry
from ..setting import BotLevel
from .cards import SeatNumber
from .results import ResultView
from .rules import Rules
from .settings import TableSettings


class SeatView(BaseModel):
    """One seat as everyone sees it."""

    seat: SeatNumber
    kind: Literal["human", "bot"] | None = Field(description="null: empty")
    name: str | None
    bot_level: BotLevel | None
    connected: bool = Field(description="a player's connection is open (bots: always true)")
    auto: bool = Field(description="托管: the computer plays this seat now")
    away: bool = Field(description="left or dropped (逃跑, rules.md §12.4)")
    account: bool = Field(
        False, description="the seat is bound to a signed-in player's account: `name` is its "
        "username (GET /api/players/{name}); a guest's name is any text"
    )


class HandSummary(BaseModel):
    """One settled hand of the match."""

    number: int
    deltas: list[int]
    scores: list[int] = Field(description="running scores after this hand")
    pot: int
    left: list[SeatNumber]
    result: ResultView

    @classmethod
    def of(cls, entry: MatchEntry) -> HandSummary:
        """The summary of a settled hand of a match."""
        result = entry.hand.result
        assert result is not None, "a settled hand has its result"
        return cls(
            number=entry.number,
            deltas=list(entry.deltas),
            scores=list(entry.ledger.scores),
            pot=entry.ledger.pot,
            left=list(entry.left),
            result=ResultView.of(result),
        )


class MatchView(BaseModel):
    """The match's books (rules.md §12)."""

    hand_number: int = Field(description="1 for the first hand")
    hands: int | None = Field(description="hands in the match (null: unlimited)")
    step: int = Field(description="number of actions so far in the current hand")
    scores: list[int]
    coins: list[int] | None = Field(description="包红五: scores in coins")
    pot: int
    caller: SeatNumber
    finished: bool
    history: list[HandSummary]


class TableInfo(BaseModel):
    """Public information of a table (REST and every ``state``): never a hidden card."""

    code: str
    status: Literal["waiting", "playing", "finished"]
    rules: Rules
    settings: TableSettings
    seats: list[SeatView]
    match: MatchView | None = Field(description="null before the start")
    version: int = Field(description="number of stored events; grows with every change")
    deadline: float | None = Field(
        description="turn timer of the seat to act (between hands: when those who have not "
        "pressed 继续 are made ready): Unix time in seconds, or null"
    )
    ready: list[SeatNumber] = Field(
        default_factory=list, description="between hands: the seats that pressed 继续 (ready)"
    )
    node: str | None = Field(
        None, description="cluster mode: the server node that owns the table now"
    )
    host: SeatNumber | None = Field(
        None, description="the host's seat, who alone starts the match and fills the seats "
        "with computer players: the player seated longest among those connected (the "
        "creator, who sits first); null while no player is connected"
    )
    between_hands: bool = Field(
        False, description="a finished hand waits for 继续 (ready) before the next deal"
    )
    created: float = Field(0.0, description="when the table was created: Unix time in seconds")
    active: float = Field(0.0, description="when the table last changed: Unix time in seconds")


class ListedTable(TableInfo):
    """An entry of the open-table list (``GET /api/tables``): the table's information and what
    a visitor can do there."""

    stage: Literal["waiting", "playing", "between_hands"] = Field(
        description="waiting for players, a hand being played, or between two hands"
    )
    free_seats: list[SeatNumber] = Field(
        description="the empty seats a visitor may join (before the start); none: watch"
    )
    host_name: str | None = Field(description="the host's name (null: no host now)")

    @classmethod
    def of(cls, info: TableInfo) -> ListedTable:
        """The list entry of a table's information."""
        stage = "between_hands" if info.between_hands else info.status
        assert stage != "finished", "a finished table is not listed"
        free = [seat.seat for seat in info.seats if seat.kind is None]
        host = None if info.host is None else info.seats[info.host].name
        return cls.model_validate({
            **dict(info), "stage": stage, "host_name": host,
            "free_seats": free if info.status == "waiting" else [],
        })
