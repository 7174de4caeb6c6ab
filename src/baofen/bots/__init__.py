"""Computer players. Every bot decides from a :class:`~baofen.Observation` only.

``make_bot(name, **options)`` builds one: a level players pick (``"easy"``, ``"normal"``,
``"hard"``, ``"master"``), a library bot (``"random"``, ``"rule"``, ``"search"``), the arena's
perfect-information ``"reference"`` (never seated at a table), or the learned ``"neural"`` player
(with the ``research`` extra; it registers itself when :mod:`baofen.env.neural` is imported).

The package by kind: the players' registry here (:mod:`.base`, the levels :mod:`.levels`, the
random and reference players) and the engine the bots play with (:mod:`.engine`, the native
players :mod:`.native_players`); the rule bot in :mod:`baofen.bots.rule`, the search bot in
:mod:`baofen.bots.search`, the learned bidder and evaluator in :mod:`baofen.bots.learned`.
"""

from ..setting import BOT_LEVELS, BotLevel
from . import _moved
from .base import Bot, bot_module, bot_names, make_bot, parse_spec, register_bot
from .reference_bot import DealSeer

_moved.install()

__all__ = [
    "BOT_LEVELS",
    "Bot",
    "BotLevel",
    "DealSeer",
    "bot_module",
    "bot_names",
    "make_bot",
    "parse_spec",
    "register_bot",
]
