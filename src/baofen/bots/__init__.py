"""Computer players. Every bot decides from a :class:`~baofen.Observation` only.

``make_bot(name, **options)`` builds one: ``"random"``, ``"rule"``, ``"search"`` or ``"neural"``
(the learned player, with the ``research`` extra).
"""

from .base import BOT_LEVELS, Bot, BotLevel, bot_names, make_bot, register_bot

__all__ = ["BOT_LEVELS", "Bot", "BotLevel", "bot_names", "make_bot", "register_bot"]
