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

VERSION = 3
"""The review's version (3: a category only where its threshold is below the loss's lower bound;
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

Reason = Literal["", "loss", "wasted_winner"]
"""Why a move is flagged (empty: it is not)."""

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
    reason: Reason
    """Why it is flagged: ``"loss"`` or ``"wasted_winner"`` (:func:`thriftier`); empty if not."""
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


@dataclass
class SeatSummary:
    """One seat's totals over its reviewed moves."""

    seat: int
    moves: int = 0
    choices: int = 0
    """Moves where the seat had a choice; ``matched``: of them, those as good as the best."""
    matched: int = 0
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
    flagged move's loss counted (an unflagged one is as good as the best: 100)."""
    scores = [move_accuracy(variant, m.loss if m.flagged else 0.0)
              for m in moves if m.candidates > 1]
    return round(sum(scores) / len(scores), 1) if scores else 100.0
