"""rules.md §7's following obligation read in plain words, by brute force: the reference the
engine's follow rule is checked against (tests/test_follow.py, tests/test_properties.py)."""

from __future__ import annotations

import itertools
from collections import Counter

# Plain-suit chains, high to low (rules.md §3): 包分 hearts with spades trump, 包红五 hearts
# with spades trump (no H5), 包红五 diamonds with hearts trump (no D3, the 副参谋).
CHAINS = {
    ("baofen", "S", "H"): "AKQJT9876543",
    ("hongwu", "S", "H"): "AKQJT987643",
    ("hongwu", "H", "D"): "AKQJT987654",
}


def runs_in(pair_ranks: list[str], chain: str) -> list[int]:
    """Lengths of the maximal runs of adjacent pairs."""
    positions = sorted(chain.index(r) for r in pair_ranks)
    runs: list[int] = []
    for i, p in enumerate(positions):
        if i and p == positions[i - 1] + 1:
            runs[-1] += 1
        else:
            runs.append(1)
    return runs


def best_list(lead_tractors: list[int], runs: list[int]) -> list[int]:
    """Best list of matched lead tractor lengths: try every assignment of lead tractors to
    runs (or to nothing); a run hosts disjoint sub-runs whose lengths add up to at most its
    own."""
    best: list[int] = []
    for assignment in itertools.product(range(-1, len(runs)), repeat=len(lead_tractors)):
        load: Counter[int] = Counter()
        for length, slot in zip(lead_tractors, assignment, strict=True):
            if slot >= 0:
                load[slot] += length
        if all(load[slot] <= runs[slot] for slot in load):
            matched = sorted(
                (length for length, slot in zip(lead_tractors, assignment, strict=True)
                 if slot >= 0),
                reverse=True,
            )
            best = max(best, matched)
    return best


def structure(cards: list[str], chain: str) -> tuple[list[int], int]:
    counts = Counter(cards)
    pair_ranks = [c[1] for c, n in counts.items() if n == 2]
    return runs_in(pair_ranks, chain), len(pair_ranks)


def reference_legal(
    lead: list[str], suited: list[str], play_suited: list[str], chain: str, structured: bool
) -> bool:
    """§7 in plain words, for a play of ``len(lead)`` held cards: ``suited`` is the follower's
    holding in the led plain suit, ``play_suited`` the played cards of that suit, ``chain``
    the suit's ranks high to low."""
    n = len(lead)
    if len(suited) >= n and len(play_suited) != n:
        return False
    if len(suited) < n and len(play_suited) != len(suited):
        return False
    if not structured or len(suited) <= n:
        return True
    lead_runs, lead_pairs = structure(lead, chain)
    lead_tractors = sorted((r for r in lead_runs if r > 1), reverse=True)
    held_runs, held_pairs = structure(suited, chain)
    play_runs, play_pairs = structure(play_suited, chain)
    if best_list(lead_tractors, play_runs) != best_list(lead_tractors, held_runs):
        return False
    return play_pairs >= min(lead_pairs, held_pairs)

