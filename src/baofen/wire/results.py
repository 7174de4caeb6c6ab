"""The scored result of a hand on the wire (rules.md §11)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..scoring import HandResult, ResultKind
from .cards import SeatNumber


class ResultView(BaseModel):
    """The scored result of a finished hand: :class:`~baofen.HandResult` field by field."""

    model_config = ConfigDict(from_attributes=True, frozen=True)

    declarer: SeatNumber | None
    target: int | None
    declarer_points: int
    made: bool
    kind: ResultKind | None = Field(description="full_sweep, half_sweep, shutout, no_bid or null")
    score: int | None = Field(description="包分 hand score S")
    levels: int | None = Field(description="包红五 levels L")
    deltas: list[int] = Field(description="each seat's change this hand")
    breakdown: dict[str, int] = Field(description="named parts of declarer_points")

    @classmethod
    def of(cls, result: HandResult) -> ResultView:
        """The view of an engine result."""
        return cls.model_validate(result)
