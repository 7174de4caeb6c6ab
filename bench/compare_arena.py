"""Compare two one-way arena runs on their common deals: how much more bot X gained than bot Y.

    python bench/compare_arena.py RUN_X RUN_Y

Each directory holds a ``baofen arena --one-way`` run (``results.csv``, ``summary.json``) of the
same variant and seed against the same bot B. On a deal, X's table with X in seat ``k`` and Y's
table with Y in seat ``k`` hold the same cards and the same B players, so seat ``k``'s result at
X's table minus at Y's is X's gain over Y there; the mean over the four seats is the deal's paired
difference, and the 95% interval is taken over deals (far narrower than the difference of the two
runs' intervals, which both carry the deals' luck).
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from baofen.arena import Estimate, read_csv


def seat_results(run: Path) -> tuple[dict[str, Any], dict[int, list[float]]]:
    """The run's summary and, per deal, the tested bot's result in each seat 0–3."""
    report = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    results: dict[int, list[float]] = {}
    for row in read_csv(run / "results.csv"):
        if row["table"] != "ref" and int(row["table"]) == int(row["seat"]):
            results.setdefault(int(row["deal"]), [0.0] * 4)[int(row["seat"])] = float(
                row["result"])
    return report, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("x", type=Path)
    parser.add_argument("y", type=Path)
    args = parser.parse_args()
    report_x, x = seat_results(args.x)
    report_y, y = seat_results(args.y)
    for field in ("variant", "seed"):
        if report_x[field] != report_y[field]:
            raise SystemExit(f"the runs differ in {field}: {report_x[field]} vs {report_y[field]}")
    if report_x["bots"][1] != report_y["bots"][1]:
        raise SystemExit("the runs test against different bots")
    common = sorted(set(x) & set(y))
    if len(common) < 2:
        raise SystemExit("the runs share fewer than two deals")
    diffs = [statistics.fmean(a - b for a, b in zip(x[d], y[d], strict=True)) for d in common]
    estimate = Estimate.of_means(diffs)
    print(f"{report_x['bots'][0]} − {report_y['bots'][0]} ({report_x['variant']}, "
          f"{len(common)} common deals, seed {report_x['seed']}): {estimate.mean:+.2f} "
          f"[{estimate.low:+.2f}, {estimate.high:+.2f}] a seat and deal")


if __name__ == "__main__":
    main()
