"""The learned evaluator's go/no-go: on held-out play decisions, the true-deal
gain over the rule bot's choice of the evaluator's pick against 困难's (the ``hard`` level) on the
same positions. ``bench/screens/evaluator_gate.py`` runs it and prints :func:`table`.

Positions are drawn as search_regret draws them (:func:`bench.common.screen.positions`,
rule-bot hands from seeds ``seed * 100_003 + i``; the evaluator's training deals are seeds from
:data:`~baofen.env.labels.TRAIN_SEED_BASE` on, never these). At each, the rule bot's choice, the
evaluator's and 困难's are played out on the true deal by rule bots
(:func:`bench.common.screen.true_values`), with the evaluator's other candidates (for the best
any of them would gain); a gain is a play's value minus the rule bot's choice's, for the
deciding seat (包分 score points, 包红五 levels).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from baofen.actions import Play
from baofen.bots import make_bot, parse_spec
from baofen.bots.learned.evaluator import candidates_of
from baofen.env.evaluator import Evaluator
from bench.common.screen import groups, interval, phase_of, positions, role_of, true_values


@dataclass(frozen=True)
class GateRow:
    """One position's figures."""

    index: int
    role: str
    phase: str
    evaluator: float
    """The evaluator's pick's gain over the rule bot's choice."""
    hard: float
    """困难's pick's gain over the rule bot's choice."""
    best: float
    """The best candidate's gain (of the evaluator's candidates and 困难's pick)."""
    evaluator_seconds: float
    hard_seconds: float

    def as_dict(self) -> dict[str, Any]:
        """The row as plain data (for a JSON line)."""
        return asdict(self)


def screen(variant: str, count: int, seed: int, weights: str | Path, hard: str = "hard",
           on_row: Callable[[GateRow], None] | None = None) -> list[GateRow]:
    """The gate's figures on ``count`` positions of ``variant`` drawn from ``seed``; ``hard``
    is the searching level's bot spec as the arena writes it (:func:`~baofen.bots.parse_spec`;
    ``"hard"``: 困难)."""
    evaluator = Evaluator(weights)
    name, options = parse_spec(hard)
    rows: list[GateRow] = []
    for index, (hand, seat) in enumerate(positions(variant, count, seed)):
        obs = hand.observation(seat)
        start = time.perf_counter()
        plays, ranks = candidates_of(obs, evaluator.rule)
        scores = evaluator.scores(obs, plays, ranks)
        scores[0] += evaluator.margin
        mine = plays[int(scores.argmax())]
        evaluator_seconds = time.perf_counter() - start
        bot = make_bot(name, seed=seed * 7919 + index, **dict(options))
        start = time.perf_counter()
        action = bot.act(obs)
        hard_seconds = time.perf_counter() - start
        assert isinstance(action, Play)
        keys = [tuple(sorted(p)) for p in plays]
        searched = tuple(sorted(action.cards))
        if searched not in keys:
            plays.append(action.cards)
            keys.append(searched)
        values = dict(zip(keys, true_values(hand, seat, plays), strict=True))
        base = values[keys[0]]
        row = GateRow(
            index, role_of(hand, seat), phase_of(hand),
            values[tuple(sorted(mine))] - base, values[searched] - base,
            max(values.values()) - base, evaluator_seconds, hard_seconds,
        )
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


def table(rows: Sequence[GateRow], unit: str) -> str:
    """The gate's table (markdown): gains with 95% intervals, by role and phase, and the
    verdict (the evaluator passes when its mean gain is at least 困难's)."""
    lines = [
        f"gain over the rule bot's choice, {unit} a decision (mean [95% interval])",
        "",
        "| positions | n | evaluator | 困难 (hard) | evaluator − 困难, paired | best candidate |",
        "|---|---|---|---|---|---|",
    ]
    for name, members in groups(rows, lambda r: r.role, lambda r: r.phase).items():
        ours = [r.evaluator for r in members]
        theirs = [r.hard for r in members]
        lines.append(
            f"| {name} | {len(members)} | {interval(ours)} | {interval(theirs)} | "
            f"{interval([a - b for a, b in zip(ours, theirs, strict=True)])} | "
            f"{interval([r.best for r in members])} |"
        )
    if rows:
        ours_mean = statistics.fmean(r.evaluator for r in rows)
        hard_mean = statistics.fmean(r.hard for r in rows)
        verdict = "PASS" if ours_mean >= hard_mean else "FAIL"
        lines += [
            "",
            f"verdict: {verdict} (evaluator {ours_mean:+.3f} vs 困难 {hard_mean:+.3f}); "
            f"departures from the rule bot: evaluator "
            f"{sum(r.evaluator != 0 for r in rows) / len(rows):.0%} of positions with a "
            f"different value, 困难 {sum(r.hard != 0 for r in rows) / len(rows):.0%}; "
            f"median seconds a decision: evaluator "
            f"{statistics.median(r.evaluator_seconds for r in rows):.4f}, 困难 "
            f"{statistics.median(r.hard_seconds for r in rows):.3f}",
        ]
    return "\n".join(lines)
