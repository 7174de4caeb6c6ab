"""The play-outs of the 复盘 one world at a time, on the native core: a world's line after an
option (who wins each later trick, and its points), and the end game searched for the seat.

**The end game** (残局, :data:`ENDGAME`): a play-out by the rule bot in every seat charges the
move reviewed with the seat's *own* later errors. Late in a hand that is no noise: in 包红五 the
last trick takes the kitty (保底, its points doubled against the declarer when a defender wins it
with trump), and the rule bot spends its top trump before the last trick. After a move that
kept the seat's winner, the play-out then throws it away a trick later, in every world alike; the
move is charged the whole swing of the kitty (18 levels with no spread), and so is the seat's
real error a trick later — the seat's losses then add up to twice what the hand can swing for it.
So once the seat holds :data:`ENDGAME` cards or fewer before its move, its later plays in each
world are searched
(every legal play, the other seats answering by the rule bot), and an option's value is the best
the seat can still make of it: a move is charged only what the seat cannot mend later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .. import _native
from .._native.batch import ACTION_PLAY as _PLAY
from .._native.batch import native_hand, result_of
from ..actions import Action, Bid, Declare, Play
from ..cards import POINTS
from ..hand import Hand
from ..observation import Observation
from ..ruleset import RuleSet
from .moves import seat_value

ENDGAME = 4
"""The seat's later plays are searched (see the module docstring) once it holds this many
cards or fewer before the move reviewed (at most 3! orders of its cards left, fewer where it
must follow)."""

@dataclass(frozen=True)
class Line:
    """One world played out after one option: the seat's value, and for every trick from the
    one the option is played to, whether the seat's side won it and its points."""

    value: float
    won: tuple[bool, ...]
    mine: tuple[bool, ...]
    """Whether the seat itself won each trick."""
    points: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]
    """The cards the seat played to each of those tricks."""
    kitty: int = 0
    """What the kitty did for the seat's side's points (包红五: it goes with the last trick)."""


def available() -> bool:
    """True where the native core is built (the lines and the end-game search need it)."""
    return _native.available()


def in_endgame(obs: Observation) -> bool:
    """True when the observing seat's later plays are searched (:data:`ENDGAME`)."""
    return obs.phase == "playing" and len(obs.hand) <= ENDGAME and available()


@cache
def _weights() -> Any:
    from ..bots.native_players import native_weights  # the native core only where built
    return native_weights()


def _native_of(world: Any) -> Any:
    if isinstance(world, Hand):
        return native_hand(world)
    return world.copy()


def _take(hand: Any, seat: int, action: Action) -> None:
    if isinstance(action, Bid):
        hand.bid(seat, action.value)
    elif isinstance(action, Declare):
        hand.declare(seat, action.trump, action.bury)
    elif isinstance(action, Play):
        hand.play(seat, [int(c) for c in action.cards])
    else:
        raise ValueError(f"not an action: {action!r}")


def _rule_step(hand: Any) -> None:
    from ..bots.native_players import _action
    kind, seat, value, cards = hand.rule_action(_weights())
    if kind == _PLAY:  # the common step, without making an Action of it
        hand.play(seat, cards)
    else:
        _take(hand, seat, _action((kind, seat, value, cards)))


def _result(rules: RuleSet, hand: Any) -> Any:
    return result_of(rules, hand.result())


def best_value(rules: RuleSet, hand: Any, seat: int, searched: bool) -> float:
    """The seat's value at the end of native ``hand`` (changed: played to the end): the rule
    bot in every seat, or, ``searched``, the seat's plays each the best of its legal plays."""
    while hand.to_act is not None:
        if searched and hand.to_act == seat:
            best = -float("inf")
            for cards in hand.legal_plays():
                branch = hand.copy()
                branch.play(seat, cards)
                best = max(best, best_value(rules, branch, seat, True))
            return best
        _rule_step(hand)
    return seat_value(rules.variant, _result(rules, hand), seat)


def values(rules: RuleSet, worlds: Sequence[Any], options: Sequence[Action], seat: int,
           ) -> list[list[float]]:
    """For each world (the seat to act) and option, the seat's value with its later plays
    searched (:func:`best_value`): ``out[w][o]``. The worlds are unchanged."""
    out = []
    for world in worlds:
        start = _native_of(world)
        row = []
        for option in options:
            hand = start.copy()
            _take(hand, seat, option)
            row.append(best_value(rules, hand, seat, True))
        out.append(row)
    return out


def line(rules: RuleSet, world: Any, option: Action, seat: int, searched: bool) -> Line:
    """World ``world`` (unchanged) played out after ``option``, the seat searched or not."""
    hand = _native_of(world)
    before = _plays(hand)
    _take(hand, seat, option)
    if searched:  # the searched value, and the line of the rule bot's own ordering of it
        value = best_value(rules, hand.copy(), seat, True)
    while hand.to_act is not None:
        if searched and hand.to_act == seat:
            hand.play(seat, _best_play(rules, hand, seat))
        else:
            _rule_step(hand)
    result = _result(rules, hand)
    if not searched:
        value = seat_value(rules.variant, result, seat)
    declarer = hand.declarer
    kitty = result.breakdown.get("kitty", 0) * (1 if seat == declarer else -1)
    plays = _plays(hand)
    first = len(before) // 4  # the trick the option is played to (plays of earlier tricks)
    won, mine, points, cards = [], [], [], []
    winners = hand.winners()
    for trick in range(first, len(winners)):
        four = plays[4 * trick: 4 * trick + 4]
        winner = winners[trick]
        won.append((winner == declarer) == (seat == declarer))
        mine.append(winner == seat)
        points.append(sum(POINTS[c] for _, c_list in four for c in c_list))
        cards.append(tuple(c for s, c_list in four if s == seat for c in c_list))
    return Line(value, tuple(won), tuple(mine), tuple(points), tuple(cards), kitty)


def _best_play(rules: RuleSet, hand: Any, seat: int) -> list[int]:
    best, chosen = -float("inf"), None
    cards: list[int]
    for cards in hand.legal_plays():
        branch = hand.copy()
        branch.play(seat, cards)
        value = best_value(rules, branch, seat, True)
        if value > best:
            best, chosen = value, cards
    assert chosen is not None
    return chosen


def _plays(hand: Any) -> list[tuple[int, list[int]]]:
    return [(seat, cards) for kind, seat, _, cards in hand.actions() if kind == _PLAY]
