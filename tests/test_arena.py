"""The arena: duplicate deals, consistent CSV / JSON / PNG output, reproducible from the seed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baofen import RuleSet
from baofen.arena import (
    BotSpec,
    ChartUnavailable,
    Estimate,
    make_report,
    read_csv,
    run_arena,
    summarize,
    write_chart,
    write_csv,
    write_json,
)
from baofen.cli import app

RULE = BotSpec.parse("rule")
RANDOM = BotSpec.parse("random")


def test_bot_spec_parsing() -> None:
    spec = BotSpec.parse("search:iterations=8:time_limit=0.5:name=x")
    assert spec.name == "search"
    assert dict(spec.options) == {"iterations": 8, "time_limit": 0.5, "name": "x"}
    assert spec.label == "search:iterations=8:time_limit=0.5:name=x"
    for bad in ("", ":x=1", "rule:x", "rule:=3"):
        with pytest.raises(ValueError):
            BotSpec.parse(bad)


def test_estimates() -> None:
    mean = Estimate.of_means([1.0, 2.0, 3.0, 4.0])
    assert mean.mean == 2.5 and mean.low is not None and mean.low < 2.5 < (mean.high or 0)
    ratio = Estimate.of_ratio([2.0, 4.0, 0.0], [1, 2, 0])
    assert ratio.mean == 2.0 and ratio.n == 3
    assert Estimate.of_ratio([], []).mean is None


def test_estimates_pool_as_one_sample() -> None:
    values = [3.0, -1.5, 7.25, 0.0, 2.0, -4.0, 11.5, 1.0, -2.5]
    parts = [Estimate.of_means(values[:4]), Estimate.of_means(values[4:])]
    pooled, whole = Estimate.of_estimates(parts), Estimate.of_means(values)
    assert pooled.n == whole.n == 9
    assert pooled.mean == pytest.approx(whole.mean)
    assert (pooled.low, pooled.high) == pytest.approx((whole.low, whole.high))
    for bad in ([], [Estimate.of_means([1.0])], [parts[0], Estimate(None, None, None, 0)]):
        with pytest.raises(ValueError):
            Estimate.of_estimates(bad)


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_tiny_run_is_duplicate_and_consistent(variant: str, tmp_path: Path) -> None:
    rules = RuleSet.create(variant=variant)
    rows = run_arena(rules, RULE, RANDOM, deals=3, seed=5)
    # Per deal and tested bot: the reference table and one table per seat, four rows each.
    assert len(rows) == 3 * 2 * 5 * 4
    for deal in range(3):
        for tested, other in (("rule", "random"), ("random", "rule")):
            tables = {r["table"] for r in rows if r["deal"] == deal and r["tested"] == tested}
            assert tables == {"ref", "0", "1", "2", "3"}
            for row in rows:
                if row["deal"] == deal and row["tested"] == tested:
                    expected = tested if row["table"] == str(row["seat"]) else other
                    assert row["bot"] == expected
        seeds = {r["deal_seed"] for r in rows if r["deal"] == deal}
        assert len(seeds) == 1
    report = make_report(rules, RULE, RANDOM, 3, 5, rows)
    write_csv(rows, tmp_path / "results.csv")
    write_json(report, tmp_path / "summary.json")
    write_chart(report, rows, tmp_path / "advantage.png")
    stored = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert stored["summary"] == summarize(read_csv(tmp_path / "results.csv"))
    assert set(stored["summary"]) == {"rule", "random"}
    assert (tmp_path / "advantage.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for stats in stored["summary"].values():
        assert stats["deals"] == 3
        assert stats["advantage"]["mean"] is not None


def test_reproducible_with_workers() -> None:
    rules = RuleSet.hongwu()
    one = run_arena(rules, RULE, RANDOM, deals=2, seed=9, jobs=1)
    two = run_arena(rules, RULE, RANDOM, deals=2, seed=9, jobs=2)
    assert one == two
    assert run_arena(rules, RULE, RANDOM, deals=2, seed=10) != one
    parts = run_arena(rules, RULE, RANDOM, deals=1, seed=9) + run_arena(
        rules, RULE, RANDOM, deals=1, seed=9, start=1)
    assert parts == one


def test_same_bot_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="differ"):
        run_arena(RuleSet.baofen(), RULE, RULE, deals=1, seed=0)


def test_cli_writes_csv_json_and_png(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["arena", "--variant", "hongwu", "--bots", "rule,random", "--deals", "2", "--seed", "3",
         "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "advantage" in result.output
    report = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert report["bots"] == ["rule", "random"] and report["deals"] == 2
    assert len(read_csv(out / "results.csv")) == 2 * 2 * 5 * 4
    assert (out / "advantage.png").stat().st_size > 1000
    bad = CliRunner().invoke(app, ["arena", "--bots", "rule", "--out", str(out)])
    assert bad.exit_code != 0


def test_without_matplotlib_the_arena_still_writes_its_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    with pytest.raises(ChartUnavailable, match=r"pip install 'baofen\[arena\]'"):
        write_chart({}, [], tmp_path / "advantage.png")
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["arena", "--bots", "rule,random", "--deals", "1", "--jobs", "1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "No chart" in result.output and "baofen[arena]" in result.output
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["deals"] == 1
    assert len(read_csv(out / "results.csv")) == 2 * 5 * 4
    assert not (out / "advantage.png").exists()
