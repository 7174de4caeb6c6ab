"""The rule bot's hand evaluation, for its bidding (叫分) and its kitty (扣底定主).

**Bidding.** The 25 cards are evaluated for each possible trump suit by a linear model of the
points a declarer captures (:func:`hand_features`, :data:`BID_MODELS`; fitted on rule-bot
self-play). The bot bids the lowest legal value while its expected result at that value
(:func:`expected_result`) clears a margin, else passes (so it passes weak hands, and raises only
as far as its hand carries).

**Kitty.** For each trump suit it chooses the best eight cards to bury (:func:`choose_bury`) —
making voids in short plain suits, keeping aces, pairs and tractors; 包分 kitty points only decide
全击/半击, so weak point cards may go; 包红五 kitty points go with the last trick (保底/抓底), so
point cards are kept unless the hand controls trumps — and names the suit whose evaluation is
best.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, partial

from ...cards import BIG_JOKER, KINDS, LITTLE_JOKER, POINTS, SAME_COLOUR, SUITS, Card, card_of
from ...order import TRUMP, order_for
from ...ruleset import RuleSet
from ...scoring import RED_FIVE, levels_for
from ..data import load_table

FEATURES = ("n_trump", "power", "trump_pairs", "side_top", "short", "points")
"""Names of :func:`hand_features`, in order."""

BID_MODELS: dict[str, tuple[tuple[float, ...], float]] = {
    variant: (tuple(model["coefficients"]), model["residual_sd"])
    for variant, model in load_table("bid_models").items()
}
"""Linear models of the declarer's points from :func:`hand_features`, per game: (intercept,
*coefficients of FEATURES), residual standard deviation, as ``data/bid_models.json`` holds them
(fitted by ``bench/calibration/calibrate_bids.py`` on rule-bot self-play)."""


@cache
def _trump_weights(variant: str, trump: str) -> dict[int, float]:
    """How much each trump card is worth to a hand's evaluation (tiers of §3)."""
    order = order_for(variant, trump)
    weights: dict[int, float] = {}
    tops = {BIG_JOKER: 3.0, LITTLE_JOKER: 2.5}
    if variant == "hongwu":
        tops = {RED_FIVE: 4.0, BIG_JOKER: 3.0, LITTLE_JOKER: 2.5, card_of(trump, 3): 2.2,
                card_of(SAME_COLOUR[trump], 3): 2.0}
    for kind in order.kinds_by_group[TRUMP]:
        if kind in tops:
            weights[kind] = tops[kind]
        elif kind < LITTLE_JOKER and kind % 13 == 0:
            weights[kind] = 1.8 if kind // 13 == SUITS.index(trump) else 1.5
        else:
            rank = kind % 13 + 2
            weights[kind] = {14: 1.3, 13: 1.0, 12: 0.8}.get(rank, 0.6)
    return weights


def hand_features(variant: str, cards: Sequence[Card], trump: str) -> tuple[float, ...]:
    """Evaluation features of ``cards`` if ``trump`` were trump (names in :data:`FEATURES`)."""
    weights = _trump_weights(variant, trump)
    group = order_for(variant, trump).group
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    n_trump = 0
    power = 0.0
    pairs = 0
    suit_len = [0, 0, 0, 0]
    side_top = 0.0
    points = 0
    for kind in range(KINDS):
        count = counts[kind]
        if not count:
            continue
        points += POINTS[kind] * count
        g = group[kind]
        if g == TRUMP:
            n_trump += count
            power += weights[kind] * count
            pairs += count == 2
        else:
            suit_len[g] += count
            rank = kind % 13 + 2
            if rank == 14:
                side_top += count
            elif rank == 13 and counts[kind + 1]:
                side_top += 0.5 * count
    trump_index = SUITS.index(trump)
    short = sum(1 for s in range(4) if s != trump_index and suit_len[s] <= 2)
    return (n_trump, power, pairs, side_top, short, points)


def expected_points(variant: str, features: Sequence[float]) -> float:
    """The model's expected declarer points (包分 S + target; 包红五 P) for ``features``."""
    coefficients, _ = BID_MODELS[variant]
    return coefficients[0] + sum(c * x for c, x in zip(coefficients[1:], features, strict=True))


def best_trump(variant: str, cards: Sequence[Card]) -> tuple[str, float]:
    """The trump suit that evaluates best for ``cards``, and its expected points."""
    return max(
        ((suit, expected_points(variant, hand_features(variant, cards, suit))) for suit in SUITS),
        key=lambda item: item[1],
    )


def expected_result(rules: RuleSet, points: float, bid: int) -> float:
    """Expected declarer result at ``bid`` when it expects ``points`` (包分 S, 包红五 L)."""
    if rules.variant == "baofen":
        return points - bid
    _, sd = BID_MODELS["hongwu"]
    # Average the level function over a normal spread of the points (a few quadrature nodes).
    nodes = (-2.0, -1.0, 0.0, 1.0, 2.0)
    mass = [math.exp(-x * x / 2) for x in nodes]
    total = sum(mass)
    return sum(
        m * levels_for(round(points + x * sd), bid, rules.points_per_level)
        for x, m in zip(nodes, mass, strict=True)
    ) / total



def choose_bury(variant: str, cards: Sequence[Card], trump: str) -> tuple[list[Card], float]:
    """Eight cards to bury from ``cards`` with ``trump`` as trump, and their cost.

    Tries voiding every set of short plain suits that fits in eight cards, fills the rest with
    the cheapest cards, and keeps the cheapest result (voids earn a bonus).
    """
    best: tuple[float, list[Card]] | None = None
    for total, bury, _ in bury_options(variant, cards, trump):
        if best is None or total < best[0]:
            best = (total, bury)
    assert best is not None
    return best[1], best[0]


FILLS = ("cheapest", "points", "no_points", "pairs")
"""How a bury is filled once its voided suits are in: with the cheapest cards by the rule bot's
cost (its own way), point cards first (denying them to the defenders), no point cards while
others remain, or no card of a pair while others remain. :func:`bury_options` gives each void
set's fills in this order, so its own way comes first."""


def bury_options(variant: str, cards: Sequence[Card], trump: str,
                 fills: Sequence[str] = ("cheapest",),
                 ) -> list[tuple[float, list[Card], tuple[int, ...]]]:
    """For every set of short plain suits that fits in eight cards (the empty set included),
    the bury :func:`choose_bury` would make voiding exactly those suits: its cost, its eight cards
    and the suit groups voided (indexes of :data:`~baofen.cards.SUITS`). The kitty search
    (:mod:`baofen.bots.search.kitty`) compares them on sampled worlds; with more ``fills``
    (:data:`FILLS`) each void set also gives its other fills, each distinct bury once, costed
    alike."""
    order = order_for(variant, trump)
    group = order.group
    hongwu = variant == "hongwu"
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    by_suit: list[list[Card]] = [[], [], [], [], []]
    for card in cards:
        by_suit[group[card]].append(card)
    n_trump = len(by_suit[TRUMP])
    cost = [0.0] * KINDS
    for kind in range(KINDS):
        if not counts[kind]:
            continue
        g = group[kind]
        if g == TRUMP:
            cost[kind] = 20.0 + order.strength[kind] - 100
            continue
        rank = kind % 13 + 2
        value = {14: 8.0, 13: 3.0, 12: 1.5, 11: 1.0}.get(rank, 0.3 + 0.05 * rank)
        if rank == 13 and counts[kind + 1]:
            value = 5.0
        points = POINTS[kind]
        # 包分 kitty points count for no one; 包红五 kitty points swing with the last trick.
        value += points * (0.7 if hongwu and n_trump < 14 else 0.4)
        if counts[kind] == 2:
            value += 2.0 + 0.5 * rank / 14
        cost[kind] = value
    plain = [s for s in range(4) if by_suit[s]]
    void_bonus = 5.0 if n_trump >= 8 else 2.0
    options: list[tuple[float, list[Card], tuple[int, ...]]] = []
    for mask in range(1 << len(plain)):
        voided = [plain[i] for i in range(len(plain)) if mask >> i & 1]
        bury = [c for s in voided for c in by_suit[s]]
        if len(bury) > 8:
            continue
        rest = [c for c in cards if group[c] not in voided]
        seen: set[tuple[Card, ...]] = set()
        for fill in fills:
            taken = sorted(rest, key=partial(_fill_rank, fill, counts, cost))
            filled = bury + taken[:8 - len(bury)]
            key = tuple(sorted(filled))
            if key in seen:
                continue
            seen.add(key)
            total = sum(cost[c] for c in filled) - void_bonus * len(voided)
            options.append((total, filled, tuple(voided)))
    return options


def _fill_rank(fill: str, counts: Sequence[int], cost: Sequence[float],
               card: Card) -> tuple[int, float, Card]:
    """Where ``card`` comes in a bury's fill (:data:`FILLS`), first taken first: the cards the
    fill prefers, then the cheapest by the rule bot's cost."""
    if fill == "cheapest":
        first = 0
    elif fill == "points":
        first = 0 if POINTS[card] else 1
    elif fill == "no_points":
        first = 1 if POINTS[card] else 0
    elif fill == "pairs":
        first = 1 if counts[card] >= 2 else 0
    else:
        raise ValueError(f"a bury's fill is one of {', '.join(FILLS)}, not {fill!r}")
    return first, cost[card], card

