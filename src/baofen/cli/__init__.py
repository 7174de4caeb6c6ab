"""The ``baofen`` command line: one Typer app, each command in a module of its own.

The command line is part of the ``server`` extra (Typer, Rich, the server): on a plain
``pip install baofen`` (the engine, the bots and records) the ``baofen`` command says in one line
what to install instead of failing with a traceback.
"""

from __future__ import annotations

import sys

_MISSING: str | None = None
"""The package of the ``server`` extra that is not installed, if any."""

try:
    # Each module registers its command(s) on ``app`` when imported.
    from . import (  # noqa: F401
        analyze,
        arena,
        clubs,
        export,
        play,
        puzzles,
        replay,
        serve,
        simulate,
        tournament,
        tournaments_remote,
    )
    from .root import app
except ModuleNotFoundError as error:
    if error.name is None or error.name.partition(".")[0] == "baofen":
        raise
    _MISSING = error.name


def main() -> None:
    """Entry point of the ``baofen`` console script."""
    if _MISSING is not None:
        print(
            f"baofen: the command line needs the server extra ({_MISSING} is not installed): "
            "pip install 'baofen[server]'",
            file=sys.stderr,
        )
        raise SystemExit(1)
    app()
