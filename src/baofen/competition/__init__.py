"""比赛 — competition among players and computer players on the same deals.

- :mod:`baofen.competition.matchpoints`: duplicate scoring (复式): each result compared with every
  other result on the same deal in the same seat.

Pure and deterministic, like the engine: the server's daily challenge and tournaments and the
command line's local tournaments score with the same functions.
"""

from .matchpoints import Score, matchpoints, mean_percentage

__all__ = ["Score", "matchpoints", "mean_percentage"]
