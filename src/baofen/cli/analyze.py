"""``baofen analyze FILE``: 复盘 — review the bids, the trump and bury and the plays of finished
hands (see :mod:`baofen.analysis`).

FILE holds hand records as ``baofen replay`` reads them. For each hand it prints, per reviewed
play, the move made, the best move found and the expected loss (包分 points, 包红五 levels),
marks mistakes, then a summary per seat; the whole review is written as JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..analysis import DEFAULT_CANDIDATES, DEFAULT_WORLDS, HandReview, review_hand
from ..hand import Hand
from .render import seat_name
from .replay import records_in
from .root import app


@app.command()
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
        int, typer.Option(min=1, help="sampled worlds per move (more: slower, surer)")
    ] = DEFAULT_WORLDS,
    candidates: Annotated[
        int, typer.Option(min=1, help="the rule bot's candidate plays compared per move")
    ] = DEFAULT_CANDIDATES,
    threshold: Annotated[
        float | None,
        typer.Option(help="expected loss that marks a mistake (default: 5 points; 1 level)"),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the sampled worlds")] = 0,
    out: Annotated[Path, typer.Option(help="JSON file for the review")] = Path("analysis.json"),
) -> None:
    """Review every play of finished hands: best move found, expected loss, mistakes."""
    console = Console(highlight=False)
    try:
        records = records_in(json.loads(file.read_text(encoding="utf-8")))
        hands = [Hand.from_record(record) for record in records]
    except ValueError as error:
        console.print(Text(f"cannot read {file}: {error}", style="red"))
        raise typer.Exit(1) from None
    reviews: list[HandReview] = []
    for number, hand in enumerate(hands, 1):
        if hand.phase != "done":
            console.print(f"Hand {number} is not finished: skipped.")
            continue
        review = review_hand(hand, None if seat is None else [seat], budget, candidates,
                             threshold, seed)
        reviews.append(review)
        _print_review(console, number, review)
    out.write_text(json.dumps([r.to_dict() for r in reviews], indent=2, ensure_ascii=False)
                   + "\n", encoding="utf-8")
    console.print(f"Review written to {out}")


_MISTAKES = {"loss": "mistake", "wasted_winner": "mistake: sure winner thrown on a lost trick"}
"""How the table names a mistake, by its reason (:attr:`baofen.analysis.MoveReview.reason`)."""


def _print_review(console: Console, number: int, review: HandReview) -> None:
    unit = review.unit
    table = Table(title=f"Hand {number}: review ({unit}; mistake: loss > {review.threshold:g})")
    for column in ("trick", "seat", "made", "best found", f"loss ({unit})", ""):
        table.add_column(column)
    for move in review.moves:
        when = str(move.trick) if move.kind == "play" else move.kind
        table.add_row(when, seat_name(move.seat), move.made,
                      "=" if move.best == move.made else move.best, f"{move.loss:.2f}",
                      Text(_MISTAKES[move.reason], style="red") if move.mistake else "")
    console.print(table)
    summary = Table(title=f"Hand {number}: summary")
    for column in ("seat", "moves", "matched", f"total loss ({unit})", "mistakes"):
        summary.add_column(column)
    for seat in review.seats:
        summary.add_row(seat_name(seat.seat), str(seat.moves), str(seat.matched),
                        f"{seat.total_loss:.2f}", str(seat.mistakes))
    console.print(summary)
