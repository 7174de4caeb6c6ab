"""How many kept puzzles survive a third review: each puzzle's runner-up reviewed again as the
move made, on worlds of yet another seed and a larger budget; it survives when that review
finds the same best move with the runner-up in a category (its loss's lower bound at least the
inaccuracy threshold).

    PYTHONPATH=src nice -n 19 python3 -m bench.puzzles.survival [--game hongwu] [--puzzles 40]
        [--start 0] [--worlds 48]

Reads the shipped set (or ``--file``), N puzzles from ``--start``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from baofen.hand import Hand
from baofen.puzzles.find import verify
from baofen.puzzles.generate import load
from baofen.puzzles.shipped import shipped
from baofen.review import MoveReview, Option


def main() -> None:
    """Review the first N puzzles a third time and print the share that survive."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="hongwu", choices=["baofen", "hongwu"])
    parser.add_argument("--file", help="a JSON-lines file of puzzles (default: the shipped set)")
    parser.add_argument("--puzzles", type=int, default=40)
    parser.add_argument("--start", type=int, default=0, help="skip this many puzzles first")
    parser.add_argument("--worlds", type=int, default=48)
    parser.add_argument("--seed", type=int, default=977)
    args = parser.parse_args()
    puzzles = (load(Path(args.file)) if args.file
               else shipped(args.game))[args.start: args.start + args.puzzles]
    survived, started = 0, time.process_time()
    for puzzle in puzzles:
        hand = Hand.from_record(puzzle["record"])
        move = MoveReview(
            action=puzzle["action"], trick=0, seat=puzzle["seat"], kind=puzzle["kind"],
            made=puzzle["options"][1]["move"], best=puzzle["best"], hint=puzzle["hint"],
            value_made=0.0, value_best=0.0, loss=0.0, loss_low=0.0, category="", reason="",
            candidates=len(puzzle["options"]), worlds=0,
            options=[Option(o["move"], o["value"]) for o in puzzle["options"]])
        check = verify(hand, move, args.worlds, args.seed, safety=1.0)
        survived += check is not None
        print(puzzle["id"], puzzle["kind"], "kept" if check else "LOST",
              "" if check is None else f"{check.loss:.2f} (≥ {check.loss_low:.2f})", flush=True)
    n = len(puzzles)
    print(f"{args.game}: {survived}/{n} survive a third review ({100 * survived / max(n, 1):.0f}%),"
          f" {args.worlds} worlds a stage, {time.process_time() - started:.0f} CPU s")


if __name__ == "__main__":
    main()
