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
``N`` sampled worlds (:mod:`baofen.bots.contract`).

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
of the rule bot's plays are searched. ``halving``: 1 to prune by successive halving (the rule
bot's choice is never pruned), 0 to give every candidate the same worlds. ``margin``: how much
better (in result units) a play must do than the rule bot's choice to replace it.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from typing import Any

from ..actions import Action, Play
from ..cards import Card
from ..hand import Hand
from ..observation import Observation
from .contract import ContractSearch
from .determinize import Determinizer
from .rule_bot import RuleBot
from .tracking import WorldTracker

OBJECTIVES = ("points", "score")
"""What a rollout is worth to the searching seat: ``"points"``, the declarer's points minus the
target (clipped, signed for the seat's side), or ``"score"``, the seat's result for the hand."""

CLIP = 120.0
"""Largest points margin a rollout counts, either way."""

DEFAULT_ITERATIONS = 64
"""Rollouts per decision by default (decision time p95 within 1 s on a 2-core machine)."""


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
        self.rule = RuleBot(**rule_weights)
        self.playout = RuleBot(**rule_weights)
        self.contract = ContractSearch(self.rule, self.rng, contract, margin) if contract else None
        if particles < 0:
            raise ValueError("particles (worlds tracked through the hand) cannot be negative")
        if steps < 0:
            raise ValueError("steps (Metropolis steps a decision) cannot be negative")
        self.tracker = WorldTracker(particles, steps) if particles else None

    def act(self, observation: Observation) -> Action:
        """The bot's action for the observing seat."""
        phase = observation.phase
        if self.contract is not None and phase == "bidding":
            return self.contract.bid(observation)
        if self.contract is not None and phase == "kitty":
            return self.contract.declare(observation)
        if phase != "playing":
            return self.rule.act(observation)
        return Play.of(self.play(observation))

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The candidate play with the best mean rollout result."""
        options = self.rule.play_candidates(obs, self.candidates)
        if len(options) == 1:
            return options[0]
        sampler = Determinizer(obs, self.inference)
        if self.tracker is not None:
            tracked = self.tracker.worlds(obs, sampler, self.rng)
            cycle = itertools.cycle(tracked)
            return self.search(obs, options, lambda rng: next(cycle, None))
        if self.inference:
            return self.search(obs, options, sampler.weighted_world)
        return self.search(obs, options, lambda rng: _unweighted(sampler.world(rng)))

    def search(self, obs: Observation, options: list[tuple[Card, ...]],
               draw: Callable[[random.Random], tuple[Hand, float] | None]) -> tuple[Card, ...]:
        """The best of ``options`` (the rule bot's choice first) by weighted mean rollout result
        over worlds (with their weights) from ``draw``."""
        seat = obs.seat
        assert seat is not None
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        alive = list(range(len(options)))
        totals = [0.0] * len(options)
        counts = [0.0] * len(options)
        rounds = max(1, math.ceil(math.log2(len(options)))) if self.halving else 1
        budget = self.iterations
        out_of_time = False
        for round_number in range(rounds):
            worlds = max(1, budget // (len(alive) * (rounds - round_number)))
            for _ in range(worlds):
                drawn = draw(self.rng)
                if drawn is None:
                    break
                world, weight = drawn
                for index in alive:
                    totals[index] += weight * self.rollout(world, seat, options[index])
                    counts[index] += weight
                budget -= len(alive)
                out_of_time = deadline is not None and time.perf_counter() > deadline
                if out_of_time:
                    break
            if not counts[alive[0]]:
                return options[0]  # no consistent world: the rule bot's choice
            alive.sort(key=lambda i: (-totals[i] / counts[i] if counts[i] else 0.0, i))
            if out_of_time:
                break
            if round_number < rounds - 1:
                # Drop the worse half; the rule bot's choice (the prior) stays in.
                kept = alive[:max(1, (len(alive) + 1) // 2)]
                alive = kept if 0 in kept else [*kept, 0]
        best = alive[0]
        # Keep the rule bot's choice unless the search finds it clearly worse.
        if (
            best != 0
            and 0 in alive
            and math.isclose(counts[0], counts[best])
            and (totals[best] - totals[0]) / counts[best] <= self.margin
        ):
            best = 0
        return options[best]

    def rollout(self, world: Hand, seat: int, cards: tuple[Card, ...]) -> float:
        """``seat``'s result when it plays ``cards`` in ``world`` and the rule bot plays on."""
        hand = world.copy()
        hand.apply(seat, Play.of(cards))
        playout = self.playout
        noise = self.noise
        rng = self.rng
        while hand.phase != "done":
            actor = hand.to_act
            assert actor is not None
            view = hand.observation(actor)
            if noise and rng.random() < noise:
                hand.apply(actor, Play.of(rng.choice(playout.play_candidates(view, 3))))
            else:
                hand.apply(actor, Play.of(playout.play(view)))
        result = hand.result
        assert result is not None
        if self.objective == "score":
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
