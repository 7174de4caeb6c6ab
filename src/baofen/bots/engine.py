"""The engine the bots, the search and the 复盘 play with, chosen once for the process.

Two engines make the same decisions: the Python engine, the readable reference, and the native
core (C++, :mod:`baofen._native`), many times faster. The choice is made here, once, at import:
the native core where it is built and not switched off by ``BAOFEN_ENGINE=python`` in the
environment. Callers never ask which runs: a rule bot takes its rule player from
:func:`current`, a search its sampled worlds and batched play-outs, the 复盘 the same, and each
gets objects of one interface whichever engine made them:

- :meth:`Engine.rule_player`: the rule bot's choices (:class:`~.rule.player.RulePlayer`);
- :meth:`Engine.worlds`: a sampler of worlds consistent with an observation
  (:class:`~.search.determinize.Determinizer`; its worlds are of the
  :class:`~.search.determinize.World` protocol, a Python hand or a native one);
- :meth:`Engine.play_out`: every world × every option played to the end by rule players;
- :meth:`Engine.env_core`: the research env's native steps, where this engine takes them.

A bot holds the engine that was current when it was made. :func:`use` makes another engine
current for a block (tests compare the two engines' decisions so); :func:`python` and
:func:`native` are the two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from .. import _native
from .._native import EngineName
from .._native.batch import native_rules, seeded_deals
from ..actions import Action, Play
from ..hand import Hand
from ..observation import Observation
from ..ruleset import RuleSet
from ..scoring import HandResult
from .native_players import NativeRulePlayer, play_out_actions, play_out_candidates
from .rule.play import RuleWeights
from .rule.player import RulePlayer
from .search.determinize import Determinizer, World
from .search.native_worlds import NativeSampler

__all__ = ["Engine", "EngineName", "current", "native", "python", "use"]

EnvCore = Callable[[int], Any]
"""Makes the research env's native hand of a seed's deal (``_core.EnvCore``)."""


class Engine(Protocol):
    """What the bots, the search, the 复盘 and the env ask of an engine."""

    @property
    def name(self) -> EngineName:
        """``"python"`` or ``"native"``."""
        ...

    def rule_player(self, weights: RuleWeights = RuleWeights()) -> RulePlayer:  # noqa: B008
        """A rule player with ``weights``."""
        ...

    def worlds(self, observation: Observation, sharpness: float = 1.0,
               bid_margin: float = 0.0) -> Determinizer:
        """A sampler of worlds consistent with ``observation`` (a seat's, during play), weighed
        by the rule player's likelihood (the others' bids read with ``bid_margin``), the mismatch
        factors raised to ``sharpness``."""
        ...

    def play_out(self, rules: RuleSet, worlds: Sequence[World], options: Sequence[Action],
                 weights: RuleWeights = RuleWeights()) -> list[list[HandResult]]:  # noqa: B008
        """For each world (of this engine's sampler, or a :class:`Hand`) and each option of its
        seat to act, the result of taking that option and playing to the end with rule players
        of ``weights`` in every seat: ``out[w][o]``. The worlds are unchanged."""
        ...

    def env_core(self, rules: RuleSet, pieces: tuple[str, ...]) -> EnvCore | None:
        """The research env's native hands for ``rules`` where this engine takes its steps and
        writes the encoding ``pieces`` names; ``None``: the env takes them in Python."""
        ...


class PythonEngine:
    """The Python engine: the reference every native result is checked against."""

    name: EngineName = "python"

    def rule_player(self, weights: RuleWeights = RuleWeights()) -> RulePlayer:  # noqa: B008
        """See :meth:`Engine.rule_player`."""
        return RulePlayer(weights)

    def worlds(self, observation: Observation, sharpness: float = 1.0,
               bid_margin: float = 0.0) -> Determinizer:
        """See :meth:`Engine.worlds`: worlds as Python hands."""
        return Determinizer(observation, self.rule_player(RuleWeights(bid_margin=bid_margin)),
                            sharpness)

    def play_out(self, rules: RuleSet, worlds: Sequence[World], options: Sequence[Action],
                 weights: RuleWeights = RuleWeights()) -> list[list[HandResult]]:  # noqa: B008
        """See :meth:`Engine.play_out`: one hand after another."""
        player = RulePlayer(weights)
        players = (player, player, player, player)
        out = []
        for world in worlds:
            if not isinstance(world, Hand):
                raise TypeError(f"the Python engine plays out Python hands, not {world!r}")
            seat = world.to_act
            row = []
            for option in options:
                hand = world.copy()
                hand.apply(seat, option)  # type: ignore[arg-type]
                result = hand.play_out(players).result
                assert result is not None
                row.append(result)
            out.append(row)
        return out

    def env_core(self, rules: RuleSet, pieces: tuple[str, ...]) -> EnvCore | None:
        """See :meth:`Engine.env_core`: none."""
        return None


class NativeEngine:
    """The native core: the same decisions as the Python engine, many times faster."""

    name: EngineName = "native"

    def __init__(self) -> None:
        self.core = _native.core()  # RuntimeError saying why when it is not built

    def rule_player(self, weights: RuleWeights = RuleWeights()) -> RulePlayer:  # noqa: B008
        """See :meth:`Engine.rule_player`: deciding natively."""
        return NativeRulePlayer(weights)

    def worlds(self, observation: Observation, sharpness: float = 1.0,
               bid_margin: float = 0.0) -> Determinizer:
        """See :meth:`Engine.worlds`: worlds as native hands, drawn and replayed natively."""
        return NativeSampler(observation, NativeRulePlayer(RuleWeights(bid_margin=bid_margin)),
                             sharpness)

    def play_out(self, rules: RuleSet, worlds: Sequence[World], options: Sequence[Action],
                 weights: RuleWeights = RuleWeights()) -> list[list[HandResult]]:  # noqa: B008
        """See :meth:`Engine.play_out`: every world × option in one native call."""
        if not worlds or not options:
            return [[] for _ in worlds]
        hands: Any = worlds  # Python hands or the native core's, as the calls take them
        if all(isinstance(option, Play) for option in options):
            plays = [option.cards for option in options if isinstance(option, Play)]
            return play_out_candidates(rules, hands, plays, weights)
        return play_out_actions(rules, hands, options, weights)

    def env_core(self, rules: RuleSet, pieces: tuple[str, ...]) -> EnvCore | None:
        """See :meth:`Engine.env_core`: where the core writes the same pieces."""
        if getattr(self.core, "ENV_PIECES", None) != pieces:
            return None
        native = native_rules(rules)
        make = self.core.EnvCore

        def env_core(seed: int) -> Any:
            cards, firsts = seeded_deals(rules, [seed])
            return make(native, list(cards), firsts[0])

        return env_core


def python() -> Engine:
    """The Python engine."""
    return _PYTHON


def native() -> Engine:
    """The native engine; :class:`RuntimeError` saying why where it is not available."""
    return NativeEngine()


def current() -> Engine:
    """The engine in use: the one chosen at import, or the one :func:`use` set."""
    return _CURRENT.get()


@contextmanager
def use(engine: Engine) -> Iterator[Engine]:
    """Make ``engine`` current in this block (bots made in it keep it after)."""
    token = _CURRENT.set(engine)
    try:
        yield engine
    finally:
        _CURRENT.reset(token)


_PYTHON = PythonEngine()
_CURRENT: ContextVar[Engine] = ContextVar(
    "baofen_engine", default=NativeEngine() if _native.available() else _PYTHON)
