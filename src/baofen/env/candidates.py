"""The candidate actions a learned player chooses among, and their numeric features.

Deep Monte-Carlo (as in DouZero) scores ``Q(state, action)`` for each legal candidate and takes
the best. The candidates of a decision:

- **bids**: every legal bid and the pass;
- **kitty**: the rule bot's trump and bury, and for each other suit its bury for that suit;
- **plays**: the rule bot's best-scored distinct legal plays (up to :data:`PLAY_LIMIT`; leads of
  every unit and throw it considers, follows built to several preferences), plus one random
  legal play, so that nothing the heuristic overlooks is out of reach for ever.

Each candidate carries the rule bot's ranking of it as features (its advice), so a network can
learn where to follow the heuristic and where to depart from it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..actions import Action, Bid, Declare, Play
from ..bots.random_bot import random_follow, random_lead
from ..bots.rule.bot import RuleBot
from ..bots.rule.evaluation import choose_bury
from ..cards import KINDS, SUITS, Card
from ..observation import Observation
from ..ruleset import RuleSet

PLAY_LIMIT = 12
"""At most this many of the rule bot's plays are candidates."""


class Candidate(NamedTuple):
    """One candidate action and the rule bot's rank of it (0: its own choice)."""

    action: Action
    rank: int


def feature_size(rules: RuleSet) -> int:
    """Length of :func:`action_features` for ``rules``."""
    return KINDS + 3 + len(rules.bid_grid()) + 1 + len(SUITS) + 2


def action_features(rules: RuleSet, candidate: Candidate) -> npt.NDArray[np.float32]:
    """Features of a candidate: its cards (played or buried) as 54 counts, its kind (bid,
    declare, play), its bid value (one-hot, or pass), its trump, and the rule bot's advice
    (its own choice; ``1 / (1 + rank)``)."""
    grid = rules.bid_grid()
    out = np.zeros(feature_size(rules), dtype=np.float32)
    action = candidate.action
    at = KINDS
    if isinstance(action, Bid):
        out[at] = 1.0
        slot = len(grid) if action.value is None else grid.index(action.value)
        out[at + 3 + slot] = 1.0
    elif isinstance(action, Declare):
        out[at + 1] = 1.0
        for card in action.bury:
            out[card] += 1.0
        out[at + 3 + len(grid) + 1 + SUITS.index(action.trump)] = 1.0
    else:
        out[at + 2] = 1.0
        for card in action.cards:
            out[card] += 1.0
    out[-2] = 1.0 if candidate.rank == 0 else 0.0
    out[-1] = 1.0 / (1 + candidate.rank)
    return out


def candidates(obs: Observation, advisor: RuleBot, rng: random.Random) -> list[Candidate]:
    """The candidates of the observing seat's decision, the rule bot's choice first."""
    phase = obs.phase
    if phase == "bidding":
        advised = advisor.bid(obs)
        bids = sorted(obs.legal_bids(), key=lambda v: (v != advised, v or 0))
        return [Candidate(Bid(v), rank) for rank, v in enumerate(bids)]
    if phase == "kitty":
        return _declares(obs, advisor)
    if phase == "playing":
        plays = advisor.play_candidates(obs, PLAY_LIMIT)
        seen = {tuple(sorted(p)) for p in plays}
        out = [Candidate(Play.of(p), rank) for rank, p in enumerate(plays)]
        extra = _random_play(obs, rng)
        if tuple(sorted(extra)) not in seen:
            out.append(Candidate(Play.of(extra), PLAY_LIMIT))
        return out
    raise ValueError(f"nothing to decide in the {phase} phase")


def _declares(obs: Observation, advisor: RuleBot) -> list[Candidate]:
    advised = advisor.declare(obs)
    out = [Candidate(advised, 0)]
    for suit in SUITS:
        if suit != advised.trump:
            bury, _ = choose_bury(obs.rules.variant, obs.hand, suit)
            out.append(Candidate(Declare(suit, bury), len(out)))
    return out


def _random_play(obs: Observation, rng: random.Random) -> tuple[Card, ...]:
    judge = obs.judge
    assert judge is not None
    shape = obs.lead_shape
    if shape is None:
        return tuple(random_lead(rng, judge, obs.by_group, 0.1))
    return tuple(random_follow(rng, judge, shape, obs.by_group))


def stack(rules: RuleSet, options: Sequence[Candidate]) -> npt.NDArray[np.float32]:
    """The features of ``options``, one row each."""
    return np.stack([action_features(rules, c) for c in options])
