"""The perfect-information reference player (明牌参照): the search bot's play search run on the
true deal instead of sampled worlds.

It sees every hand, so it is for the arena and benchmarks only — a ceiling that tells how much
better inference could gain — and is never offered at a table (it is not a level of
:data:`~baofen.bots.BOT_LEVELS`). A caller that holds the whole hand gives it with
:meth:`ReferenceBot.act_seeing`; :meth:`ReferenceBot.act` with an observation alone cannot be
answered. Bids and the kitty are the rule bot's, as for the search bot.

The rule bot's playouts are deterministic, so one rollout of each candidate on the true deal is
its exact value under that playout policy: the budget is one rollout per candidate. With the
search's ``noise`` option the playouts are no longer exact, and ``rollouts`` playouts of each
candidate are averaged: a reference that sees every card but cannot foresee exactly how the
other seats will answer (the arena tells what share of the ceiling comes from each).

``knows``: a *partial* reference, for measuring which hidden cards matter. Instead of the true
deal, it searches sampled worlds as the search bot does (same budget), but in every world the
holders named are dealt their true cards: ``kitty`` (the bury), ``declarer`` (the declarer's
hand), ``defenders`` (the other defenders' hands), joined by ``+`` (``knows=kitty+declarer``).
``all`` (the default) is the true deal itself.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..actions import Action, Play
from ..hand import Hand
from ..observation import Observation
from .search.bot import search_bot
from .search.determinize import Determinizer
from .search.holdings import KITTY

KNOWABLE = ("kitty", "declarer", "defenders")
"""Holders a partial reference can be told the true cards of (see the module docstring)."""


@runtime_checkable
class DealSeer(Protocol):
    """A player that must be shown the whole hand (the arena's reference player)."""

    def act_seeing(self, hand: Hand, seat: int) -> Action:
        """The action for ``seat`` given the whole ``hand``."""
        ...


class ReferenceBot:
    """Search on the true deal (see the module docstring): ``rollouts`` playouts of each
    candidate; other options are the search bot's."""

    def __init__(self, seed: int | None = None, rollouts: int = 1, knows: str = "all",
                 **options: Any) -> None:
        if rollouts < 1:
            raise ValueError("rollouts (playouts of each candidate on the deal) must be at least 1")
        self.knows = () if knows == "all" else tuple(knows.split("+"))
        unknown = [name for name in self.knows if name not in KNOWABLE]
        if unknown:
            raise ValueError(f"knows: {', '.join(unknown)} is not one of all, "
                             f"{', '.join(KNOWABLE)} (joined by +)")
        if self.knows:
            self.search = search_bot(seed, **options)
            return
        options.setdefault("candidates", 10)
        options.setdefault("iterations", options["candidates"] * rollouts)
        self.search = search_bot(seed, halving=0, **options)

    def act(self, observation: Observation) -> Action:
        """Refused: the reference player needs the whole hand (:meth:`act_seeing`)."""
        del observation
        raise ValueError("the reference player sees the whole deal: call act_seeing(hand, seat)")

    def act_seeing(self, hand: Hand, seat: int) -> Action:
        """The action for ``seat``, playing by search on ``hand`` itself."""
        obs = hand.observation(seat)
        search = self.search
        if obs.phase != "playing":
            return search.rule.act(obs)
        options = search.rule.play_candidates(obs, search.budget.candidates)
        if len(options) == 1:
            return Play.of(options[0])
        if self.knows:
            policy = search.engine.rule_player()
            sampler = self.told(Determinizer(obs, policy, search.budget.inference), hand)
            return Play.of(search.search(obs, options, sampler.weighted_world))
        return Play.of(search.search(obs, options, lambda _rng: _true(hand)))

    def told(self, sampler: Determinizer, hand: Hand) -> Determinizer:
        """``sampler`` told the true cards of the holders in :attr:`knows`."""
        for holder in sampler.holders:
            if holder == KITTY:
                named, cards = "kitty", list(hand.buried or ())
            else:
                named = "declarer" if holder == hand.declarer else "defenders"
                cards = hand.hand_of(holder)
            if named in self.knows:
                sampler.tell(holder, cards)
        return sampler


def _true(hand: Hand) -> tuple[Hand, float]:
    """The true deal, counted once."""
    return hand, 1.0
