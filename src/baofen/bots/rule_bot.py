"""The rule bot: a heuristic player for 包分 and 包红五 that decides from its observation only.

It bids and buries by its hand evaluation (:mod:`baofen.bots.evaluation`) and plays the best of
its scored candidate leads and follows (:mod:`baofen.bots.rule_play`); every play is checked
with the engine's rule checks before it is returned. Weights (:class:`RuleWeights`) can be set
as options: ``make_bot("rule", plain_top=2.0)``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..actions import Action, Bid, Declare, Play
from ..cards import SUITS, Card
from ..observation import Observation
from .evaluation import best_trump, choose_bury, expected_points, expected_result, hand_features
from .rule_play import PlayDecision, RuleWeights
from .shared import TrickTally

__all__ = ["RuleBot", "RuleWeights"]


class RuleBot:
    """Heuristic player (see the module docstring); deterministic: ``seed`` is accepted for a
    uniform bot interface and not used. Other keywords set :class:`RuleWeights` fields."""

    def __init__(self, seed: int | None = None, **weights: Any) -> None:
        del seed
        known = {f.name for f in fields(RuleWeights)}
        unknown = set(weights) - known
        if unknown:
            raise ValueError(f"unknown rule bot option(s): {', '.join(sorted(unknown))}")
        self.weights = RuleWeights(**{k: float(v) for k, v in weights.items()})
        self.tally = TrickTally()

    def act(self, observation: Observation) -> Action:
        """The bot's action for the observing seat."""
        phase = observation.phase
        if phase == "playing":
            return Play.of(self.play(observation))
        if phase == "bidding":
            return Bid(self.bid(observation))
        if phase == "kitty":
            return self.declare(observation)
        raise ValueError(f"nothing to do in the {phase} phase")

    # -- bidding ------------------------------------------------------------------------------

    def bid(self, obs: Observation) -> int | None:
        """The lowest legal bid whose expected result clears the margin, or ``None`` (pass)."""
        legal = [v for v in obs.legal_bids() if v is not None]
        if not legal:
            return None
        rules = obs.rules
        _, points = best_trump(rules.variant, obs.hand)
        value = legal[0]
        margin = self.weights.bid_margin
        if expected_result(rules, points, value) > margin:
            return value
        return None

    # -- kitty --------------------------------------------------------------------------------

    def declare(self, obs: Observation) -> Declare:
        """Name the trump suit and bury eight cards (see the module docstring)."""
        variant = obs.rules.variant
        cards = obs.hand
        best: tuple[float, str, list[Card]] | None = None
        for suit in SUITS:
            bury, cost = choose_bury(variant, cards, suit)
            kept = list(cards)
            for card in bury:
                kept.remove(card)
            value = expected_points(variant, hand_features(variant, kept, suit)) - cost
            if best is None or value > best[0]:
                best = (value, suit, bury)
        assert best is not None
        return Declare(best[1], best[2])

    # -- play ---------------------------------------------------------------------------------

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The best-scored legal play."""
        return self.play_candidates(obs, 1)[0]

    def play_candidates(self, obs: Observation, limit: int = 64) -> list[tuple[Card, ...]]:
        """Up to ``limit`` distinct legal plays worth considering, best-scored first (never
        empty)."""
        table = PlayDecision(obs, self.weights, self.tally)
        scored = table.lead_candidates() if obs.lead_shape is None else table.follow_candidates()
        scored.sort(key=lambda item: (-item[0], item[1]))
        out: list[tuple[Card, ...]] = []
        seen: set[tuple[Card, ...]] = set()
        for _, cards in scored:
            key = tuple(sorted(cards))
            if key in seen:
                continue
            seen.add(key)
            if table.is_legal(cards):
                out.append(cards)
                if len(out) >= limit:
                    break
        # A lead's candidates hold every unit of every group held, a follow's the cheapest follow
        # built by the engine's structure rules: some are always legal.
        assert out, "the rule bot found no legal play"
        return out

