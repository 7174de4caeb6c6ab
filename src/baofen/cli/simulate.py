"""``baofen simulate``: play many hands between bots and summarise them."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from .. import _native
from ..bots import make_bot
from ..bots.engine import python, use
from ..hand import Hand, play_hand
from ..ruleset import RuleSet
from ..scoring import HandResult
from .command import Command
from .options import SeedOption, VariantName, VariantOption, bot_option
from .root import app

NATIVE_CHUNK = 1000
"""Hands per call into the native core (the progress bar moves between calls)."""


class EngineName(StrEnum):
    """Which rules engine plays the hands."""

    native = "native"
    python = "python"


@dataclass
class Tally:
    """What the summary counts of the hands played so far."""

    hands: int = 0
    declared: int = 0
    made: int = 0
    total: int = 0
    """The declared hands' scores (包分) or levels (包红五), summed."""
    failed_throws: int = 0

    def add(self, result: HandResult, failed: int) -> None:
        """Counts one hand: its result and its failed throws."""
        self.hands += 1
        self.failed_throws += failed
        if result.declarer is not None:
            value = result.score if result.levels is None else result.levels
            assert value is not None
            self.declared += 1
            self.made += result.made
            self.total += value

    def add_table(self, table: bytes) -> None:
        """Counts every hand of a native result table, column by column."""
        from .._native.batch import column

        declarers = column(table, "declarer")
        declared = [i for i, declarer in enumerate(declarers) if declarer >= 0]
        made, scores, levels = (column(table, name) for name in ("made", "score", "levels"))
        has_levels = column(table, "has_levels")
        self.hands += len(declarers)
        self.failed_throws += sum(column(table, "failed_throws"))
        self.declared += len(declared)
        self.made += sum(made[i] for i in declared)
        self.total += sum(levels[i] if has_levels[i] else scores[i] for i in declared)

    def mean(self) -> float | None:
        """The declared hands' mean score or levels (None without one)."""
        return self.total / self.declared if self.declared else None


Played = tuple[HandResult, int, dict[str, Any] | None]
"""One hand's result, its failed throws and (when asked for) its record."""

Chunk = list[Played] | bytes
"""Hands played in one step: each hand, or a native result table of many."""


def _python_hands(
    rules: RuleSet, seeds: list[int], bot_seeds: list[int], bot: str, records: bool
) -> Iterator[Chunk]:
    # The Python engine with the Python rule bot: the reference, all of it pure Python.
    bots = [make_bot(bot, seed=s) for s in bot_seeds]
    with use(python()):
        for seed in seeds:
            hand = play_hand(rules, seed, bots)
            failed = sum(trick.attempted is not None for trick in hand.tricks)
            assert hand.result is not None
            yield [(hand.result, failed, hand.to_record() if records else None)]


NATIVE_BOTS = ("random", "rule")
"""The bots the native core plays (the rule bot's choices are the Python one's)."""


def _native_hands(
    rules: RuleSet, seeds: list[int], player_seed: int, records: bool, bot: str
) -> Iterator[Chunk]:
    from .._native import batch
    from ..bots import native_players as players

    for start in range(0, len(seeds), NATIVE_CHUNK):
        chunk = seeds[start : start + NATIVE_CHUNK]
        if records:
            played_hands = (
                batch.random_hands(rules, chunk, player_seed + start) if bot == "random"
                else players.player_hands([Hand(rules, seed=s) for s in chunk], "rule")
            )
            yield [(p.result, p.failed_throws, p.to_record()) for p in played_hands]
        else:
            yield (
                batch.random_table(rules, chunk, player_seed + start) if bot == "random"
                else players.player_table(rules, chunk, "rule")
            )


def _engine(engine: EngineName | None, bot: str) -> EngineName:
    """The engine asked for, or by default the native one where it is built and can play the
    bot (:data:`NATIVE_BOTS`)."""
    if engine is None:
        usable = _native.available() and bot in NATIVE_BOTS
        return EngineName.native if usable else EngineName.python
    if engine is EngineName.native:
        if not _native.available():
            raise typer.BadParameter(_native.why_unavailable(), param_hint="'--engine'")
        if bot not in NATIVE_BOTS:
            raise typer.BadParameter(
                f"the native engine plays the random and rule bots only, not {bot!r}",
                param_hint="'--engine'",
            )
    return engine


@app.command(cls=Command)
def simulate(
    variant: VariantOption = VariantName.baofen,
    hands: Annotated[
        int, typer.Option(min=1, metavar="HANDS", help="number of hands to play")
    ] = 1000,
    seed: SeedOption = 0,
    bot: Annotated[str, bot_option("bot in all four seats")] = "random",
    engine: Annotated[
        EngineName | None,
        typer.Option(
            metavar="[native|python]",
            help="rules engine: native (C++; random and rule bots) or python; default native "
            "where it is built and plays the bot",
        ),
    ] = None,
    records: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="write every hand to FILE, a JSON list of hand records"),
    ] = None,
) -> None:
    """Play HANDS independent hands with four bots and print a summary."""
    chosen = _engine(engine, bot)
    rules = RuleSet.create(variant=variant.value)
    master = random.Random(seed)
    bot_seeds = [master.getrandbits(32) for _ in range(4)]
    # The same deals whichever engine plays them.
    seeds = [master.getrandbits(63) for _ in range(hands)]
    played = (
        _native_hands(rules, seeds, bot_seeds[0], records is not None, bot)
        if chosen is EngineName.native
        else _python_hands(rules, seeds, bot_seeds, bot, records is not None)
    )
    tally = Tally()
    written: list[dict[str, Any]] = []
    console = Console()
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{variant.value}: playing", total=hands)
        for chunk in played:
            if isinstance(chunk, bytes):
                tally.add_table(chunk)
            else:
                for result, failed, record in chunk:
                    tally.add(result, failed)
                    if record is not None:
                        written.append(record)
            progress.update(task, completed=tally.hands)
    elapsed = time.perf_counter() - started
    if records is not None:
        records.write_text(json.dumps(written), encoding="utf-8")
    unit = "score S" if rules.variant == "baofen" else "levels L"
    table = Table(
        title=f"{hands} {variant.value} hands, bot {bot!r}, seed {seed}, {chosen.value} engine"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    declared, mean = tally.declared, tally.mean()
    table.add_row("hands with a declarer", f"{declared} ({declared / hands:.1%})")
    table.add_row("declarer made", f"{tally.made / declared:.1%}" if declared else "—")
    table.add_row(f"mean {unit}", f"{mean:.1f}" if mean is not None else "—")
    table.add_row("failed throws per hand", f"{tally.failed_throws / hands:.2f}")
    table.add_row("hands per second", f"{hands / elapsed:.0f}")
    console.print(table)
    if records is not None:
        console.print(f"{hands} hand records written to {records}")
