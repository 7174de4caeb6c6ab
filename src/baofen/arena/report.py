"""An arena's rows summarized (each bot's advantage, overall and by role, with its play
statistics) and written: the results CSV, the JSON report and the chart (the chart needs
matplotlib, the ``arena`` extra: ``pip install 'baofen[arena]'``)."""

from __future__ import annotations

import csv
import json
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..ruleset import RuleSet
from .estimate import Estimate
from .play import CSV_FIELDS, BotSpec


def summarize(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Per tested bot: advantage (overall and by role) and its play statistics, from CSV rows."""
    tables: dict[tuple[str, int, str], dict[int, dict[str, Any]]] = {}
    for row in rows:
        key = (str(row["tested"]), int(row["deal"]), str(row["table"]))
        tables.setdefault(key, {})[int(row["seat"])] = row
    tested_bots = list(dict.fromkeys(key[0] for key in tables))
    summary: dict[str, Any] = {}
    for bot in tested_bots:
        deals = sorted({key[1] for key in tables if key[0] == bot})
        per_deal: list[float] = []
        role_sums = {"declarer": [0.0] * len(deals), "defender": [0.0] * len(deals)}
        role_counts = {"declarer": [0] * len(deals), "defender": [0] * len(deals)}
        own: list[dict[str, Any]] = []
        for i, deal in enumerate(deals):
            reference = tables[(bot, deal, "ref")]
            diffs = []
            for k in range(4):
                row = tables[(bot, deal, str(k))][k]
                diff = float(row["result"]) - float(reference[k]["result"])
                diffs.append(diff)
                own.append(row)
                if row["role"] in role_sums:
                    role_sums[row["role"]][i] += diff
                    role_counts[row["role"]][i] += 1
            per_deal.append(statistics.fmean(diffs))
        declared = [r for r in own if r["role"] == "declarer"]
        defended = [r for r in own if r["role"] == "defender"]
        bids = [float(r["bid"]) for r in own if r["bid"] not in ("", None)]
        summary[bot] = {
            "deals": len(deals),
            "advantage": asdict(Estimate.of_means(per_deal)),
            "advantage_as_declarer": asdict(
                Estimate.of_ratio(role_sums["declarer"], role_counts["declarer"])),
            "advantage_as_defender": asdict(
                Estimate.of_ratio(role_sums["defender"], role_counts["defender"])),
            "mean_as_declarer": _mean(float(r["result"]) for r in declared),
            "mean_as_defender": _mean(float(r["result"]) for r in defended),
            "declarer_rate": len(declared) / len(own) if own else None,
            "make_rate": _mean(float(r["made"]) for r in declared),
            "bid_frequency": len(bids) / len(own) if own else None,
            "mean_bid": _mean(bids),
        }
    return summary


def _mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return statistics.fmean(items) if items else None


def write_csv(rows: Sequence[dict[str, Any]], path: Path) -> None:
    """The results as CSV (:data:`CSV_FIELDS`)."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def read_csv(path: Path) -> list[dict[str, Any]]:
    """Rows of a results CSV written by :func:`write_csv`."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_json(report: dict[str, Any], path: Path) -> None:
    """The report as JSON."""
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


class ChartUnavailable(RuntimeError):
    """The chart cannot be drawn: matplotlib, an optional dependency, is not installed."""


def write_chart(report: dict[str, Any], rows: Sequence[dict[str, Any]], path: Path) -> None:
    """A PNG: each bot's advantage (overall, as declarer, as defender) with its 95% interval,
    and the running mean advantage of the first bot over the deals.

    Raises :class:`ChartUnavailable` when matplotlib is not installed.
    """
    # Imported here, not at the top: matplotlib is optional, and only the chart needs it.
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ChartUnavailable(
            "the chart needs matplotlib, which is not installed: pip install 'baofen[arena]'"
        ) from None

    summary = report["summary"]
    bots = list(summary)
    unit = report["unit"]
    fig, (bars, running) = plt.subplots(1, 2, figsize=(11, 4.2))
    kinds = (("advantage", "overall"), ("advantage_as_declarer", "as declarer"),
             ("advantage_as_defender", "as defender"))
    width = 0.8 / len(kinds)
    for j, (key, label) in enumerate(kinds):
        means: list[float] = []
        errors: list[list[float]] = [[], []]
        for bot in bots:
            est = summary[bot][key]
            mean = est["mean"] or 0.0
            means.append(mean)
            errors[0].append(mean - est["low"] if est["low"] is not None else 0.0)
            errors[1].append(est["high"] - mean if est["high"] is not None else 0.0)
        xs = [i + (j - 1) * width for i in range(len(bots))]
        bars.bar(xs, means, width, yerr=errors, capsize=3, label=label)
    bars.axhline(0, color="black", linewidth=0.8)
    bars.set_xticks(range(len(bots)), bots)
    bars.set_ylabel(f"advantage per seat ({unit})")
    bars.set_title(f"{report['variant']}: {report['deals']} duplicate deals, 95% CI")
    bars.legend(fontsize=8)
    first = bots[0]
    per_deal = _per_deal_advantage(rows, first)
    cumulative, total = [], 0.0
    for i, value in enumerate(per_deal, 1):
        total += value
        cumulative.append(total / i)
    running.plot(range(1, len(cumulative) + 1), cumulative)
    running.axhline(0, color="black", linewidth=0.8)
    running.set_xlabel("deals")
    running.set_ylabel(f"running mean advantage of {first}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _per_deal_advantage(rows: Sequence[dict[str, Any]], bot: str) -> list[float]:
    ref: dict[tuple[int, int], float] = {}
    own: dict[int, list[float]] = {}
    for row in rows:
        if row["tested"] != bot:
            continue
        deal, seat, table = int(row["deal"]), int(row["seat"]), str(row["table"])
        if table == "ref":
            ref[(deal, seat)] = float(row["result"])
    for row in rows:
        if row["tested"] == bot and row["table"] != "ref" and int(row["table"]) == int(row["seat"]):
            deal = int(row["deal"])
            own.setdefault(deal, []).append(float(row["result"]) - ref[(deal, int(row["seat"]))])
    return [statistics.fmean(own[d]) for d in sorted(own)]


def make_report(rules: RuleSet, a: BotSpec, b: BotSpec, deals: int, seed: int,
                rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The JSON report of a run: its settings and :func:`summarize` of its rows."""
    return {
        "variant": rules.variant,
        "bots": [a.label, b.label],
        "deals": deals,
        "seed": seed,
        "unit": "score" if rules.variant == "baofen" else "levels",
        "rules": rules.to_dict(),
        "summary": summarize(rows),
    }
