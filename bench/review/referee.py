"""Whether a planted play is a blunder, judged apart from the 复盘: the play the rule bot would
have made and the planted one, each played on to the end by stronger players than the review's
play-outs (困难 by default) on the true deal and on deals of the unseen cards drawn as the
seat saw them.

A plant's rule ("let 20 points go", "throw the top trump") is a card player's rule of thumb;
some plants are no blunder at all (the points come back, the trump never had a trick to win).
The planted-blunder checks count as blunders the plants this referee shows to cost the seat
at least the inaccuracy threshold, beyond the noise of its deals.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from baofen import Hand
from baofen.actions import Action
from baofen.bots import make_bot
from baofen.bots.engine import python
from baofen.bots.rule.bot import RuleBot
from baofen.review import THRESHOLDS, seat_value

Z = 1.645
"""A one-sided 95% bound."""


@dataclass(frozen=True)
class Verdict:
    """The planted play's cost to the seat (the rule bot's play less the plant's, in the hand's
    unit), averaged over ``deals``, with a one-sided 95% lower bound."""

    loss: float
    low: float
    deals: int

    def blunder(self, variant: str) -> bool:
        """A loss of the inaccuracy threshold or more, and more than nothing beyond noise."""
        return self.loss >= THRESHOLDS[variant]["inaccuracy"] and self.low > 0


def referee(hand: Hand, action: int, seat: int, level: str = "hard", worlds: int = 16,
            seed: int = 0) -> Verdict:
    """The cost of ``hand``'s planted ``action`` (by ``seat``) with ``level`` players playing
    on: on the true deal, and on ``worlds`` deals drawn for the seat's view (weighted as the
    search weighs them)."""
    before = hand.redeal(action)
    own = RuleBot().act(before.observation(seat))
    plant = hand.actions[action][1]
    deals: list[tuple[Hand, float]] = [(before, 1.0)]
    if worlds:
        sampler = python().worlds(before.observation(seat))
        drawn = sampler.weighted_worlds(random.Random(seed), worlds, attempts=4 * worlds)
        deals += [(world, weight) for world, weight in drawn if isinstance(world, Hand)]
    losses = [_value(deal, seat, own, level, seed) - _value(deal, seat, plant, level, seed)
              for deal, _ in deals]
    weights = [weight for _, weight in deals]
    total = sum(weights)
    mean = sum(w * x for w, x in zip(weights, losses, strict=True)) / total
    if len(losses) < 2:
        return Verdict(mean, mean, 1)
    spread = math.sqrt(sum((w * (x - mean)) ** 2 for w, x in zip(weights, losses, strict=True)))
    return Verdict(mean, mean - Z * spread / total, len(losses))


def _value(deal: Hand, seat: int, first: Action, level: str, seed: int) -> float:
    """``seat``'s value of ``deal`` with ``first`` played by it and ``level`` players after."""
    line = deal.copy()
    line.apply(seat, first)
    line.play_out([make_bot(level, seed=seed + i) for i in range(4)])
    assert line.result is not None
    return seat_value(deal.rules.variant, line.result, seat)
