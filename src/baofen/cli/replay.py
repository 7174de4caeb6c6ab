"""``baofen replay FILE``: print hand records trick by trick, then their results.

FILE holds one hand record, a list of them (what ``baofen export`` writes) or a match record
(:meth:`baofen.Match.to_record`). Each record is replayed on the engine, so a damaged record is
reported rather than printed wrongly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from ..hand import Hand
from ..match import FORMAT as MATCH_FORMAT
from ..order import order_for
from ..wire.tricks import Stopper
from .command import Command, CommandError, file_faults
from .render import (
    SEAT_NAMES,
    bids_text,
    cards_text,
    failed_throw_text,
    result_table,
    seat_name,
    sort_cards,
    table_text,
    throw_stopper,
    trick_text,
    trump_text,
)
from .root import app

_TITLES = {"baofen": "包分 Baofen", "hongwu": "包红五 Bao Hong Wu"}


def read_json(text: str) -> Any:
    """``json.loads(text)``; a document nested deeper than the decoder recurses is a
    ``ValueError`` like any other bad JSON, not a ``RecursionError``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


def records_in(data: Any) -> list[Any]:
    """The hand records in a loaded JSON document: one record, a list, or a match record."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and data.get("format") == MATCH_FORMAT:
        hands = data.get("hands")
        if not isinstance(hands, list):
            raise ValueError("the match record has no list of hands")
        return [entry.get("hand") if isinstance(entry, dict) else entry for entry in hands]
    if isinstance(data, dict):
        return [data]
    raise ValueError("expected a hand record (a JSON object) or a list of hand records")


def throw_stoppers(hand: Hand) -> dict[int, Stopper]:
    """What beat each failed throw of ``hand``, by the index of its trick: found by playing the
    hand again, since who held what at a trick's lead is gone from the finished hand."""
    return {
        len(step.hand.tricks): throw_stopper(step.hand, step.seat, step.outcome.played)
        for step in hand.steps() if step.outcome is not None and step.outcome.failed_throw
    }


def print_hand(console: Console, number: int, hand: Hand) -> None:
    """Print one replayed hand: deal, bidding, kitty, every trick, and the result."""
    rules = hand.rules
    heading = f"Hand {number} · {_TITLES[rules.variant]}"
    if hand.seed is not None:
        heading += f" · seed {hand.seed}"
    console.rule(heading)
    order = order_for(rules.variant, hand.trump)
    console.print("Deal:")
    for seat, cards in enumerate(hand.deal[:4]):
        line = Text(f"  {SEAT_NAMES[seat]}  ")
        console.print(line.append_text(cards_text(sort_cards(order, cards))))
    console.print(Text("  kitty 底牌  ").append_text(cards_text(sort_cards(order, hand.kitty))))
    first = "caller 主叫" if rules.variant == "baofen" else "first bidder"
    console.print(Text(f"Bidding 叫分 ({first} {seat_name(hand.first)}): ").append_text(
        bids_text(hand.bids)
    ))
    if hand.declarer is not None:
        console.print(
            f"Declarer 庄家: {seat_name(hand.declarer)}, target 目标分 {hand.target}."
        )
    if hand.trump is not None and hand.buried is not None:
        console.print(Text("Trump 主: ").append_text(trump_text(hand.trump)))
        console.print(Text("Buried 扣底: ").append_text(
            cards_text(sort_cards(order, hand.buried))
        ))
    captured = 0
    stoppers = throw_stoppers(hand)
    for index, trick in enumerate(hand.tricks, 1):
        if trick.attempted is not None:
            console.print(failed_throw_text(
                trick.leader, trick.attempted, trick.plays[0][1], trick.penalty,
                stoppers[index - 1],
            ))
        if trick.winner == hand.declarer:
            captured += trick.points
        console.print(trick_text(index, trick, hand.declarer).append(
            f" · declarer {captured}", style="dim"
        ))
    if hand.result is None:
        console.print(Text(
            f"The record stops in the {hand.phase} phase, before the hand ended.", style="yellow"
        ))
        if hand.current_trick:
            console.print(Text("On the table: ").append_text(table_text(hand.current_trick)))
        return
    console.print(result_table(rules, hand.result))


@app.command(cls=Command)
def replay(
    file: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, readable=True, metavar="FILE",
            help="JSON file of hand records (one, a list, or a match record)",
        ),
    ],
) -> None:
    """Print the hands of a record file trick by trick, with bids, kitty and results."""
    console = Console(highlight=False)
    with file_faults(f"read {file}"):
        text = file.read_bytes()
    try:
        records = records_in(read_json(text.decode("utf-8")))
    except ValueError as error:  # bad UTF-8 and bad JSON are ValueErrors too
        raise CommandError(f"cannot read {file}: {error}") from None
    if not records:
        console.print(f"{file} holds no hand records.")
        return
    damaged = 0
    for number, record in enumerate(records, 1):
        try:
            hand = Hand.from_record(record)
        except ValueError as error:
            damaged += 1
            console.rule(f"Hand {number}")
            console.print(Text(f"record {number} cannot be replayed: {error}", style="red"))
            continue
        print_hand(console, number, hand)
    if damaged:
        raise typer.Exit(1)
