"""The learned evaluator's go/no-go: its true-deal gain over the rule bot's
choice against 困难's, on the same held-out positions (:mod:`bench.common.gate`).

    python3 -m bench.screens.evaluator_gate --variant baofen --positions 2000 --seed 11 \
        --weights evaluator-baofen.pt --rows /tmp/gate-baofen.jsonl

Weights come from ``python -m baofen.env.evaluator`` (its docstring). Each position's figures
are appended to ``--rows`` as a JSON line as they come (a run cut short keeps them); the table
gives the mean gains with 95% intervals, by role and by trick range, paired evaluator − 困难.
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from bench.common.gate import GateRow, screen, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("baofen", "hongwu"), default="baofen")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--weights", required=True)
    parser.add_argument("--hard", default="hard", help="the searching level's bot spec")
    parser.add_argument("--rows", default=None, help="JSON lines file for each position")
    args = parser.parse_args()
    torch.set_num_threads(1)
    out = open(args.rows, "a", encoding="utf-8") if args.rows else None  # noqa: SIM115
    start = time.perf_counter()

    def write(row: GateRow) -> None:
        if out is not None:
            out.write(json.dumps(row.as_dict()) + "\n")
            out.flush()

    rows = screen(args.variant, args.positions, args.seed, args.weights, args.hard, write)
    unit = "score points" if args.variant == "baofen" else "levels"
    print(f"{args.variant}, {len(rows)} positions (seed {args.seed}), weights {args.weights}, "
          f"{time.perf_counter() - start:.0f} s")
    print(table(rows, unit))


if __name__ == "__main__":
    main()
