"""The shipped starting set (:func:`baofen.puzzles.shipped.shipped`) stored on a server's first
start: each game's set is stored when the store holds no puzzle of that game."""

from __future__ import annotations

from ...puzzles.shipped import GAMES, shipped
from ...store.puzzles import Puzzles


def stock(puzzles: Puzzles) -> dict[str, int]:
    """Store the shipped set of each game the store has no puzzles of; the number added."""
    return {game: puzzles.add(shipped(game)) for game in GAMES if puzzles.count(game) == 0}
