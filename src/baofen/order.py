"""Suit groups, card order and tractor chains for one game and trump suit (rules.md §3–4).

An :class:`Order` is computed once per (variant, trump) and cached; every rule check reads its
flat tuples indexed by card kind, so nothing is recomputed or sorted during play.

- ``group[k]``: ``0``–``3`` for the plain suit S H C D (副牌), ``TRUMP`` (4) for trump (主).
- ``strength[k]``: order within the group, higher beats lower; equal values never beat each other
  (同等大小先出者为大). Trump strengths exceed every plain strength.
- ``seq[k]``: position in a tractor chain. Two pairs are adjacent exactly when their ``seq``
  differ by one; cards that share a chain position (包红五's other 2s after the trump 2) share
  a ``seq``; cards in no chain get values that are never adjacent to anything.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .cards import BIG_JOKER, CARDS, KINDS, LITTLE_JOKER, SAME_COLOUR, SUITS, Card, card_of

TRUMP: Final = 4
"""Group number of the trump group; plain groups are the suit indexes 0–3."""

GROUP_NAMES: Final = ("S", "H", "C", "D", "trump")
"""Name of each group number: the plain suit letter, or ``"trump"``."""

_CHAIN_SPACING = 64


class Order:
    """Card order tables of one game (``"baofen"``/``"hongwu"``) with one trump suit.

    ``trump=None`` gives the order before trump is named (only the always-trump cards are trump),
    used to sort a hand for display during bidding.
    """

    __slots__ = (
        "display_rank",
        "group",
        "kinds_by_group",
        "pack",
        "pack_bounds",
        "seq",
        "strength",
        "trump",
        "variant",
    )

    def __init__(self, variant: str, trump: str | None) -> None:
        if variant not in ("baofen", "hongwu"):
            raise ValueError(f"unknown variant {variant!r}")
        if trump is not None and trump not in SUITS:
            raise ValueError(f"trump must be one of S H C D, not {trump!r}")
        self.variant = variant
        self.trump = trump
        trump_top_down, plain_top_down, chains = (
            _baofen_layout(trump) if variant == "baofen" else _hongwu_layout(trump)
        )
        group = [0] * KINDS
        strength = [0] * KINDS
        for level, cards in enumerate(reversed(trump_top_down)):
            for card in cards:
                group[card] = TRUMP
                strength[card] = 100 + level
        for suit_index, levels in enumerate(plain_top_down):
            for level, card in enumerate(reversed(levels)):
                group[card] = suit_index
                strength[card] = 2 + level
        seq = [-_CHAIN_SPACING * (k + 1) * 3 for k in range(KINDS)]
        for chain_number, chain in enumerate(chains):
            for position, cards in enumerate(chain):
                for card in cards:
                    seq[card] = _CHAIN_SPACING * (chain_number + 1) + position
        self.group: tuple[int, ...] = tuple(group)
        self.strength: tuple[int, ...] = tuple(strength)
        self.seq: tuple[int, ...] = tuple(seq)
        self.kinds_by_group: tuple[tuple[Card, ...], ...] = tuple(
            tuple(
                sorted((CARDS[k] for k in range(KINDS) if group[k] == g), key=self._sort_key)
            )
            for g in range(5)
        )
        # Display: trumps first, then the plain suits S H C D; strongest first inside a group.
        display = [k for g in (TRUMP, 0, 1, 2, 3) for k in self.kinds_by_group[g]]
        rank = [0] * KINDS
        for position, kind in enumerate(display):
            rank[kind] = position
        self.display_rank: tuple[int, ...] = tuple(rank)
        self.pack: tuple[Card, ...] = tuple(CARDS[k] for k in display for _ in (0, 1))
        """The 108 cards in display order."""
        sizes = [2 * len(self.kinds_by_group[g]) for g in (TRUMP, 0, 1, 2, 3)]
        self.pack_bounds: tuple[int, ...] = tuple(sum(sizes[:i]) for i in range(6))
        """Where each group starts in ``pack`` (trumps, then S H C D), and its end."""

    def _sort_key(self, kind: int) -> tuple[int, int]:
        # Strongest first; equal strengths in suit order S H C D (the failed-throw tie-break).
        return (-self.strength[kind], kind)

    def is_trump(self, kind: int) -> bool:
        """True when ``kind`` belongs to the trump group (主牌)."""
        return self.group[kind] == TRUMP

    def sort(self, cards: list[int]) -> list[int]:
        """Cards sorted for display: trumps first in order, then each plain suit, high to low."""
        rank = self.display_rank
        return sorted(cards, key=rank.__getitem__)

    def __repr__(self) -> str:
        return f"Order({self.variant!r}, trump={self.trump!r})"


Layout = tuple[list[list[int]], list[list[int]], list[list[list[int]]]]


def _baofen_layout(trump: str | None) -> Layout:
    """包分 (§3.1): 大王 > 小王 > 主2 > 副2 (equal) > trump A…3; plain A…3."""
    twos: list[int] = [card_of(s, 2) for s in SUITS]
    trump_twos: list[int] = [card_of(trump, 2)] if trump else []
    other_twos = [c for c in twos if c not in trump_twos]
    trump_suit: list[int] = [card_of(trump, r) for r in range(14, 2, -1)] if trump else []
    trump_levels: list[list[int]] = [[BIG_JOKER], [LITTLE_JOKER]]
    trump_levels += [trump_twos] if trump_twos else []
    trump_levels += [other_twos] + [[c] for c in trump_suit]
    plain: list[list[int]] = [
        [] if s == trump else [card_of(s, r) for r in range(14, 2, -1)] for s in SUITS
    ]
    chains: list[list[list[int]]] = [[[BIG_JOKER], [LITTLE_JOKER]]]
    chains += [[[c] for c in suit] for suit in [trump_suit, *plain] if suit]
    return trump_levels, plain, chains


def _hongwu_layout(trump: str | None) -> Layout:
    """包红五 (§3.2): 红五 > 大王 > 小王 > 正参谋 > 副参谋 > 主2 > 副2 (equal) > trump A…4."""
    red_five: int = card_of("H", 5)
    partner = SAME_COLOUR[trump] if trump else None
    counsellors: list[int] = (
        [card_of(trump, 3), card_of(partner, 3)] if trump and partner else []
    )
    always = {red_five, *counsellors, *(card_of(s, 2) for s in SUITS)}
    trump_twos: list[int] = [card_of(trump, 2)] if trump else []
    other_twos: list[int] = [card_of(s, 2) for s in SUITS if s != trump]
    trump_suit: list[int] = (
        [c for c in (card_of(trump, r) for r in range(14, 3, -1)) if c not in always]
        if trump
        else []
    )
    trump_levels: list[list[int]] = [[red_five], [BIG_JOKER], [LITTLE_JOKER]]
    trump_levels += [[c] for c in counsellors]
    trump_levels += [trump_twos] if trump_twos else []
    trump_levels += [other_twos] + [[c] for c in trump_suit]
    plain: list[list[int]] = [
        []
        if s == trump
        else [c for c in (card_of(s, r) for r in range(14, 2, -1)) if c not in always]
        for s in SUITS
    ]
    chains: list[list[list[int]]] = [[[red_five], [BIG_JOKER], [LITTLE_JOKER]]]
    if counsellors:
        chains.append([[c] for c in counsellors])
    if trump_twos:
        chains.append([trump_twos, other_twos])
    chains += [[[c] for c in suit] for suit in [trump_suit, *plain] if suit]
    return trump_levels, plain, chains


@cache
def order_for(variant: str, trump: str | None) -> Order:
    """The cached :class:`Order` of ``variant`` with trump suit ``trump``."""
    return Order(variant, trump)
