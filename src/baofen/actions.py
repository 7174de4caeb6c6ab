"""The three actions of a hand, as small immutable values (叫分, 扣底定主, 出牌), and the phases
of a hand in which they are taken."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from .cards import Card, format_cards, parse_cards

Phase = Literal["bidding", "kitty", "playing", "done"]
"""The phases of a hand: bidding (叫分, :class:`Bid`), the kitty (扣底定主, :class:`Declare`), play
(出牌, :class:`Play`), and done."""

_ONLY_CARDS = frozenset({Card})


def _cards(value: str | Iterable[int]) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(parse_cards(value))
    cards = tuple(value)
    if {*map(type, cards)} <= _ONLY_CARDS:
        return cards  # type: ignore[return-value]
    return tuple(Card(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``value`` (目标分), or a pass when ``value`` is ``None`` (不叫)."""

    value: int | None

    def __str__(self) -> str:
        return "pass" if self.value is None else str(self.value)


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarer names the trump suit (定主) and buries eight cards (扣底)."""

    trump: str
    bury: tuple[Card, ...] = field(default=())

    def __init__(self, trump: str, bury: str | Iterable[int]) -> None:
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "bury", _cards(bury))

    def __str__(self) -> str:
        return f"trump {self.trump}, bury {format_cards(self.bury)}"


@dataclass(frozen=True, slots=True)
class Play:
    """Cards played to a trick: a lead (a unit or a throw, 甩牌) or a follow."""

    cards: tuple[Card, ...]

    def __init__(self, cards: str | Iterable[int]) -> None:
        object.__setattr__(self, "cards", _cards(cards))

    @classmethod
    def of(cls, cards: tuple[Card, ...]) -> Play:
        """A play of ``cards``, already a tuple of :class:`Card` (no conversion: for bots)."""
        play = object.__new__(cls)
        object.__setattr__(play, "cards", cards)
        return play

    def __str__(self) -> str:
        return format_cards(self.cards)


Action = Bid | Declare | Play
"""Any action of a hand."""
