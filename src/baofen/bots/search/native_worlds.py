"""A sampler's worlds drawn and replayed on the native core.

:class:`NativeSampler` is a :class:`~baofen.bots.search.determinize.Determinizer` whose worlds are
native hands: the same deal (the same card order a hand), the same checks — every observed play
replays as observed, a failed throw's unit included — and the same likelihood factors multiplied
in the same order, the native rule player (the rule bot's choices) asked for each other seat's
action. The loop over the actions runs natively (``_core.Replay``, made once a sampler), and so
does a batch of draws (``_core.Sampler``: the holdings dealt as :meth:`Determinizer.sample` deals
them, from the same generator state). Its worlds are for native play-outs only
(:meth:`baofen.bots.engine.Engine.play_out`); tests/test_search_native.py checks that it draws
the same worlds and weights as the Python sampler.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..._native import core
from ..._native.batch import ACTION_BID, ACTION_DECLARE, ACTION_PLAY, native_rules
from ...actions import Bid, Declare, Play
from ...cards import SUITS, Card
from ...deal import HAND_SIZE, KITTY_SIZE
from ...observation import Observation
from ..native_players import NativeRulePlayer
from .determinize import Determinizer, World
from .holdings import KITTY, own_cards, played_cards, start_of_hand

if TYPE_CHECKING:
    from ..._native import _core


class NativeSampler(Determinizer):
    """Worlds consistent with ``observation`` as native hands (see the module docstring); the
    other seats' likelihood under the native rule player ``policy``."""

    def __init__(self, observation: Observation, policy: NativeRulePlayer,
                 sharpness: float = 1.0) -> None:
        super().__init__(observation, policy, sharpness)
        self.native_policy = policy
        self.replayer = self._replayer()
        """The observed actions as the native core replays them on each world."""
        self._sampler: Any = None

    def tell(self, holder: int, cards: Sequence[Card]) -> None:
        """As :meth:`Determinizer.tell`; the native draws follow it."""
        super().tell(holder, cards)
        self._sampler = None

    def weighted_worlds(self, rng: random.Random, count: int, tries: int = 20,
                        attempts: int | None = None) -> list[tuple[World, float]]:
        """As :meth:`Determinizer.weighted_worlds`, in one native call when ``rng`` is a plain
        :class:`random.Random` (its state is what the native draws continue): the same worlds,
        weights and ``rng`` after."""
        if type(rng) is not random.Random:
            return super().weighted_worlds(rng, count, tries, attempts)
        version, state, gauss = rng.getstate()
        worlds, after = self.native_draws().draw(state, count, tries, True, attempts or 0)
        rng.setstate((version, tuple(after), gauss))
        return list(worlds)

    def replay(self, dealt: dict[int, list[Card]],
               likelihood: list[float] | None = None) -> World | None:
        """As :meth:`Determinizer.replay`, on a native hand."""
        obs = self.obs
        current, kitty, bury = start_of_hand(obs, self.me, dealt)
        if any(len(cards) != HAND_SIZE for cards in current) or len(kitty) != KITTY_SIZE:
            return None
        try:
            hand = core().Hand(native_rules(obs.rules),
                               [c for cards in current for c in cards] + kitty, obs.first)
        except ValueError:
            return None
        start = 1.0 if likelihood is None else likelihood[0]
        after = self.replayer.run(hand, list(bury), likelihood is not None, start)
        if after is None:
            return None
        if likelihood is not None:
            likelihood[0] = after
        world: World = hand
        return world

    def native_draws(self) -> Any:
        """The holdings and deal as the native core draws them; made once a sampler (and again
        after :meth:`tell`)."""
        if self._sampler is None:
            obs = self.obs
            me = self.me
            played = played_cards(obs)
            rows = range(KITTY + 1)
            no_cards = [0] * len(self.unseen)
            self._sampler = core().Sampler(
                native_rules(obs.rules), obs.first, me, self.holders,
                [self.room.get(h, 0) for h in rows],
                [self.cap.get(h, no_cards) for h in rows],
                [self.need.get(h, no_cards) for h in rows],
                [self.weight.get(h, [0.0] * len(no_cards)) for h in rows],
                self.unseen, self.kinds, own_cards(obs, me, played), played,
                list(obs.kitty or ()) if obs.buried is not None else [],
                list(obs.buried or ()), self.replayer)
        return self._sampler

    def _replayer(self) -> _core.Replay:
        replay: _core.Replay
        obs = self.obs
        actions: list[tuple[int, int, int, list[Card]]] = []
        for seat, action in obs.actions:
            if isinstance(action, Play):
                actions.append((ACTION_PLAY, seat, 0, list(action.cards)))
            elif isinstance(action, Bid):
                actions.append((ACTION_BID, seat, -1 if action.value is None else action.value, []))
            elif isinstance(action, Declare):
                actions.append((ACTION_DECLARE, seat, SUITS.index(action.trump), list(action.bury)))
        mismatch = self.mismatch
        replay = core().Replay(
            actions, [list(cards) for cards in expected_plays(obs)], self.me,
            -1 if obs.declarer is None else obs.declarer, self.native_policy.native,
            (mismatch["play"], mismatch["bid"], mismatch["declare"]))
        return replay


def expected_plays(obs: Observation) -> list[tuple[Card, ...]]:
    """Every play ``obs`` shows, in order, its cards sorted (what the native replay checks each
    replayed play against)."""
    history = [t.plays for t in obs.tricks]
    if obs.current_trick:
        history.append(obs.current_trick)
    return [tuple(sorted(cards)) for plays in history for _, cards in plays]
