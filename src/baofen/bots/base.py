"""The bot interface and the registry behind :func:`make_bot`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

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


_REGISTRY: dict[str, Callable[..., Bot]] = {
    "random": RandomBot, "rule": RuleBot, "search": SearchBot,
}


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts."""
    return sorted(_REGISTRY)


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by name (``"random"``, ``"rule"``, ``"search"``) with its options
    (e.g. ``seed``)."""
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return factory(**options)
