"""The kitty search (定主扣底): the declarer's trump and bury chosen on sampled worlds.

The kitty is one decision a hand, and a large one; the rule bot makes it by its hand evaluation
alone (:func:`~baofen.bots.rule.evaluation.choose_bury`). Here the candidates are, for every trump
suit, the rule bot's bury for each set of short plain suits it could void
(:func:`~baofen.bots.rule.evaluation.bury_options`), ranked by the rule bot's own value of the kept
hand (:func:`kitty_options`: the rule bot's choice first, each suit's best, then the next best
up to ``candidates``, 13 by default). A *wide* search (``wide=True``) also takes each void set's
other fills (:data:`~baofen.bots.rule.evaluation.FILLS`: point cards first, no point cards, no pairs
broken) and up to :data:`WIDE_CANDIDATES` of them all.

Worlds: the unseen cards dealt at random to the other seats, the observed bidding replayed and
weighted by how likely the rule bot's bidding (with a given ``bid_margin``: the search levels'
bold bids read as bold) would have been in that world
(:func:`~baofen.bots.search.contract.contract_world`). Each candidate is declared in every world and
the hand played out by the rule bot in all four seats; its value is the seat's result (包分 score
points, 包红五 levels), the importance-weighted mean over common worlds.

Play-outs: by the rule bot's engine (:meth:`baofen.bots.engine.Engine.play_out`; natively, every
world of a round × every option in one call).

Schedule: every candidate on ``screen`` worlds; the ``finalists`` best (with the rule bot's
choice) on more worlds, to ``worlds`` each; the best finalist replaces the rule bot's choice
only when, on ``gate`` *fresh* common worlds, the paired difference's one-sided lower confidence
bound at ``confidence`` (:func:`~baofen.bots.search.estimates.lower_bound`) is above ``margin``
(``gate=0``: no gate, the finalists' means decide). With the defaults: 13 × 34 + 4 × 66 +
2 × 66 = 838 playouts a kitty, deterministic under the bot's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from ...actions import Declare
from ...cards import SUITS
from ...hand import Hand
from ...observation import Observation
from ...ruleset import RuleSet
from ..rule.bot import RuleBot
from ..rule.evaluation import FILLS, bury_options, expected_points, hand_features
from .contract import contract_world
from .estimates import lower_bound

CANDIDATES = 13
"""Trump and bury candidates compared (the rule bot's choice among them)."""

WIDE_CANDIDATES = 48
"""Candidates of a wide kitty search (every void set's fills: most hands have 30–45)."""

WORLDS = 100
"""Worlds each finalist (and the rule bot's choice) is played out on."""


def kitty_options(obs: Observation, rule: RuleBot, limit: int = CANDIDATES,
                  wide: bool = False) -> list[Declare]:
    """Up to ``limit`` distinct declarations: the rule bot's choice first, then each other
    suit's best bury, then the rest of every suit's void-set buries, best first by the rule
    bot's value (expected points of the kept hand less the bury's cost); when ``wide``, each
    void set's other fills after them, best first alike."""
    variant = obs.rules.variant
    cards = obs.hand
    choice = rule.declare(obs)
    ranked: list[tuple[float, bool, int, Declare]] = []
    for suit in SUITS:
        options = bury_options(variant, cards, suit, FILLS if wide else FILLS[:1])
        # each void set's cheapest fill comes first: the rule bot's own buries
        own: dict[tuple[int, ...], tuple[int, ...]] = {}
        for _, bury, voided in options:
            own.setdefault(voided, tuple(sorted(bury)))
        own_buries = set(own.values())
        for cost, bury, _ in options:
            kept = list(cards)
            for card in bury:
                kept.remove(card)
            value = expected_points(variant, hand_features(variant, kept, suit)) - cost
            other_fill = tuple(sorted(bury)) not in own_buries
            ranked.append((value, other_fill, len(ranked), Declare(suit, sorted(bury))))
    ranked.sort(key=lambda item: (item[1], -item[0], item[2]))
    out = [choice]
    seen = {(choice.trump, tuple(sorted(choice.bury)))}

    def add(option: Declare) -> None:
        key = (option.trump, tuple(sorted(option.bury)))
        if key not in seen and len(out) < limit:
            seen.add(key)
            out.append(option)

    for suit in SUITS:
        best = next((o for _, _, _, o in ranked if o.trump == suit), None)
        if best is not None:
            add(best)
    for _, _, _, option in ranked:
        add(option)
    return out


class KittySearch:
    """The declarer's trump and bury by evaluation on sampled worlds (see the module
    docstring)."""

    def __init__(self, rule: RuleBot, rng: random.Random, worlds: int = WORLDS,
                 candidates: int = CANDIDATES, screen: int | None = None, finalists: int = 3,
                 gate: int | None = None, confidence: float = 0.9, margin: float = 0.0,
                 wide: bool = False) -> None:
        if worlds < 1 or candidates < 1 or finalists < 1:
            raise ValueError("the kitty search needs worlds, candidates and finalists")
        self.rule = rule
        self.rng = rng
        self.worlds = worlds
        self.candidates = candidates
        self.screen = max(1, min(worlds, screen if screen is not None else worlds // 3 + 1))
        self.finalists = finalists
        self.gate = gate if gate is not None else max(2, worlds * 2 // 3)
        self.confidence = confidence
        self.margin = margin
        self.wide = wide
        self.last: dict[str, object] = {}
        """What the last search found: the options' means, the challenger, the gate's bound."""

    def declare(self, obs: Observation, bid_margin: float = 0.0) -> Declare:
        """The trump and bury for the declaring seat (see the module docstring), the worlds
        weighed by the others' bids read as the rule bot's with ``bid_margin``."""
        options = kitty_options(obs, self.rule, self.candidates, self.wide)
        seat = obs.seat
        assert seat is not None
        rules = obs.rules
        rule = self.rule
        reader = rule.player if not bid_margin else rule.engine.rule_player(
            replace(rule.weights, bid_margin=bid_margin))
        return options[self.choose(options, lambda rng: contract_world(obs, reader, rng),
                                   lambda worlds, chosen: self.rollouts(rules, worlds, seat,
                                                                        chosen))]

    def choose(self, options: Sequence[Declare],
               draw: Callable[[random.Random], tuple[Hand, float] | None],
               values: Callable[[Sequence[Hand], Sequence[Declare]], list[list[float]]]) -> int:
        """Index of the chosen option (0, the rule bot's choice, unless a challenger passes the
        gate), from worlds of ``draw`` and the play-out ``values`` of every option in every world
        (``out[w][o]``)."""
        self.last = {}
        if len(options) == 1:
            return 0
        totals = [0.0] * len(options)
        mass = [0.0] * len(options)
        def worlds_of(count: int) -> list[tuple[Hand, float]]:
            found = (draw(self.rng) for _ in range(count))
            return [drawn for drawn in found if drawn is not None]

        def evaluate(indexes: Sequence[int], count: int) -> None:
            drawn = worlds_of(count)
            rows = values([world for world, _ in drawn], [options[i] for i in indexes])
            for (_, weight), row in zip(drawn, rows, strict=True):
                for i, result in zip(indexes, row, strict=True):
                    totals[i] += weight * result
                    mass[i] += weight

        def mean(i: int) -> float:
            return totals[i] / mass[i] if mass[i] else float("-inf")

        evaluate(range(len(options)), self.screen)
        if not mass[0]:
            return 0  # no world could be drawn: the rule bot's choice
        ranked = sorted(range(1, len(options)), key=lambda i: (-mean(i), i))
        finalists = [0, *ranked[:self.finalists]]
        evaluate(finalists, self.worlds - self.screen)
        best = max(finalists, key=lambda i: (mean(i), -i))
        self.last = {"means": [mean(i) for i in range(len(options))], "challenger": best}
        if best == 0 or mean(best) <= mean(0):
            return 0
        if not self.gate:  # no gate: the mean on the finalists' worlds decides
            return best if mean(best) - mean(0) > self.margin else 0
        drawn = worlds_of(self.gate)
        rows = values([world for world, _ in drawn], [options[best], options[0]])
        differences = [row[0] - row[1] for row in rows]
        weights = [weight for _, weight in drawn]
        bound = lower_bound(differences, weights, self.confidence)
        self.last["bound"] = bound
        return best if bound > self.margin else 0

    def rollouts(self, rules: RuleSet, worlds: Sequence[Hand], seat: int,
                 options: Sequence[Declare]) -> list[list[float]]:
        """``seat``'s result (包分 points, 包红五 levels) when it declares each option in each
        world and the rule bot plays the hand out in every seat: ``out[w][o]``."""
        rule = self.rule
        return [[float(result.deltas[seat]) for result in row]
                for row in rule.engine.play_out(rules, worlds, options, rule.weights)]
