"""复盘 — the post-game review: the computer evaluates every play of a finished hand.

For each play of the reviewed seats, the position is taken as that seat saw it (its
:class:`~baofen.Observation`, never the other hands), the rule bot's best candidate plays and the
move actually made are each played out to the end in the same sampled worlds (likelihood-weighted
as the search bot's, :meth:`~baofen.bots.determinize.Determinizer.weighted_world`), with the rule
bot in all four seats, and their mean results for the seat are compared in the hand's own unit:
包分 points (the declarer's points against the target, signed for the seat's side, which decides
the score), 包红五 levels (the seat's result). The expected loss of a move is the best
candidate's mean minus the move's; a loss over the threshold marks a mistake. Each seat gets a
summary: moves reviewed, moves matching the best found, total expected loss, mistakes.

Bids and the kitty are not reviewed (plays only). The review reads a finished hand only, and each
seat's moves are judged from that seat's view, so it never reveals more than the hand's record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from itertools import islice
from typing import Any

from .actions import Play
from .bots.determinize import Determinizer, weighted_means
from .bots.rule_bot import RuleBot
from .bots.search_bot import SearchBot
from .cards import Card, format_cards
from .hand import Hand

DEFAULT_WORLDS = 24
"""Sampled worlds each move is evaluated on, by default."""

DEFAULT_CANDIDATES = 8
"""Candidate plays (the rule bot's best) evaluated beside the move made, by default."""

THRESHOLDS = {"baofen": 5.0, "hongwu": 1.0}
"""Expected loss over which a move is flagged as a mistake, by game (points; levels)."""

UNITS = {"baofen": "points", "hongwu": "levels"}
"""The unit of a hand's result, by game."""


@dataclass(frozen=True)
class MoveReview:
    """The review of one play: the move made, the best move found and the expected loss."""

    action: int
    """Index of the play among the hand's actions."""
    trick: int
    """Number of the trick (from 1)."""
    seat: int
    made: str
    best: str
    value_made: float
    value_best: float
    loss: float
    mistake: bool
    candidates: int
    """Moves compared (the candidates and the move made)."""


@dataclass
class SeatSummary:
    """One seat's totals over its reviewed moves."""

    seat: int
    moves: int = 0
    matched: int = 0
    total_loss: float = 0.0
    mistakes: int = 0


@dataclass
class HandReview:
    """The review of a hand: its moves in order and a summary per reviewed seat."""

    variant: str
    unit: str
    threshold: float
    worlds: int
    moves: list[MoveReview] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data."""
        return asdict(self)


def review_hand(
    hand: Hand,
    seats: Iterable[int] | None = None,
    worlds: int = DEFAULT_WORLDS,
    candidates: int = DEFAULT_CANDIDATES,
    threshold: float | None = None,
    seed: int = 0,
    on_move: Callable[[int, int], None] | None = None,
) -> HandReview:
    """Review the plays of ``seats`` (all when ``None``) in the finished ``hand``.

    ``worlds`` sampled worlds per move, ``candidates`` of the rule bot's plays beside the move
    made; ``threshold`` (default by game, :data:`THRESHOLDS`) flags mistakes. ``on_move(done,
    total)`` reports progress. Deterministic under ``seed``.
    """
    if hand.phase != "done":
        raise ValueError("only a finished hand can be reviewed")
    if worlds < 1 or candidates < 1:
        raise ValueError("worlds and candidates must be at least 1")
    reviewed = set(range(4) if seats is None else seats)
    if not reviewed <= set(range(4)):
        raise ValueError("seats are numbered 0–3")
    variant = hand.rules.variant
    limit = THRESHOLDS[variant] if threshold is None else threshold
    review = HandReview(variant, UNITS[variant], limit, worlds)
    summaries = {seat: SeatSummary(seat) for seat in sorted(reviewed)}
    rng = random.Random(seed)
    rule = RuleBot()
    judge = SearchBot(objective="points" if variant == "baofen" else "score")
    replay = Hand(hand.rules, first=hand.first, hands=hand.deal[:4], kitty=hand.deal[4])
    actions = list(hand.actions)
    plays = [i for i, (seat, action) in enumerate(actions)
             if isinstance(action, Play) and seat in reviewed]
    for index, (seat, action) in enumerate(actions):
        if index in plays:
            assert isinstance(action, Play)
            obs = replay.observation(seat)
            options = rule.play_candidates(obs, candidates)
            made = tuple(action.cards)
            keys = [sorted(o) for o in options]
            if sorted(made) not in keys:
                options.append(made)
                keys.append(sorted(made))
            values = _values(judge, Determinizer(obs), seat, options, worlds, rng)
            best = max(range(len(options)), key=lambda i: (values[i], -i))
            chosen = keys.index(sorted(made))
            loss = max(0.0, values[best] - values[chosen])
            move = MoveReview(
                action=index, trick=len(replay.tricks) + 1, seat=seat,
                made=format_cards(made), best=format_cards(options[best]),
                value_made=round(values[chosen], 3), value_best=round(values[best], 3),
                loss=round(loss, 3), mistake=loss > limit, candidates=len(options),
            )
            review.moves.append(move)
            summary = summaries[seat]
            summary.moves += 1
            summary.matched += best == chosen or loss == 0.0
            summary.total_loss = round(summary.total_loss + loss, 3)
            summary.mistakes += move.mistake
            if on_move:
                on_move(len(review.moves), len(plays))
        replay.apply(seat, action)
    review.seats = list(summaries.values())
    return review


def _values(judge: SearchBot, sampler: Determinizer, seat: int,
            options: list[tuple[Card, ...]], worlds: int, rng: random.Random) -> list[float]:
    """Weighted mean result for ``seat`` of each option, over the same sampled worlds (the
    draws stop at the first world that cannot be drawn)."""
    draws = islice(iter(lambda: sampler.weighted_world(rng), None), worlds)
    means = weighted_means(draws, options, lambda world, option: judge.rollout(world, seat, option))
    if means is None:
        raise ValueError("no world consistent with the seat's view could be drawn")
    return means


def review_record(record: dict[str, Any], seat: int, worlds: int, candidates: int,
                  seed: int = 0) -> dict[str, Any]:
    """:func:`review_hand` of one seat of a hand record, as JSON-ready data (for a worker
    process)."""
    return review_hand(Hand.from_record(record), [seat], worlds, candidates, seed=seed).to_dict()


def merge_reviews(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One review of the hand from per-seat reviews (:func:`review_record`): moves in the
    hand's order, a summary per seat."""
    if not parts:
        raise ValueError("no reviews to merge")
    moves = sorted((m for part in parts for m in part["moves"]), key=lambda m: m["action"])
    seats = sorted((s for part in parts for s in part["seats"]), key=lambda s: s["seat"])
    return {**parts[0], "moves": moves, "seats": seats}
