"""Which card kinds may join a play being chosen card by card (rules.md §5–7).

A play is composed one card at a time. A card may be added to the pending selection exactly
when the selection with it is still part of some legal play (the lead or follow the seat may make
now); the play can be committed exactly when the selection itself is legal. So every legal play
can be composed, in any order of its cards, and a composition never reaches a dead end.

- **Leads** (§5): any cards of one suit group, or part of an eight of a kind held (八张, 包分).
- **Follows** (§7): with ``h`` cards of the led group and a lead of ``n``, at most ``n`` cards;
  when ``h < n`` at most ``n − h`` cards from outside the group (all ``h`` will be owed), else
  none. When the follower owes tractors and pairs, the selection must leave room for them: some
  set of held pairs realizing the owed tractors and the owed number of pairs, joined to the
  selection, must fit in ``n`` cards (then any further cards of the group complete a legal play).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..cards import KINDS, SUITS, Card, card_of
from ..observation import Observation
from ..tricks import LeadShape, TrickJudge
from ..units import pair_kinds


def counts_of(cards: Sequence[int]) -> list[int]:
    """Copies of each of the 54 kinds in ``cards``."""
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    return counts


def addable(observation: Observation, selected: Sequence[int]) -> list[int]:
    """The kinds that may be added to ``selected`` (cards the seat holds, picked so far for the
    play it is to make): each leaves the selection part of a legal play. Empty when the seat is
    not to play."""
    judge = observation.judge
    if observation.phase != "playing" or not observation.is_my_turn or judge is None:
        return []
    held = counts_of(observation.hand)
    chosen = counts_of(selected)
    shape = observation.lead_shape
    if shape is None:
        return _lead_additions(judge, held, chosen, selected)
    return _follow_additions(judge, shape, observation.by_group, held, chosen, len(selected))


def _lead_additions(
    judge: TrickJudge, held: list[int], chosen: list[int], selected: Sequence[int]
) -> list[int]:
    group = judge.group
    spare = [k for k in range(KINDS) if held[k] > chosen[k]]
    if not selected:
        return spare
    led = group[selected[0]]
    one_group = all(group[c] == led for c in selected)
    allowed = {k for k in spare if one_group and group[k] == led}
    for rank in _eights_held(judge, held):
        if all(c < 52 and c % 13 == rank for c in selected):
            allowed.update(k for k in spare if k < 52 and k % 13 == rank)
    return sorted(allowed)


def _eights_held(judge: TrickJudge, held: list[int]) -> list[int]:
    """The ranks (``kind % 13``) of the eights of a kind (八张, 包分) the seat holds whole."""
    if not judge.eight_enabled:
        return []
    return [
        rank for rank in range(1, 13)
        if all(held[card_of(suit, 2 + rank)] == 2 for suit in SUITS)
    ]


def _follow_additions(
    judge: TrickJudge,
    shape: LeadShape,
    by_group: Sequence[Sequence[Card]],
    held: list[int],
    chosen: list[int],
    size: int,
) -> list[int]:
    n = shape.size
    if size >= n:
        return []
    g = shape.group
    group = judge.group
    suited = by_group[g]
    h = len(suited)
    outside = sum(chosen[k] for k in range(KINDS) if chosen[k] and group[k] != g)
    spare = [k for k in range(KINDS) if held[k] > chosen[k]]
    if h < n:
        room_outside = n - h
        return [k for k in spare if group[k] == g or outside < room_outside]
    in_group = [k for k in spare if group[k] == g]
    owed_tractors, owed_pairs = judge.owed_structure(shape, suited)
    if not owed_pairs:
        return in_group
    pairs = pair_kinds(suited)
    placements = list(_placements(judge, owed_tractors, pairs))
    allowed = []
    for kind in in_group:
        chosen[kind] += 1
        if _fits(placements, pairs, owed_pairs, chosen, size + 1, n):
            allowed.append(kind)
        chosen[kind] -= 1
    return allowed


def _fits(
    placements: Sequence[frozenset[int]],
    pairs: Sequence[int],
    owed_pairs: int,
    chosen: Sequence[int],
    size: int,
    n: int,
) -> bool:
    """True when some placement of the owed tractors, with the cheapest further pairs up to
    ``owed_pairs``, joined to the selection (``size`` cards, counts ``chosen``) fits in ``n``."""
    for placed in placements:
        cost = size + sum(2 - chosen[k] for k in placed)
        extra = sorted(2 - chosen[k] for k in pairs if k not in placed)
        cost += sum(extra[: max(0, owed_pairs - len(placed))])
        if cost <= n:
            return True
    return False


def _placements(
    judge: TrickJudge, tractors: Sequence[int], pairs: Sequence[int]
) -> Iterator[frozenset[int]]:
    """Every set of held pair kinds made of disjoint chains of the lengths ``tractors`` (the
    empty set when no tractor is owed)."""
    seq = judge.order.seq

    def chains(length: int, used: frozenset[int]) -> Iterator[tuple[int, ...]]:
        def grow(chain: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if len(chain) == length:
                yield chain
                return
            after = seq[chain[-1]] + 1
            for kind in pairs:
                if kind not in used and kind not in chain and seq[kind] == after:
                    yield from grow((*chain, kind))

        for start in pairs:
            if start not in used:
                yield from grow((start,))

    def place(index: int, used: frozenset[int]) -> Iterator[frozenset[int]]:
        if index == len(tractors):
            yield used
            return
        for chain in chains(tractors[index], used):
            yield from place(index + 1, used | frozenset(chain))

    yield from set(place(0, frozenset()))
