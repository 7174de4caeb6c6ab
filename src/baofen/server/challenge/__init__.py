"""每日复式挑战, the daily duplicate challenge against the computer, on the server.

- :mod:`.days`: the challenge's day by the server's clock and time zone, and its deals;
- :mod:`.results`: each day's scores and standings, ranked once and kept while unchanged;
- :mod:`.service`: entering, playing the next deal (a table of the lobby's, with computer
  players), and what an entrant may see of each deal.

The routes are :mod:`baofen.server.routes.challenge`; the scoring rules docs/competition.md.
"""
