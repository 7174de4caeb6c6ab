"""A puzzle's themes, read from its position and its answer.

========  ==================================================================================
theme     when
========  ==================================================================================
叫分      a bid
扣底      the trump and bury
抓分      the answer takes the trick, and the trick holds points (the seat's side gains them)
保分      a defender's answer keeps points from the declarer (gives fewer points than another)
毙牌      the answer trumps a trick led in a plain suit
垫牌      the answer follows a trick it does not win with a card of another suit (a discard)
甩牌      the answer leads several units at once (a throw)
末轮抠底  the answer is certainly in one of the last three tricks (the seat holds at most two
          cards after it), where the kitty's points go to whoever wins the last trick
记牌      the seat must remember what was played: half the tricks are done
========  ==================================================================================
"""

from __future__ import annotations

from typing import Any

from ..cards import POINTS, parse_cards
from ..observation import Observation
from ..order import TRUMP

THEMES = ("叫分", "扣底", "抓分", "保分", "毙牌", "垫牌", "甩牌", "末轮抠底", "记牌")
"""Every theme, in the order they are shown."""

LAST_TRICKS = 3
"""末轮抠底 is a theme when the seat holds fewer cards than this after its answer: at most two
tricks follow, so the answer is one of the last three (earlier it cannot be told: six cards may
be three pairs or six singles)."""


def themes(obs: Observation, move: Any) -> list[str]:
    """The themes of the position ``obs`` whose answer is ``move.best`` (a review's move)."""
    if move.kind == "bid":
        return ["叫分"]
    if move.kind == "declare":
        return ["扣底"]
    found: list[str] = []
    cards = tuple(parse_cards(move.best))
    judge, seat = obs.judge, obs.seat
    assert judge is not None and seat is not None
    group = judge.order.group
    before = [played for _, played in obs.current_trick]
    if before:
        wins = judge.winner([*before, cards]) == len(before)
        trick_points = sum(_points_of(p) for p in before)
        if wins and trick_points + _points_of(cards):
            found.append("抓分")
        led = group[before[0][0]]
        if wins and led != TRUMP and all(group[c] == TRUMP for c in cards):
            found.append("毙牌")
        if not wins and any(group[c] != led for c in cards):
            found.append("垫牌")
        defending = obs.declarer is not None and seat != obs.declarer
        others = [_points_of(tuple(parse_cards(o.move))) for o in move.options]
        if defending and not wins and _points_of(cards) < max(others):
            found.append("保分")
    elif judge.shape(cards).is_throw:
        found.append("甩牌")
    if obs.hand_sizes[seat] - len(cards) < LAST_TRICKS:
        found.append("末轮抠底")
    played = sum(len(t.cards_of(seat) or ()) for t in obs.tricks)
    if played and played >= obs.hand_sizes[seat]:  # half the seat's cards are out
        found.append("记牌")
    return found


def _points_of(cards: tuple[int, ...]) -> int:
    return sum(POINTS[c] for c in cards)
