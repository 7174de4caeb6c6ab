"""Pool arena runs of the same bots and game over different seeds (bot-seed sets) into one
estimate, the deal being the unit: each (seed, deal) is its own deal.

    python3 -m bench.arena.pool_arena RUN_DIR [RUN_DIR ...] [--earlier N:MEAN:LOW:HIGH ...]

Each directory holds the ``results.csv`` and ``summary.json`` of one ``baofen arena`` run (or a
merge of parts, ``bench/arena/merge_arena.py``). Prints, per seed and pooled, the tested bot's
advantage a seat and deal with its 95% interval, as declarer and as defender. ``--earlier``
adds the published advantage of other deals of the same bots whose rows were not kept (their
count, mean and interval): the advantage of all the deals together (``Estimate.of_estimates``).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from baofen.arena import Estimate, read_csv, summarize


def describe(estimate: dict[str, Any]) -> str:
    """``mean [low, high]`` of an arena estimate."""
    if estimate["mean"] is None:
        return "—"
    if estimate["low"] is None:
        return f"{estimate['mean']:+.2f}"
    return f"{estimate['mean']:+.2f} [{estimate['low']:+.2f}, {estimate['high']:+.2f}]"


def earlier(text: str) -> Estimate:
    """An ``N:MEAN:LOW:HIGH`` argument as an estimate."""
    try:
        n, mean, low, high = text.split(":")
        return Estimate(float(mean), float(low), float(high), int(n))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N:MEAN:LOW:HIGH") from None


def show(label: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Print the summary of ``rows`` for each tested bot, and return it."""
    summary = summarize(rows)
    for bot, stats in summary.items():
        print(f"{label}: {bot}, {stats['deals']} deals: advantage {describe(stats['advantage'])};"
              f" as declarer {describe(stats['advantage_as_declarer'])};"
              f" as defender {describe(stats['advantage_as_defender'])};"
              f" declarer rate {stats['declarer_rate']:.2f}, make rate {stats['make_rate']:.2f}")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--earlier", type=earlier, action="append", default=[],
                        help="N:MEAN:LOW:HIGH, the published advantage of other deals")
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
    summaries = [show(f"seed {seed}", rows) for seed, rows in sorted(by_seed.items())]
    if len(by_seed) > 1:
        summaries.append(show("pooled", pooled))
    if args.earlier:
        for bot, stats in summaries[-1].items():
            both = Estimate.of_estimates([Estimate(**stats["advantage"]), *args.earlier])
            print(f"with the earlier deals: {bot}, {both.n} deals: advantage"
                  f" {describe(asdict(both))}")


if __name__ == "__main__":
    main()
