"""Scoring one hand (rules.md §11): 包分 points and 包红五 levels.

Pure functions over what happened in the tricks; :class:`HandResult` is the outcome with its
breakdown, as shown on the result screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .cards import POINTS, card_of
from .ruleset import RuleSet
from .tricks import Trick

RED_FIVE = card_of("H", 5)

ResultKind = Literal["full_sweep", "half_sweep", "shutout", "no_bid"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """Outcome of one hand.

    ``declarer_points`` is D after §11.1 steps 1–2 (包分) or P of §11.2 (包红五). ``deltas`` are
    each seat's change this hand in the match's unit (包分 points, 包红五 levels); pot transfers
    are the match's business (:class:`baofen.Match`).
    """

    declarer: int | None
    target: int | None
    declarer_points: int
    made: bool
    kind: ResultKind | None
    score: int | None
    """包分 hand score S (None in 包红五 and for a hand without declarer)."""
    levels: int | None
    """包红五 levels L (None in 包分)."""
    deltas: tuple[int, int, int, int]
    breakdown: dict[str, int] = field(default_factory=dict)
    """Named parts of ``declarer_points``: captured, penalties, 王分 bonus, red fives, kitty."""


def _settle(declarer: int, per_defender: int, declarer_gain: int) -> tuple[int, int, int, int]:
    deltas = [-per_defender] * 4
    deltas[declarer] = declarer_gain
    return (deltas[0], deltas[1], deltas[2], deltas[3])


def penalty_adjustment(declarer: int, penalties: Sequence[int]) -> int:
    """Failed-throw penalties in declarer points: the declarer's own subtract, defenders' add."""
    return sum(p if seat != declarer else -p for seat, p in enumerate(penalties))


def score_baofen(
    rules: RuleSet,
    declarer: int,
    target: int,
    trump: str,
    tricks: Sequence[Trick],
    kitty: Sequence[int],
    penalties: Sequence[int],
) -> HandResult:
    """包分 §11.1."""
    trump_points = {card_of(trump, 5), card_of(trump, 10), card_of(trump, 13)}
    captured = wangfen = 0
    for trick in tricks:
        if trick.winner == declarer and trick.points:
            captured += trick.points
            for _, cards in trick.plays:
                for card in cards:
                    if card in trump_points:
                        wangfen += POINTS[card]
    kitty_points = sum(POINTS[c] for c in kitty)
    escaped = 200 - kitty_points - captured
    adjustment = penalty_adjustment(declarer, penalties)
    bonus = 0
    if wangfen == 2 * 25:
        bonus = rules.wangfen_all_bonus
    elif wangfen == 0:
        bonus = -rules.wangfen_none_penalty
    points = captured + adjustment + bonus
    kind: ResultKind | None = None
    if captured and not escaped:
        kind = "full_sweep" if not kitty_points else "half_sweep"
        score = rules.full_sweep_score if not kitty_points else rules.half_sweep_score
    elif not captured:
        kind, score = "shutout", rules.shutout_score
    else:
        score = points - target
    gain = score if rules.settlement == "per_defender" else 3 * score
    return HandResult(
        declarer=declarer,
        target=target,
        declarer_points=points,
        made=score >= 0,
        kind=kind,
        score=score,
        levels=None,
        deltas=_settle(declarer, score, gain),
        breakdown={
            "captured": captured,
            "wangfen": wangfen,
            "wangfen_adjustment": bonus,
            "penalties": adjustment,
            "kitty_points": kitty_points,
        },
    )


def levels_for(points: int, bid: int, points_per_level: int) -> int:
    """包红五 levels (级) of ``points`` against ``bid`` (§11.2 step 5)."""
    if points >= bid:
        return 1 + -(-(points - bid) // points_per_level)
    return -(1 + -(-(bid - points) // points_per_level))


def score_hongwu(
    rules: RuleSet,
    declarer: int,
    target: int,
    tricks: Sequence[Trick],
    kitty: Sequence[int],
    penalties: Sequence[int],
    last_won_with_trump: bool,
) -> HandResult:
    """包红五 §11.2; ``last_won_with_trump``: the last trick's winning play was trump."""
    captured = red_fives = 0
    for trick in tricks:
        declarer_won = trick.winner == declarer
        if declarer_won:
            captured += trick.points
        for seat, cards in trick.plays:
            if RED_FIVE in cards and (seat == declarer) != declarer_won:
                gain = rules.red5_capture_points * cards.count(RED_FIVE)
                red_fives += gain if declarer_won else -gain
    kitty_points = sum(POINTS[c] for c in kitty)
    if tricks[-1].winner == declarer:
        kitty_adjustment = kitty_points
    else:
        multiplier = (
            rules.kitty_multiplier_trump if last_won_with_trump else rules.kitty_multiplier_plain
        )
        kitty_adjustment = -kitty_points * multiplier
    adjustment = penalty_adjustment(declarer, penalties)
    points = captured + red_fives + kitty_adjustment + adjustment
    levels = levels_for(points, target, rules.points_per_level)
    return HandResult(
        declarer=declarer,
        target=target,
        declarer_points=points,
        made=levels > 0,
        kind=None,
        score=None,
        levels=levels,
        deltas=_settle(declarer, levels, 3 * levels),
        breakdown={
            "captured": captured,
            "red_fives": red_fives,
            "kitty_points": kitty_points,
            "kitty": kitty_adjustment,
            "penalties": adjustment,
        },
    )


def no_bid_result(rules: RuleSet, caller: int) -> HandResult:
    """包分 four passes (§12.2): the stakes (pot mode) or the direct penalty, as deltas."""
    if rules.no_bid_mode == "direct":
        deltas = _settle(caller, -rules.direct_penalty, -rules.direct_penalty)
    else:
        deltas = _settle(caller, rules.pot_other_stake, -rules.pot_caller_stake)
    return HandResult(
        declarer=None,
        target=None,
        declarer_points=0,
        made=False,
        kind="no_bid",
        score=None,
        levels=None,
        deltas=deltas,
    )
