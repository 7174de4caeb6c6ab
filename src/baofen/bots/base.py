"""The bot interface and the registry behind :func:`make_bot`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeGuard

from ..actions import Action
from ..observation import Observation
from ..setting import BotLevel
from .levels import EasyBot, hard_bot, master_bot
from .random_bot import RandomBot
from .reference_bot import ReferenceBot
from .rule.bot import RuleBot
from .search.bot import search_bot


class Bot(Protocol):
    """A computer player: given one seat's observation, return a legal action for that seat."""

    def act(self, observation: Observation) -> Action:
        """Choose a legal :class:`~baofen.Bid`, :class:`~baofen.Declare` or
        :class:`~baofen.Play`."""
        ...


_SEATED: dict[BotLevel, Callable[..., Bot]] = {
    "easy": EasyBot, "normal": RuleBot, "hard": hard_bot, "master": master_bot,
    "random": RandomBot, "rule": RuleBot, "search": search_bot,
}


_OTHERS: dict[str, Callable[..., Any]] = {"reference": ReferenceBot}
"""Players never seated at a table: the arena's perfect-information reference (it sees every
hand), and the registered ones (:func:`register_bot`): the learned player, researchers' own."""
_BUILT_IN = frozenset([*_SEATED, *_OTHERS])

_PLUG_INS = {
    "neural": "the learned player 'neural' needs the research extra "
    "(pip install 'baofen[research]') and registers itself when baofen.env.neural is imported: "
    "import baofen.env.neural before make_bot('neural')",
}
"""Players of the package that register themselves when their module is imported (the bots
import nothing of them), with what to do when one is asked for before that."""


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    """Make ``make_bot(name, **options)`` call ``factory(**options)`` (e.g. a researcher's own
    player, to compare it in the arena; the learned player ``"neural"`` registers itself when
    :mod:`baofen.env.neural` is imported). The built-in names cannot be replaced."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in bot")
    _OTHERS[name] = factory


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts: the levels, the library bots, the arena's reference, the
    learned player (once :mod:`baofen.env.neural` is imported) and any registered ones."""
    return sorted({*_SEATED, *_OTHERS, *_PLUG_INS})


def bot_module(name: str) -> str | None:
    """The module whose import registers the bot ``name`` (so that another process, e.g. an
    arena worker, can import it before :func:`make_bot`); ``None`` for a built-in bot, an unknown
    one or one registered from a script."""
    factory = _OTHERS.get(name)
    module = getattr(factory, "__module__", None) if name not in _BUILT_IN else None
    return module if isinstance(module, str) and module != "__main__" else None


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by name (a level of :data:`BOT_LEVELS`, ``"random"``, ``"rule"``, ``"search"``,
    the arena's ``"reference"``, ``"neural"`` or a registered name) with its options (e.g.
    ``seed``; ``weights`` for the neural bot, after ``import baofen.env.neural``)."""
    if _is_bot_level(name):
        return _SEATED[name](**options)
    if name in _OTHERS:
        bot: Bot = _OTHERS[name](**options)
        return bot
    if name in _PLUG_INS:
        raise ValueError(_PLUG_INS[name])
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")


def parse_spec(text: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A bot spec as the arena writes it, ``"search:iterations=64"``: the bot's name and its
    options, each value an int, a float or else a string; :class:`ValueError` names what is
    malformed."""
    name, *parts = text.strip().split(":")
    if not name:
        raise ValueError(f"bad bot spec {text!r}: expected name[:key=value...]")
    options = []
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key:
            raise ValueError(f"bad bot option {part!r} in {text!r}: expected key=value")
        options.append((key, _number(raw)))
    return name, tuple(options)


def _number(raw: str) -> Any:
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def _is_bot_level(name: str) -> TypeGuard[BotLevel]:
    """True when ``name`` may be seated at a table."""
    return name in _SEATED
