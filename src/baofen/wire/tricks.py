"""A finished trick on the wire (public: every card of a trick is seen by all)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..tricks import Trick
from .cards import CardName, SeatNumber


class TrickView(BaseModel):
    """A finished trick (一轮): who led, each seat's cards in play order, winner and points."""

    model_config = ConfigDict(from_attributes=True, frozen=True)

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


class TrickViews:
    """The views of one hand's finished tricks, each trick converted once.

    A server sends every finished trick in every seat's ``state`` after every action; this
    keeps the views of the tricks it was last asked for (by identity: the engine keeps a
    hand's :class:`Trick` values), so that only a new trick is converted.
    """

    def __init__(self) -> None:
        self._known: dict[int, tuple[Trick, TrickView]] = {}

    def of(self, tricks: Sequence[Trick]) -> list[TrickView]:
        """The views of ``tricks``, in order."""
        known, kept, views = self._known, {}, []
        for trick in tricks:
            entry = known.get(id(trick))
            if entry is None or entry[0] is not trick:
                entry = (trick, TrickView.of(trick))
            kept[id(trick)] = entry
            views.append(entry[1])
        self._known = kept
        return views
