"""World tracking: sampled worlds kept from one decision to the next of a hand (a particle
filter with Metropolis moves), for the search bot's inference.

Drawing fresh worlds at every decision and weighing them by likelihood (the search bot's default)
leaves the worlds close to the prior: a hand has dozens of observed actions, and few fresh worlds
explain many of them. A :class:`WorldTracker` instead keeps ``particles`` worlds for the whole
hand. At each decision it brings every world up to date — the cards each seat played since are
taken from that seat's holdings; a world that gave a seat a card another seat held swaps it back,
and one that breaks a new constraint (a void shown, a throw) is drawn again — and then moves it
``steps`` Metropolis steps (:meth:`~baofen.bots.search.determinize.Determinizer.move`) towards
worlds in proportion to their likelihood. Chains thus grow over the hand, and the worlds follow the
evidence as it comes; each counts once.

A world is kept as each holder's cards at the start of play (the kitty: the bury), which stay
fixed as the hand goes on.

Off in every level: tracked worlds give more of the hidden cards to their true holders
(``bench/world_accuracy.py``), but the search plays no better with them in the arena.
"""

from __future__ import annotations

import random

from ...actions import Action
from ...cards import CARDS, KINDS, Card
from ...observation import Observation
from .determinize import Determinizer, World
from .holdings import KITTY

FRESH_TRIES = 4
"""Fresh draws tried for a world that cannot be brought up to date."""


class WorldTracker:
    """Keeps ``particles`` worlds through a hand and moves each ``steps`` Metropolis steps a
    decision (see the module docstring). One tracker follows one seat's hands."""

    def __init__(self, particles: int, steps: int) -> None:
        if particles < 1:
            raise ValueError("particles (worlds tracked) must be at least 1")
        if steps < 0:
            raise ValueError("steps (Metropolis steps a decision) cannot be negative")
        self.particles = particles
        self.steps = steps
        self._hand: tuple[int, tuple[Card, ...], tuple[tuple[int, Action], ...]] | None = None
        """The followed hand: the seat, its cards at the start of play, and the actions seen."""
        self._starts: list[dict[int, list[Card]]] = []

    def worlds(self, obs: Observation, sampler: Determinizer,
               rng: random.Random) -> list[tuple[World, float]]:
        """Up to ``particles`` worlds at ``obs``'s position, each with weight 1 (empty when no
        consistent world was found)."""
        played = sampler.played
        me = sampler.me
        hand = (me, tuple(sorted(obs.hand + tuple(_cards(played[me])))), obs.actions)
        same_hand = (self._hand is not None and self._hand[:2] == hand[:2]
                     and obs.actions[:len(self._hand[2])] == self._hand[2])
        starts = self._starts if same_hand else []
        self._hand = hand
        found: list[tuple[World, float]] = []
        kept: list[dict[int, list[Card]]] = []
        for index in range(self.particles):
            state = None
            if index < len(starts):
                state = self._carried(starts[index], played, sampler, rng)
            if state is None:
                drawn = sampler.draw(rng, FRESH_TRIES)
                if drawn is None:
                    continue
                state = drawn[0], (drawn[1], drawn[2])
            dealt, (world, likelihood) = state
            dealt, likelihood, moved = sampler.move(rng, dealt, likelihood, self.steps)
            found.append((world if moved is None else moved, 1.0))
            kept.append({h: dealt[h] + (_cards(played[h]) if h != KITTY else [])
                         for h in dealt})
        self._starts = kept
        return found

    @staticmethod
    def _carried(start: dict[int, list[Card]], played: list[list[int]], sampler: Determinizer,
                 rng: random.Random) -> tuple[dict[int, list[Card]], tuple[World, float]] | None:
        """The world that started as ``start``, with the cards played since taken out; a card a
        seat played but the world gave another holder is swapped in for one of its own."""
        held = {h: [0] * KINDS for h in sampler.holders}
        for h in sampler.holders:
            for card in start[h]:
                held[h][card] += 1
            if h != KITTY:
                for kind, n in enumerate(played[h]):
                    held[h][kind] -= n
        for h in sampler.holders:
            for kind in range(KINDS):
                while held[h][kind] < 0:
                    donors = [g for g in sampler.holders if g != h and held[g][kind] > 0]
                    spare = [k for k in range(KINDS) if held[h][k] > 0]
                    if not donors or not spare:
                        return None
                    donor = rng.choice(donors)
                    back = rng.choice(spare)
                    held[donor][kind] -= 1
                    held[h][kind] += 1
                    held[h][back] -= 1
                    held[donor][back] += 1
        dealt = {h: _cards(held[h]) for h in sampler.holders}
        world = sampler.likely_world(dealt)
        return None if world is None else (dealt, world)


def _cards(counts: list[int]) -> list[Card]:
    """The cards of a count per kind."""
    return [CARDS[k] for k in range(KINDS) for _ in range(counts[k])]
