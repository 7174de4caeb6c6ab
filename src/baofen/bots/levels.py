"""The levels players pick at a table (简单/普通/困难/大师), each a bot with a stated budget.

========  ======  =================================================================  ============
id        label   player                                                             budget
========  ======  =================================================================  ============
easy      简单    rule bot that plays one of its top candidates at random 30% of     < 1 ms
                  the time (bids and kitty as the rule bot)
normal    普通    rule bot                                                           < 1 ms
hard      困难    search bot, 64 rollouts a play, worlds weighted by inference,      p95 ≤ 1 s
                  overrides gated on 24 fresh worlds, wide follows, kitty search     kitty ≈ 2 s
master    大师    search bot, 256 rollouts a play over 12 candidates, gated on 48    p95 ≈ 2 s
                  fresh worlds, wide follows, kitty search
========  ======  =================================================================  ============

Issue 28: the halving makes no cut before :data:`~baofen.bots.search_bot.MIN_WORLDS` common
worlds; a search's departure from the rule bot's play (or kitty) stands only when confirmed on
fresh worlds (the gate: a one-sided 90% lower confidence bound of the paired gain above 0); the
kitty has a search of its own (:mod:`baofen.bots.kitty_search`: 13 trump and bury candidates,
100 worlds each finalist, a few seconds). ``hard:gate=0:min_worlds=0:wide=0:kitty=0`` is the
困难 of before.

Budgets are per decision on one core of the development machine, pure Python (measured:
docs/measurements.md). The arena's perfect-information reference player is not a level.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action, Play
from ..cards import Card
from ..observation import Observation
from .rule_bot import RuleBot
from .search_bot import SearchBot

EASY_NOISE = 0.3
"""How often the easy player plays a random one of the rule bot's top candidates."""

EASY_CHOICES = 3
"""How many of the rule bot's best candidates the easy player picks among when it errs."""

HARD_ITERATIONS = 64
"""Rollouts per play of the hard level (p95 within 1 s a decision, pure Python)."""

MASTER_ITERATIONS = 256
"""Rollouts per play of the master level."""

MASTER_CANDIDATES = 12
"""Candidate plays the master level searches."""

HARD_GATE = 24
"""Fresh worlds on which the hard level confirms a departure from the rule bot's play."""

MASTER_GATE = 48
"""Fresh worlds on which the master level confirms a departure from the rule bot's play."""

KITTY_WORLDS = 100
"""Worlds of the hard and master levels' kitty search (each finalist's)."""

WIDE_FOLLOWS = 1
"""Whether the hard and master levels search follows beyond the rule bot's list."""


class EasyBot:
    """The rule bot with some randomness in its plays (see the module docstring)."""

    def __init__(self, seed: int | None = None, noise: float = EASY_NOISE) -> None:
        if not 0.0 <= noise <= 1.0:
            raise ValueError("noise must be between 0 and 1")
        self.rng = random.Random(seed)
        self.noise = noise
        self.rule = RuleBot()

    def act(self, observation: Observation) -> Action:
        """The bot's action for the observing seat."""
        if observation.phase != "playing":
            return self.rule.act(observation)
        return Play.of(self.play(observation))

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The rule bot's play, or at random one of its top candidates."""
        if self.rng.random() >= self.noise:
            return self.rule.play(obs)
        return self.rng.choice(self.rule.play_candidates(obs, EASY_CHOICES))


def hard_bot(seed: int | None = None, **options: Any) -> SearchBot:
    """The hard (困难) level: the search bot at :data:`HARD_ITERATIONS` rollouts, its overrides
    gated on :data:`HARD_GATE` fresh worlds, wide follows and the kitty search."""
    options.setdefault("iterations", HARD_ITERATIONS)
    options.setdefault("gate", HARD_GATE)
    options.setdefault("wide", WIDE_FOLLOWS)
    options.setdefault("kitty", KITTY_WORLDS)
    return SearchBot(seed=seed, **options)


def master_bot(seed: int | None = None, **options: Any) -> SearchBot:
    """The master (大师) level: the search bot at :data:`MASTER_ITERATIONS` rollouts over
    :data:`MASTER_CANDIDATES` candidates, gated on :data:`MASTER_GATE` fresh worlds, wide
    follows and the kitty search."""
    options.setdefault("iterations", MASTER_ITERATIONS)
    options.setdefault("candidates", MASTER_CANDIDATES)
    options.setdefault("gate", MASTER_GATE)
    options.setdefault("wide", WIDE_FOLLOWS)
    options.setdefault("kitty", KITTY_WORLDS)
    return SearchBot(seed=seed, **options)
