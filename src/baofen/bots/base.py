"""The bot interface and the registry behind :func:`make_bot`."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeGuard

from ..actions import Action
from ..observation import Observation
from .levels import EasyBot, hard_bot, master_bot
from .random_bot import RandomBot
from .reference_bot import ReferenceBot
from .rule_bot import RuleBot
from .search_bot import SearchBot


class Bot(Protocol):
    """A computer player: given one seat's observation, return a legal action for that seat."""

    def act(self, observation: Observation) -> Action:
        """Choose a legal :class:`~baofen.Bid`, :class:`~baofen.Declare` or
        :class:`~baofen.Play`."""
        ...


BotLevel = Literal["easy", "normal", "hard", "master", "random", "rule", "search"]
"""A computer player a table may seat: a level players pick (``easy`` 简单, ``normal`` 普通,
``hard`` 困难, ``master`` 大师; see :mod:`baofen.bots.levels`) or a library bot by its name
(``random``, ``rule``, ``search``: still accepted, so stored tables load)."""

_SEATED: dict[BotLevel, Callable[..., Bot]] = {
    "easy": EasyBot, "normal": RuleBot, "hard": hard_bot, "master": master_bot,
    "random": RandomBot, "rule": RuleBot, "search": SearchBot,
}

BOT_LEVELS: tuple[BotLevel, ...] = ("easy", "normal", "hard", "master")
"""The levels players pick, weakest first: the one list the server, the browser's form and the
CLI offer."""


def _neural(**options: Any) -> Bot:
    # The learned player needs the ``research`` extra (torch): imported only when asked for, and by
    # name, so that no static import reaches torch from the engine and the bots (mypy, and mypyc's
    # compiled build, would otherwise analyse all of torch and gymnasium).
    neural = importlib.import_module("baofen.env.neural")
    bot: Bot = neural.NeuralBot(**options)
    return bot


_OTHERS: dict[str, Callable[..., Any]] = {"reference": ReferenceBot, "neural": _neural}
"""Players never seated at a table: the arena's perfect-information reference (it sees every
hand), the learned player (the ``research`` extra), and researchers' own (:func:`register_bot`)."""
_BUILT_IN = frozenset([*_SEATED, *_OTHERS])


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    """Make ``make_bot(name, **options)`` call ``factory(**options)`` (e.g. a researcher's own
    player, to compare it in the arena). The built-in names cannot be replaced."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in bot")
    _OTHERS[name] = factory


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts: the levels, the library bots, the arena's reference, the
    learned player and any registered ones."""
    return sorted([*_SEATED, *_OTHERS])


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by name (a level of :data:`BOT_LEVELS`, ``"random"``, ``"rule"``, ``"search"``,
    the arena's ``"reference"``, ``"neural"`` or a registered name) with its options (e.g.
    ``seed``; ``weights`` for the neural bot)."""
    if _is_bot_level(name):
        return _SEATED[name](**options)
    if name in _OTHERS:
        bot: Bot = _OTHERS[name](**options)
        return bot
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")


def _is_bot_level(name: str) -> TypeGuard[BotLevel]:
    """True when ``name`` may be seated at a table."""
    return name in _SEATED
