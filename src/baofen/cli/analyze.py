"""``baofen analyze FILE``: 复盘 — review the bids, the trump and bury and the plays of finished
hands (see :mod:`baofen.review`).

FILE holds hand records as ``baofen replay`` reads them. For each hand it prints, per reviewed
decision, the move made, the best move found, what the hint (提示) would do, the expected loss
(包分 points, 包红五 levels) with its lower bound and its category (inaccuracy 不精确, mistake
失误, blunder 大错) and, for a flagged move, why (its reason, ``--lang`` en or zh); then a
summary per seat with an accuracy. The whole review is written as JSON (the server's review
format).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..hand import Hand
from ..review import DEFAULT_CANDIDATES, DEFAULT_WORLDS, HandReview, review_hand
from ..review.reasons import TEXTS, describe
from .command import Command, CommandError
from .render import seat_name
from .replay import read_json, records_in
from .root import app


@app.command(cls=Command)
def analyze(
    file: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, readable=True,
                       help="JSON file of hand records (one, a list, or a match record)"),
    ],
    seat: Annotated[
        int | None, typer.Option(min=0, max=3, help="review this seat only (0–3; default all)")
    ] = None,
    budget: Annotated[
        int, typer.Option(min=1, help="sampled worlds per stage of a move's review (more: "
                                      "slower, surer)")
    ] = DEFAULT_WORLDS,
    candidates: Annotated[
        int, typer.Option(min=1, help="the rule bot's candidate plays compared per move")
    ] = DEFAULT_CANDIDATES,
    seed: Annotated[int, typer.Option(help="seed of the sampled worlds")] = 0,
    out: Annotated[Path, typer.Option(help="JSON file for the review")] = Path("analysis.json"),
    lang: Annotated[str, typer.Option(help="language of the reasons: en or zh")] = "en",
) -> None:
    """Review every decision of finished hands: best move found, loss, category, accuracy."""
    console = Console(highlight=False)
    if lang not in TEXTS:
        raise CommandError(f"--lang must be one of {', '.join(TEXTS)}, not {lang!r}")
    try:
        records = records_in(read_json(file.read_text(encoding="utf-8")))
        hands = [Hand.from_record(record) for record in records]
    except ValueError as error:
        raise CommandError(f"cannot read {file}: {error}") from None
    reviews: list[HandReview] = []
    for number, hand in enumerate(hands, 1):
        if hand.phase != "done":
            console.print(f"Hand {number} is not finished: skipped.")
            continue
        review = review_hand(hand, None if seat is None else [seat], budget, candidates, seed)
        reviews.append(review)
        _print_review(console, number, review, lang)
    out.write_text(json.dumps([r.to_dict() for r in reviews], indent=2, ensure_ascii=False)
                   + "\n", encoding="utf-8")
    console.print(f"Review written to {out}")


def _print_review(console: Console, number: int, review: HandReview, lang: str) -> None:
    unit = review.unit
    limits = ", ".join(f"{name} ≥ {value:g}" for name, value in review.thresholds.items())
    table = Table(title=f"Hand {number}: review ({unit}; a move's category is the worst whose "
                        f"threshold its loss is surely above, 95%: {limits})")
    for column in ("trick", "seat", "made", "best found", "hint", f"loss ({unit})",
                   "surely ≥ (95%)", "category"):
        table.add_column(column)
    why = []
    for move in review.moves:
        when = str(move.trick) if move.kind == "play" else move.kind
        if move.candidates < 2:
            table.add_row(when, seat_name(move.seat), move.made, "=", "=", "", "", "no choice")
            continue
        verdict = Text(move.category, style="red" if move.category in ("mistake", "blunder")
                       else "yellow") if move.category else Text("")
        if move.reason is not None:
            why.append(f"{when} {seat_name(move.seat)} {move.made} ({move.category}): "
                       f"{describe(move.reason, lang)}")
        # The lower bound rounded down: a figure shown never reaches a threshold its
        # category does not (0.998 shows 0.99, not 1.00).
        table.add_row(when, seat_name(move.seat), move.made,
                      "=" if move.best == move.made else move.best,
                      "=" if move.hint == move.made else move.hint, f"{move.loss:.2f}",
                      f"{math.floor(move.loss_low * 100) / 100:.2f}" if move.loss > 0 else "",
                      verdict)
    console.print(table)
    for line in why:  # the reasons in full, below the table (a cell would cut them short)
        console.print(f"Why, {line}")
    summary = Table(title=f"Hand {number}: summary (the hint plays as the {review.hint} bot; "
                          "best: moves with a choice not flagged; accuracy: the mean over them "
                          "of 100·exp(−loss/scale), a flagged move's loss counted)")
    for column in ("seat", "moves", "choices", "best", "inaccuracies", "mistakes", "blunders",
                   "accuracy"):
        summary.add_column(column)
    for seat in review.seats:
        summary.add_row(seat_name(seat.seat), str(seat.moves), str(seat.choices),
                        str(seat.matched), str(seat.inaccuracies), str(seat.mistakes),
                        str(seat.blunders), f"{seat.accuracy:.1f}%")
    console.print(summary)
