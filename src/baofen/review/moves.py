"""The 复盘's verdicts: a reviewed move, a seat's summary, a hand's review, and the units,
thresholds and accuracy they are told in."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ..bots.search.bot import CLIP
from ..scoring import HandResult
from .confirm import Category

VERSION = 5
"""The review's version (5: every option compared in the confirm stage, a flag taken early on a
wider margin, a top trump that only ties the highest unseen counted a sure winner, a reason's
whole difference given as the move's loss; 4: a flagged move's reason as data, the end game
searched; 3: a category
only where its threshold is below the loss's lower bound;
2: categories, accuracy, paired intervals; 1 had a sum of losses). A review kept under another
version is made again."""

DEFAULT_WORLDS = 16
"""Sampled worlds of each stage (screen, confirm) per decision, by default."""

DEFAULT_CANDIDATES = 3
"""The rule bot's candidate plays evaluated beside the move made and the hint's, by default."""

HINT = "rule"
"""The player whose choice the table's hint (提示) suggests
(``baofen.server.table.assist.HINT_BOT``); bids are judged against its choice, and every
reviewed move names it."""

THRESHOLDS: dict[str, dict[str, float]] = {
    "baofen": {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 25.0},
    "hongwu": {"inaccuracy": 1.0, "mistake": 2.0, "blunder": 4.0},
}
"""The loss (包分 points, 包红五 levels) from which a move is in each category, by game."""

SCALES = {"baofen": 20.0, "hongwu": 2.0}
"""The loss at which a move's accuracy is 100/e ≈ 37%, by game (:func:`accuracy`)."""

UNITS = {"baofen": "points", "hongwu": "levels"}
"""The unit of a hand's result, by game."""

ReasonKind = Literal["card", "trick", "value", "wasted_winner", "bid", "declare"]
"""What a flagged move's reason tells (:mod:`baofen.review.reasons`): a kept card that wins a
later trick, a later trick that changes hands, only the value (no trick stands out), a sure
winner thrown on a lost trick, a bid's contract, the trump and bury."""


@dataclass(frozen=True)
class Reason:
    """Why a move is flagged, drawn from the play-outs of the move made and the better one on
    the same simulated deals: its ``kind`` and the facts of that kind (JSON values; the keys of
    each kind in :mod:`baofen.review.reasons`)."""

    kind: ReasonKind
    facts: dict[str, Any]

Kind = Literal["bid", "declare", "play"]


@dataclass(frozen=True)
class Option:
    """One option of a decision and its weighted mean value on the screen's common worlds."""

    move: str
    value: float


@dataclass(frozen=True)
class MoveReview:
    """The review of one decision: the move made, the best found, the loss and its category."""

    action: int
    """Index of the decision among the hand's actions."""
    trick: int
    """Number of the trick (from 1); 0 for a bid or the trump and bury (``kind``)."""
    seat: int
    kind: Kind
    made: str
    best: str
    """The best option found (for a bid: the hint's choice)."""
    hint: str
    """What the hint (提示, :data:`HINT`) suggests here."""
    value_made: float
    value_best: float
    loss: float
    """Expected loss against the best (confirm stage when it ran, else screen), with its
    one-sided 95% lower bound ``loss_low`` (paired over common worlds)."""
    loss_low: float
    """−1000 where it cannot be estimated (one world)."""
    category: Category
    reason: Reason | None
    """Why it is flagged (:mod:`baofen.review.reasons`); ``None`` when it is not."""
    candidates: int
    """Options compared (the candidates, the hint's choice and the move made); 1: no choice."""
    worlds: int
    """Worlds the loss was measured on."""
    options: list[Option] = field(default_factory=list)
    """Every option's value on the screen's common worlds, best first."""

    @property
    def flagged(self) -> bool:
        """True when the move is in a category."""
        return bool(self.category)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MoveReview:
        """A move from its JSON form (:meth:`HandReview.to_dict`)."""
        reason = data.get("reason")
        return cls(**{**data, "options": [Option(**o) for o in data["options"]],
                      "reason": Reason(**reason) if reason else None})


@dataclass
class SeatSummary:
    """One seat's totals over its reviewed moves."""

    seat: int
    moves: int = 0
    choices: int = 0
    """Moves where the seat had a choice; ``matched``: of them, those as good as the best."""
    matched: int = 0
    """Moves with a choice the review found as good as the best: not flagged (no option better
    by the inaccuracy threshold, told from noise)."""
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    accuracy: float = 100.0
    """:func:`accuracy` over the moves with a choice (%)."""


@dataclass
class HandReview:
    """The review of a hand: its moves in order and a summary per reviewed seat."""

    variant: str
    unit: str
    thresholds: dict[str, float]
    worlds: int
    scale: float = 0.0
    """The game's accuracy scale (:data:`SCALES`)."""
    hint: str = HINT
    version: int = VERSION
    moves: list[MoveReview] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data."""
        return asdict(self)


def seat_value(variant: str, result: HandResult, seat: int) -> float:
    """What a hand's result is worth to ``seat`` in the review's unit: 包红五 the seat's levels;
    包分 the declarer's points against the target signed for the seat's side (clipped at
    ±:data:`~baofen.bots.search.bot.CLIP`, as the search's), or the seat's pot stake when
    nobody bid."""
    if variant != "baofen" or result.target is None or result.declarer is None:
        return float(result.deltas[seat])
    sign = 1.0 if seat == result.declarer else -1.0
    return sign * max(-CLIP, min(CLIP, float(result.declarer_points - result.target)))


def move_accuracy(variant: str, loss: float) -> float:
    """A move's accuracy (%) for a counted ``loss``: 100·exp(−loss/scale)."""
    return 100.0 * math.exp(-max(0.0, loss) / SCALES[variant])


def accuracy(variant: str, moves: Iterable[MoveReview]) -> float:
    """A seat's accuracy (%): the mean :func:`move_accuracy` over its moves with a choice, a
    flagged move's loss counted, at least its category's threshold (a winner thrown away may
    cost little in the play-outs); an unflagged one is as good as the best: 100.
    Below 100 exactly when a move is flagged: shown to one decimal, a seat with a
    flagged move never shows 100 (it is floored below it)."""
    limits = THRESHOLDS[variant]
    scores = [move_accuracy(variant, max(m.loss, limits[m.category]) if m.category else 0.0)
              for m in moves if m.candidates > 1]
    if not scores:
        return 100.0
    mean = sum(scores) / len(scores)
    return min(round(mean, 1), 99.9) if mean < 100.0 else 100.0


def seat_swing(moves: Iterable[MoveReview]) -> float:
    """The most a seat's moves could change its value as the review measured them: the best
    value found at any of its moves less the worst value of a move it made. Each loss is
    measured from its own position, so where the other seats play as the play-outs do, a seat's
    flagged losses do not add up to more (within the worlds' noise) — unless a play-out charges
    a move with the seat's own later error. (Others' errors between the seat's moves can give
    value back, and the seat lose it again: then its losses may add up to more.)"""
    chosen = [m for m in moves if m.candidates > 1]
    if not chosen:
        return 0.0
    return max(m.value_best for m in chosen) - min(m.value_made for m in chosen)
