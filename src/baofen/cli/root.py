"""The root ``baofen`` command: the Typer app on which each command module registers its own."""

from __future__ import annotations

import typer

from .command import Group

app = typer.Typer(
    cls=Group,
    help="包分 (Baofen) and 包红五 (Bao Hong Wu): simulate, play, replay, run the server.",
    invoke_without_command=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(ctx: typer.Context) -> None:
    """包分 and 包红五: rules engine, computer players, game server and browser table."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
