"""The rule bot: a heuristic player for 包分 and 包红五 that decides from its observation only.

It bids and buries by its hand evaluation (:mod:`baofen.bots.evaluation`) and plays the best of
its scored candidate leads and follows (:mod:`baofen.bots.rule_play`); every play is checked
with the engine's rule checks before it is returned. Weights (:class:`RuleWeights`) can be set
as options: ``make_bot("rule", plain_top=2.0)``.

Where the native core runs (:mod:`baofen._native`, not switched off by ``BAOFEN_ENGINE=python``)
the decisions are the native rule player's (src/baofen/_native/rule_player.cpp), a port of this
code that makes the same choices (tests/test_native_rule.py); ``engine="python"`` keeps them in
Python, the readable reference.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .. import _native
from ..actions import Action, Bid, Declare, Play
from ..cards import CARDS, KINDS, SUITS, Card
from ..observation import Observation
from .evaluation import best_trump, choose_bury, expected_points, expected_result, hand_features
from .rule_play import PlayDecision, RuleWeights
from .shared import TrickTally, tally_plays

__all__ = ["RuleBot", "RuleWeights"]


class RuleBot:
    """Heuristic player (see the module docstring); deterministic: ``seed`` is accepted for a
    uniform bot interface and not used. ``engine`` chooses who decides: ``"native"`` (an error
    where the native core does not run), ``"python"``, or ``None``, native where it runs. Other
    keywords set :class:`RuleWeights` fields."""

    def __init__(
        self, seed: int | None = None, *, engine: _native.EngineName | None = None,
        **weights: Any,
    ) -> None:
        del seed
        known = {f.name for f in fields(RuleWeights)}
        unknown = set(weights) - known
        if unknown:
            raise ValueError(f"unknown rule bot option(s): {', '.join(sorted(unknown))}")
        self.weights = RuleWeights(**{k: float(v) for k, v in weights.items()})
        self.tally = TrickTally()
        self.native: Any = None
        """The native rule player's weights where it decides, else ``None``."""
        if engine == "native" or (engine is None and _native.available()):
            from .native_players import native_weights

            self.native = native_weights(self.weights)
        elif engine not in (None, "python"):
            raise ValueError(f"engine is 'native' or 'python', not {engine!r}")

    def _native_decision(self, obs: Observation, bids: list[int], limit: int) -> Any:
        """The native rule player's decision on ``obs`` (``_core.rule_decide``)."""
        from .._native.batch import native_rules

        judge = obs.judge
        played: list[int] = [0] * KINDS
        voids: list[int] = [0] * 4
        won: list[int] = voids
        if judge is not None:
            done, shown, won = self.tally.after(judge, obs.tricks)
            played = list(done)
            voids = list(shown)
            tally_plays(judge, obs.current_trick, played, voids)
        return _native.core().rule_decide(
            native_rules(obs.rules), self.native, obs.phase, obs.seat, obs.declarer, obs.trump,
            obs.hand, played, voids, won, obs.hand_sizes, obs.buried, obs.current_trick, bids,
            limit,
        )

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
        if self.native is not None and obs.seat is not None:
            value: int | None = self._native_decision(obs, legal, 1)
            return value
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
        if self.native is not None and obs.seat is not None:
            trump, bury = self._native_decision(obs, [], 1)
            return Declare(trump, bury)
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
        if self.native is not None and obs.seat is not None:
            plays = self._native_decision(obs, [], limit)
            return [tuple(CARDS[c] for c in play) for play in plays]
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

