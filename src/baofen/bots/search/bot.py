"""The search bot: determinized Monte Carlo over rule-bot rollouts (perfect-information
Monte Carlo with the rule bot as playout policy).

At each play it takes the rule bot's best candidate plays, deals the unseen cards into worlds
consistent with its observation (:class:`~baofen.bots.search.determinize.Determinizer`), and plays
every candidate out to the end of the hand in the same worlds with the rule bot in all four seats
(common random numbers). Candidates are pruned by successive halving — the worse half is dropped
after each round — and the candidate with the best mean result for its seat (包分 score, 包红五
levels) is played. A single candidate is played at once; if no consistent world can be drawn,
the rule bot's choice is played. How much it searches, and how, is one value
(:class:`~baofen.bots.search.budget.SearchBudget`); its fields:

Bids and the kitty: the rule bot's, or with ``contract=N`` chosen by evaluating the candidates on
``N`` sampled worlds (:mod:`baofen.bots.search.contract`). Without ``contract``, ``bidder`` says who
bids (:data:`~baofen.bots.search.budget.BIDDERS`): ``"rule"``, the rule bot; ``"bold"``, the rule
bot with the expected result a bid must clear lowered by :data:`BOLD_MARGINS` for the game, since
the search plays its contracts better than the rule bot's bidding model (fitted on rule-bot play)
expects; ``"learned"``, the learned bidder (:mod:`baofen.bots.learned.bidder`) wherever the
package has a network for the game and its bid grid (包分's default grid), the rule bot
elsewhere.

Inference: with ``inference=1`` (the default) each world counts by its likelihood — how likely the
rule bot's policy in the other seats would have bid, declared and played as they did in that world
(:meth:`~baofen.bots.search.determinize.Determinizer.weighted_world`); the means are
importance-weighted. A larger ``inference`` sharpens the weights (each mismatch factor is raised to
that power).

Tracking: with ``particles=P`` the worlds are instead kept from one decision to the next and moved
``steps`` Metropolis steps a decision towards likely ones (:mod:`baofen.bots.search.tracking`); the
rollouts cycle through those ``P`` worlds, each counted once, and ``inference`` is the sharpness of
the likelihood they are moved towards.

``noise``: the chance that a playout seat plays a random one of the rule bot's three best plays
instead of its best (0 by default: playouts are deterministic in a world). For the arena's
diagnostics: a reference player that knows the cards but not exactly how the others will answer.
Its draws come from the bot's own generator at each step, so its play-outs run one by one on
Python hands.

A rollout is worth, by default, the declarer's points against the target (signed for the seat's
side, clipped), which tracks the result closely with far less noise; ``objective="score"`` uses the
seat's result itself.

Budget: ``iterations`` rollouts per decision (deterministic under ``seed``), optionally capped by
``time_limit`` seconds (then the result depends on the machine's speed). ``candidates``: how many
of the rule bot's plays are searched at most. ``halving``: prune by successive halving (the
baseline is never pruned), or give every candidate the same worlds. ``margin``: how much better
(in result units) a play must do than the baseline to replace it.

The halving schedule (:func:`halving_plan`): no cut is made before every candidate still in has
been played out on ``min_worlds`` common worlds, so that no cut rests on a world or two. When the
budget cannot give all ``candidates`` that many worlds in the first round, the rule bot's best
few are searched (as many as the budget affords; its order is the prior); ``min_worlds=0``
halves every candidate whatever the budget.

The gate (``gate=G`` worlds): the search's best play replaces the baseline only when, played out
against it on ``G`` *fresh* common worlds (not those it was selected on, so that its selection's
luck does not count), the paired difference's one-sided lower confidence bound at level
``confidence`` (Student's t on the importance-weighted mean, with the worlds' effective number,
:func:`lower_bound`) is above ``margin``. A challenger no better than the baseline in every world
is never taken. ``gate=0``: the mean on the selection's worlds decides.

``wide``: a follow is searched over more candidates than the rule bot's list (which holds the
cheapest and the feeding follow, the winners and the ruffs): every other legal single, and
follows composed to keep the strongest cards, to shed each suit, or to feed or keep points
(:func:`wide_follows`); all are scored by the rule bot's own estimate and searched best first.

``prior="evaluator"``: the search's baseline (the first candidate, which the halving never drops
and against which the gate tests a challenger) is the learned evaluator's pick
(:mod:`baofen.bots.learned.evaluator`) where the package has an evaluator for the game; the rule
bot's candidates follow it. ``prior="rule"`` (the default): the rule bot's choice.

``others="bold"``: in play and in the kitty search, the worlds are weighed by the other seats'
bids read as the search levels' bold bids (:data:`BOLD_MARGINS`: a bid on a weaker hand than
the rule bot's) instead of the rule bot's (``others="rule"``, the default), for a table whose
other seats are 困难 or 大师.

``kitty=W`` worlds: the trump and the bury come from the kitty search
(:mod:`baofen.bots.search.kitty`); ``kitty_wide`` names the games (``"hongwu"``,
``"baofen+hongwu"``; ``1`` for both, ``0`` or ``""`` for none) where it is a wide one (every
void set's other fills too, up to :data:`~baofen.bots.search.kitty.WIDE_CANDIDATES` candidates).

The engine in use (:mod:`baofen.bots.engine`) draws the worlds and plays them out: natively in
batches (every world of a halving round × every candidate still in, and the gate's fresh worlds ×
the two plays, each one call), as do the kitty search's and the contract search's. The rule
player is deterministic and the native one makes the rule bot's choices, so the decisions and
every candidate's values are the same on either engine for the same seed
(tests/test_search_native.py).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from ...actions import Action, Bid, Play
from ...cards import Card
from ...hand import Hand
from ...observation import Observation
from ...ruleset import RuleSet
from ...scoring import HandResult
from ..learned.bidder import LearnedBidder
from ..learned.evaluator import LearnedEvaluator
from ..rule.bot import RuleBot, rule_weights
from ..rule.follows import wide_follows
from ..rule.play import RuleWeights
from .budget import MIN_WORLDS, OTHERS, SearchBudget
from .contract import ContractSearch
from .determinize import Determinizer, World
from .estimates import lower_bound, student_quantile
from .kitty import WIDE_CANDIDATES, KittySearch
from .tracking import WorldTracker

__all__ = [
    "MIN_WORLDS", "OTHERS", "SearchBot", "SearchBudget", "halving_plan", "lower_bound",
    "search_bot", "student_quantile", "wide_follows",
]

CLIP = 120.0
"""Largest points margin a rollout counts, either way."""

BOLD_MARGINS = {"baofen": -30.0, "hongwu": -2.0}
"""The rule bot's ``bid_margin`` for the ``"bold"`` bids, per game (包分 points, 包红五 levels):
the best of the margins screened against the search levels' own bids, then confirmed on other
deals (docs/benchmarks.md)."""

Draw = Callable[[random.Random], "tuple[World, float] | None"]
"""A world and its weight from a generator (``None``: none found)."""

DrawMany = Callable[[random.Random, int], "list[tuple[World, float]]"]
"""Up to so many worlds as :data:`Draw` draws them one after another, stopping at the first not
found."""


def halving_plan(options: int, budget: int, min_worlds: int = MIN_WORLDS) -> tuple[int, int]:
    """How many of ``options`` candidates (the rule bot's best first) to search with ``budget``
    rollouts, and in how many rounds of successive halving, so that the first round — and so
    every cut — gives each candidate at least ``min_worlds`` worlds: the most candidates that
    allows. When not even two candidates can have that many worlds in halving, a single round
    (no cut) over as many candidates as have a world each. ``min_worlds=0``: every candidate, in
    ``ceil(log2(options))`` rounds, whatever the budget."""
    if options <= 1:
        return max(options, 0), 1
    if min_worlds <= 0:
        return options, max(1, math.ceil(math.log2(options)))
    for count in range(options, 1, -1):
        rounds = max(1, math.ceil(math.log2(count)))
        if budget // (count * rounds) >= min_worlds:
            return count, rounds
    return max(1, min(options, budget)), 1


class SearchBot:
    """Determinized Monte Carlo player (see the module docstring)."""

    def __init__(self, seed: int | None = None, budget: SearchBudget = SearchBudget(),  # noqa: B008
                 weights: RuleWeights = RuleWeights()) -> None:  # noqa: B008
        self.budget = budget
        self.rng = random.Random(seed)
        self.rule = RuleBot(**asdict(weights))
        self.engine = self.rule.engine
        """The engine that decides for the rule bot, draws the worlds and plays them out."""
        rng = self.rng
        self.contract = (ContractSearch(self.rule, rng, budget.contract, budget.margin)
                         if budget.contract else None)
        self.bidder = LearnedBidder() if budget.bidder == "learned" else None
        self.bold = ({variant: RuleBot(**{**asdict(weights), "bid_margin": margin})
                      for variant, margin in BOLD_MARGINS.items()}
                     if budget.bidder == "bold" else None)
        self.evaluator = LearnedEvaluator() if budget.prior == "evaluator" else None
        self.tracker = (WorldTracker(budget.particles, budget.steps) if budget.particles
                        else None)
        kitty = budget.kitty
        self.kitty = (KittySearch(self.rule, rng, worlds=kitty, confidence=budget.confidence)
                      if kitty else None)
        self.wide_kitty = (KittySearch(self.rule, rng, worlds=kitty, confidence=budget.confidence,
                                       candidates=WIDE_CANDIDATES, wide=True)
                           if kitty and budget.kitty_wide else None)
        self.last_gate: tuple[float, int] | None = None
        """The last gate's lower bound and its worlds (``None``: no gate was run)."""
        self.rules: RuleSet | None = None
        """The rules of the hand being searched (set by :meth:`play`)."""
        self.last_values: list[tuple[tuple[Card, ...], float]] = []
        """The last search's candidates played out, with their weighted mean values."""

    def __repr__(self) -> str:
        return f"SearchBot({self.budget!r})"

    def act(self, observation: Observation) -> Action:
        """The bot's action for the observing seat."""
        phase = observation.phase
        if self.contract is not None and phase == "bidding":
            return self.contract.bid(observation)
        if phase == "bidding" and self.bold is not None:
            return self.bold[observation.rules.variant].act(observation)
        if (self.bidder is not None and phase == "bidding"
                and self.bidder.serves(observation.rules)):
            return Bid(self.bidder.bid(observation))
        if self.kitty is not None and phase == "kitty":
            search = (self.wide_kitty if self.wide_kitty is not None
                      and observation.rules.variant in self.budget.wide_kitty_games
                      else self.kitty)
            return search.declare(observation, self.others_margin(observation.rules))
        if self.contract is not None and phase == "kitty":
            return self.contract.declare(observation)
        if phase != "playing":
            return self.rule.act(observation)
        return Play.of(self.play(observation))

    def others_margin(self, rules: RuleSet) -> float:
        """The margin the other seats' bids are read with (``others``)."""
        return BOLD_MARGINS[rules.variant] if self.budget.others == "bold" else 0.0

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The candidate play with the best mean rollout result."""
        budget = self.budget
        if budget.wide and obs.lead_shape is not None:
            options = wide_follows(obs, self.rule, budget.candidates)
        else:
            options = self.rule.play_candidates(obs, budget.candidates)
        if len(options) == 1:
            return options[0]
        if self.evaluator is not None and self.evaluator.serves(obs.rules):
            pick = self.evaluator.play(obs)
            key = sorted(pick)
            options = [pick, *(o for o in options if sorted(o) != key)][:budget.candidates]
        self.rules = obs.rules
        margin = self.others_margin(obs.rules)
        sampler = (Determinizer(obs, self.engine.rule_player(RuleWeights(bid_margin=margin)),
                                budget.inference)
                   if budget.noise else self.engine.worlds(obs, budget.inference, margin))
        if self.tracker is not None:
            tracked = self.tracker.worlds(obs, sampler, self.rng)
            cycle = itertools.cycle(tracked)
            return self.search(obs, options, lambda rng: next(cycle, None))
        if budget.inference:
            return self.search(obs, options, sampler.weighted_world, sampler.weighted_worlds)
        return self.search(obs, options, lambda rng: _unweighted(sampler.world(rng)))

    def search(self, obs: Observation, options: list[tuple[Card, ...]], draw: Draw,
               draw_many: DrawMany | None = None) -> tuple[Card, ...]:
        """The best of ``options`` (the baseline first) by weighted mean rollout result
        over worlds (with their weights) from ``draw`` (or ``draw_many``, the same worlds a
        batch at a time, where there is no time limit)."""
        seat = obs.seat
        assert seat is not None
        plan = self.budget
        deadline = self.deadline()
        self.last_gate = None
        self.last_values = []
        self.rules = getattr(obs, "rules", None) or self.rules
        count, rounds = (halving_plan(len(options), plan.iterations, plan.min_worlds)
                         if plan.halving else (len(options), 1))
        options = options[:max(1, count)]
        if len(options) == 1:
            return options[0]
        alive = list(range(len(options)))
        totals = [0.0] * len(options)
        counts = [0.0] * len(options)
        seen = 0  # worlds every candidate still in has been played out on
        budget = plan.iterations
        out_of_time = False
        for round_number in range(rounds):
            worlds = max(1, budget // (len(alive) * (rounds - round_number)))
            drawn_worlds, out_of_time = self.draw_worlds(worlds, draw, draw_many, deadline)
            values = self.rollouts([world for world, _ in drawn_worlds], seat,
                                   [options[index] for index in alive])
            for (_, weight), row in zip(drawn_worlds, values, strict=True):
                for index, value in zip(alive, row, strict=True):
                    totals[index] += weight * value
                    counts[index] += weight
                seen += 1
                budget -= len(alive)
            if not counts[alive[0]]:
                return options[0]  # no consistent world: the baseline
            alive.sort(key=lambda i: (-totals[i] / counts[i] if counts[i] else 0.0, i))
            if out_of_time:
                break
            if round_number < rounds - 1 and seen >= plan.min_worlds:
                # Drop the worse half; the baseline (the prior) stays in.
                kept = alive[:max(1, (len(alive) + 1) // 2)]
                alive = kept if 0 in kept else [*kept, 0]
        self.last_values = [(options[i], totals[i] / counts[i]) for i in range(len(options))
                            if counts[i]]
        best = alive[0]
        if best == 0:
            return options[0]
        if plan.gate:
            confirmed = self.confirm(seat, options[best], options[0], draw, draw_many)
            return options[best] if confirmed else options[0]
        # Keep the baseline unless the search finds it clearly worse.
        if (
            0 in alive
            and math.isclose(counts[0], counts[best])
            and (totals[best] - totals[0]) / counts[best] <= plan.margin
        ):
            best = 0
        return options[best]

    def confirm(self, seat: int, challenger: tuple[Card, ...], choice: tuple[Card, ...],
                draw: Draw, draw_many: DrawMany | None = None) -> bool:
        """True when ``challenger`` beats ``choice`` (the baseline) on the budget's ``gate`` fresh
        common worlds: the paired difference's lower confidence bound (:func:`lower_bound`, level
        ``confidence``) is above the margin (see the module docstring)."""
        plan = self.budget
        drawn_worlds, _ = self.draw_worlds(plan.gate, draw, draw_many, self.deadline())
        values = self.rollouts([world for world, _ in drawn_worlds], seat, [challenger, choice])
        differences = [row[0] - row[1] for row in values]
        weights = [weight for _, weight in drawn_worlds]
        bound = lower_bound(differences, weights, plan.confidence)
        self.last_gate = (bound, len(differences))
        return bound > plan.margin

    def deadline(self) -> float | None:
        """When a search started now must stop (``None``: no time limit)."""
        limit = self.budget.time_limit
        return None if limit is None else time.perf_counter() + limit

    def draw_worlds(self, count: int, draw: Draw, draw_many: DrawMany | None,
                    deadline: float | None) -> tuple[list[tuple[World, float]], bool]:
        """Up to ``count`` worlds from ``draw``, stopping at the first not found or once past
        ``deadline``, and whether it passed: in one call of ``draw_many`` where it is given and
        there is no deadline."""
        if draw_many is not None and deadline is None:
            return draw_many(self.rng, count), False
        drawn_worlds: list[tuple[World, float]] = []
        for _ in range(count):
            drawn = draw(self.rng)
            if drawn is None:
                break
            drawn_worlds.append(drawn)
            if deadline is not None and time.perf_counter() > deadline:
                return drawn_worlds, True
        return drawn_worlds, False

    def rollouts(self, worlds: Sequence[World], seat: int,
                 plays: Sequence[tuple[Card, ...]]) -> list[list[float]]:
        """What each play is worth to ``seat`` in each world, ``out[w][p]``: played out by the
        engine (natively, in one call), or with ``noise`` one by one (:meth:`rollout`)."""
        if not worlds or not plays:
            return [[] for _ in worlds]
        objective = self.budget.objective
        if self.budget.noise:
            return [[self.rollout(world, seat, cards) for cards in plays] for world in worlds]
        assert self.rules is not None
        results = self.engine.play_out(self.rules, worlds, [Play.of(cards) for cards in plays],
                                       self.rule.weights)
        return [[rollout_value(result, seat, objective) for result in row] for row in results]

    def rollout(self, world: World, seat: int, cards: tuple[Card, ...]) -> float:
        """``seat``'s result when it plays ``cards`` in ``world`` (a Python hand) and the rule
        bot plays on, a random one of its three best plays with the chance ``noise``."""
        if not isinstance(world, Hand):
            raise TypeError(f"a play-out step by step needs a Python hand, not {world!r}")
        hand = world.copy()
        hand.apply(seat, Play.of(cards))
        playout = self.rule
        noise = self.budget.noise
        rng = self.rng
        for actor in hand.turns():
            view = hand.observation(actor)
            if noise and rng.random() < noise:
                hand.apply(actor, Play.of(rng.choice(playout.play_candidates(view, 3))))
            else:
                hand.apply(actor, Play.of(playout.play(view)))
        result = hand.result
        assert result is not None
        return rollout_value(result, seat, self.budget.objective)


def rollout_value(result: HandResult, seat: int, objective: str) -> float:
    """What a rollout ending in ``result`` is worth to ``seat`` (see
    :data:`~baofen.bots.search.budget.OBJECTIVES`)."""
    if objective == "score":
        return float(result.deltas[seat])
    # The declarer's points against the target: smoother than the score (no 全击 jumps of
    # hundreds, no level steps), so fewer rollouts tell the candidates apart.
    sign = 1.0 if seat == result.declarer else -1.0
    assert result.target is not None
    margin = float(result.declarer_points - result.target)
    return sign * max(-CLIP, min(CLIP, margin))


def _unweighted(world: World | None) -> tuple[World, float] | None:
    """A world counted once."""
    return None if world is None else (world, 1.0)


def search_bot(seed: int | None = None, **options: Any) -> SearchBot:
    """A search bot from keyword options (``make_bot("search", iterations=64)``): the fields of
    :class:`~baofen.bots.search.budget.SearchBudget`, the rest :class:`RuleWeights`."""
    budget, weights = SearchBudget.split(options)
    return SearchBot(seed, SearchBudget(**budget), rule_weights(weights))
