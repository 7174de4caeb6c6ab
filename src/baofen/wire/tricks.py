"""A finished trick on the wire (public: every card of a trick is seen by all)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from ..cards import KINDS, Card
from ..tricks import Trick, TrickJudge
from .cards import CardName, SeatNumber


class Stopper(NamedTuple):
    """What beat a failed throw: said where every hand is known (a replay), never during play
    (only the throw's cards are public, docs/rules.md §2)."""

    seat: int
    cards: tuple[Card, ...]
    higher: bool
    """False when the cards only match the played card (包红五 stops a throw on a tie too)."""


def throw_stopper(
    judge: TrickJudge, thrower: int, played: Sequence[Card], held: Sequence[Sequence[Card]]
) -> Stopper:
    """Who made a throw fail, and with which cards: the first other seat in playing order
    whose cards ``held[seat]`` at the lead beat ``played``, the part of the throw that
    ``thrower`` had to play."""
    for seat in ((thrower + step) % 4 for step in (1, 2, 3)):
        cards = judge.stopper(played, held[seat])
        if cards is not None:
            strength = judge.strength
            return Stopper(seat, cards, strength[cards[0]] > max(strength[c] for c in played))
    raise ValueError("no seat holds cards that beat the played part: the throw was good")


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
        self._known: dict[int, tuple[Trick, TrickView, dict[str, Any]]] = {}
        self._last: list[tuple[Trick, TrickView, dict[str, Any]]] = []
        self._data: tuple[list[Any], list[dict[str, Any]]] = ([], [])
        self._counted: tuple[int, Trick | None, list[int]] = (0, None, [])

    def played(self, tricks: Sequence[Trick]) -> list[int]:
        """For each card kind, the copies played in ``tricks`` (a new list): the tricks
        counted last time are not counted again when ``tricks`` goes on from them."""
        number, last, counts = self._counted
        if number > len(tricks) or (number and tricks[number - 1] is not last):
            number, counts = 0, []
        if not counts:
            counts = [0] * KINDS
        if number < len(tricks):
            counts = list(counts)
            for trick in tricks[number:]:
                for _, cards in trick.plays:
                    for card in cards:
                        counts[card] += 1
            self._counted = (len(tricks), tricks[-1], counts)
        return list(counts)

    def _entries(self, tricks: Sequence[Trick]) -> list[tuple[Trick, TrickView, dict[str, Any]]]:
        last = self._last
        if len(last) == len(tricks) and all(
            entry[0] is trick for entry, trick in zip(last, tricks, strict=True)
        ):
            return last  # asked again for the same tricks: after every action of a trick
        known, kept, entries = self._known, {}, []
        for trick in tricks:
            entry = known.get(id(trick))
            if entry is None or entry[0] is not trick:
                view = TrickView.of(trick)
                entry = (trick, view, view.model_dump(mode="json"))
            kept[id(trick)] = entry
            entries.append(entry)
        self._known = kept
        self._last = entries
        return entries

    def of(self, tricks: Sequence[Trick]) -> list[TrickView]:
        """The views of ``tricks``, in order."""
        return [view for _, view, _ in self._entries(tricks)]

    def data(self, tricks: Sequence[Trick]) -> list[dict[str, Any]]:
        """The views of ``tricks`` as JSON data, in order (the same object for a trick each
        time, and the same list for the same tricks: comparing two views' tricks costs
        nothing). The list is shared: not to be changed."""
        entries = self._entries(tricks)
        if self._data[0] is not entries:
            self._data = (entries, [data for _, _, data in entries])
        return self._data[1]
