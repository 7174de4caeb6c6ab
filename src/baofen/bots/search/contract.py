"""Search for the contract: the search bot's bid (叫分) and its trump and bury (定主扣底) chosen
by evaluating candidates on sampled worlds, not by the rule bot's evaluation alone.

Before play the unseen cards are dealt at random to the other seats (and to the kitty while it
is unseen); each world is the observed bidding replayed on that deal, weighted by how likely the
rule bot's policy in the other seats would have bid as they did (a seat that passed rarely holds
a strong hand). Every candidate is applied in the same worlds and the hand is played out by the
rule bot in all four seats; the candidate with the best weighted mean result for the seat (包分
points, 包红五 levels) is chosen, the rule bot's own choice unless another beats it by more than
the margin.

Play-outs: by the rule bot's engine (:meth:`baofen.bots.engine.Engine.play_out`; natively, every
world × candidate in one call).

Candidates: to bid, the rule bot's choice, a pass and the lowest legal bid; for the kitty, for
each suit the rule bot's bury with that suit as trump.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ...actions import Action, Bid, Declare
from ...cards import SUITS, Card, full_pack
from ...errors import IllegalAction
from ...hand import Hand
from ...observation import Observation
from ..rule.bot import RuleBot
from ..rule.evaluation import choose_bury
from .determinize import MISMATCH, Policy


class ContractSearch:
    """Bids and the kitty by evaluation on sampled worlds (see the module docstring)."""

    def __init__(self, rule: RuleBot, rng: random.Random, worlds: int, margin: float) -> None:
        self.rule = rule
        self.rng = rng
        self.worlds = worlds
        self.margin = margin

    def bid(self, obs: Observation) -> Bid:
        """The bid (or pass) with the best mean result on sampled worlds."""
        best = self._best(obs, self.bid_options(obs))
        assert isinstance(best, Bid)
        return best

    def declare(self, obs: Observation) -> Declare:
        """The trump and bury with the best mean result on sampled worlds."""
        best = self._best(obs, self.declare_options(obs))
        assert isinstance(best, Declare)
        return best

    def bid_options(self, obs: Observation) -> list[Action]:
        """The bids compared: the rule bot's choice first, a pass, the lowest legal bid."""
        legal = [v for v in obs.legal_bids() if v is not None]
        options: list[Action] = [Bid(self.rule.bid(obs))]
        for value in (None, legal[0] if legal else None):
            if all(value != o.value for o in options if isinstance(o, Bid)):
                options.append(Bid(value))
        return options

    def declare_options(self, obs: Observation) -> list[Action]:
        """The trumps and buries compared: the rule bot's choice first, then for each other
        suit the rule bot's bury with that suit as trump."""
        choice = self.rule.declare(obs)
        options: list[Action] = [choice]
        for suit in SUITS:
            if suit != choice.trump:
                options.append(Declare(suit, choose_bury(obs.rules.variant, obs.hand, suit)[0]))
        return options

    def values(self, obs: Observation, options: Sequence[Action]) -> list[float] | None:
        """The weighted mean result for the seat of each of ``options`` over the same sampled
        worlds (the score: 包分 points, 包红五 levels); ``None`` if no world could be drawn."""
        seat = obs.seat
        assert seat is not None
        found = (self.world(obs) for _ in range(self.worlds))
        drawn = [d for d in found if d is not None]
        rule = self.rule
        rows = rule.engine.play_out(obs.rules, [world for world, _ in drawn], options,
                                    rule.weights)
        totals = [0.0] * len(options)
        mass = 0.0
        for (_, weight), row in zip(drawn, rows, strict=True):
            mass += weight
            for i, result in enumerate(row):
                totals[i] += weight * float(result.deltas[seat])
        return [total / mass for total in totals] if mass else None

    def _best(self, obs: Observation, options: Sequence[Action]) -> Action:
        """The best of ``options`` (the rule bot's choice first) on the same sampled worlds."""
        if len(options) == 1:
            return options[0]
        means = self.values(obs, options)
        if means is None:
            return options[0]
        best = max(range(len(options)), key=lambda i: (means[i], -i))
        if means[best] - means[0] <= self.margin:
            return options[0]
        return options[best]

    def world(self, obs: Observation) -> tuple[Hand, float] | None:
        """A deal consistent with ``obs`` before play (:func:`contract_world`)."""
        return contract_world(obs, self.rule, self.rng)


def contract_world(obs: Observation, rule: Policy, rng: random.Random,
                   ) -> tuple[Hand, float] | None:
    """A deal consistent with ``obs`` before play, with the bidding replayed, and its
    likelihood under the rule bot's bidding for the other seats (``None``: not replayable)."""
    seat = obs.seat
    assert seat is not None
    own = list(obs.hand)
    kitty = list(obs.kitty) if obs.kitty is not None else None
    if kitty is not None:  # the declarer holds the kitty now: its dealt hand is the rest
        rest = Counter(own)
        rest.subtract(kitty)
        own = list(rest.elements())
    unseen = Counter(full_pack())
    unseen.subtract(obs.hand)
    pool = list(unseen.elements())
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for other in range(4):
        if other == seat:
            hands.append(own)
        else:
            hands.append(pool[:25])
            del pool[:25]
    try:
        hand = Hand(obs.rules, first=obs.first, hands=hands,
                    kitty=kitty if kitty is not None else pool[:8])
        likelihood = 1.0
        for actor, action in obs.actions:
            if actor != seat and isinstance(action, Bid):
                policy = rule.bid(hand.observation(actor))
                likelihood *= 1.0 if policy == action.value else MISMATCH["bid"]
            hand.apply(actor, action)
    except (IllegalAction, ValueError):
        return None
    return hand, likelihood
