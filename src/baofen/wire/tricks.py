"""A finished trick on the wire (public: every card of a trick is seen by all)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..tricks import Trick
from .cards import CardName, SeatNumber


class TrickView(BaseModel):
    """A finished trick (一轮): who led, each seat's cards in play order, winner and points."""

    model_config = ConfigDict(from_attributes=True)

    leader: SeatNumber
    plays: list[tuple[SeatNumber, list[CardName]]] = Field(description="[seat, cards] in order")
    winner: SeatNumber
    points: int
    attempted: list[CardName] | None = Field(description="all cards of a failed throw (甩错牌)")
    penalty: int

    @classmethod
    def of(cls, trick: Trick) -> TrickView:
        """The view of an engine trick."""
        return cls.model_validate(trick)

    def to_trick(self) -> Trick:
        """The engine trick."""
        return Trick(
            self.leader,
            tuple((seat, tuple(cards)) for seat, cards in self.plays),
            self.winner,
            self.points,
            None if self.attempted is None else tuple(self.attempted),
            self.penalty,
        )
