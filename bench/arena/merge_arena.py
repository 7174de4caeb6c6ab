"""Merge arena runs done in parts (``baofen arena --start``) into one report.

    python3 -m bench.arena.merge_arena PART_DIR [PART_DIR ...] --out DIR

Each part directory holds the ``results.csv`` and ``summary.json`` of one ``baofen arena`` run;
the parts must share variant, bots and seed and cover disjoint deal ranges. Writes the combined
``results.csv``, ``summary.json`` and ``advantage.png`` to ``--out`` and prints the summary.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from baofen.arena import BotSpec, make_report, read_csv, write_chart, write_csv, write_json
from baofen.ruleset import RuleSet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = []
    first = None
    deals: set[int] = set()
    for part in args.parts:
        report = json.loads((part / "summary.json").read_text(encoding="utf-8"))
        key = (report["variant"], tuple(report["bots"]), report["seed"])
        if first is None:
            first = (key, report)
        elif key != first[0]:
            raise SystemExit(f"{part} is from another run: {key} vs {first[0]}")
        part_rows = read_csv(part / "results.csv")
        part_deals = {int(r["deal"]) for r in part_rows}
        if deals & part_deals:
            raise SystemExit(f"{part} repeats deals {sorted(deals & part_deals)[:5]}")
        deals |= part_deals
        rows += part_rows
    assert first is not None
    (_, bots, seed), report = first
    rows.sort(key=lambda r: int(r["deal"]))
    merged = make_report(RuleSet.from_dict(report["rules"]), BotSpec.parse(bots[0]),
                         BotSpec.parse(bots[1]), len(deals), seed, rows)
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(rows, args.out / "results.csv")
    write_json(merged, args.out / "summary.json")
    write_chart(merged, rows, args.out / "advantage.png")
    print(json.dumps(merged["summary"], indent=2))


if __name__ == "__main__":
    main()
