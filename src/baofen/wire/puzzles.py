"""The REST bodies of the puzzles (残局练习): a puzzle as a solver sees it, an answer, its
judgement, and a solver's puzzle record."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..setting import Variant
from .cards import CardName, SeatNumber, Suit


class PuzzleQuestion(BaseModel):
    """A puzzle as its solver sees it before answering: the seat's own view of the hand at the
    decision, never another seat's cards nor the answer."""

    id: str
    game: Variant
    kind: Literal["bid", "declare", "play"] = Field(
        description="what is asked: a bid (叫分), the trump and bury (扣底) or a play")
    seat: SeatNumber
    rating: int = Field(description="the puzzle's Glicko-2 rating (its difficulty)")
    unit: Literal["points", "levels"]
    view: dict[str, Any] = Field(
        description="the seat's observation (the table's ObservationView, 记牌器 included)")
    daily: str | None = Field(None, description="the day (ISO date) of a daily puzzle")


class PuzzleReason(BaseModel):
    """Why a puzzle's best move beats its runner-up: a 复盘 reason (kind and facts), drawn from
    play-outs of the two on the same simulated deals."""

    kind: str
    facts: dict[str, Any]


class PuzzleAnswer(BaseModel):
    """Body of ``POST /api/puzzles/{id}/answer``: the cards of a play, a bid ("pass" for 不叫)
    or the trump and the eight cards buried."""

    model_config = ConfigDict(extra="forbid")

    cards: list[CardName] | None = Field(None, max_length=60)
    bid: int | Literal["pass"] | None = None
    trump: Suit | None = None
    bury: list[CardName] | None = Field(None, max_length=8)


class PuzzleOption(BaseModel):
    """One option the review compared and its value (the game's unit, for the seat)."""

    move: str
    value: float
    best: bool
    made: bool


class SolverRecord(BaseModel):
    """A signed-in solver's puzzle record in one game."""

    rating: float
    rd: float
    attempts: int
    solved: int
    streak: int
    best_streak: int


class RatingChange(BaseModel):
    """The solver's puzzle rating before and after an attempt."""

    before: float
    after: float
    change: float


class PuzzleResult(BaseModel):
    """Answer to ``POST /api/puzzles/{id}/answer``: the judgement, the answer revealed."""

    solved: bool
    made: str
    best: str
    hint: str = Field(description="what the hint (提示, the rule bot) suggests")
    options: list[PuzzleOption] = Field(description="every option compared, best first")
    value_made: float | None = Field(description="null when the answer was not compared")
    margin: float = Field(description="the best's confirmed gain over the runner-up")
    margin_low: float = Field(description="its one-sided 95% lower bound")
    threshold: float
    unit: Literal["points", "levels"]
    reason: PuzzleReason | None = Field(
        None, description="why the best beats the runner-up, as the 复盘 gives a flagged "
        "move's reason (its kinds and facts: docs/protocol.md, the 复盘)")
    themes: list[str] = Field(description="叫分 扣底 抓分 保分 毙牌 垫牌 甩牌 末轮抠底 记牌: "
                              "shown with the answer, as they hint at it")
    rating: RatingChange | None = Field(description="null for a guest (unrated)")
    solver: SolverRecord | None
    puzzle_rating: int
