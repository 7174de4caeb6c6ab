"""Tournaments against a real server (``baofen serve`` in a subprocess): registration and its
refusals, two people and computers through a two-round duplicate whose standings are counted
again from the hand records alone, nothing crossing between tables during a round, and a
kill -9 mid-round."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from baofen import Hand, RuleSet

from .accounts import refused, session, sign_up
from .databases import Database, database
from .harness import Client, ProcessServer, Seated, finished, free_port

PEOPLE_ENV = {"BAOFEN_DROP_GRACE": "30"}
"""People get time to come to their table; absent entrants are played on their timers."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ProcessServer]:
    process = ProcessServer(f"sqlite:///{tmp_path / 'events.db'}", free_port(), PEOPLE_ENV)
    yield process
    process.stop()


def _create(organiser: httpx.Client, start_in: float, **settings: Any) -> str:
    start = (datetime.now(UTC) + timedelta(seconds=start_in)).isoformat()
    body = {"rules": {"variant": "baofen"},
            "settings": {"name": "周末复式", "start": start, "bot_level": "easy",
                         "play_seconds": 1.0, "break_seconds": 1.0, **settings}}
    response = organiser.post("/api/tournaments", json=body)
    assert response.status_code == 201, response.text
    code: str = response.json()["code"]
    return code


def _info(base: str, code: str) -> dict[str, Any]:
    response = httpx.get(f"{base}/api/tournaments/{code}")
    assert response.status_code == 200, response.text
    info: dict[str, Any] = response.json()
    return info


def _wait(base: str, code: str, done: Any, limit: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        info = _info(base, code)
        if done(info):
            return info
        time.sleep(0.1)
    raise AssertionError(f"the tournament did not get there: {_info(base, code)}")


def _my_table(http: httpx.Client, code: str, number: int,
              token: str | None = None) -> dict[str, Any]:
    headers = {"X-Entrant-Token": token} if token else {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        response = http.get(f"/api/tournaments/{code}/mine", headers=headers)
        if response.status_code == 200 and response.json()["round"] == number:
            mine: dict[str, Any] = response.json()
            return mine
        time.sleep(0.1)
    raise AssertionError(f"no table in round {number}")


def _recomputed(base: str, info: dict[str, Any]) -> dict[int, float]:
    """Each entrant's mean matchpoint percentage counted from the tables' hand records alone:
    every record replayed, and each deal's result compared with the same seat's at every other
    table of the round, pair by pair."""
    boards: dict[tuple[int, int, int], list[tuple[int, int]]] = defaultdict(list)
    for table in info["tables"]:
        records = httpx.get(f"{base}/api/tables/{table['code']}/records").json()
        assert len(records) == info["settings"]["hands"]
        for deal, record in enumerate(records):
            hand = Hand.from_record(record)  # replays every action; checks the stated result
            assert hand.result is not None
            for seat, entrant in enumerate(table["entrants"]):
                boards[table["round"], deal, seat].append((entrant, hand.result.deltas[seat]))
    shares: dict[int, list[float]] = defaultdict(list)
    for board in boards.values():
        for entrant, mine in board:
            others = [r for e, r in board if e != entrant]
            won = sum(1.0 if mine > r else 0.5 if mine == r else 0.0 for r in others)
            shares[entrant].append(100 * won / len(others) if others else 50.0)
    return {e: sum(s) / len(s) for e, s in shares.items()}


def test_two_people_and_computers_play_a_two_round_duplicate(server: ProcessServer) -> None:
    base = server.base
    ann = sign_up(base, "ann")
    code = _create(ann, start_in=6, rounds=2, hands=2, seat_limit=6)
    anon = httpx.Client(base_url=base)
    # Registration, and each refusal named with nothing changed.
    assert ann.post(f"/api/tournaments/{code}/entrants", json={}).json()["number"] == 1
    refused(ann.post(f"/api/tournaments/{code}/entrants", json={}), 409, "already_registered",
            key="code")
    refused(anon.post(f"/api/tournaments/{code}/entrants", json={}), 400, "name_required",
            key="code")
    bob = anon.post(f"/api/tournaments/{code}/entrants", json={"name": "Bob"}).json()
    refused(anon.post(f"/api/tournaments/{code}/entrants", json={"name": "bob"}), 409,
            "name_taken", key="code")
    absent = [anon.post(f"/api/tournaments/{code}/entrants", json={"name": f"Absent{i}"})
              .json() for i in range(4)]
    refused(anon.post(f"/api/tournaments/{code}/entrants", json={"name": "Late"}), 409,
            "tournament_full", key="code")
    refused(anon.delete(f"/api/tournaments/{code}/entrants/1",
                        headers={"X-Entrant-Token": bob["token"]}), 403, "not_organiser",
            key="code")
    gone = absent.pop()
    assert anon.delete(f"/api/tournaments/{code}/entrants/{gone['number']}",
                       headers={"X-Entrant-Token": gone["token"]}).status_code == 204
    refused(sign_up(base, "cyril").delete(f"/api/tournaments/{code}/entrants/{bob['number']}"),
            403, "not_organiser", key="code")
    assert ann.delete(f"/api/tournaments/{code}/entrants/{absent[-1]['number']}"
                      ).status_code == 204  # the organiser removes an entrant
    before = _info(base, code)
    assert [e["name"] for e in before["entrants"]] == ["ann", "Bob", "Absent0", "Absent1"]
    assert before["status"] == "registering" and before["next_start"]
    # Five with one more absent: ann, Bob, two absent guests → 1 table; add one → 2 tables.
    absent.append(anon.post(f"/api/tournaments/{code}/entrants", json={"name": "Absent9"})
                  .json())

    rules = RuleSet.baofen()
    for number in (1, 2):
        mine_ann = _my_table(ann, code, number)
        mine_bob = _my_table(anon, code, number, bob["token"])
        running = _info(base, code)
        assert running["status"] == "playing"
        assert all(t["code"] is None for t in running["tables"] if t["round"] == number)
        if number == 1:  # nothing crosses: no spectator, no traveller of an unfinished deal
            spy = Client(base, mine_ann["code"])
            spy.send(type="watch")
            assert spy.expect("error")["code"] == "no_spectators"
            spy.close()
            refused(anon.get(f"/api/tournaments/{code}/travellers/1/1"), 409, "not_finished",
                    key="code")
            refused(ann.post(f"/api/tournaments/{code}/entrants", json={}), 409,
                    "registration_closed", key="code")
        players = []
        for mine, cookie, token, seed in ((mine_ann, session(ann), None, 1),
                                          (mine_bob, None, bob["token"], 2)):
            client = Client(base, mine["code"], session=cookie)
            client.send(type="reclaim", token=token)
            assert client.expect("joined")["seat"] == mine["seat"]
            players.append(Seated(client, rules, seed=seed))
        deadline = time.monotonic() + 120
        while not all(p.client.state and finished(p.client.state) for p in players):
            assert time.monotonic() < deadline, "the round did not finish"
            for player in players:
                player.poll(0.02)
        for player in players:
            assert player.acked  # the person played their own cards
            player.client.close()

    info = _wait(base, code, lambda i: i["status"] == "finished")
    assert len(info["tables"]) == 4  # two rounds of two tables
    fillers = [e for e in info["entrants"] if e["filler"]]
    assert len(fillers) == 3
    assert all(line["rank"] is None for line in info["standings"] if line["filler"])
    assert sorted(line["rank"] for line in info["standings"] if not line["filler"])[0] == 1
    expected = _recomputed(base, info)
    for line in info["standings"]:
        assert line["hands"] == 4
        assert line["points"] == pytest.approx(expected[line["number"]], abs=0.01)
    traveller = httpx.get(f"{base}/api/tournaments/{code}/travellers/1/1").json()
    assert [line["table"] for line in traveller["lines"]] == [0, 1]
    # Each person met new opponents in round 2, on another seat.
    seats = {t["round"]: t for t in info["tables"] if 1 in t["entrants"]}
    assert seats[1]["entrants"].index(1) != seats[2]["entrants"].index(1)
    listed = httpx.get(f"{base}/api/tournaments").json()
    assert listed[0]["code"] == code and listed[0]["organiser"] == "ann"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    yield from database(request.param, tmp_path)


def test_a_round_survives_kill_minus_9(db: Database) -> None:
    env = {"BAOFEN_BOT_DELAY": "0.02", **({"BAOFEN_DB_SCHEMA": db.schema} if db.schema else {})}
    server = ProcessServer(db.url, free_port(), env)
    organiser = sign_up(server.base, "org")
    code = _create(organiser, start_in=5, rounds=2, hands=3, seat_limit=8)
    # Six guests who never come: the computer plays them, and two fillers the rest.
    anon = httpx.Client(base_url=server.base)
    for i in range(6):
        assert anon.post(f"/api/tournaments/{code}/entrants",
                         json={"name": f"G{i}"}).status_code == 201
    _wait(server.base, code, lambda i: i["status"] == "playing" and i["counted"] >= 1)
    server.kill()
    server = ProcessServer(db.url, free_port(), env)
    try:
        info = _wait(server.base, code, lambda i: i["status"] == "finished", limit=180)
    finally:
        server.stop()
    assert len(info["tables"]) == 4
    assert all(line["hands"] == 6 for line in info["standings"])


def test_the_command_line_creates_and_lists_events(server: ProcessServer) -> None:
    from typer.testing import CliRunner

    from baofen.cli.root import app

    from .accounts import PASSWORD

    sign_up(server.base, "organiser")
    runner = CliRunner()
    made = runner.invoke(app, [
        "tournament", "create", "--server", server.base, "--username", "organiser",
        "--name", "周五瑞士", "--format", "swiss", "--rounds", "3", "--start", "+30"],
        env={"BAOFEN_PASSWORD": PASSWORD})
    assert made.exit_code == 0, made.output
    code = made.output.split(":")[0]
    info = _info(server.base, code)
    assert info["settings"]["format"] == "swiss" and info["organiser"] == "organiser"
    listed = runner.invoke(app, ["tournament", "list", "--server", server.base],
                           env={"COLUMNS": "200"})
    assert listed.exit_code == 0 and code in listed.output and "swiss" in listed.output
    refused = runner.invoke(app, [
        "tournament", "create", "--server", server.base, "--username", "organiser"],
        env={"BAOFEN_PASSWORD": "wrong password"})
    assert refused.exit_code != 0 and "refused POST /api/login" in refused.output


def test_a_swiss_event_seats_by_standing_and_ranks_by_table_points(
        server: ProcessServer) -> None:
    organiser = sign_up(server.base, "swiss")
    code = _create(organiser, start_in=4, rounds=2, hands=2, seat_limit=8, format="swiss",
                   points=[5, 3, 1, 0])
    anon = httpx.Client(base_url=server.base)
    for i in range(5):  # absent guests: the computer plays them; three fillers the rest
        assert anon.post(f"/api/tournaments/{code}/entrants",
                         json={"name": f"S{i}"}).status_code == 201
    info = _wait(server.base, code, lambda i: i["status"] == "finished", limit=180)
    total = sum(line["points"] for line in info["standings"])  # each rounded to hundredths
    assert total == pytest.approx((5 + 3 + 1 + 0) * 2 * 2, abs=0.05)
    people = {e["number"] for e in info["entrants"] if not e["filler"]}
    first = [set(t["entrants"]) & people for t in info["tables"] if t["round"] == 1]
    second = [set(t["entrants"]) & people for t in info["tables"] if t["round"] == 2]
    # Five people at two tables twice: some pair meets again, but never three at one table.
    assert all(len(a & b) <= 2 for a in first for b in second)
    lines = [line for line in info["standings"] if not line["filler"]]
    assert lines[0]["rank"] == 1
    keys = [(line["points"], line["score"]) for line in lines]
    assert keys == sorted(keys, reverse=True)
