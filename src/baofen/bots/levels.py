"""The levels players pick at a table (简单/普通/困难/大师), each a bot with a stated budget.

========  ======  =================================================================
id        label   player
========  ======  =================================================================
easy      简单    rule bot that plays one of its top candidates at random 30% of
                  the time (bids and kitty as the rule bot)
normal    普通    rule bot
hard      困难    search bot (:data:`HARD`): 256 rollouts a play over 12 candidates,
                  worlds weighted by inference, overrides gated on 64 fresh worlds,
                  wide follows, kitty search on 200 worlds (wide in 包红五), bold bids
master    大师    search bot (:data:`MASTER`): 1024 rollouts a play over 16
                  candidates, gated on 128 fresh worlds, wide follows, kitty search on
                  400 worlds (wide in 包红五), bold bids; in 包分 it searches from the
                  learned evaluator's pick
========  ======  =================================================================

A search's departure from the rule bot's play (or kitty) stands only when confirmed on fresh
worlds (the gate: a one-sided 90% lower confidence bound of the paired gain above 0), so that
the levels never play worse than the rule bot by the luck of the worlds they chose on; the kitty
has a search of its own (:mod:`baofen.bots.search.kitty`), the largest single decision of a hand.

大师's search starts from the learned evaluator's pick (:mod:`baofen.bots.learned.evaluator`)
where the package has one (包分): the challengers are played out against it and the gate tests
them against it, where 困难 starts from the rule bot's choice.

The search levels bid boldly: as the rule bot, with the expected result a bid must clear lowered
from 0 to :data:`~baofen.bots.search.bot.BOLD_MARGINS` (包分 −30 points, 包红五 −2 levels), for
the rule bot's bidding model was fitted on the rule bot's own play and the search plays a
contract better. ``hard:bidder=rule`` is 困难 with the rule bot's bids.

The budgets are sized for the native core, which plays the search's rollouts and draws its
worlds; the same budgets run on the Python engine (``BAOFEN_ENGINE=python``, or no native core
built) with the same decisions, many times slower. Decision times and the levels' gains
against each other: docs/benchmarks.md. The arena's perfect-information reference player is not
a level.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..actions import Action, Play
from ..cards import Card
from ..observation import Observation
from .rule.bot import RuleBot, rule_weights
from .search.bot import SearchBot
from .search.budget import SearchBudget

EASY_NOISE = 0.3
"""How often the easy player plays a random one of the rule bot's top candidates."""

EASY_CHOICES = 3
"""How many of the rule bot's best candidates the easy player picks among when it errs."""

KITTY_WIDE = "hongwu"
"""The games where the hard and master levels' kitty searches are wide (every void set's other
fills too, :data:`~baofen.bots.search.kitty.WIDE_CANDIDATES` candidates): 包红五, where they
gained; in 包分 they were not told from the usual 13 candidates."""

BIDDER = "bold"
"""Who bids for the hard and master levels (:data:`~baofen.bots.search.budget.BIDDERS`): the rule
bot, with the lower margins of :data:`~baofen.bots.search.bot.BOLD_MARGINS`."""

HARD = SearchBudget(iterations=256, candidates=12, gate=64, wide=True, kitty=200,
                    kitty_wide=KITTY_WIDE, bidder=BIDDER)
"""The hard (困难) level's search."""

MASTER = replace(HARD, iterations=1024, candidates=16, gate=128, kitty=400, prior="evaluator")
"""The master (大师) level's search: more rollouts, candidates and worlds than :data:`HARD`, from
the learned evaluator's pick where the package has one for the game (包分)."""

HARD_GATE = HARD.gate
"""Fresh worlds on which the hard level confirms a departure from the rule bot's play."""

MASTER_GATE = MASTER.gate
"""Fresh worlds on which the master level confirms a departure from its baseline."""

KITTY_WORLDS = HARD.kitty
"""Worlds of the hard level's kitty search (each finalist's)."""

MASTER_KITTY_WORLDS = MASTER.kitty
"""Worlds of the master level's kitty search (each finalist's)."""


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
    """The hard (困难) level: the search bot at :data:`HARD`, each field overridden by
    ``options`` (the searched bids with ``contract``, in place of the bold ones); other options
    are rule weights."""
    return level_bot(HARD, seed, options)


def master_bot(seed: int | None = None, **options: Any) -> SearchBot:
    """The master (大师) level: the search bot at :data:`MASTER`, overridden as in
    :func:`hard_bot`."""
    return level_bot(MASTER, seed, options)


def level_bot(level: SearchBudget, seed: int | None, options: dict[str, Any]) -> SearchBot:
    """The search bot of ``level`` with ``options`` over it: the budget's fields (the searched
    bids with ``contract`` take the place of the level's bidder), the rest rule weights."""
    fields, weights = SearchBudget.split(options)
    if fields.get("contract"):
        fields.setdefault("bidder", "rule")
    return SearchBot(seed, replace(level, **fields), rule_weights(weights))
