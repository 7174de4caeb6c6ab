"""The search bot: determinized Monte Carlo over rule-bot rollouts (perfect-information
Monte Carlo with the rule bot as playout policy).

At each play it takes the rule bot's best candidate plays, deals the unseen cards into worlds
consistent with its observation (:class:`~baofen.bots.determinize.Determinizer`), and plays every
candidate out to the end of the hand in the same worlds with the rule bot in all four seats
(common random numbers). Candidates are pruned by successive halving — the worse half is dropped
after each round — and the candidate with the best mean result for its seat (包分 score, 包红五
levels) is played. A single candidate is played at once; if no consistent world can be drawn,
the rule bot's choice is played.

Bids and the kitty: the rule bot's, or with ``contract=N`` chosen by evaluating the candidates on
``N`` sampled worlds (:mod:`baofen.bots.contract`). Without ``contract``, ``bidder`` says who
bids (:data:`BIDDERS`): ``"rule"``, the rule bot; ``"bold"``, the rule bot with the expected
result a bid must clear lowered by :data:`BOLD_MARGINS` for the game, since the search plays its
contracts better than the rule bot's bidding model (fitted on rule-bot play) expects;
``"learned"``, the learned bidder (:mod:`baofen.bots.learned_bidder`) wherever the package has a
network for the game and its bid grid (包分's default grid), the rule bot elsewhere.

Inference: with ``inference=1`` (the default) each world counts by its likelihood — how likely the
rule bot's policy in the other seats would have bid, declared and played as they did in that world
(:meth:`~baofen.bots.determinize.Determinizer.weighted_world`); the means are importance-weighted.
A larger ``inference`` sharpens the weights (each mismatch factor is raised to that power).

Tracking: with ``particles=P`` the worlds are instead kept from one decision to the next and moved
``steps`` Metropolis steps a decision towards likely ones (:mod:`baofen.bots.tracking`); the
rollouts cycle through those ``P`` worlds, each counted once, and ``inference`` is the sharpness of
the likelihood they are moved towards.

``noise``: the chance that a playout seat plays a random one of the rule bot's three best plays
instead of its best (0 by default: playouts are deterministic in a world). For the arena's
diagnostics: a reference player that knows the cards but not exactly how the others will answer.

A rollout is worth, by default, the declarer's points against the target (signed for the seat's
side, clipped), which tracks the result closely with far less noise; ``objective="score"`` uses the
seat's result itself.

Budget: ``iterations`` rollouts per decision (deterministic under ``seed``), optionally capped by
``time_limit`` seconds (then the result depends on the machine's speed). ``candidates``: how many
of the rule bot's plays are searched at most. ``halving``: 1 to prune by successive halving (the
rule bot's choice is never pruned), 0 to give every candidate the same worlds. ``margin``: how
much better (in result units) a play must do than the rule bot's choice to replace it.

The halving schedule (:func:`halving_plan`): no cut is made before every candidate still in has
been played out on ``min_worlds`` common worlds (:data:`MIN_WORLDS`). When the budget cannot give
all ``candidates`` that many worlds in the first round, the rule bot's best few are searched (as
many as the budget affords; its order is the prior); ``min_worlds=0`` keeps the schedule of
before issue 28 (whose first cut, at 64 rollouts over 10 candidates, rested on one world).

The gate (``gate=G`` worlds, issue 28): the search's best play replaces the rule bot's choice only
when, played out against it on ``G`` *fresh* common worlds (not those it was selected on, so
that its selection's luck does not count), the paired difference's one-sided lower confidence
bound at level ``confidence`` (:data:`CONFIDENCE`; Student's t on the importance-weighted mean,
with the worlds' effective number, :func:`lower_bound`) is above ``margin``. A challenger
no better than the rule bot's choice in every world is never taken. ``gate=0``: the mean on the
selection's worlds decides, as before.

``wide=1``: a follow is searched over more candidates than the rule bot's list (which holds the
cheapest and the feeding follow, the winners and the ruffs): every other legal single, and
follows composed to keep the strongest cards, to shed each suit, or to feed or keep points
(:func:`wide_follows`); all are scored by the rule bot's own estimate and searched best first.

``prior="evaluator"``: the search's baseline ("the rule bot's choice" above: the first
candidate, which the halving never drops and against which the gate tests a challenger) is the
learned evaluator's pick (:mod:`baofen.bots.learned_evaluator`) where the package has an
evaluator for the game; the rule bot's candidates follow it. ``prior="rule"`` (the default):
the rule bot's choice.

``others="bold"``: in play and in the kitty search, the worlds are weighed by the other seats'
bids read as the search levels' bold bids (:data:`BOLD_MARGINS`: a bid on a weaker hand than
the rule bot's) instead of the rule bot's (``others="rule"``, the default), for a table whose
other seats are 困难 or 大师.

``kitty=W`` worlds: the trump and the bury come from the kitty search
(:mod:`baofen.bots.kitty_search`); ``kitty_wide`` names the games (``"hongwu"``,
``"baofen+hongwu"``; ``1`` for both, ``0`` or ``""`` for none) where it is a wide one (every
void set's other fills too, up to :data:`~baofen.bots.kitty_search.WIDE_CANDIDATES` candidates).

Engine (issue 26): where the native core runs (``engine=None``, not switched off by
``BAOFEN_ENGINE=python``; ``engine="native"`` requires it), the play-outs go to it in batches —
every world of a halving round × every candidate still in, and the gate's fresh worlds × the two
plays, each one call (:func:`baofen.bots.native_players.play_out_candidates`), as do the kitty
search's and the contract search's; the sampler's likelihood replay asks the native rule player
too. The rule player is deterministic and the native one makes the rule bot's choices, so the
decisions and every candidate's values are the same as with ``engine="python"`` (pure Python, the
reference) for the same seed (tests/test_search_native.py). ``noise`` > 0 (random top-three
playouts drawn from the bot's own generator) keeps its play-outs in Python.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from .. import _native
from ..actions import Action, Bid, Play
from ..cards import Card
from ..hand import Hand
from ..observation import Observation
from ..ruleset import RuleSet
from ..scoring import HandResult
from ..setting import GAMES
from .contract import ContractSearch
from .determinize import Determinizer
from .estimates import lower_bound, student_quantile
from .follows import wide_follows
from .kitty_search import WIDE_CANDIDATES, KittySearch
from .learned_bidder import LearnedBidder
from .learned_evaluator import LearnedEvaluator
from .rule_bot import RuleBot
from .tracking import WorldTracker

__all__ = ["SearchBot", "halving_plan", "lower_bound", "student_quantile", "wide_follows"]

OBJECTIVES = ("points", "score")
"""What a rollout is worth to the searching seat: ``"points"``, the declarer's points minus the
target (clipped, signed for the seat's side), or ``"score"``, the seat's result for the hand."""

CLIP = 120.0
"""Largest points margin a rollout counts, either way."""

DEFAULT_ITERATIONS = 64
"""Rollouts per decision by default (decision time p95 within 1 s on a 2-core machine)."""

PRIORS = ("rule", "evaluator")
"""Whose pick is the search's baseline (the candidate the halving keeps and the gate tests
against): the rule bot's, or the learned evaluator's where the package has one for the game."""

BIDDERS = ("rule", "bold", "learned")
"""Who makes the bids without ``contract``: the rule bot, the rule bot with a lower margin, or
the learned bidder."""

OTHERS = ("rule", "bold")
"""How the search's worlds read the other seats' bids, in play and in the kitty search (the
``bid_margin`` of :class:`~.determinize.Determinizer` and of :meth:`.KittySearch.declare`): as
the rule bot's, or as the bold bids of the search levels (:data:`BOLD_MARGINS`)."""

BOLD_MARGINS = {"baofen": -30.0, "hongwu": -2.0}
"""The rule bot's ``bid_margin`` for the ``"bold"`` bids, per game (包分 points, 包红五 levels):
the best of the margins screened against the search levels' own bids, then confirmed on other
deals (docs/measurements.md, issue 28: the search levels' bids; bold bids below −30 in 包分, and
in 包红五)."""

MIN_WORLDS = 8
"""Fewest common worlds every candidate still in has been played out on before a halving cut."""

CONFIDENCE = 0.9
"""Level of the gate's one-sided lower confidence bound on a challenger's paired gain."""

Draw = Callable[[random.Random], "tuple[Hand, float] | None"]
"""A world and its weight from a generator (``None``: none found)."""

DrawMany = Callable[[random.Random, int], "list[tuple[Hand, float]]"]
"""Up to so many worlds as :data:`Draw` draws them one after another, stopping at the first not
found."""


def halving_plan(options: int, budget: int, min_worlds: int = MIN_WORLDS) -> tuple[int, int]:
    """How many of ``options`` candidates (the rule bot's best first) to search with ``budget``
    rollouts, and in how many rounds of successive halving, so that the first round — and so
    every cut — gives each candidate at least ``min_worlds`` worlds: the most candidates that
    allows. When not even two candidates can have that many worlds in halving, a single round
    (no cut) over as many candidates as have a world each. ``min_worlds=0``: every candidate, in
    ``ceil(log2(options))`` rounds, whatever the budget (the schedule before issue 28)."""
    if options <= 1:
        return max(options, 0), 1
    if min_worlds <= 0:
        return options, max(1, math.ceil(math.log2(options)))
    for count in range(options, 1, -1):
        rounds = max(1, math.ceil(math.log2(count)))
        if budget // (count * rounds) >= min_worlds:
            return count, rounds
    return max(1, min(options, budget)), 1


def games(value: int | str, option: str) -> frozenset[str]:
    """The games an option names: ``"baofen"``, ``"hongwu"`` or both joined by ``+``; ``1``
    both, ``0`` or ``""`` none. :class:`ValueError` names an unknown game."""
    if value in (0, ""):
        return frozenset()
    if value == 1:
        return frozenset(GAMES)
    named = frozenset(str(value).split("+"))
    if not named <= set(GAMES):
        raise ValueError(f"{option} names games of {', '.join(GAMES)} joined by +, "
                         f"or is 1 (both) or 0 (none), not {value!r}")
    return named


class SearchBot:
    """Determinized Monte Carlo player (see the module docstring)."""

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = None,
        candidates: int = 10,
        margin: float = 0.0,
        halving: int = 1,
        objective: str = "points",
        inference: float = 1.0,
        contract: int = 0,
        noise: float = 0.0,
        particles: int = 0,
        steps: int = 8,
        min_worlds: int = MIN_WORLDS,
        gate: int = 0,
        confidence: float = CONFIDENCE,
        wide: int = 0,
        kitty: int = 0,
        kitty_wide: int | str = 0,
        bidder: str = "rule",
        prior: str = "rule",
        others: str = "rule",
        engine: _native.EngineName | None = None,
        **rule_weights: Any,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if candidates < 1:
            raise ValueError("candidates must be at least 1")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("time_limit must be positive (seconds)")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.candidates = candidates
        self.margin = margin
        self.halving = bool(halving)
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
        self.objective = objective
        if inference < 0:
            raise ValueError("inference (the likelihood weights' sharpness) cannot be negative")
        self.inference = float(inference)
        if not 0.0 <= noise <= 1.0:
            raise ValueError("noise (the playouts' chance of a random top-three play) must be "
                             "between 0 and 1")
        self.noise = noise
        if contract < 0:
            raise ValueError("contract (worlds for bids and the kitty) cannot be negative")
        self.rule = RuleBot(engine=engine, **rule_weights)
        self.playout = RuleBot(engine=engine, **rule_weights)
        self.engine: _native.EngineName = "native" if self.rule.native is not None else "python"
        """Where the rule bot decides and the play-outs run (see the module docstring)."""
        self.contract = ContractSearch(self.rule, self.rng, contract, margin) if contract else None
        if bidder not in BIDDERS:
            raise ValueError(f"bidder is one of {', '.join(BIDDERS)}, not {bidder!r}")
        if bidder != "rule" and contract:
            raise ValueError(f"contract (the searched bids) and bidder={bidder!r} both choose the "
                             "bids: give one")
        self.bidder = LearnedBidder() if bidder == "learned" else None
        self.bold = ({variant: RuleBot(engine=engine, **{**rule_weights, "bid_margin": margin})
                      for variant, margin in BOLD_MARGINS.items()} if bidder == "bold" else None)
        if prior not in PRIORS:
            raise ValueError(f"prior is one of {', '.join(PRIORS)}, not {prior!r}")
        self.evaluator = LearnedEvaluator() if prior == "evaluator" else None
        if others not in OTHERS:
            raise ValueError(f"others is one of {', '.join(OTHERS)}, not {others!r}")
        self.others = others
        if particles < 0:
            raise ValueError("particles (worlds tracked through the hand) cannot be negative")
        if steps < 0:
            raise ValueError("steps (Metropolis steps a decision) cannot be negative")
        self.tracker = WorldTracker(particles, steps) if particles else None
        if min_worlds < 0:
            raise ValueError("min_worlds (worlds before a halving cut) cannot be negative")
        self.min_worlds = min_worlds
        if gate < 0:
            raise ValueError("gate (fresh worlds to confirm an override) cannot be negative")
        self.gate = gate
        if not 0.5 <= confidence < 1.0:
            raise ValueError("confidence (the gate's level) must be in [0.5, 1)")
        self.confidence = confidence
        self.wide = bool(wide)
        if kitty < 0:
            raise ValueError("kitty (worlds of the kitty search) cannot be negative")
        self.kitty = (KittySearch(self.rule, self.rng, worlds=kitty, confidence=confidence)
                      if kitty else None)
        self.kitty_wide = games(kitty_wide, "kitty_wide")
        """The games whose kitty search is wide."""
        self.wide_kitty = (KittySearch(self.rule, self.rng, worlds=kitty, confidence=confidence,
                                       candidates=WIDE_CANDIDATES, wide=True)
                           if kitty and self.kitty_wide else None)
        self.last_gate: tuple[float, int] | None = None
        """The last gate's lower bound and its worlds (``None``: no gate was run)."""
        self.rules: RuleSet | None = None
        """The rules of the hand being searched (set by :meth:`play`)."""
        self.last_values: list[tuple[tuple[Card, ...], float]] = []
        """The last search's candidates played out, with their weighted mean values."""

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
                      and observation.rules.variant in self.kitty_wide else self.kitty)
            return search.declare(observation, self.others_margin(observation.rules))
        if self.contract is not None and phase == "kitty":
            return self.contract.declare(observation)
        if phase != "playing":
            return self.rule.act(observation)
        return Play.of(self.play(observation))

    def others_margin(self, rules: RuleSet) -> float:
        """The margin the other seats' bids are read with (``others``)."""
        return BOLD_MARGINS[rules.variant] if self.others == "bold" else 0.0

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The candidate play with the best mean rollout result."""
        if self.wide and obs.lead_shape is not None:
            options = wide_follows(obs, self.rule, self.candidates)
        else:
            options = self.rule.play_candidates(obs, self.candidates)
        if len(options) == 1:
            return options[0]
        if self.evaluator is not None and self.evaluator.serves(obs.rules):
            pick = self.evaluator.play(obs)
            key = sorted(pick)
            options = [pick, *(o for o in options if sorted(o) != key)][:self.candidates]
        self.rules = obs.rules
        sampler = Determinizer(obs, self.inference, engine=self.engine,
                               native_worlds=self.engine == "native" and not self.noise,
                               bid_margin=self.others_margin(obs.rules))
        if self.tracker is not None:
            tracked = self.tracker.worlds(obs, sampler, self.rng)
            cycle = itertools.cycle(tracked)
            return self.search(obs, options, lambda rng: next(cycle, None))
        if self.inference:
            return self.search(obs, options, sampler.weighted_world, sampler.weighted_worlds)
        return self.search(obs, options, lambda rng: _unweighted(sampler.world(rng)))

    def search(self, obs: Observation, options: list[tuple[Card, ...]], draw: Draw,
               draw_many: DrawMany | None = None) -> tuple[Card, ...]:
        """The best of ``options`` (the baseline first) by weighted mean rollout result
        over worlds (with their weights) from ``draw`` (or ``draw_many``, the same worlds a
        batch at a time, where there is no time limit)."""
        seat = obs.seat
        assert seat is not None
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        self.last_gate = None
        self.last_values = []
        self.rules = getattr(obs, "rules", None) or self.rules
        count, rounds = (halving_plan(len(options), self.iterations, self.min_worlds)
                         if self.halving else (len(options), 1))
        options = options[:max(1, count)]
        if len(options) == 1:
            return options[0]
        alive = list(range(len(options)))
        totals = [0.0] * len(options)
        counts = [0.0] * len(options)
        seen = 0  # worlds every candidate still in has been played out on
        budget = self.iterations
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
            if round_number < rounds - 1 and seen >= self.min_worlds:
                # Drop the worse half; the baseline (the prior) stays in.
                kept = alive[:max(1, (len(alive) + 1) // 2)]
                alive = kept if 0 in kept else [*kept, 0]
        self.last_values = [(options[i], totals[i] / counts[i]) for i in range(len(options))
                            if counts[i]]
        best = alive[0]
        if best == 0:
            return options[0]
        if self.gate:
            confirmed = self.confirm(seat, options[best], options[0], draw, draw_many)
            return options[best] if confirmed else options[0]
        # Keep the baseline unless the search finds it clearly worse.
        if (
            0 in alive
            and math.isclose(counts[0], counts[best])
            and (totals[best] - totals[0]) / counts[best] <= self.margin
        ):
            best = 0
        return options[best]

    def confirm(self, seat: int, challenger: tuple[Card, ...], choice: tuple[Card, ...],
                draw: Draw, draw_many: DrawMany | None = None) -> bool:
        """True when ``challenger`` beats ``choice`` (the rule bot's) on :attr:`gate` fresh
        common worlds: the paired difference's lower confidence bound (:func:`lower_bound`, level
        :attr:`confidence`) is above the margin (see the module docstring)."""
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        drawn_worlds, _ = self.draw_worlds(self.gate, draw, draw_many, deadline)
        values = self.rollouts([world for world, _ in drawn_worlds], seat, [challenger, choice])
        differences = [row[0] - row[1] for row in values]
        weights = [weight for _, weight in drawn_worlds]
        bound = lower_bound(differences, weights, self.confidence)
        self.last_gate = (bound, len(differences))
        return bound > self.margin

    def draw_worlds(self, count: int, draw: Draw, draw_many: DrawMany | None,
                    deadline: float | None) -> tuple[list[tuple[Hand, float]], bool]:
        """Up to ``count`` worlds from ``draw``, stopping at the first not found or once past
        ``deadline``, and whether it passed: in one call of ``draw_many`` where it is given and
        there is no deadline."""
        if draw_many is not None and deadline is None:
            return draw_many(self.rng, count), False
        drawn_worlds: list[tuple[Hand, float]] = []
        for _ in range(count):
            drawn = draw(self.rng)
            if drawn is None:
                break
            drawn_worlds.append(drawn)
            if deadline is not None and time.perf_counter() > deadline:
                return drawn_worlds, True
        return drawn_worlds, False

    def rollouts(self, worlds: Sequence[Hand], seat: int,
                 plays: Sequence[tuple[Card, ...]]) -> list[list[float]]:
        """:meth:`rollout` of every play in every world, ``out[w][p]``: on the native core in one
        call where it runs (and ``noise`` is 0), else one by one in Python (in the order world by
        world, play by play)."""
        if not worlds or not plays:
            return [[] for _ in worlds]
        if self.engine == "native" and not self.noise and self.rules is not None and all(
                isinstance(world, (Hand, _native.core().Hand)) for world in worlds):
            from .native_players import play_out_candidates

            objective = self.objective
            results = play_out_candidates(self.rules, worlds, plays, self.playout.weights)
            return [[rollout_value(result, seat, objective) for result in row]
                    for row in results]
        return [[self.rollout(world, seat, cards) for cards in plays] for world in worlds]

    def rollout(self, world: Hand, seat: int, cards: tuple[Card, ...]) -> float:
        """``seat``'s result when it plays ``cards`` in ``world`` and the rule bot plays on."""
        hand = world.copy()
        hand.apply(seat, Play.of(cards))
        playout = self.playout
        noise = self.noise
        rng = self.rng
        for actor in hand.turns():
            view = hand.observation(actor)
            if noise and rng.random() < noise:
                hand.apply(actor, Play.of(rng.choice(playout.play_candidates(view, 3))))
            else:
                hand.apply(actor, Play.of(playout.play(view)))
        result = hand.result
        assert result is not None
        return rollout_value(result, seat, self.objective)


def rollout_value(result: HandResult, seat: int, objective: str) -> float:
    """What a rollout ending in ``result`` is worth to ``seat`` (see :data:`OBJECTIVES`)."""
    if objective == "score":
        return float(result.deltas[seat])
    # The declarer's points against the target: smoother than the score (no 全击 jumps of
    # hundreds, no level steps), so fewer rollouts tell the candidates apart.
    sign = 1.0 if seat == result.declarer else -1.0
    assert result.target is not None
    margin = float(result.declarer_points - result.target)
    return sign * max(-CLIP, min(CLIP, margin))


def _unweighted(world: Hand | None) -> tuple[Hand, float] | None:
    """A world counted once."""
    return None if world is None else (world, 1.0)
