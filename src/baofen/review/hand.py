"""The review of a finished hand: which decisions are reviewed, each one's review on worlds of
its own seed (so that it does not depend on which others are reviewed, or in which worker
process), and the hand's review assembled from them (see :mod:`baofen.review`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from typing import Any

from ..actions import Bid, Declare, Play
from ..hand import Hand
from .judge import Judge
from .moves import (
    DEFAULT_CANDIDATES,
    DEFAULT_WORLDS,
    SCALES,
    THRESHOLDS,
    UNITS,
    HandReview,
    MoveReview,
    SeatSummary,
    accuracy,
)


def decisions(hand: Hand, seats: Iterable[int] | None = None) -> list[int]:
    """Indices of the reviewed decisions of ``seats`` (all when ``None``): every play, the
    trump and bury, and every bid where the seat had a choice."""
    reviewed = set(range(4) if seats is None else seats)
    if not reviewed <= set(range(4)):
        raise ValueError("seats are numbered 0–3")
    out = []
    replay = hand.redeal()  # each action as the hand stood before it
    for index, (seat, action) in enumerate(hand.actions):
        if seat in reviewed and (isinstance(action, Declare | Play) or (
                isinstance(action, Bid) and len(replay.observation(seat).legal_bids()) > 1)):
            out.append(index)
        replay.apply(seat, action)
    return out


def review_hand(hand: Hand, seats: Iterable[int] | None = None, worlds: int = DEFAULT_WORLDS,
                candidates: int = DEFAULT_CANDIDATES, seed: int = 0,
                on_move: Callable[[int, int], None] | None = None,
                actions: Iterable[int] | None = None) -> HandReview:
    """Review the decisions of ``seats`` (all when ``None``; or only the action indices
    ``actions``) in the finished ``hand``: ``worlds`` sampled worlds a stage, ``candidates`` of
    the rule bot's plays beside the move made and the hint's. ``on_move(done, total)`` reports
    progress. Deterministic under ``seed``."""
    _check(hand, worlds, candidates)
    chosen = decisions(hand, seats)
    if actions is not None:
        wanted = set(actions)
        chosen = [i for i in chosen if i in wanted]
    moves = []
    for done, index in enumerate(chosen, 1):
        moves.append(review_action(hand, index, worlds, candidates, seed))
        if on_move:
            on_move(done, len(chosen))
    reviewed = sorted(set(range(4) if seats is None else seats))
    return assemble(hand.rules.variant, worlds, moves, reviewed)


def assemble(variant: str, worlds: int, moves: Sequence[MoveReview],
             seats: Iterable[int]) -> HandReview:
    """The hand's review from its reviewed moves, with a summary for each of ``seats``."""
    review = HandReview(variant, UNITS[variant], dict(THRESHOLDS[variant]), worlds,
                        SCALES[variant])
    review.moves = sorted(moves, key=lambda m: m.action)
    for seat in seats:
        own = [m for m in review.moves if m.seat == seat]
        choices = [m for m in own if m.candidates > 1]
        review.seats.append(SeatSummary(
            seat=seat, moves=len(own), choices=len(choices),
            matched=sum(1 for m in choices if not m.flagged),
            inaccuracies=sum(m.category == "inaccuracy" for m in own),
            mistakes=sum(m.category == "mistake" for m in own),
            blunders=sum(m.category == "blunder" for m in own),
            accuracy=accuracy(variant, own),
        ))
    return review


def _check(hand: Hand, worlds: int, candidates: int) -> None:
    if hand.phase != "done":
        raise ValueError("only a finished hand can be reviewed")
    if worlds < 1 or candidates < 1:
        raise ValueError("worlds and candidates must be at least 1")


def review_action(hand: Hand, index: int, worlds: int = DEFAULT_WORLDS,
                  candidates: int = DEFAULT_CANDIDATES, seed: int = 0) -> MoveReview:
    """The review of action ``index`` of the finished ``hand`` (a bid, the trump and bury or a
    play), on worlds drawn from the seed ``(seed, index)``; the same values on either engine."""
    seat, action = hand.actions[index]
    before = hand.redeal(index)
    judge = Judge(hand.rules.variant, random.Random(f"review:{seed}:{index}"), worlds, candidates)
    return judge.review(before.observation(seat), action, index, len(before.tricks) + 1)


def screen_action(hand: Hand, index: int, worlds: int = DEFAULT_WORLDS,
                  candidates: int = DEFAULT_CANDIDATES, seed: int = 0) -> MoveReview:
    """The first stage of :func:`review_action` alone, on the same worlds: every option's
    value and the best found there (:meth:`~baofen.review.judge.Judge.screen`: no category,
    no reason)."""
    seat, action = hand.actions[index]
    before = hand.redeal(index)
    judge = Judge(hand.rules.variant, random.Random(f"review:{seed}:{index}"), worlds, candidates)
    return judge.screen(before.observation(seat), action, index, len(before.tricks) + 1)


def review_record(record: dict[str, Any], actions: list[int], worlds: int, candidates: int,
                  seed: int = 0) -> list[dict[str, Any]]:
    """:func:`review_action` of ``actions`` of a hand record, as JSON-ready data (for a worker
    process)."""
    hand = Hand.from_record(record)
    _check(hand, worlds, candidates)
    return [asdict(review_action(hand, i, worlds, candidates, seed)) for i in actions]


def review_of_moves(record: dict[str, Any], worlds: int,
                    moves: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The whole review, JSON-ready, from the moves :func:`review_record` gave (any order)."""
    variant = Hand.from_record(record).rules.variant
    reviewed = [MoveReview.from_dict(m) for m in moves]
    return assemble(variant, worlds, reviewed, range(4)).to_dict()
