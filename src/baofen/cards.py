"""Cards and card notation (rules.md §1).

A card is one of 54 *kinds*: 13 ranks in each of four suits, plus the two jokers. Two decks
hold every kind twice, so a card value says *which* card, never *which copy*: two ``SA`` are
equal. :class:`Card` is an ``int`` subclass whose value is the kind (``0``–``53``); the engine
indexes its tables with it directly, and every public function accepts and returns cards.

Notation: suit letter + rank, ``SA HT C2 D5``; ``BJ`` 大王, ``LJ`` 小王. ``T`` is the ten, ``10``
is accepted on input, as are Unicode suits (``♠A``) and lower case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SUITS: Final = "SHCD"
"""Suit letters in canonical order: ♠ spades 黑桃, ♥ hearts 红心, ♣ clubs 梅花, ♦ diamonds 方片."""

RANKS: Final = "23456789TJQKA"
"""Rank letters from low to high; a card's rank number is ``2 + RANKS.index(letter)``."""

SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
"""Unicode symbol of each suit letter."""

SAME_COLOUR: Final = {"S": "C", "C": "S", "H": "D", "D": "H"}
"""The same-colour partner of each suit (S↔C black, H↔D red)."""

LITTLE_JOKER: Final = 52
BIG_JOKER: Final = 53
KINDS: Final = 54
"""Number of card kinds; every kind exists twice in the 108-card pack."""

_SYMBOL_TO_SUIT = {
    "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♣": "C", "♧": "C", "♦": "D", "♢": "D",
}


class Card(int):
    """One card kind, written ``SA``, ``HT``, ``BJ``.

    ``Card("SA")`` parses notation, ``Card(k)`` takes a kind number. Cards compare and hash as
    their kind numbers; that order groups suits and is *not* trick strength, which depends on
    the trump (see :mod:`baofen.order`).
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < KINDS:
            return _CARDS[value]
        raise ValueError(f"not a card kind: {value!r} (expected 0–53 or notation like 'SA')")

    @property
    def suit(self) -> str | None:
        """Suit letter ``S H C D``, or ``None`` for a joker."""
        return None if self >= LITTLE_JOKER else SUITS[self // 13]

    @property
    def rank(self) -> int | None:
        """Rank number 2–14 (11 J, 12 Q, 13 K, 14 A), or ``None`` for a joker."""
        return None if self >= LITTLE_JOKER else 2 + self % 13

    @property
    def is_joker(self) -> bool:
        """True for 大王 and 小王."""
        return self >= LITTLE_JOKER

    @property
    def points(self) -> int:
        """Card points (分牌): 5 for a five, 10 for a ten or king, 0 otherwise."""
        return POINTS[self]

    @property
    def is_red(self) -> bool:
        """True for hearts, diamonds and the big joker (printed red)."""
        return self == BIG_JOKER or (self < LITTLE_JOKER and self // 13 in (1, 3))

    def symbol(self) -> str:
        """Unicode form, ``♠A``, ``♥10``-style ten written ``♥T``, jokers ``BJ``/``LJ``."""
        text = _NAMES[self]
        return text if self >= LITTLE_JOKER else SUIT_SYMBOLS[text[0]] + text[1]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card({_NAMES[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


def _name(kind: int) -> str:
    if kind == BIG_JOKER:
        return "BJ"
    if kind == LITTLE_JOKER:
        return "LJ"
    return SUITS[kind // 13] + RANKS[kind % 13]


_NAMES: Final = tuple(_name(k) for k in range(KINDS))
_CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, k) for k in range(KINDS))
CARDS: Final = _CARDS
"""All 54 card kinds, indexed by kind number."""

POINTS: Final = tuple(
    0 if k >= LITTLE_JOKER else {5: 5, 10: 10, 13: 10}.get(2 + k % 13, 0) for k in range(KINDS)
)
"""Points of each kind: every 5 is worth 5, every 10 and K 10; the two decks hold 200."""

_BY_NAME: Final = {name: card for name, card in zip(_NAMES, _CARDS, strict=True)}


def card_of(suit: str, rank: int) -> Card:
    """The card of suit letter ``suit`` and rank number ``rank`` (2–14)."""
    if suit not in SUITS or not 2 <= rank <= 14:
        raise ValueError(f"no card of suit {suit!r} and rank {rank!r}")
    return _CARDS[SUITS.index(suit) * 13 + rank - 2]


def parse_card(token: str | Card) -> Card:
    """Parse one card token (``SA``, ``s10``, ``♠A``, ``BJ``); a bad token raises ``ValueError``.

    A :class:`Card` is returned as it is."""
    if type(token) is Card:
        return token
    if not isinstance(token, str):
        raise ValueError(f"bad card {token!r}: a card token is a string such as 'SA'")
    text = token.strip().upper()
    if text and text[0] in _SYMBOL_TO_SUIT:
        text = _SYMBOL_TO_SUIT[text[0]] + text[1:]
    if len(text) == 3 and text.endswith("10"):
        text = text[0] + "T"
    card = _BY_NAME.get(text)
    if card is None:
        raise ValueError(
            f"bad card {token!r}: write a suit S H C D and a rank A K Q J T 9…2 "
            "(e.g. 'SA', 'H10'), or BJ / LJ for the jokers"
        )
    return card


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse a space- or comma-separated card list (``"SA SK SK HT BJ"``) or an iterable of
    tokens."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(token) for token in tokens]


def format_cards(cards: Iterable[int]) -> str:
    """Canonical notation of a card list, in the given order: ``"SA SK SK HT BJ LJ"``."""
    return " ".join(_NAMES[c] for c in cards)


def full_pack() -> list[Card]:
    """The 108 cards of two decks, each kind twice, in kind order."""
    return [card for card in _CARDS for _ in range(2)]
