"""Units: singles, pairs and tractors, and the format of a set of cards (rules.md §4).

Functions here take an :class:`~baofen.order.Order` and card lists of one suit group. A *run* is a
list of pair kinds, strongest first, each adjacent to the next; runs of two or more pairs are
tractors (拖拉机), a run of one is a plain pair (对子).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from .cards import Card
from .order import Order

K = TypeVar("K", bound=Card)
"""A card kind: a plain ``int`` or a :class:`~baofen.cards.Card`; results keep the type."""


def pair_kinds(cards: Sequence[K]) -> list[K]:
    """Kinds present twice in ``cards`` (each identical pair once)."""
    seen: set[K] = set()
    pairs = []
    for card in cards:
        if card in seen:
            pairs.append(card)
        else:
            seen.add(card)
    return pairs


def runs_of_pairs(order: Order, pairs: Sequence[K]) -> list[list[K]]:
    """Split pair kinds into maximal runs of adjacent pairs (the canonical decomposition).

    Pairs that share a chain position (包红五's other 2s) can join a run only once; the
    others stay separate pairs, so ``T2 T2 C2 C2 D2 D2`` is a two-pair tractor plus a pair.
    """
    if len(pairs) < 2:
        return [list(pairs)] if pairs else []
    seq = order.seq
    remaining = sorted(pairs, key=seq.__getitem__)
    runs = []
    while remaining:
        run = [remaining[0]]
        rest = []
        last = seq[remaining[0]]
        for kind in remaining[1:]:
            position = seq[kind]
            if position == last + 1:
                run.append(kind)
                last = position
            else:
                rest.append(kind)
        runs.append(run)
        remaining = rest
    return runs


@dataclass(frozen=True, slots=True)
class Format:
    """Format of a set of cards: tractor lengths (longest first), lone pairs, singles."""

    tractors: tuple[int, ...]
    pairs: int
    singles: int

    @property
    def units(self) -> int:
        """Number of units (a lead of more than one unit is a throw, 甩牌)."""
        return len(self.tractors) + self.pairs + self.singles


def format_of(order: Order, cards: Sequence[Card]) -> Format:
    """The :class:`Format` of cards of one suit group (canonical decomposition, §4)."""
    pairs = pair_kinds(cards)
    runs = runs_of_pairs(order, pairs)
    tractors = tuple(sorted((len(r) for r in runs if len(r) > 1), reverse=True))
    return Format(tractors, len(pairs) - sum(tractors), len(cards) - 2 * len(pairs))


def is_tractor(order: Order, cards: Sequence[Card]) -> bool:
    """True when ``cards`` are exactly one tractor: two or more adjacent identical pairs."""
    if len(cards) < 4 or len(cards) % 2:
        return False
    group = order.group[cards[0]]
    if any(order.group[c] != group for c in cards):
        return False
    pairs = pair_kinds(cards)
    if 2 * len(pairs) != len(cards) or len(set(pairs)) != len(pairs):
        return False
    runs = runs_of_pairs(order, pairs)
    return len(runs) == 1


def best_tractor_match(lead: Sequence[int], runs: Sequence[int]) -> list[int]:
    """Best list of lead tractor lengths that disjoint sub-runs of ``runs`` can match (§7).

    ``lead`` holds the lead's tractor lengths longest first, ``runs`` the lengths of the
    runs available. Lists compare element by element, longer first, then the longer list —
    exactly Python's list order, so the best list is the maximum.
    """
    if not lead:
        return []
    if len(lead) == 1:
        return [lead[0]] if any(r >= lead[0] for r in runs) else []
    return [length for length, _, _ in pack_tractors(lead, runs)]


def pack_tractors(lead: Sequence[int], runs: Sequence[int]) -> list[tuple[int, int, int]]:
    """The best matching of lead tractor lengths into ``runs``, as placements
    ``(length, run index, offset of the sub-run in that run)``, longest first."""
    used = [0] * len(runs)
    return _pack(list(lead), 0, list(runs), used)[1]


def _pack(
    lead: list[int], index: int, runs: list[int], used: list[int]
) -> tuple[list[int], list[tuple[int, int, int]]]:
    if index == len(lead):
        return [], []
    length = lead[index]
    best = _pack(lead, index + 1, runs, used)
    tried = set()
    for slot, size in enumerate(runs):
        room = size - used[slot]
        if room >= length and room not in tried:
            tried.add(room)
            offset = used[slot]
            used[slot] += length
            lengths, places = _pack(lead, index + 1, runs, used)
            used[slot] -= length
            candidate = [length, *lengths]
            if candidate > best[0]:
                best = (candidate, [(length, slot, offset), *places])
    return best


def all_tractors_fit(lead: Sequence[int], runs: Sequence[int]) -> bool:
    """True when every lead tractor length can be matched by disjoint sub-runs of ``runs``."""
    return len(best_tractor_match(lead, runs)) == len(lead)
