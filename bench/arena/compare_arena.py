"""Compare two one-way arena runs on their common deals: how much more bot X gained than bot Y.

    python3 -m bench.arena.compare_arena RUN_X RUN_Y
    python3 -m bench.arena.compare_arena --pool RUN_1 RUN_2 ...

Each directory holds a ``baofen arena --one-way`` run (``results.csv``, ``summary.json``) of the
same variant and seed against the same bot B. On a deal, X's table with X in seat ``k`` and Y's
table with Y in seat ``k`` hold the same cards and the same B players, so seat ``k``'s result at
X's table minus at Y's is X's gain over Y there; the mean over the four seats is the deal's paired
difference, and the 95% interval is taken over deals (far narrower than the difference of the two
runs' intervals, which both carry the deals' luck).

``--pool``: the same bot's runs with different bot seeds (e.g. ``hard`` and ``hard:iterations=64``,
the same player under another label; the bot they play against may be relabelled too) pooled:
its gain over the other table on each seat, averaged over the runs, then over the seats of a
deal; the interval over deals. A search bot's own luck (the worlds it drew) moves one 包分 run
by several points a deal; pooling runs averages it out.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from baofen.arena import BotSpec, Estimate, read_csv


def seat_results(run: Path, gain: bool = False) -> tuple[dict[str, Any], dict[int, list[float]]]:
    """The run's summary and, per deal, the tested bot's result in each seat 0–3 (with ``gain``:
    less the seat's result at the table of four B players)."""
    report = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    results: dict[int, list[float]] = {}
    rows = read_csv(run / "results.csv")
    for row in rows:
        if row["table"] != "ref" and int(row["table"]) == int(row["seat"]):
            results.setdefault(int(row["deal"]), [0.0] * 4)[int(row["seat"])] += float(
                row["result"])
        elif row["table"] == "ref" and gain:
            results.setdefault(int(row["deal"]), [0.0] * 4)[int(row["seat"])] -= float(
                row["result"])
    return report, results


def pool(runs: list[Path]) -> None:
    """Print the pooled advantage of the runs (see the module docstring)."""
    loaded = [seat_results(run, gain=True) for run in runs]
    reports = [report for report, _ in loaded]
    # The opponent may be the same player under another label (other seeds for its worlds too).
    if len({(r["variant"], r["seed"], BotSpec.parse(r["bots"][1]).name) for r in reports}) != 1:
        raise SystemExit("the runs differ in variant, seed or the bot they play against")
    common = sorted(set.intersection(*(set(results) for _, results in loaded)))
    if len(common) < 2:
        raise SystemExit("the runs share fewer than two deals")
    means = [statistics.fmean(g for _, results in loaded for g in results[d]) for d in common]
    estimate = Estimate.of_means(means)
    labels = ", ".join(r["bots"][0] for r in reports)
    print(f"{labels} pooled ({reports[0]['variant']}, {len(common)} common deals, seed "
          f"{reports[0]['seed']}): {estimate.mean:+.2f} [{estimate.low:+.2f}, "
          f"{estimate.high:+.2f}] a seat and deal over "
          f"{', '.join(dict.fromkeys(r['bots'][1] for r in reports))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+", help="RUN_X RUN_Y, or the runs to pool")
    parser.add_argument("--pool", action="store_true", help="pool one bot's runs")
    args = parser.parse_args()
    if args.pool:
        pool(args.runs)
        return
    if len(args.runs) != 2:
        raise SystemExit("give two runs to compare (or --pool and the runs to pool)")
    report_x, x = seat_results(args.runs[0])
    report_y, y = seat_results(args.runs[1])
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
