"""Cards, seats and suits on the wire: the one conversion between engine cards and notation.

A card field holds an engine :class:`~baofen.Card` in Python and its notation (``"SA"``) in
JSON; validation parses notation (``"h10"`` and ``"♠A"`` too) and takes a ``Card`` as it is,
so a model is built from engine values without converting them first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import Field, PlainSerializer, PlainValidator, WithJsonSchema

from ..cards import CARDS, Card, format_cards, parse_card, parse_cards

SeatNumber = Annotated[int, Field(ge=0, le=3, description="a seat 0–3 (South, East, North, West)")]
Suit = Literal["S", "H", "C", "D"]
"""A suit letter: the trump suit on the wire."""

_NOTATION = "suit letter S H C D + rank 2–9 T J Q K A, or BJ / LJ"

NAMES: tuple[str, ...] = tuple(str(card) for card in CARDS)
"""Each kind's notation, by kind: the serializer looks a card up here without a Python call
per card (a state message holds a hundred cards, sent to every seat after every action)."""


def names(cards: Iterable[Card]) -> list[str]:
    """The cards' notations, as a card list field holds them in JSON."""
    return [NAMES[card] for card in cards]


def _card(value: Any) -> Card:
    if type(value) is Card:
        return value
    if not isinstance(value, str) or not 2 <= len(value) <= 4:
        raise ValueError(f"bad card {value!r}: a card is a string such as 'SA'")
    return parse_card(value)


def _card_string(value: Any) -> tuple[Card, ...]:
    if isinstance(value, tuple) and all(type(card) is Card for card in value):
        return value
    if not isinstance(value, str):
        raise ValueError(f"expected cards in one string such as 'SA SK', not {value!r}")
    return tuple(parse_cards(value))


CardName = Annotated[
    Card,
    PlainValidator(_card),
    PlainSerializer(NAMES.__getitem__, return_type=str),
    WithJsonSchema({
        "type": "string",
        "minLength": 2,
        "maxLength": 4,
        "description": f"a card in notation: {_NOTATION}",
    }),
]
"""One card, in notation on the wire."""

CardString = Annotated[
    tuple[Card, ...],
    PlainValidator(_card_string),
    PlainSerializer(format_cards, return_type=str),
    WithJsonSchema({
        "type": "string",
        "description": f"cards separated by spaces, e.g. 'SA SK SK' ({_NOTATION})",
    }),
]
"""Several cards in one string (hand records and the event log)."""

