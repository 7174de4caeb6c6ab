"""The random bot: a uniformly random choice at every decision, among legal actions.

Every legal action has a chance. Leads: a suit group held is chosen at random, then either one
of its units (any single, pair or tractor; an eight of a kind held is led half the time) or, with
probability ``throw_rate``, any two or more of its cards (a throw, 甩牌 — mostly small ones).
Follows: a random legal follow, owed tractors and pairs first, cut anywhere from their runs.
Bids: a pass with probability ``pass_rate``, else a random legal value. Kitty: a random trump
and eight random cards buried.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Bid, Declare, Play
from ..cards import SUITS, Card
from ..observation import Observation
from ..tricks import LeadShape, TrickJudge
from ..units import pair_kinds, runs_of_pairs
from .rule.shared import RandomChooser, compose_follow, eight_of_a_kind


class RandomBot:
    """Chooses at random among legal actions (see the module docstring for the distribution)."""

    def __init__(
        self, seed: int | None = None, throw_rate: float = 0.1, pass_rate: float = 0.5
    ) -> None:
        self.rng = random.Random(seed)
        self.throw_rate = throw_rate
        self.pass_rate = pass_rate

    def act(self, observation: Observation) -> Action:
        """A random legal action for the observing seat."""
        phase = observation.phase
        if phase == "playing":
            judge = observation.judge
            assert judge is not None
            shape = observation.lead_shape
            if shape is None:
                return Play.of(tuple(
                    random_lead(self.rng, judge, observation.by_group, self.throw_rate)
                ))
            return Play.of(tuple(random_follow(self.rng, judge, shape, observation.by_group)))
        if phase == "bidding":
            values = observation.legal_bids()[1:]
            if not values or self.rng.random() < self.pass_rate:
                return Bid(None)
            return Bid(self.rng.choice(values))
        if phase == "kitty":
            return Declare(self.rng.choice(SUITS), self.rng.sample(observation.hand, 8))
        raise ValueError(f"nothing to do in the {phase} phase")


def random_lead(
    rng: random.Random,
    judge: TrickJudge,
    by_group: Sequence[Sequence[Card]],
    throw_rate: float,
) -> list[Card]:
    """A random legal lead from a hand held as ``by_group`` (its cards per group).

    A random card of a random group held; if it is paired, half the time its pair, and then
    half the time a random tractor through it when it lies in one.
    """
    groups = [g for g in by_group if g]
    cards = groups[int(rng.random() * len(groups))]
    if judge.eight_enabled and sum(map(len, by_group)) >= 8:
        eight = eight_of_a_kind(judge, by_group)
        if eight and rng.random() < 0.5:
            return eight
    if len(cards) > 1 and rng.random() < throw_rate:
        # Any size can come out, but mostly two to four cards.
        most = len(cards) if rng.random() < 0.2 else min(4, len(cards))
        return rng.sample(cards, rng.randint(2, most))
    card = cards[int(rng.random() * len(cards))]
    if cards.count(card) < 2 or rng.random() < 0.5:
        return [card]
    if rng.random() < 0.5:
        for run in runs_of_pairs(judge.order, pair_kinds(cards)):
            if card in run and len(run) > 1:
                at = run.index(card)
                start = end = at
                while start == end:
                    start, end = rng.randint(0, at), rng.randint(at, len(run) - 1)
                return [k for k in run[start:end + 1] for _ in (0, 1)]
    return [card, card]


def random_follow(
    rng: random.Random,
    judge: TrickJudge,
    shape: LeadShape,
    by_group: Sequence[Sequence[Card]],
) -> list[Card]:
    """A random legal follow to a lead of ``shape`` from a hand held as ``by_group``."""
    return compose_follow(judge, shape, by_group, RandomChooser(rng))
