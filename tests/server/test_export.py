"""``baofen export``: a table's finished hands as a JSON file of hand records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from baofen import Hand, RuleSet
from baofen.wire.results import ResultView

from .harness import ROOT, Client, ThreadServer, create_table, play_until_finished


def run_export(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "baofen", "export", *args],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )


def test_export_writes_replayable_records(
    server: ThreadServer, db_url: str, tmp_path: Path
) -> None:
    rules = RuleSet.hongwu(hands=2)
    code = create_table(server.base, rules.to_dict(), timer=None)
    me = Client(server.base, code)
    me.join(0)
    me.send(type="fill_bots")
    me.send(type="start")
    final = play_until_finished([me], rules)
    out = tmp_path / "hands.json"
    done = run_export("--table", code, "--db", db_url, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "wrote 2 hand records" in done.stdout
    records = json.loads(out.read_text(encoding="utf-8"))
    assert isinstance(records, list) and len(records) == 2
    hands = [Hand.from_record(record) for record in records]
    history = final["table"]["match"]["history"]
    assert [
        ResultView.of(h.result).model_dump(mode="json") for h in hands if h.result
    ] == [e["result"] for e in history]
    assert all(record["seed"] is not None for record in records)  # the full record


def test_export_of_an_unknown_table(db_url: str, tmp_path: Path) -> None:
    done = run_export("--table", "nope", "--db", db_url, "--out", str(tmp_path / "x.json"))
    assert done.returncode == 1
    assert "no table has the code 'nope'" in done.stderr
    assert not (tmp_path / "x.json").exists()
