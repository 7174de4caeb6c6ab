"""Pool arena runs of the same bots and game over different seeds (bot-seed sets) into one
estimate, the deal being the unit: each (seed, deal) is its own deal.

    python bench/pool_arena.py RUN_DIR [RUN_DIR ...]

Each directory holds the ``results.csv`` and ``summary.json`` of one ``baofen arena`` run (or a
merge of parts, ``bench/merge_arena.py``). Prints, per seed and pooled, the tested bot's
advantage a seat and deal with its 95% interval, as declarer and as defender.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from baofen.arena import read_csv, summarize


def describe(estimate: dict[str, Any]) -> str:
    """``mean [low, high]`` of an arena estimate."""
    if estimate["mean"] is None:
        return "—"
    if estimate["low"] is None:
        return f"{estimate['mean']:+.2f}"
    return f"{estimate['mean']:+.2f} [{estimate['low']:+.2f}, {estimate['high']:+.2f}]"


def show(label: str, rows: list[dict[str, Any]]) -> None:
    """Print the summary of ``rows`` for each tested bot."""
    for bot, stats in summarize(rows).items():
        print(f"{label}: {bot}, {stats['deals']} deals: advantage {describe(stats['advantage'])};"
              f" as declarer {describe(stats['advantage_as_declarer'])};"
              f" as defender {describe(stats['advantage_as_defender'])};"
              f" declarer rate {stats['declarer_rate']:.2f}, make rate {stats['make_rate']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    args = parser.parse_args()
    pooled: list[dict[str, Any]] = []
    by_seed: dict[int, list[dict[str, Any]]] = {}
    first: tuple[str, tuple[str, ...]] | None = None
    for run in args.runs:
        report = json.loads((run / "summary.json").read_text(encoding="utf-8"))
        key = (report["variant"], tuple(report["bots"]))
        if first is None:
            first = key
        elif key != first:
            raise SystemExit(f"{run} is of other bots or another game: {key} vs {first}")
        seed = int(report["seed"])
        for row in read_csv(run / "results.csv"):
            by_seed.setdefault(seed, []).append(row)
            # A deal of another seed is another deal: number it apart.
            pooled.append({**row, "deal": f"{seed}{int(row['deal']):07d}"})
    for seed, rows in sorted(by_seed.items()):
        show(f"seed {seed}", rows)
    if len(by_seed) > 1:
        show("pooled", pooled)


if __name__ == "__main__":
    main()
