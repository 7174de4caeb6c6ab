"""The rule player in Python: the rule bot's decisions on one observation, the readable reference.

It bids and buries by its hand evaluation (:mod:`baofen.bots.rule.evaluation`) and plays the best of
its scored candidate leads and follows (:mod:`baofen.bots.rule.play`); every play is checked
with the engine's rule checks before it is returned. The native core's rule player
(:class:`baofen.bots.native_players.NativeRulePlayer`) makes the same choices; which of the two
decides is the engine's choice (:mod:`baofen.bots.engine`), never the caller's.
"""

from __future__ import annotations

from ...actions import Action, Bid, Declare, Play
from ...cards import SUITS, Card
from ...observation import Observation
from .evaluation import best_trump, choose_bury, expected_points, expected_result, hand_features
from .play import PlayDecision, RuleWeights
from .shared import TrickTally


class RulePlayer:
    """The rule bot's choices under ``weights``, decided in Python. Deterministic; it keeps a
    :class:`TrickTally` across the observations of a hand."""

    def __init__(self, weights: RuleWeights = RuleWeights()) -> None:  # noqa: B008
        self.weights = weights
        self.tally = TrickTally()

    def act(self, observation: Observation) -> Action:
        """The player's action for the observing seat."""
        phase = observation.phase
        if phase == "playing":
            return Play.of(self.play(observation))
        if phase == "bidding":
            return Bid(self.bid(observation))
        if phase == "kitty":
            return self.declare(observation)
        raise ValueError(f"nothing to do in the {phase} phase")

    def bid(self, obs: Observation) -> int | None:
        """The lowest legal bid whose expected result clears the margin, or ``None`` (pass)."""
        legal = [v for v in obs.legal_bids() if v is not None]
        if not legal:
            return None
        return self.first_bid(obs, legal)

    def first_bid(self, obs: Observation, legal: list[int]) -> int | None:
        """``legal[0]`` (the lowest legal bid) when its expected result clears the margin."""
        rules = obs.rules
        _, points = best_trump(rules.variant, obs.hand)
        if expected_result(rules, points, legal[0]) > self.weights.bid_margin:
            return legal[0]
        return None

    def declare(self, obs: Observation) -> Declare:
        """Name the trump suit and bury eight cards: the suit whose kept hand is worth most."""
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
