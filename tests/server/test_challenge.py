"""每日复式挑战 against a real server: deals played end to end at tables with computer players,
every entrant dealt the same cards in the same seat, the scores recomputed from the hand records
(independently of the scoring code), once a day an entrant, and every attempt of an entrant who
knows the code to see a deal's results, replays, traveller or statistics before finishing it,
or a day's deals before the day, refused (REST and WebSocket)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import httpx
import pytest

from baofen import Hand
from baofen.server import ServerConfig

from .accounts import sign_up
from .challenge import move_clock, play_deal, play_next
from .harness import FAST, Client, ThreadServer

DEALS = 2


@pytest.fixture
def live(db_url: str) -> Iterator[ThreadServer]:
    """A server whose challenge has two deals against random computer players."""
    server = ThreadServer(ServerConfig(db=db_url, challenge_deals=DEALS,
                                       challenge_level="random", **FAST))
    yield server
    server.stop()


def browser(server: ThreadServer) -> httpx.Client:
    """A new browser (its own cookie jar)."""
    return httpx.Client(base_url=server.base, timeout=30)


def seat_result(base: str, code: str, seat: int) -> int:
    """The seat's result, worked out again from the table's hand record by the engine."""
    record = httpx.get(f"{base}/api/tables/{code}/hands/1").json()
    result = Hand.from_record(record).result
    assert result is not None
    return int(result.deltas[seat])


def naive_percentage(mine: int, others: list[int]) -> float:
    """Matchpoints as a bridge scorer counts them by hand: 1 a result beaten, ½ a tie."""
    if not others:
        return 50.0
    points = sum(1.0 if mine > other else 0.5 if mine == other else 0.0 for other in others)
    return 100.0 * points / len(others)


def refused(answer: httpx.Response, status: int, reason: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["detail"]["reason"] == reason


def test_two_entrants_play_the_same_deals_and_are_scored_as_duplicate(
        live: ThreadServer) -> None:
    ann, bob = browser(live), browser(live)
    tables: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": []}
    for name, who in (("ann", ann), ("bob", bob)):
        for number in range(1, DEALS + 1):
            table = play_next(who)
            assert table["deal"] == number and table["token"]
            play_deal(live.base, table, seed=number)
            tables[name].append(table)
        refused(who.post("/api/challenge/baofen/play", json={}), 409, "challenge_finished")
    results: dict[str, list[int]] = {"ann": [], "bob": []}
    for number in range(DEALS):
        a, b = tables["ann"][number], tables["bob"][number]
        assert a["seat"] == b["seat"] and a["code"] != b["code"]
        records = [httpx.get(f"{live.base}/api/tables/{t['code']}/hands/1").json()
                   for t in (a, b)]
        assert records[0]["deal"] == records[1]["deal"]  # the same cards for everyone
        assert records[0]["first"] == records[1]["first"]
        for name, table in (("ann", a), ("bob", b)):
            results[name].append(seat_result(live.base, table["code"], table["seat"]))
    state = ann.get("/api/challenge/baofen").json()
    assert state["finished"] and state["entrants"] == 2
    expected = []
    for number, deal in enumerate(state["deals"]):
        mine, theirs = results["ann"][number], results["bob"][number]
        assert deal["status"] == "finished" and deal["result"] == mine
        assert deal["percentage"] == pytest.approx(naive_percentage(mine, [theirs]))
        expected.append(naive_percentage(mine, [theirs]))
        traveller = ann.get(f"/api/challenge/baofen/deals/{number + 1}").json()
        assert sorted(row["result"] for row in traveller["rows"]) == sorted([mine, theirs])
        assert all(row["contract"] is not None for row in traveller["rows"])
    assert state["standing"]["percentage"] == pytest.approx(sum(expected) / DEALS, abs=0.01)
    assert state["standing"]["total"] == sum(results["ann"])
    board = bob.get("/api/challenge/baofen/leaderboard", params={"period": "day"}).json()
    assert board["entrants"] == 2 and sum(row["you"] for row in board["rows"]) == 1


def test_nothing_of_a_deal_crosses_before_the_entrant_finished_it(live: ThreadServer) -> None:
    ann, bob = browser(live), browser(live)
    first = play_next(ann)
    again = play_next(ann)  # asked again before the deal is over: the same table, no token
    assert (again["code"], again["deal"], again["token"]) == (first["code"], 1, None)
    play_deal(live.base, first)
    # Bob has started deal 1 but not finished it: everything about it is refused.
    table = play_next(bob)
    refused(bob.get("/api/challenge/baofen/deals/1"), 403, "deal_not_finished")
    refused(bob.get("/api/challenge/baofen/deals/2"), 403, "deal_not_finished")
    refused(bob.get("/api/challenge/baofen/leaderboard"), 403, "challenge_not_finished")
    refused(httpx.get(f"{live.base}/api/challenge/baofen/deals/1"), 403, "deal_not_finished")
    state = bob.get("/api/challenge/baofen")
    assert first["code"] not in state.text
    deals = state.json()["deals"]
    assert deals[0]["status"] == "playing" and deals[0]["result"] is None
    assert deals[1] == {"number": 2, "status": "waiting", "seat": None, "table_code": None,
                        "result": None, "percentage": None, "contract": None}
    # Bob's own table: no record, no seed, not listed; other tables nowhere to be found.
    assert httpx.get(f"{live.base}/api/tables/{table['code']}/hands/1").status_code == 404
    assert httpx.get(f"{live.base}/api/tables/{table['code']}/records").json() == []
    listing = httpx.get(f"{live.base}/api/tables").text
    assert first["code"] not in listing and table["code"] not in listing
    # A day still to come: its deals are not drawn, its results not shown.
    tomorrow = tomorrow_of(live)
    refused(bob.get("/api/challenge/baofen/deals/1", params={"day": tomorrow}), 404,
            "no_such_day")
    refused(bob.get("/api/challenge/baofen/leaderboard", params={"day": tomorrow}), 404,
            "no_such_day")
    # Ann's traveller of deal 1 shows no other entrant's table while the day goes on.
    rows = ann.get("/api/challenge/baofen/deals/1").json()["rows"]
    assert [row["you"] for row in rows] == [True] and rows[0]["table_code"] == first["code"]
    # Over the WebSocket: Bob's seat sees its own cards only, and no seed; its attempts to
    # reach other seats or restart the table are refused.
    client = Client(live.base, table["code"])
    try:
        client.send(type="reclaim", token=table["token"])
        client.expect("joined")
        state_text = json.dumps(client.snapshot())
        assert first["code"] not in state_text and '"seed"' not in state_text
        for attack in ({"type": "join", "seat": (table["seat"] + 1) % 4, "name": "x"},
                       {"type": "fill_bots", "level": "random"}, {"type": "start"}):
            client.send(**attack)
            assert client.expect("error")["code"] in {"already_started", "already_joined"}
    finally:
        client.close()


def tomorrow_of(server: ThreadServer) -> str:
    """The day after the server's challenge day, in ISO form."""
    day = date.fromisoformat(httpx.get(f"{server.base}/api/challenge/baofen").json()["day"])
    return (day + timedelta(days=1)).isoformat()


def test_after_the_day_everyone_s_play_is_shown_and_the_periods_rank_accounts(
        live: ThreadServer) -> None:
    ann = sign_up(live.base, "ann")
    guest = browser(live)
    codes = []
    for who in (ann, guest):
        table = play_next(who)
        play_deal(live.base, table)
        codes.append(table["code"])
    # A profile shows no challenge table, and counts no challenge hand in its statistics (its
    # hands are the challenge's to show, to those who finished the deal).
    profile = httpx.get(f"{live.base}/api/players/ann")
    assert codes[0] not in profile.text
    assert profile.json()["games"]["baofen"]["hands"] == 0
    history = ann.get("/api/challenge/baofen/history").json()
    assert [(day["deals"], day["rank"]) for day in history["days"]] == [(1, None)]
    assert httpx.get(f"{live.base}/api/challenge/baofen/history",
                     params={"player": "ann"}).json()["days"] == []  # today: hers only
    day = guest.get("/api/challenge/baofen").json()["day"]
    move_clock(live, 1)
    rows = guest.get("/api/challenge/baofen/deals/1", params={"day": day}).json()["rows"]
    assert sorted(row["table_code"] for row in rows) == sorted(codes)
    for row in rows:
        assert httpx.get(f"{live.base}{row['replay']}").status_code == 200
    board = httpx.get(f"{live.base}/api/challenge/baofen/leaderboard",
                      params={"period": "all"}).json()
    assert board["min_days"] == 3 and board["rows"] == []  # one day played of three
    live.app.state.config = live.app.state.config.model_copy(update={"challenge_min_days": 1})
    live.app.state.challenge.config = live.app.state.config
    live.app.state.challenge.results._periods.clear()
    board = ann.get("/api/challenge/baofen/leaderboard", params={"period": "week"}).json()
    assert [(row["name"], row["you"], row["count"]) for row in board["rows"]] == [
        ("ann", True, 1)]
    # Yesterday's challenge is over: a new day, new deals, a new entry.
    assert play_next(guest)["deal"] == 1


def test_a_hongwu_deal_is_scored_in_levels_from_its_record(live: ThreadServer) -> None:
    guest = browser(live)
    table = play_next(guest, "hongwu")
    play_deal(live.base, table, "hongwu")
    deal = guest.get("/api/challenge/hongwu").json()["deals"][0]
    record = httpx.get(f"{live.base}/api/tables/{table['code']}/hands/1").json()
    assert record["rules"]["variant"] == "hongwu"
    assert deal["result"] == seat_result(live.base, table["code"], table["seat"])
    assert deal["percentage"] == 50.0  # nobody else has played it
    traveller = guest.get("/api/challenge/hongwu/deals/1").json()
    assert traveller["entrants"] == 1 and traveller["yours"]["you"]
    refused(guest.get("/api/challenge/baofen/deals/1"), 403, "deal_not_finished")  # other game


def test_a_day_without_a_challenge_has_no_deals_and_asking_writes_none(
        live: ThreadServer) -> None:
    refused(httpx.get(f"{live.base}/api/challenge/baofen/deals/1",
                      params={"day": "2001-01-01"}), 404, "no_such_deal")
    service = live.app.state.challenge
    assert service.challenges.kept_deals("baofen", "2001-01-01") == []
