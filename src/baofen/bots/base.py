"""The bot interface and the registry behind :func:`make_bot`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeGuard

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
"""Strength of a computer player: ``random`` (any legal move), ``rule`` (heuristics), ``search``."""

_REGISTRY: dict[BotLevel, Callable[..., Bot]] = {
    "random": RandomBot, "rule": RuleBot, "search": SearchBot,
}

BOT_LEVELS: tuple[BotLevel, ...] = tuple(_REGISTRY)
"""Every computer player level, weakest first: the one list the server, the browser's form
and the CLI offer."""


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts."""
    return sorted(_REGISTRY)


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by name (``"random"``, ``"rule"``, ``"search"``) with its options
    (e.g. ``seed``)."""
    if not _is_bot_level(name):
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return _REGISTRY[name](**options)


def _is_bot_level(name: str) -> TypeGuard[BotLevel]:
    """True when ``name`` is a computer player level."""
    return name in _REGISTRY
