"""Ratings per game: OpenSkill's Weng-Lin Plackett-Luce model, one declarer against three
defenders (see docs/ratings.md for the method and the computer levels' calibration).

A rating is ``(mu, sigma)``: the estimated strength and its uncertainty. The rating shown
(``display``) is the conservative ``mu − 3·sigma`` (OpenSkill's *ordinal*), rounded to one
decimal: a new player starts at 25 ± 8.33, shown as 0.0.

Uneven sides: a hand is one declarer against three defenders, and summing the defenders'
strengths (OpenSkill's default team rating) would make every made contract a huge upset. So
each hand is rated as two one-player teams: the declarer against the defenders' *mean* strength.
The declarer's update uses the defenders' mean ``mu`` and root-mean-square ``sigma``; each
defender's update uses the same mean ``mu`` with their own ``sigma``, so a newcomer moves more
than a veteran. The declarer's side wins the hand when the contract is made.

Computer players and guests take part with fixed ratings and are never updated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
"""OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma

FIXED_SIGMA = 1.0
"""Uncertainty of a computer level's fixed rating (small: calibrated, not guessed)."""

Role = Literal["declarer", "defender"]
"""A level's role in the arena's make rate (:func:`calibrated_mu`)."""

GUEST = (DEFAULT_MU, DEFAULT_SIGMA)
"""A guest's fixed rating: a new player's."""

BOT_RATINGS: dict[str, dict[str, float]] = {
    "baofen": {"random": 11.7, "easy": 23.6, "normal": 25.0, "rule": 25.0, "hard": 26.1,
               "search": 26.1, "master": 26.5, "neural": 24.7},
    "hongwu": {"random": 10.9, "easy": 23.0, "normal": 25.0, "rule": 25.0, "hard": 27.3,
               "search": 27.3, "master": 28.4, "neural": 25.4},
}
"""Each computer level's fixed ``mu`` per game (sigma :data:`FIXED_SIGMA`), calibrated from the
arena's make rates (docs/ratings.md, docs/benchmarks.md) with :func:`level_mu`: ``normal``
(the rule bot) is the anchor at the default 25, and each other level sits where the model gives
the chances the arena measured, relative to the rule bot's own make rate on the same deals, in
both roles: its declarer against three rule-bot defenders, and a rule-bot declarer against it
and two rule-bot defenders. ``random`` is placed by the rule bot's make rate against it (0.99),
mirrored. ``master`` is placed head to head against ``hard`` (its make rate as declarer against
three 困难 defenders, relative to four 困难's own, from ``hard``'s mu: ``master_vs_hard``), in
包分 since the arena told them apart there (stops 44 and 45, 2,200 deals).
``rule`` and ``search`` are the library names of ``normal`` and ``hard``. ``neural``, the learned
player (a library bot, not a table level), is placed like ``easy`` and ``hard``: a rated hand
against it is predicted as the arena saw it play."""

ARENA_MAKE_RATES: dict[str, dict[str, tuple[float, float]]] = {
    "baofen": {"normal": (0.583, 0.583),
               "easy": (1585 / 2968, 1753 / 2968), "easy_defending": (5603 / 8904, 1753 / 2968),
               "hard": (473 / 751, 174 / 299), "hard_defending": (370 / 674, 174 / 299),
               "neural": (2185 / 4061, 1753 / 2968), "neural_defending": (5179 / 8840, 1753 / 2968),
               "rule_vs_random": (0.99, 0.583),
               "master_vs_hard": (608 / 1167, 578 / 1167)},
    "hongwu": {"normal": (0.503, 0.503),
               "easy": (1799 / 4000, 1952 / 4000), "easy_defending": (6752 / 12000, 1952 / 4000),
               "hard": (538 / 715, 200 / 400), "hard_defending": (432 / 885, 200 / 400),
               "neural": (2109 / 4000, 1952 / 4000),
               "neural_defending": (5826 / 12000, 1952 / 4000),
               "rule_vs_random": (0.99, 0.503), "master_vs_hard": (199 / 300, 178 / 300)},
}
"""The arena's make rates the fixed ratings come from: per level, its make rate as declarer and
the rule bots' make rate (the reference table of four rule bots) on the same deals; with
``_defending``, the make rate of the rule-bot declarers against the level and two rule-bot
defenders, and the same base. ``normal`` and ``rule_vs_random``: seed 7, 300 deals; ``easy``:
seeds 2826 and 2827, 2,000 deals each (its 2,968 and 4,000 contracts); ``hard``: the level as it
ships (bold bids; in 包红五 with its wide kitty), seeds 2826 and 2827, deals 0–199 of each
against the rule bot (its 751 and 715 contracts; 674 and 885 contracts of the rule bot against
it); ``master_vs_hard``: 大师 against three 困难 and the reference table of four 困难, seeds 2826
and 2827, 300 deals of 包红五 on the levels as they ship (300 contracts each; deals 0–149, stop
45) and 1,170 deals of 包分 (1,167 contracts each; deals 520–1109 and 510–1089, stops 44 and 45);
``neural``: the learned player as it ships, seeds 2826 and 2827, 2,000 deals each (包分: its
4,061 contracts, 8,840 of the rule bot against it; 包红五: 4,000 and 12,000). docs/ratings.md
gives the commands."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: strength ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def display(self) -> float:
        """The rating shown: ``mu − 3·sigma`` (OpenSkill's ordinal), rounded to one decimal."""
        return round(self.mu - 3 * self.sigma, 1)


NEW = Rating(DEFAULT_MU, DEFAULT_SIGMA)
"""A new account's rating."""


def bot_rating(variant: str, level: str | None) -> Rating:
    """The fixed rating of a computer level in a game (``normal``'s for an unknown level)."""
    mu = BOT_RATINGS.get(variant, BOT_RATINGS["baofen"]).get(level or "normal", DEFAULT_MU)
    return Rating(mu, FIXED_SIGMA)


def win_probability(declarer: Rating, defenders: Sequence[Rating]) -> float:
    """The model's chance that ``declarer`` makes the contract against ``defenders``."""
    side = _mean(defenders)
    chances = MODEL.predict_win([[_model(declarer)], [_model(side)]])
    return float(chances[0])


def calibrated_mu(make_rate: float, base_rate: float, base_mu: float = DEFAULT_MU,
                  role: Role = "declarer") -> float:
    """The fixed ``mu`` of a level from one role's make rate in the arena, against the make rate
    ``base_rate`` of players of ``base_mu`` among themselves on the same deals.

    As ``"declarer"``: the level's declarer makes ``make_rate`` of its contracts against three
    such defenders, and the model's chance of it winning against them (all with
    :data:`FIXED_SIGMA`) is the odds ratio of the two rates, ``σ(logit(make_rate) −
    logit(base_rate))`` (between equals the model says 0.5 where the arena says ``base_rate``).
    As ``"defender"``: such declarers make ``make_rate`` of their contracts against the level and
    two such defenders, and the model's chance of one of them winning against those three is that
    odds ratio. Found by bisection."""
    def logit(p: float) -> float:
        return math.log(p / (1 - p))

    target = 1 / (1 + math.exp(logit(base_rate) - logit(make_rate)))
    base = Rating(base_mu, FIXED_SIGMA)

    def short(mu: float) -> bool:  # the level is weaker than the target at ``mu``
        level = Rating(mu, FIXED_SIGMA)
        if role == "declarer":
            return win_probability(level, [base] * 3) < target
        return win_probability(base, [level, base, base]) > target

    low, high = base_mu - 100, base_mu + 100
    for _ in range(60):
        middle = (low + high) / 2
        if short(middle):
            low = middle
        else:
            high = middle
    return (low + high) / 2


def level_mu(declaring: tuple[float, float], defending: tuple[float, float],
             base_mu: float = DEFAULT_MU) -> float:
    """A level's fixed ``mu`` from both roles: the mean of :func:`calibrated_mu` as declarer
    (``declaring``: its make rate and the base rate) and as a defender (``defending``: the base
    declarers' make rate against it and the base rate). A rated hand compares the level in
    both roles, and a level can be stronger in one: a bolder bidder makes fewer of its contracts
    while it declares more, which the declarer's rate alone would read as weakness."""
    return (calibrated_mu(*declaring, base_mu=base_mu)
            + calibrated_mu(*defending, base_mu=base_mu, role="defender")) / 2


def update(
    declarer: Rating, defenders: Sequence[Rating], made: bool
) -> tuple[Rating, list[Rating]]:
    """The declarer's and each defender's new rating after a hand (see the module's docs)."""
    side = _mean(defenders)
    ranks = [0.0, 1.0] if made else [1.0, 0.0]
    (new_declarer,), _ = MODEL.rate([[_model(declarer)], [_model(side)]], ranks=ranks)
    updated = []
    for defender in defenders:
        _, (new,) = MODEL.rate(
            [[_model(declarer)], [_model(Rating(side.mu, defender.sigma))]], ranks=ranks
        )
        updated.append(Rating(defender.mu + (new.mu - side.mu), new.sigma))
    return Rating(new_declarer.mu, new_declarer.sigma), updated


def _mean(ratings: Sequence[Rating]) -> Rating:
    mu = sum(r.mu for r in ratings) / len(ratings)
    sigma = math.sqrt(sum(r.sigma**2 for r in ratings) / len(ratings))
    return Rating(mu, sigma)


def _model(rating: Rating) -> PlackettLuceRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)
