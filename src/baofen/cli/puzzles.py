"""``baofen puzzles generate``: make puzzles (残局练习) from arena hands (or consenting players'
finished hands), on every core;
``baofen puzzles explain``: give a file's puzzles their reasons."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from .command import Command, CommandError, Group
from .database import open_store, server_settings
from .options import DbOption
from .root import app

puzzles_app = typer.Typer(cls=Group, help="Puzzles (残局练习) made from reviewed hands.",
                          no_args_is_help=True)
app.add_typer(puzzles_app, name="puzzles")


@puzzles_app.command(cls=Command)
def generate(
    n: Annotated[int, typer.Argument(metavar="N", min=1, help="puzzles wanted in all")],
    game: Annotated[Literal["baofen", "hongwu"], typer.Option(help="the game")] = "baofen",
    workers: Annotated[int | None, typer.Option(
        min=1, help="worker processes (default: every core)")] = None,
    out: Annotated[Path | None, typer.Option(
        metavar="FILE", help="JSON-lines file (default: PUZZLES-GAME.jsonl); it and FILE.done "
        "make the run resumable")] = None,
    db: DbOption = None,
    store: Annotated[bool, typer.Option(
        "--store", help="also store the puzzles in the server's database (--db)")] = False,
    from_db: Annotated[str | None, typer.Option(
        "--from-db", metavar="URL", help="search the finished hands of the players who consent "
        "to puzzles from their hands, in the server database at URL, instead of arena hands "
        "(only their own seats' decisions; guests' seats never)")] = None,
) -> None:
    """Search arena hands of the computer levels (or, with --from-db, consenting players'
    finished hands) for puzzles until FILE holds N: each decision screened, each candidate
    verified by an independent review. Stopped, it goes on where it stopped when run again."""
    from ..puzzles.generate import generate as run
    from ..puzzles.generate import generate_from_hands, load

    target = out or Path(f"puzzles-{game}.jsonl")
    try:
        if from_db is None:
            have = run(game, n, target, workers, log=typer.echo)
        else:
            from ..store.puzzles import consenting_hands

            source = open_store(server_settings(from_db))
            try:
                hands = consenting_hands(source, game)
            finally:
                source.close()
            typer.echo(f"{len(hands)} seats of consenting players' finished hands of {game}")
            have = generate_from_hands(hands, n, target, workers, log=typer.echo)
    except OSError as error:
        raise CommandError(f"cannot write {target}: {error.strerror}") from None
    typer.echo(f"{have} puzzles of {game} in {target}")
    if store:
        from ..store.puzzles import Puzzles

        opened = open_store(server_settings(db))
        try:
            added = Puzzles(opened).add(load(target))
        finally:
            opened.close()
        typer.echo(f"stored {added} new puzzles")


@puzzles_app.command(cls=Command)
def explain(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="JSON-lines file of puzzles "
                                         "(.jsonl, or .jsonl.gz)")],
    workers: Annotated[int | None, typer.Option(
        min=1, help="worker processes (default: every core)")] = None,
) -> None:
    """Give every puzzle of FILE that has no reason the reason its best move beats the
    runner-up, drawn from fresh play-outs as the 复盘 draws a flagged move's (puzzles made
    before reasons were kept); FILE is rewritten in place."""
    from ..puzzles.generate import explain_file

    try:
        explained = explain_file(file, workers)
    except OSError as error:
        raise CommandError(f"cannot read or write {file}: {error.strerror}") from None
    typer.echo(f"{explained} puzzles of {file} explained")
