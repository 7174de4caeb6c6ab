"""``baofen simulate``: play many hands between bots and summarise them."""

from __future__ import annotations

import random
import statistics
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from ..bots import make_bot
from ..hand import Hand
from ..ruleset import RuleSet
from .command import Command
from .options import SeedOption, VariantName, VariantOption, bot_option
from .root import app


@app.command(cls=Command)
def simulate(
    variant: VariantOption = VariantName.baofen,
    hands: Annotated[
        int, typer.Option(min=1, metavar="HANDS", help="number of hands to play")
    ] = 1000,
    seed: SeedOption = 0,
    bot: Annotated[str, bot_option("bot in all four seats")] = "random",
) -> None:
    """Play HANDS independent hands with four bots and print a summary."""
    rules = RuleSet.create(variant=variant.value)
    master = random.Random(seed)
    bots = [make_bot(bot, seed=master.getrandbits(32)) for _ in range(4)]
    declared = made = failed_throws = 0
    results: list[int] = []
    console = Console()
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{variant.value}: playing", total=hands)
        for _ in range(hands):
            hand = Hand(rules, seed=master.getrandbits(63))
            while hand.phase != "done":
                seat = hand.to_act
                assert seat is not None
                outcome = hand.apply(seat, bots[seat].act(hand.observation(seat)))
                if outcome is not None and outcome.failed_throw:
                    failed_throws += 1
            result = hand.result
            assert result is not None
            if result.declarer is not None:
                declared += 1
                made += result.made
                value = result.score if rules.variant == "baofen" else result.levels
                assert value is not None
                results.append(value)
            progress.advance(task)
    elapsed = time.perf_counter() - started
    unit = "score S" if rules.variant == "baofen" else "levels L"
    table = Table(title=f"{hands} {variant.value} hands, bot {bot!r}, seed {seed}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("hands with a declarer", f"{declared} ({declared / hands:.1%})")
    table.add_row("declarer made", f"{made / declared:.1%}" if declared else "—")
    table.add_row(f"mean {unit}", f"{statistics.fmean(results):.1f}" if results else "—")
    table.add_row("failed throws per hand", f"{failed_throws / hands:.2f}")
    table.add_row("hands per second", f"{hands / elapsed:.0f}")
    console.print(table)
