"""The bot interface and the registry behind :func:`make_bot`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol

from ..actions import Action
from ..observation import Observation
from .random_bot import RandomBot
from .rule_bot import RuleBot
from .search_bot import SearchBot


class Bot(Protocol):
    """A computer player: given one seat's observation, return a legal action for that seat."""

    def act(self, observation: Observation) -> Action:
        """Choose a legal :class:`~baofen.Bid`, :class:`~baofen.Declare` or
        :class:`~baofen.Play`."""
        ...


BotLevel = Literal["random", "rule", "search"]
"""Strength of a computer player at a table: ``random`` (any legal move), ``rule`` (heuristics),
``search``."""

BOT_LEVELS: tuple[BotLevel, ...] = ("random", "rule", "search")
"""Every computer player level, weakest first: the one list the server, the browser's form
and the CLI offer."""


def _neural(**options: Any) -> Bot:
    # The learned player needs the ``research`` extra (torch): imported only when asked for.
    from ..env.neural import NeuralBot

    return NeuralBot(**options)


_REGISTRY: dict[str, Callable[..., Bot]] = {
    "random": RandomBot, "rule": RuleBot, "search": SearchBot, "neural": _neural,
}
_BUILT_IN = frozenset(_REGISTRY)


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    """Make ``make_bot(name, **options)`` call ``factory(**options)`` (e.g. a researcher's own
    player, to compare it in the arena). The built-in names cannot be replaced."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in bot")
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts."""
    return sorted(_REGISTRY)


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by name (``"random"``, ``"rule"``, ``"search"``, ``"neural"``) with its options
    (e.g. ``seed``; ``weights`` for the neural bot)."""
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return factory(**options)
