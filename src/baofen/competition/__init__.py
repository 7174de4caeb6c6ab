"""比赛 — competition among players and computer players on the same deals.

- :mod:`baofen.competition.matchpoints`: duplicate scoring (复式): each result compared with every
  other result on the same deal in the same seat.
- :mod:`baofen.competition.daily`: an event's deals from a secret and the event's key (HMAC),
  the entrant's seat and the computer players' seeds.

Pure and deterministic, like the engine: the server's daily challenge and tournaments and the
command line's local tournaments score with the same functions.
"""

from .daily import EventDeal, challenge_day, daily_key, event_deals, week_start
from .matchpoints import Score, matchpoints, mean_percentage

__all__ = [
    "EventDeal", "Score", "challenge_day", "daily_key", "event_deals", "matchpoints",
    "mean_percentage", "week_start",
]
