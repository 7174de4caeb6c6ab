"""Finding puzzles (残局练习) in reviewed hands: an "only move" — the best option beats every
other by a clear margin, confirmed — in a position that is not trivial.

A decision of a finished hand is a *candidate* when its screen (the review's first stage
alone, :func:`baofen.review.hand.screen_action`: the confirm stage is the verifying review's
work here) puts its best option above every other by at least the game's inaccuracy threshold
(:data:`~baofen.review.THRESHOLDS`), and the position is not trivial: the hint (提示, the rule
bot) picks another option, or at least :data:`ALIKE` options were compared (several plays that
look alike). A candidate is *kept* only when an independent review — other worlds (another
seed), :data:`VERIFY_FACTOR` times the budget — confirms it: the runner-up, reviewed as if it
were the move made, loses against the same best option by a one-sided 95% lower bound of at
least :data:`SAFETY` times the inaccuracy threshold. The best therefore beats the strongest
alternative by a confirmed margin, and every weaker option by more on the screen.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ..actions import Bid, Declare, Play
from ..cards import parse_cards
from ..hand import Hand
from ..review import THRESHOLDS, MoveReview, Reason, decisions
from ..review.hand import screen_action
from ..review.judge import Judge
from .themes import themes

ALIKE = 4
"""Options compared from which a position is not trivial even when the hint finds the best."""

SCREEN_WORLDS = 12
"""Worlds of the screen that finds candidates (each decision of a hand)."""

VERIFY_FACTOR = 3
"""The verifying review's budget, as a multiple of the screen's worlds."""

SAFETY = 1.5
"""The verifying review's lower bound must reach this many times the inaccuracy threshold: a
margin confirmed only just over the threshold is lost by a third review one time in six
(bench.puzzles.survival), one confirmed 1.5 times over it one time in twenty at most."""

START_RATING = 1500.0


@dataclass
class Puzzle:
    """A kept puzzle: the hand (its record, kept on the server), the decision and its answer."""

    id: str
    game: str
    record: dict[str, Any]
    """The whole hand's record (every seat's cards): never sent to a solver."""
    action: int
    """Index of the decision among the hand's actions: the position is the hand before it."""
    seat: int
    kind: str
    """``bid``, ``declare`` (trump and bury) or ``play``."""
    best: str
    hint: str
    margin: float
    """The best's confirmed gain over the runner-up (the game's unit), and its lower bound."""
    margin_low: float
    options: list[dict[str, Any]] = field(default_factory=list)
    """Every option compared and its value on the screen's common worlds, best first: each
    at least the inaccuracy threshold below the best (:func:`candidate`)."""
    themes: list[str] = field(default_factory=list)
    source: str = ""
    """Where the hand came from: ``arena:<level>`` or ``player:<id>`` (with consent)."""
    reason: dict[str, Any] | None = None
    """Why the best beats the runner-up: the reason of the verifying review, which judged the
    runner-up as the move made (:class:`~baofen.review.moves.Reason` as JSON)."""
    rating: float = START_RATING

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """A puzzle from :meth:`to_dict`'s data."""
        return cls(**data)


def puzzle_id(record: dict[str, Any], action: int) -> str:
    """A stable id of a decision of a hand (the same hand and action: the same puzzle)."""
    text = repr((record.get("rules"), record.get("seed"), record.get("first"), action))
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def nontrivial(move: MoveReview) -> bool:
    """True when the hint misses the best, or :data:`ALIKE` options were compared."""
    return move.hint != move.best or len(move.options) >= ALIKE


def candidate(variant: str, move: MoveReview) -> bool:
    """True when the screen's best beats every other option by the inaccuracy threshold in a
    position that is not trivial."""
    if len(move.options) < 2 or not nontrivial(move):
        return False
    first, second = move.options[0], move.options[1]
    return (first.move == move.best
            and first.value - second.value >= THRESHOLDS[variant]["inaccuracy"])


def action_of(kind: str, text: str) -> Any:
    """The action a review's option text names (:func:`baofen.review.judge._text`'s form)."""
    if kind == "play":
        return Play.of(tuple(parse_cards(text)))
    if kind == "bid":
        return Bid(None if text == "pass" else int(text))
    trump, _, bury = text.partition(":")
    return Declare(trump.strip(), tuple(parse_cards(bury.strip())))


def verify(hand: Hand, move: MoveReview, worlds: int, seed: int,
           safety: float = SAFETY) -> MoveReview | None:
    """The runner-up reviewed as the move made, on other worlds and ``worlds`` a stage: the
    review when it confirms the same best by ``safety`` times the inaccuracy threshold (a
    puzzle kept: :data:`SAFETY`; a puzzle that survives a later review: 1, the runner-up in a
    category), else ``None``."""
    runner = move.options[1].move
    seat = move.seat
    before = hand.redeal(move.action)
    obs = before.observation(seat)
    judge = Judge(hand.rules.variant, random.Random(f"puzzle:{seed}:{move.action}"), worlds, 3)
    check = judge.review(obs, action_of(move.kind, runner), move.action,
                         len(before.tricks) + 1)
    # A runner-up flagged only as a sure winner wasted (not by its loss) confirms no margin.
    wasted = check.reason is None or check.reason.kind == "wasted_winner"
    if check.best != move.best or wasted or \
            check.loss_low < safety * THRESHOLDS[hand.rules.variant]["inaccuracy"]:
        return None
    return check


def find(hand: Hand, source: str, worlds: int = SCREEN_WORLDS, seed: int = 0,
         seats: tuple[int, ...] = (0, 1, 2, 3)) -> list[Puzzle]:
    """The puzzles of the finished ``hand``: each decision of ``seats`` screened, each
    candidate verified (:func:`verify`) before it is kept."""
    variant = hand.rules.variant
    record = hand.to_record()
    out = []
    for index in decisions(hand, seats):
        move = screen_action(hand, index, worlds, 3, seed)
        if not candidate(variant, move):
            continue
        check = verify(hand, move, VERIFY_FACTOR * worlds, seed + 1)
        if check is None:
            continue
        obs = hand.redeal(index).observation(move.seat)
        out.append(Puzzle(
            id=puzzle_id(record, index), game=variant, record=record, action=index,
            seat=move.seat, kind=move.kind, best=move.best, hint=move.hint,
            margin=check.loss, margin_low=check.loss_low,
            options=[{"move": o.move, "value": o.value} for o in move.options],
            themes=themes(obs, move), source=source,
            reason=_reason_data(check.reason),
        ))
    return out


def _reason_data(reason: Reason | None) -> dict[str, Any] | None:
    """A review's reason as the JSON a puzzle keeps (the review's own form: kind and facts)."""
    return None if reason is None else {"kind": reason.kind, "facts": reason.facts}


def _option(kind: str, text: str) -> Any:
    """An option in the review's forms (a play as its cards) from its text."""
    action = action_of(kind, text)
    return action.cards if isinstance(action, Play) else action


def explain(puzzle: Puzzle, seed: int = 0) -> dict[str, Any] | None:
    """Why the puzzle's best move beats its runner-up, drawn from fresh play-outs as a
    review's reason is: for puzzles kept before reasons were kept (``reason`` None)."""
    if len(puzzle.options) < 2:
        return None
    hand = Hand.from_record(puzzle.record)
    before = hand.redeal(puzzle.action)
    obs = before.observation(puzzle.seat)
    judge = Judge(before.rules.variant, random.Random(f"explain:{seed}:{puzzle.id}"), 1, 1)
    runner = puzzle.options[1]["move"]
    trick = len(before.tricks) + 1 if puzzle.kind == "play" else 0
    return _reason_data(judge.explain(obs, puzzle.kind,  # type: ignore[arg-type]
                                      _option(puzzle.kind, runner),
                                      _option(puzzle.kind, puzzle.best), trick))


def player_puzzles(record: dict[str, Any], player: int, seat: int, consent: bool,
                   worlds: int = SCREEN_WORLDS, seed: int = 0) -> list[Puzzle]:
    """The puzzles of a player's finished hand (its record), from the decisions of the seat the
    player held: only with the player's ``consent`` (a hand is its players' own), else
    ``PermissionError`` and nothing is searched."""
    if not consent:
        raise PermissionError(f"player {player} has not agreed to puzzles from their hands")
    hand = Hand.from_record(record)
    if hand.phase != "done":
        raise ValueError("only a finished hand is searched for puzzles")
    return find(hand, f"player:{player}", worlds, seed, seats=(seat,))
