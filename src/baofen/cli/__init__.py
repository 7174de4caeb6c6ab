"""The ``baofen`` command line: one Typer app, each command in a module of its own."""

from __future__ import annotations

# Each module registers its command(s) on ``app`` when imported.
from . import analyze, arena, export, play, replay, serve, simulate  # noqa: F401
from .root import app


def main() -> None:
    """Entry point of the ``baofen`` console script."""
    app()
