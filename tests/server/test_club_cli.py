"""``baofen club`` on a database: an organiser creates a club, invites, sets a preset, lists the
members and presets and exports the results as CSV; a member who is no admin is refused in one
line naming the reason."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from baofen.store import Store
from baofen.store.accounts import Accounts, SeatResult, hand_results
from baofen.store.club_records import ClubRecords
from baofen.store.clubs import Clubs

from .harness import ROOT


def club(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "baofen", "club", *args, "--db", db],
                          env=env, capture_output=True, text=True, timeout=60, check=False)


def test_an_organisers_club_commands(db_url: str, tmp_path: Path) -> None:
    store = Store(db_url)
    accounts = Accounts(store)
    org, ann = (accounts.create(n, n.lower(), n.lower(), "hash").id for n in ("Org", "Ann"))
    store.close()
    made = club(db_url, "create", "周末圈", "--as", "Org")
    assert made.returncode == 0, made.stderr
    ident = made.stdout.split("\t")[0]
    link = club(db_url, "invite", ident, "--as", "Org", "--uses", "1",
                "--base", "https://example.org")
    assert link.stdout.startswith("https://example.org/clubs/join/")
    store = Store(db_url)
    Clubs(store).join(link.stdout.strip().rsplit("/", 1)[1], ann)
    store.close()
    refused = club(db_url, "invite", ident, "--as", "Ann")
    assert refused.returncode == 1 and "not_admin" in refused.stderr
    bad = club(db_url, "preset", ident, "x", "--as", "Org", "--rules", '{"hands": 0}')
    assert bad.returncode == 2 and "not a preset" in bad.stderr
    saved = club(db_url, "preset", ident, "周六场", "--as", "Org", "--rules",
                 '{"variant": "hongwu", "hands": 4}')
    assert saved.returncode == 0, saved.stderr
    assert club(db_url, "presets", ident, "--as", "Ann").stdout.startswith("周六场\t")
    listed = club(db_url, "members", ident, "--as", "Ann").stdout.splitlines()
    assert [line.split("\t")[:2] for line in listed] == [["Org", "owner"], ["Ann", "member"]]
    store = Store(db_url)
    store.create_table("t1", {"variant": "hongwu"}, {}, 1)
    ClubRecords(store).opened("t1", ident, ann, "周六场")
    seats = [SeatResult(0, "human", org, None), SeatResult(1, "human", ann, None),
             SeatResult(2, "bot", None, "easy"), SeatResult(3, "bot", None, "easy")]
    store.commit([hand_results("t1", 1, "hongwu", False, True, seats,
                               SimpleNamespace(declarer=1, made=True), [-1, 3, -1, -1])])
    store.close()
    out = tmp_path / "club.csv"
    exported = club(db_url, "results", ident, "--as", "Org", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(r["username"], r["role"], r["result"]) for r in rows] == [
        ("Org", "defender", "-1"), ("Ann", "declarer", "3")]
