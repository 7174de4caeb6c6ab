"""Local tournaments among computer players: ``baofen tournament run`` and what it writes."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baofen.arena import BotSpec
from baofen.cli.root import app
from baofen.competition.local import Plan, parse_entrants, run_event
from baofen.competition.schedule import Format
from baofen.hand import Hand
from baofen.ruleset import RuleSet


def _recomputed_percentages(hands: list[dict]) -> dict[str, float]:
    """Each entrant's mean matchpoint percentage, counted pair by pair from the hand records
    alone (not with the scoring code)."""
    by_board: dict[tuple[int, int, int], list[tuple[str, int]]] = defaultdict(list)
    for line in hands:
        deltas = line["record"]["result"]["deltas"]
        for seat, entrant in enumerate(line["seats"]):
            by_board[line["round"], line["deal"], seat].append((entrant, deltas[seat]))
    shares: dict[str, list[float]] = defaultdict(list)
    for board in by_board.values():
        for entrant, mine in board:
            others = [r for e, r in board if e != entrant]
            if not others:
                shares[entrant].append(50.0)
                continue
            won = sum(1.0 if mine > r else 0.5 if mine == r else 0.0 for r in others)
            shares[entrant].append(100 * won / len(others))
    return {e: sum(s) / len(s) for e, s in shares.items()}


def test_a_duplicate_run_writes_standings_and_every_hand(tmp_path: Path) -> None:
    out = tmp_path / "event"
    result = CliRunner().invoke(app, [
        "tournament", "run", "--game", "baofen", "--format", "duplicate",
        "--entrants", "rule*5,easy*2", "--rounds", "2", "--deals", "2", "--workers", "2",
        "--out", str(out)])
    assert result.exit_code == 0, result.output
    hands = [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]
    assert len(hands) == 2 * 2 * 2  # rounds × tables × deals
    for line in hands:  # every record replays to the result it states
        hand = Hand.from_record(line["record"])
        assert hand.result is not None
        assert list(hand.result.deltas) == line["record"]["result"]["deltas"]
    # The same deal at every table of a round.
    deals = {(h["round"], h["deal"]): h["record"]["deal"] for h in hands if h["table"] == 0}
    assert all(h["record"]["deal"] == deals[h["round"], h["deal"]] for h in hands)
    summary = json.loads((out / "event.json").read_text())
    assert [f["name"] for f in summary["fillers"]] == ["computer-1"]
    expected = _recomputed_percentages(hands)
    for line in summary["standings"]:
        assert line["points"] == pytest.approx(expected[line["entrant"]], abs=0.01)
    with (out / "standings.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["entrant"] for r in rows if r["filler"] == "True"] == ["computer-1"]
    assert rows[-1]["rank"] == ""
    assert sorted(int(r["rank"]) for r in rows[:-1])[0] == 1


def test_a_run_is_the_same_whatever_the_workers() -> None:
    plan = Plan(RuleSet.create(variant="hongwu"), Format.swiss, rounds=2, deals=1, seed=3)
    entrants = parse_entrants("rule*4,easy*4")
    one = run_event(plan, entrants, jobs=1)
    two = run_event(plan, entrants, jobs=2)
    assert one.standings == two.standings and one.tables == two.tables
    # The second Swiss round seats by standing: its table 0 holds the top four that can meet.
    assert len(one.tables[1]) == 2


def test_entrants_parsed_and_faults_named() -> None:
    names = [e.name for e in parse_entrants("hard, rule*3,search:iterations=8")]
    assert names == ["hard", "rule", "rule-2", "rule-3", "search:iterations=8"]
    with pytest.raises(ValueError, match="count of at least 1"):
        parse_entrants("rule*0")
    with pytest.raises(ValueError, match="at least one entrant"):
        parse_entrants(" , ")
    with pytest.raises(ValueError, match="4 table ranks"):
        Plan(RuleSet.create(), Format.swiss, 1, 1, points=(1.0, 0.0), filler=BotSpec("rule"))
    bad = CliRunner().invoke(app, ["tournament", "run", "--entrants", "nosuchbot"])
    assert bad.exit_code != 0 and "nosuchbot" in bad.output
    bad = CliRunner().invoke(app, ["tournament", "run", "--format", "swiss", "--points", "4/2"])
    assert bad.exit_code != 0 and "4 table ranks" in bad.output
