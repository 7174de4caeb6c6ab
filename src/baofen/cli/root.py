"""The root ``baofen`` command: the Typer app on which each command module registers its own."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="包分 (Baofen) and 包红五 (Bao Hong Wu): simulate, play, replay, run the server.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """包分 and 包红五: rules engine, computer players, game server and browser table."""
