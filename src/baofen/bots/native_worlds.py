"""A sampler's worlds replayed on the native core (issue 26: the likelihood replay was 29% of a
search decision in Python).

:func:`replay_native` is :meth:`Determinizer._replay <baofen.bots.determinize.Determinizer>` on a
native hand: the same deal (the same card order a hand), the same checks — every observed play
replays as observed, a failed throw's unit included — and the same likelihood factors multiplied
in the same order, the native rule player (the rule bot's choices, tests/test_native_rule.py)
asked for each other seat's action. The loop over the actions runs natively too
(``_core.Replay``, made once a sampler): driven from Python, one native call an action, it was
half of a world's time. The world it returns is a native hand, for native play-outs only
(:func:`baofen.bots.native_players.play_out_candidates`); tests/test_search_native.py checks that
it draws the same worlds and weights as the Python replay.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .. import _native
from ..actions import Bid, Declare, Play
from ..cards import SUITS, Card
from ..deal import HAND_SIZE, KITTY_SIZE
from ..observation import Observation
from ..ruleset import RuleSet

KITTY = 4
"""Holder index of the buried kitty among a sampler's holders (seats are 0–3)."""


def start_of_hand(
    obs: Observation, me: int, dealt: dict[int, list[Card]]
) -> tuple[list[list[Card]], list[Card], Sequence[Card]]:
    """The deal a sampled world stands for: each seat's hand before play (``me``'s from the
    observation, the others' ``dealt`` with the cards they played since), the kitty, and the
    bury to replay (the declarer's own when ``me`` declared, else the sampled kitty)."""
    played = played_cards(obs)
    current = [own_cards(obs, me, played) if s == me else list(dealt[s]) + played[s]
               for s in range(4)]
    if obs.buried is None:
        return current, dealt[KITTY], dealt[KITTY]
    assert obs.kitty is not None
    return current, list(obs.kitty), obs.buried


def played_cards(obs: Observation) -> list[list[Card]]:
    """The cards each seat has played this hand, in the order played."""
    played: list[list[Card]] = [[] for _ in range(4)]
    history = [t.plays for t in obs.tricks]
    if obs.current_trick:
        history.append(obs.current_trick)
    for plays in history:
        for seat, cards in plays:
            played[seat].extend(cards)
    return played


def own_cards(obs: Observation, me: int, played: list[list[Card]]) -> list[Card]:
    """``me``'s hand before play: its cards, those it played, and where it declared, its bury
    back and the kitty's cards out."""
    cards = list(obs.hand) + played[me]
    if obs.buried is not None:
        assert obs.kitty is not None
        cards.extend(obs.buried)
        for card in obs.kitty:
            cards.remove(card)
    return cards


def replay_native(sampler: Any, dealt: dict[int, list[Card]],
                  likelihood: list[float] | None = None) -> Any:
    """The observed actions replayed on a native hand dealt from ``dealt`` (``None`` when they
    do not replay the same); each other seat's action multiplies ``likelihood[0]`` when given
    (see the module docstring). ``sampler``: the :class:`~baofen.bots.determinize.Determinizer`
    (not imported: it imports this module)."""
    obs = sampler.obs
    current, kitty, bury = start_of_hand(obs, sampler.me, dealt)
    if any(len(cards) != HAND_SIZE for cards in current) or len(kitty) != KITTY_SIZE:
        return None
    try:
        hand = native_deal(obs.rules, [c for cards in current for c in cards] + kitty, obs.first)
    except ValueError:
        return None
    start = 1.0 if likelihood is None else likelihood[0]
    after = replayer(sampler).run(hand, list(bury), likelihood is not None, start)
    if after is None:
        return None
    if likelihood is not None:
        likelihood[0] = after
    return hand


def replayer(sampler: Any) -> Any:
    """``sampler``'s observed actions as the native core replays them on each world
    (``_core.Replay``); made once a sampler."""
    cached = getattr(sampler, "_native_replay", None)
    if cached is None:
        obs = sampler.obs
        actions: list[tuple[int, int, int, list[Card]]] = []
        for seat, action in obs.actions:
            if isinstance(action, Play):
                actions.append((2, seat, 0, list(action.cards)))
            elif isinstance(action, Bid):
                actions.append((0, seat, -1 if action.value is None else action.value, []))
            elif isinstance(action, Declare):
                actions.append((1, seat, SUITS.index(action.trump), list(action.bury)))
        mismatch = sampler.mismatch
        cached = _native.core().Replay(
            actions, [list(cards) for cards in expected_plays(sampler)], sampler.me,
            -1 if obs.declarer is None else obs.declarer, sampler.policy.native,
            (mismatch["play"], mismatch["bid"], mismatch["declare"]))
        sampler._native_replay = cached
    return cached


def draw_native(sampler: Any, rng: random.Random, count: int, tries: int, weigh: bool,
                attempts: int | None = None) -> list[tuple[Any, float]]:
    """Up to ``count`` worlds as ``sampler.draw(rng, tries, weigh)`` draws them one by one,
    with their likelihoods, stopping at the first not found (with ``attempts``: from up to that
    many draws, passing over those that find none or weigh 0), in one native call
    (``_core.Sampler``, made once a sampler): the same worlds, weights and ``rng`` after, as
    tests/test_search_native.py checks."""
    version, state, gauss = rng.getstate()
    worlds, after = native_sampler(sampler).draw(state, count, tries, weigh, attempts or 0)
    rng.setstate((version, tuple(after), gauss))
    return list(worlds)


def native_sampler(sampler: Any) -> Any:
    """``sampler``'s holdings and deal as the native core draws them (``_core.Sampler``); made
    once a sampler (:meth:`~baofen.bots.determinize.Determinizer.tell` drops it)."""
    cached = getattr(sampler, "_native_sampler", None)
    if cached is None:
        from .._native.batch import native_rules

        obs = sampler.obs
        me = sampler.me
        played = played_cards(obs)
        rows = range(KITTY + 1)
        no_cards = [0] * len(sampler.unseen)
        cached = _native.core().Sampler(
            native_rules(obs.rules), obs.first, me, sampler.holders,
            [sampler.room.get(h, 0) for h in rows],
            [sampler.cap.get(h, no_cards) for h in rows],
            [sampler.need.get(h, no_cards) for h in rows],
            [sampler.weight.get(h, [0.0] * len(no_cards)) for h in rows],
            sampler.unseen, sampler.kinds, own_cards(obs, me, played), played,
            list(obs.kitty or ()) if obs.buried is not None else [],
            list(obs.buried or ()), replayer(sampler))
        sampler._native_sampler = cached
    return cached


def expected_plays(sampler: Any) -> list[tuple[Card, ...]]:
    """Every play ``sampler``'s observation shows, in order, its cards sorted (what
    :func:`replay_native` checks each replayed play against); made once a sampler."""
    cached: list[tuple[Card, ...]] | None = getattr(sampler, "_expected_plays", None)
    if cached is None:
        obs = sampler.obs
        history = [t.plays for t in obs.tricks]
        if obs.current_trick:
            history.append(obs.current_trick)
        cached = [tuple(sorted(cards)) for plays in history for _, cards in plays]
        sampler._expected_plays = cached
    return cached


def native_deal(rules: RuleSet, deal: list[Card], first: int) -> Any:
    """A native hand of ``deal`` (four hands, then the kitty) with ``first`` to bid."""
    from .._native.batch import native_rules

    return _native.core().Hand(native_rules(rules), deal, first)
