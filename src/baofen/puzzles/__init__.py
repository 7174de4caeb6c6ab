"""残局练习 — puzzles made from reviewed hands.

A puzzle is a decision of a finished hand (an arena hand of the computer levels, or a player's
hand given with the player's consent) where one move beats every other by a clear, confirmed
margin, in a position that is not trivial (:mod:`baofen.puzzles.find`). Each has themes read
from the position (:mod:`baofen.puzzles.themes`); puzzles and solvers are rated with Glicko-2
from the solvers' results (:mod:`baofen.puzzles.glicko2`). :mod:`baofen.puzzles.generate`
makes them from arena hands in worker processes; :mod:`baofen.puzzles.shipped` is the starting
set shipped with the package.
"""

from .find import Puzzle, candidate, find, nontrivial, player_puzzles, verify
from .themes import THEMES, themes

__all__ = [
    "THEMES", "Puzzle", "candidate", "find", "nontrivial", "player_puzzles", "themes", "verify",
]
