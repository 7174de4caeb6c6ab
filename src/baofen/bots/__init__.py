"""Computer players. Every bot decides from a :class:`~baofen.Observation` only.

``make_bot(name, **options)`` builds one: a level players pick (``"easy"``, ``"normal"``,
``"hard"``, ``"master"``), a library bot (``"random"``, ``"rule"``, ``"search"``), the arena's
perfect-information ``"reference"`` (never seated at a table), or the learned ``"neural"`` player
(with the ``research`` extra; it registers itself when :mod:`baofen.env.neural` is imported).
"""

from ..setting import BOT_LEVELS, BotLevel
from .base import Bot, bot_module, bot_names, make_bot, parse_spec, register_bot
from .reference_bot import DealSeer

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
