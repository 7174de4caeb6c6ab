"""The arena: two bots compared on *duplicate* deals.

For each deal and each seat ``k``, the deal is played with bot A at ``k`` and bot B in the other
three seats, and once at the *reference table* with B in all four seats. A's advantage on the deal
is the mean over ``k`` of seat ``k``'s result at A's table minus seat ``k``'s result at the
reference table (包分: the hand's score change for the seat; 包红五: its levels). Then the same with
A and B swapped (unless only A is tested: ``one_way``). The deal is the statistical unit: the 95%
confidence interval of the mean advantage is taken over deals. Bidding is part of the game, so
roles follow from it; the advantage is also split by the tested bot's role (a ratio over deals,
with a cluster-robust interval).

Deals and bot seeds derive from one seed, so a run is reproducible whatever the number of worker
processes (given bots that are deterministic under a seed, e.g. the search bot with an iteration
budget). A bot's seed depends on the deal, the seat and the bot's name only, so the B players of
A's table and of the reference table draw the same random numbers.

The results are a CSV and a JSON report; the chart (:func:`write_chart`) needs matplotlib, the
``arena`` extra (``pip install 'baofen[arena]'``).
"""

from __future__ import annotations

import csv
import importlib
import json
import math
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .bots import DealSeer, bot_module, make_bot, parse_spec
from .hand import Hand
from .ruleset import RuleSet

Z95 = 1.959964
"""Normal quantile of a two-sided 95% interval."""

CSV_FIELDS = (
    "deal", "deal_seed", "tested", "table", "seat", "bot", "role", "bid", "target", "made",
    "result",
)
"""Columns of the results CSV: one row per seat of every table played."""


@dataclass(frozen=True)
class BotSpec:
    """A bot name with its options, written ``name`` or ``name:key=value:key=value``.

    ``module`` is the module whose import registers the bot (:func:`baofen.bots.bot_module`,
    e.g. ``baofen.env.neural``), imported again by :meth:`make` in a worker process."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    module: str | None = None

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Parse ``"search:iterations=64"``; values become int, float or str
        (:func:`~baofen.bots.parse_spec`)."""
        name, options = parse_spec(text)
        return cls(name, options, bot_module(name))

    @property
    def label(self) -> str:
        """The spec as written."""
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options)])

    def make(self, seed: int) -> Any:
        """A new bot with this spec and ``seed``."""
        try:
            return make_bot(self.name, seed=seed, **dict(self.options))
        except ValueError:
            if self.module is None:
                raise
        # Not registered in this process (a fresh worker): its module registers it.
        importlib.import_module(self.module)
        return make_bot(self.name, seed=seed, **dict(self.options))


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a run seeded with ``seed``."""
    return random.Random(f"arena-deal:{seed}:{deal}").getrandbits(63)


def bot_seed(deal_seed_value: int, seat: int, label: str) -> int:
    """The seed of the bot ``label`` sitting at ``seat`` for a deal."""
    return random.Random(f"arena-bot:{deal_seed_value}:{seat}:{label}").getrandbits(63)


def play_table(rules: RuleSet, seed: int, specs: Sequence[BotSpec]) -> Hand:
    """Play the deal of ``seed`` to the end with ``specs[s]`` at seat ``s``; the reference player
    (a :class:`~baofen.bots.DealSeer`) is shown the whole hand, every other bot its seat's
    observation."""
    hand = Hand(rules, seed=seed)
    bots = [spec.make(bot_seed(seed, seat, spec.label)) for seat, spec in enumerate(specs)]
    for seat in hand.turns():
        bot = bots[seat]
        if isinstance(bot, DealSeer):
            hand.apply(seat, bot.act_seeing(hand, seat))
        else:
            hand.apply(seat, bot.act(hand.observation(seat)))
    return hand


def _rows_of(hand: Hand, deal: int, seed: int, tested: str, table: str,
             specs: Sequence[BotSpec]) -> list[dict[str, Any]]:
    result = hand.result
    assert result is not None
    rows = []
    for seat in range(4):
        bids = [v for s, v in hand.bids if s == seat and v is not None]
        role = "none" if result.declarer is None else (
            "declarer" if seat == result.declarer else "defender")
        rows.append({
            "deal": deal,
            "deal_seed": seed,
            "tested": tested,
            "table": table,
            "seat": seat,
            "bot": specs[seat].label,
            "role": role,
            "bid": max(bids) if bids else "",
            "target": "" if result.target is None else result.target,
            "made": "" if result.declarer is None else int(result.made),
            "result": result.deltas[seat],
        })
    return rows


def play_deal(variant_rules: dict[str, Any], deal: int, seed: int, a: BotSpec,
              b: BotSpec, one_way: bool = False) -> list[dict[str, Any]]:
    """Every table of one deal (both bots tested, or A only when ``one_way``), as CSV rows.
    Runs in a worker process."""
    rules = RuleSet.from_dict(variant_rules)
    rows: list[dict[str, Any]] = []
    pairs = ((a, b),) if one_way else ((a, b), (b, a))
    for tested, other in pairs:
        reference = [other] * 4
        rows += _rows_of(play_table(rules, seed, reference), deal, seed, tested.label, "ref",
                         reference)
        for k in range(4):
            specs = [tested if s == k else other for s in range(4)]
            rows += _rows_of(play_table(rules, seed, specs), deal, seed, tested.label, str(k),
                             specs)
    return rows


DealRunner = Callable[
    [Callable[..., list[dict[str, Any]]], list[tuple[Any, ...]]],
    Iterable[tuple[int, list[dict[str, Any]]]],
]
"""Runs :func:`play_deal` over argument tuples elsewhere (e.g. a Ray cluster,
:mod:`baofen.ray_runner`), yielding ``(index of the tuple, rows)`` as each finishes."""


def run_arena(
    rules: RuleSet,
    a: BotSpec,
    b: BotSpec,
    deals: int,
    seed: int,
    jobs: int = 1,
    on_deal: Callable[[], None] | None = None,
    start: int = 0,
    runner: DealRunner | None = None,
    one_way: bool = False,
) -> list[dict[str, Any]]:
    """Play deals ``start`` … ``start + deals − 1`` of the run seeded ``seed``, with ``jobs``
    worker processes (or through ``runner``); the CSV rows in order. Runs over disjoint ranges
    of one seed can be concatenated (a long run done in parts). ``one_way`` tests A only (half
    the tables)."""
    if a.label == b.label:
        raise ValueError("the two bots must differ (give options to compare two settings)")
    if deals < 1:
        raise ValueError("play at least one deal")
    if start < 0:
        raise ValueError("the first deal number cannot be negative")
    data = rules.to_dict()
    by_deal: dict[int, list[dict[str, Any]]] = {}
    numbers = range(start, start + deals)
    if runner is not None:
        tasks = [(data, deal, deal_seed(seed, deal), a, b, one_way) for deal in numbers]
        for index, rows in runner(play_deal, tasks):
            by_deal[numbers[index]] = rows
            if on_deal:
                on_deal()
    elif jobs <= 1:
        for deal in numbers:
            by_deal[deal] = play_deal(data, deal, deal_seed(seed, deal), a, b, one_way)
            if on_deal:
                on_deal()
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {
                pool.submit(play_deal, data, deal, deal_seed(seed, deal), a, b, one_way): deal
                for deal in numbers
            }
            for future in as_completed(futures):
                by_deal[futures[future]] = future.result()
                if on_deal:
                    on_deal()
    return [row for deal in numbers for row in by_deal[deal]]


# -- statistics -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval and the number of observations behind it."""

    mean: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def of_means(cls, values: Sequence[float]) -> Estimate:
        """Mean of independent values (normal interval)."""
        n = len(values)
        if not n:
            return cls(None, None, None, 0)
        mean = statistics.fmean(values)
        if n < 2:
            return cls(mean, None, None, n)
        half = Z95 * statistics.stdev(values) / math.sqrt(n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_ratio(cls, sums: Sequence[float], counts: Sequence[int]) -> Estimate:
        """Ratio Σsums/Σcounts over clusters (deals), with a cluster-robust interval."""
        total = sum(counts)
        if not total:
            return cls(None, None, None, 0)
        ratio = sum(sums) / total
        clusters = len(sums)
        if clusters < 2:
            return cls(ratio, None, None, total)
        residual = sum((s - ratio * c) ** 2 for s, c in zip(sums, counts, strict=True))
        variance = clusters / (clusters - 1) * residual / total**2
        half = Z95 * math.sqrt(variance)
        return cls(ratio, ratio - half, ratio + half, total)

    @classmethod
    def of_estimates(cls, parts: Sequence[Estimate]) -> Estimate:
        """The mean of the values behind several :meth:`of_means` estimates of disjoint samples,
        as if they were one sample: each part's count, mean and interval give its values' sum
        and sum of squares exactly (to their rounding), so a run whose rows are lost still pools
        with one whose rows are kept."""
        if any(part.mean is None or part.low is None or part.high is None for part in parts):
            raise ValueError("every part needs a mean and an interval (two values or more)")
        n = sum(part.n for part in parts)
        if not parts or n < 2:
            raise ValueError("pooling needs two values or more")
        total = squares = 0.0
        for part in parts:
            assert part.mean is not None and part.low is not None and part.high is not None
            stdev = (part.high - part.low) / (2 * Z95) * math.sqrt(part.n)
            total += part.n * part.mean
            squares += (part.n - 1) * stdev**2 + part.n * part.mean**2
        mean = total / n
        half = Z95 * math.sqrt(max(squares - n * mean**2, 0.0) / (n - 1) / n)
        return cls(mean, mean - half, mean + half, n)


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


# -- output -----------------------------------------------------------------------------------


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
