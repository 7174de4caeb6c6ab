"""The deal (发牌) and the cards each seat holds (rules.md §2).

The 108 cards of two decks go to four hands of 25 and a kitty (底牌) of 8, shuffled from a seed or
given explicitly. A seat holds its cards *by group* (S, H, C, D, trump), each group in display
order, the form the hand state machine plays from.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple

from .cards import CARDS, KINDS, Card, parse_card, parse_cards
from .errors import IllegalAction
from .order import Order

HAND_SIZE = 25
"""Cards dealt to each seat."""
KITTY_SIZE = 8
"""Cards of the kitty (底牌)."""

_POSITIONS = range(4 * HAND_SIZE + KITTY_SIZE)
_DEAL_STARTS = range(0, 4 * HAND_SIZE, HAND_SIZE)


class Deal(NamedTuple):
    """A deal, and what each seat holds of it."""

    cards: tuple[tuple[Card, ...], ...]
    """Four hands, then the kitty."""
    held: list[list[tuple[Card, ...]]]
    """Each seat's cards by group (:func:`grouped`)."""
    counts: list[list[int]]
    """How many of each card kind each seat holds."""


def shuffled_deal(order: Order, rng: random.Random) -> Deal:
    """A deal shuffled by ``rng`` (108 draws); each hand comes in display order for ``order``."""
    # A random permutation of the pack's positions (sorting by random keys); each seat takes a
    # slice of it, and its positions in increasing order are its cards in display order, already
    # split by group at the pack's group boundaries.
    draw = rng.random
    keys = [draw() for _ in _POSITIONS]
    shuffled = sorted(_POSITIONS, key=keys.__getitem__)
    pack = order.pack
    bounds = order.pack_bounds
    held = []
    counts = []
    for start in _DEAL_STARTS:
        positions = sorted(shuffled[start:start + HAND_SIZE])
        cuts = [bisect_left(positions, bound) for bound in bounds]
        parts = [tuple(map(pack.__getitem__, positions[lo:hi])) for lo, hi in pairwise(cuts)]
        held.append(parts[1:] + parts[:1])  # trumps come first in the pack, last here
        tally = [0] * KINDS
        for position in positions:
            tally[pack[position]] += 1
        counts.append(tally)
    kitty = tuple(pack[p] for p in sorted(shuffled[4 * HAND_SIZE:]))
    return Deal((*(flat(h) for h in held), kitty), held, counts)


def checked_deal(
    order: Order, hands: Sequence[Iterable[int | str]], kitty: Iterable[int | str]
) -> Deal:
    """The deal of ``hands`` and ``kitty`` as given; ``ValueError`` unless it holds every card of
    two decks exactly twice, 25 to each hand and 8 to the kitty."""
    if len(hands) != 4:
        raise ValueError(f"an explicit deal has 4 hands, not {len(hands)}")
    try:
        dealt = [as_cards(h) for h in hands]
        kitty_cards = as_cards(kitty)
    except IllegalAction as error:
        raise ValueError(str(error)) from None
    for seat, cards in enumerate(dealt):
        if len(cards) != HAND_SIZE:
            raise ValueError(f"hand {seat} has {len(cards)} cards; each hand has {HAND_SIZE}")
    if len(kitty_cards) != KITTY_SIZE:
        raise ValueError(f"the kitty has {len(kitty_cards)} cards; it has {KITTY_SIZE}")
    total = [0] * KINDS
    for card in [c for h in dealt for c in h] + list(kitty_cards):
        total[card] += 1
    wrong = [f"{CARDS[k]}×{n}" for k, n in enumerate(total) if n != 2]
    if wrong:
        raise ValueError(
            "a deal must hold every card of two decks exactly twice; wrong counts: "
            + " ".join(wrong)
        )
    counts = [[0] * KINDS for _ in range(4)]
    for seat in range(4):
        for card in dealt[seat]:
            counts[seat][card] += 1
    return Deal((*dealt, kitty_cards), [grouped(order, cards) for cards in dealt], counts)


def grouped(order: Order, cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """``cards`` split by group (S, H, C, D, trump), each in display order."""
    groups: list[list[Card]] = [[], [], [], [], []]
    group = order.group
    rank = order.display_rank
    for card in cards:
        groups[group[card]].append(card)
    return [tuple(sorted(g, key=rank.__getitem__)) if len(g) > 1 else tuple(g) for g in groups]


def flat(held: Sequence[tuple[Card, ...]]) -> tuple[Card, ...]:
    """A hand held by group, in display order: trumps first, then S, H, C, D."""
    return held[4] + held[0] + held[1] + held[2] + held[3]


def without(cards: tuple[Card, ...], removed: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` less one copy of each card of ``removed`` (present ones only)."""
    if len(removed) == 1:
        card = removed[0]
        if card in cards:
            i = cards.index(card)
            return cards[:i] + cards[i + 1:]
        return cards
    rest = list(cards)
    for card in removed:
        if card in rest:
            rest.remove(card)
    return tuple(rest)


def missing(counts: Sequence[int], cards: Iterable[int]) -> str:
    """The cards of ``cards`` a seat holding ``counts`` of each kind lacks, in notation."""
    need: dict[int, int] = {}
    for card in cards:
        need[card] = need.get(card, 0) + 1
    return " ".join(str(CARDS[c]) for c, n in need.items() if n > counts[c])


def as_cards(cards: str | Iterable[int | str]) -> tuple[Card, ...]:
    """Cards from notation (``"SA SK"``) or an iterable of cards, kinds or tokens; anything
    else raises :class:`IllegalAction` saying what was wrong."""
    if isinstance(cards, str):
        try:
            return tuple(parse_cards(cards))
        except ValueError as error:
            raise IllegalAction(str(error)) from None
    try:
        items = list(cards)
    except TypeError:
        raise IllegalAction(f"expected a list of cards, not {cards!r}") from None
    out = []
    for card in items:
        if type(card) is Card:
            out.append(card)
        elif isinstance(card, str):
            try:
                out.append(parse_card(card))
            except ValueError as error:
                raise IllegalAction(str(error)) from None
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < KINDS:
            out.append(CARDS[card])
        else:
            raise IllegalAction(f"not a card: {card!r}")
    return tuple(out)
