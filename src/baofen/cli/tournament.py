"""``baofen tournament``: tournaments (比赛) — run one among computer players locally, or
create and list events on a running server."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..arena import BotSpec
from ..competition.local import Plan, parse_entrants, run_event, write_event
from ..competition.schedule import Format, fillers_for
from ..ruleset import RuleSet
from .command import Command, file_faults
from .options import SeedOption, VariantName, load_bot
from .root import app

tournament_app = typer.Typer(
    help="Tournaments (比赛): run one among computer players, or create and list a server's.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(tournament_app, name="tournament")

GameOption = Annotated[
    VariantName,
    typer.Option("--game", metavar="[baofen|hongwu]",
                 help="game: baofen (包分) or hongwu (包红五)"),
]


def _points(text: str) -> tuple[float, ...]:
    try:
        points = tuple(float(p) for p in text.split("/"))
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not four numbers as 4/2/1/0",
                                 param_hint="--points") from None
    if len(points) != 4:
        raise typer.BadParameter(f"give points for 4 table ranks as 4/2/1/0, not {text!r}",
                                 param_hint="--points")
    return points


@tournament_app.command(cls=Command)
def run(
    game: GameOption = VariantName.baofen,
    form: Annotated[
        Format, typer.Option("--format", metavar="[duplicate|swiss]",
                             help="duplicate (复式 individual) or swiss (瑞士移位)")
    ] = Format.duplicate,
    entrants: Annotated[
        str, typer.Option(metavar="BOT,BOT,...",
                          help="the entrants, each a computer player (options as "
                               "name:key=value), BOT*N for N of them: hard,master,rule*6")
    ] = "hard,master,normal,easy",
    rounds: Annotated[int, typer.Option(min=1, metavar="R", help="rounds")] = 3,
    deals: Annotated[int, typer.Option(min=1, metavar="D", help="deals (hands) a round")] = 4,
    points: Annotated[
        str, typer.Option(metavar="A/B/C/D",
                          help="a Swiss round's tournament points for table ranks 1–4")
    ] = "4/2/1/0",
    filler: Annotated[
        str, typer.Option(metavar="BOT", help="the computer player filling incomplete tables")
    ] = "normal",
    seed: SeedOption = 0,
    workers: Annotated[
        int | None, typer.Option(min=1, metavar="K", help="worker processes (default: one per "
                                 "core)")
    ] = None,
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="directory for standings.csv, event.json and "
                           "hands.jsonl")
    ] = Path("tournament-results"),
) -> None:
    """Play a tournament among computer players and write its standings and every hand."""
    try:
        field = parse_entrants(entrants)
        for spec in {e.bot for e in field} | {BotSpec.parse(filler)}:
            load_bot(spec.name)
            spec.make(seed=0)  # an unknown bot or option is told before the run, not in it
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--entrants/--filler") from None
    plan = Plan(RuleSet.create(variant=game.value), form, rounds, deals, seed,
                _points(points), BotSpec.parse(filler))
    with file_faults(f"create the directory {out}"):
        out.mkdir(parents=True, exist_ok=True)
    tables = (len(field) + len(fillers_for([e.name for e in field]))) // 4
    console = Console()
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{game.value} {form.value}: tables played",
                                 total=tables * rounds)
        event = run_event(plan, field, workers or os.cpu_count() or 1,
                          on_table=lambda: progress.advance(task))
    elapsed = time.perf_counter() - started
    with file_faults(f"write the results to {out}"):
        write_event(event, out)
    unit = "mean %" if form is Format.duplicate else "points"
    table = Table(title=f"{game.value} {form.value}: {rounds} rounds of {deals} hands, "
                        f"{len(field)} entrants, seed {seed}")
    for column in ("rank", "entrant", unit, "score", "hands"):
        table.add_column(column, justify="left" if column == "entrant" else "right")
    for line in event.standings:
        table.add_row("—" if line.rank is None else str(line.rank),
                      line.entrant + (" (filler)" if line.filler else ""),
                      f"{line.points:.2f}", str(line.score), str(line.hands))
    console.print(table)
    console.print(f"{elapsed:.0f} s; results in {out}/ (standings.csv, event.json, hands.jsonl)")
