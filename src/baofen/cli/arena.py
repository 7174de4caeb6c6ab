"""``baofen arena``: compare two bots on duplicate deals (see :mod:`baofen.arena`)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..arena import (
    BotSpec,
    ChartUnavailable,
    DealRunner,
    make_report,
    run_arena,
    write_chart,
    write_csv,
    write_json,
)
from ..ruleset import RuleSet
from .command import Command, file_faults
from .options import SeedOption, VariantName, VariantOption, load_bot
from .root import app


def _fmt(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _interval(estimate: dict[str, float | None]) -> str:
    mean, low, high = estimate["mean"], estimate["low"], estimate["high"]
    if mean is None:
        return "—"
    if low is None or high is None:
        return f"{mean:+.2f}"
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def _ray_runner(address: str) -> DealRunner:
    from ..research.ray_runner import RayCluster  # the research extra: imported only when asked for

    return RayCluster(address).map


@app.command(cls=Command)
def arena(
    variant: VariantOption = VariantName.baofen,
    bots: Annotated[
        str,
        typer.Option(
            metavar="A,B",
            help="two bots A,B; options as name:key=value, e.g. search:iterations=64",
        ),
    ] = "rule,random",
    deals: Annotated[
        int, typer.Option(min=1, metavar="DEALS", help="number of duplicate deals")
    ] = 100,
    seed: SeedOption = 0,
    jobs: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help="worker processes (default: one per core)"),
    ] = None,
    start: Annotated[
        int,
        typer.Option(
            min=0, metavar="DEAL", help="number of the first deal (to run a long match in parts)"
        ),
    ] = 0,
    one_way: Annotated[
        bool, typer.Option("--one-way", help="test bot A only (half the tables, twice as fast)")
    ] = False,
    out: Annotated[
        Path,
        typer.Option(
            metavar="DIR", help="directory for results.csv, summary.json and advantage.png"
        ),
    ] = Path("arena-results"),
    ray: Annotated[
        str | None,
        typer.Option(metavar="ADDRESS", help="play the deals on this Ray cluster (host:port; "
                     "needs the research extra); the same results as a local run"),
    ] = None,
) -> None:
    """Play DEALS duplicate deals between two bots and report each bot's advantage."""
    names = [part for part in bots.split(",") if part.strip()]
    if len(names) != 2:
        raise typer.BadParameter("give exactly two bots, as A,B", param_hint="--bots")
    try:
        for name in names:
            load_bot(BotSpec.parse(name).name)
        a, b = (BotSpec.parse(name) for name in names)
        for spec in (a, b):
            spec.make(seed=0)  # an unknown bot or option is reported before the run, not in it
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--bots") from None
    with file_faults(f"create the directory {out}"):  # before the run, not after it
        out.mkdir(parents=True, exist_ok=True)
    rules = RuleSet.create(variant=variant.value)
    console = Console()
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{variant.value}: {a.label} vs {b.label}", total=deals)
        try:
            rows = run_arena(rules, a, b, deals, seed, jobs or os.cpu_count() or 1,
                             on_deal=lambda: progress.advance(task), start=start,
                             runner=None if ray is None else _ray_runner(ray),
                             one_way=one_way)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
    elapsed = time.perf_counter() - started
    report = make_report(rules, a, b, deals, seed, rows)
    report["start"] = start
    report["seconds"] = round(elapsed, 1)
    written = "results.csv, summary.json"
    with file_faults(f"write the results to {out}"):
        write_csv(rows, out / "results.csv")
        write_json(report, out / "summary.json")
        try:
            write_chart(report, rows, out / "advantage.png")
            written += ", advantage.png"
        except ChartUnavailable as error:
            console.print(f"No chart: {error}", markup=False)
    unit = report["unit"]
    table = Table(title=f"{variant.value}: {deals} duplicate deals, seed {seed} ({unit} per seat)")
    table.add_column("measure")
    summary = report["summary"]
    for bot in summary:
        table.add_column(bot, justify="right")
    measures: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
        ("advantage [95% CI]", lambda s: _interval(s["advantage"])),
        ("  as declarer", lambda s: _interval(s["advantage_as_declarer"])),
        ("  as defender", lambda s: _interval(s["advantage_as_defender"])),
        ("mean result as declarer", lambda s: _fmt(s["mean_as_declarer"])),
        ("mean result as defender", lambda s: _fmt(s["mean_as_defender"])),
        ("declarer rate", lambda s: _fmt(s["declarer_rate"])),
        ("declarer make rate", lambda s: _fmt(s["make_rate"])),
        ("bid frequency", lambda s: _fmt(s["bid_frequency"])),
        ("mean bid", lambda s: _fmt(s["mean_bid"], 1)),
    )
    for label, cell in measures:
        table.add_row(label, *(cell(stats) for stats in summary.values()))
    console.print(table)
    console.print(f"{elapsed:.0f} s; results in {out}/ ({written})")
