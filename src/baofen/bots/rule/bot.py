"""The rule bot: a heuristic player for 包分 and 包红五 that decides from its observation only.

It bids and buries by its hand evaluation (:mod:`baofen.bots.rule.evaluation`) and plays the best of
its scored candidate leads and follows (:mod:`baofen.bots.rule.play`); every play is checked
with the engine's rule checks before it is returned. Weights (:class:`RuleWeights`) can be set
as options: ``make_bot("rule", plain_top=2.0)``.

The decisions are the rule player's of the engine in use (:mod:`baofen.bots.engine`): the
native core's where it runs, a port of :class:`~baofen.bots.rule.player.RulePlayer` that makes
the same choices (tests/test_native_rule.py), else that Python reference.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ...actions import Action, Declare
from ...cards import Card
from ...observation import Observation
from ..engine import Engine, current
from .play import RuleWeights
from .player import RulePlayer
from .shared import TrickTally

__all__ = ["RuleBot", "RuleWeights"]


class RuleBot:
    """Heuristic player (see the module docstring); deterministic: ``seed`` is accepted for a
    uniform bot interface and not used. Other keywords set :class:`RuleWeights` fields."""

    def __init__(self, seed: int | None = None, **weights: Any) -> None:
        del seed
        self.weights = rule_weights(weights)
        self.engine: Engine = current()
        """The engine whose rule player decides."""
        self.player: RulePlayer = self.engine.rule_player(self.weights)

    @property
    def tally(self) -> TrickTally:
        """The rule player's tally of the hand's finished tricks (shared with its candidates)."""
        return self.player.tally

    def act(self, observation: Observation) -> Action:
        """The bot's action for the observing seat."""
        return self.player.act(observation)

    def bid(self, obs: Observation) -> int | None:
        """The lowest legal bid whose expected result clears the margin, or ``None`` (pass)."""
        return self.player.bid(obs)

    def declare(self, obs: Observation) -> Declare:
        """Name the trump suit and bury eight cards."""
        return self.player.declare(obs)

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The best-scored legal play."""
        return self.player.play(obs)

    def play_candidates(self, obs: Observation, limit: int = 64) -> list[tuple[Card, ...]]:
        """Up to ``limit`` distinct legal plays worth considering, best-scored first (never
        empty)."""
        return self.player.play_candidates(obs, limit)


def rule_weights(options: dict[str, Any]) -> RuleWeights:
    """:class:`RuleWeights` from keyword options (numbers); :class:`ValueError` names unknown
    ones."""
    known = {f.name for f in fields(RuleWeights)}
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"unknown rule bot option(s): {', '.join(sorted(unknown))}")
    return RuleWeights(**{k: float(v) for k, v in options.items()})
