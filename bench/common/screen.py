"""The decision-level screen's positions and values (bench/screens/search_regret.py,
bench/screens/evaluator_gate.py): play decisions drawn from rule-bot hands, and what a play is worth
there on the *true* deal with rule bots playing on (the perfect-information label).

:func:`positions` draws, from hands of four rule bots dealt from seeds ``seed * 100_003 + i``,
about one play decision in five that has a choice (the rule bot offers two candidates or more);
with ``bid_margin`` the hands are bid by the rule bot with that margin (the search levels' bold
bids with :data:`~baofen.bots.search.bot.BOLD_MARGINS`), and played as before.
:func:`true_values` plays each given play out on the true deal, native rule players in every
seat where the native core runs (the same choices as the Python rule bot, which plays them
elsewhere); a play's value is the deciding seat's result (包分 score points, 包红五 levels).
:func:`planted` makes the hands of the 复盘's planted-blunder checks (tests/test_analyze.py,
bench/review/review_quality.py, bench/review/review_blunders.py): a rule-bot hand with one play
replaced.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from typing import TypeVar

from baofen.actions import Play
from baofen.bots.engine import current
from baofen.bots.rule.bot import RuleBot
from baofen.cards import POINTS, Card
from baofen.hand import Hand
from baofen.observation import Observation
from baofen.ruleset import RuleSet

__all__ = ["PHASES", "Plant", "groups", "interval", "phase_of", "planted", "points_let_go",
           "positions", "role_of", "true_values"]

Row = TypeVar("Row")

PHASES = ((1, 8), (9, 16), (17, 25))
"""Trick ranges the screen reports apart (value of information falls as a hand goes on)."""


def positions(variant: str, count: int, seed: int, bid_margin: float = 0.0
              ) -> list[tuple[Hand, int]]:
    """``count`` play decisions with a choice, from rule-bot hands of ``variant`` (bid with
    ``bid_margin``)."""
    rules = RuleSet.baofen() if variant == "baofen" else RuleSet.hongwu()
    rng = random.Random(seed)
    bot = RuleBot(bid_margin=bid_margin)
    found: list[tuple[Hand, int]] = []
    deal = 0
    while len(found) < count:
        hand = Hand(rules, seed=seed * 100_003 + deal)
        deal += 1
        while hand.phase != "done" and len(found) < count:
            seat = hand.to_act
            assert seat is not None
            obs = hand.observation(seat)
            if (hand.phase == "playing" and rng.random() < 0.2
                    and len(bot.play_candidates(obs, 2)) > 1):
                found.append((hand.copy(), seat))
            hand.apply(seat, bot.act(obs))
    return found


Plant = Callable[[Observation, Play], Play | None]
"""A planted blunder: for a seat's view and the rule bot's play there, another play, or ``None``
to keep the rule bot's."""


def planted(seed: int, plant: Plant, variant: str = "baofen") -> tuple[Hand, int, int] | None:
    """The hand of ``seed`` played out by rule bots in every seat, the first play that ``plant``
    replaces replaced: the finished hand, that play's index among its actions and its seat
    (``None`` where ``plant`` replaced none)."""
    hand = Hand(RuleSet.create(variant=variant), seed=seed)
    bot = RuleBot()
    blunder: tuple[int, int] | None = None
    for seat in hand.turns():
        obs = hand.observation(seat)
        action = bot.act(obs)
        if blunder is None and isinstance(action, Play):
            replaced = plant(obs, action)
            if replaced is not None:
                action, blunder = replaced, (len(hand.actions), seat)
        hand.apply(seat, action)
    return None if blunder is None else (hand, *blunder)


def points_let_go(obs: Observation, action: Play) -> Play | None:
    """A planted blunder: the last seat to play on a trick worth 20 points or more that an
    opponent is winning, where the rule bot would take it, lets it go (the rule bot's best
    candidate that does not win)."""
    trick = obs.current_trick
    if len(trick) != 3 or obs.judge is None or obs.declarer is None:
        return None
    judge = obs.judge
    points = sum(POINTS[c] for _, cards in trick for c in cards)
    before = [cards for _, cards in trick]
    opponent = obs.declarer in (obs.seat, trick[judge.winner(before)][0])
    if not (opponent and points >= 20 and judge.winner([*before, action.cards]) == 3):
        return None
    losing = [p for p in RuleBot().play_candidates(obs) if judge.winner([*before, p]) != 3]
    return Play.of(losing[0]) if losing else None


def true_values(hand: Hand, seat: int, plays: Sequence[Sequence[Card]]) -> list[float]:
    """The deciding ``seat``'s result of each of ``plays`` played on ``hand``'s true deal and
    on to the end by rule bots."""
    row = current().play_out(hand.rules, [hand], [Play.of(tuple(cards)) for cards in plays])[0]
    return [float(result.deltas[seat]) for result in row]


def phase_of(hand: Hand) -> str:
    """The trick range (:data:`PHASES`) of ``hand``'s current trick, as ``"tricks 1-8"``."""
    trick = len(hand.tricks) + 1
    for low, high in PHASES:
        if low <= trick <= high:
            return f"tricks {low}-{high}"
    return f"trick {trick}"


def role_of(hand: Hand, seat: int) -> str:
    """``"declarer"`` or ``"defender"``: ``seat``'s side in ``hand``."""
    return "declarer" if seat == hand.declarer else "defender"


def groups(rows: Sequence[Row], role: Callable[[Row], str], phase: Callable[[Row], str]
           ) -> dict[str, list[Row]]:
    """The screen's groups of ``rows``: all, by role (:func:`role_of`) and by trick range
    (:func:`phase_of`), in the order its tables print them."""
    out: dict[str, list[Row]] = {"all": list(rows)}
    for side in ("declarer", "defender"):
        out[side] = [r for r in rows if role(r) == side]
    for low, high in PHASES:
        name = f"tricks {low}-{high}"
        out[name] = [r for r in rows if phase(r) == name]
    return out


def interval(values: Sequence[float], digits: int = 3) -> str:
    """Mean and 95% interval (normal), with ``digits`` decimals."""
    if len(values) < 2:
        return "—"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:+.{digits}f} [{mean - half:+.{digits}f}, {mean + half:+.{digits}f}]"
