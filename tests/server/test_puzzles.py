"""Puzzles over REST: the shipped set stored on first start, a puzzle sent as its seat saw it
(no other seat's cards, no answer, before the answer), answers judged, bad answers refused with
a reason, signed-in ratings moving both ways, guests unrated, the daily puzzle."""

from __future__ import annotations

from collections import Counter

import httpx

from baofen.hand import Hand
from baofen.puzzles.shipped import shipped

from .accounts import sign_up
from .harness import ThreadServer


def _card_lists(node: object) -> list[str]:
    """Every card name that appears as a list element anywhere in ``node`` (the 记牌器's keys
    name every kind, and are counts, not cards)."""
    if isinstance(node, dict):
        return [c for value in node.values() for c in _card_lists(value)]
    if isinstance(node, list):
        own = [c for c in node if isinstance(c, str) and len(c) == 2]
        return own + [c for value in node for c in _card_lists(value)]
    return []


def test_a_puzzle_is_sent_without_hidden_cards_or_answer(server: ThreadServer) -> None:
    with httpx.Client(base_url=server.base) as client:
        for game in ("baofen", "hongwu"):
            got = client.get("/api/puzzles/next", params={"game": game})
            assert got.status_code == 200, got.text
            question = got.json()
            stored = {p["id"]: p for p in shipped(game)}[question["id"]]
            assert not {"record", "options", "best", "hint", "reason", "themes"} & set(question)
            hand = Hand.from_record(stored["record"]).redeal(stored["action"])
            seen = hand.observation(stored["seat"])
            entitled = Counter(str(c) for c in seen.hand)
            entitled += Counter(str(c) for c in seen.played_cards())
            entitled += Counter(str(c) for c in (seen.kitty or ()) + (seen.buried or ())
                                + (seen.current_attempt or ()))
            sent = Counter(_card_lists(question))
            assert not sent - entitled, f"cards not the seat's sent: {sent - entitled}"
            hidden = Counter(str(c) for other in range(4) if other != stored["seat"]
                             for c in hand.observation(other).hand)
            assert sum(hidden.values()) > 0  # there were hidden cards to leak


def test_answers_are_judged_and_guests_unrated(server: ThreadServer) -> None:
    with httpx.Client(base_url=server.base) as client:
        question = client.get("/api/puzzles/next", params={"game": "baofen"}).json()
        stored = {p["id"]: p for p in shipped("baofen")}[question["id"]]
        result = client.post(f"/api/puzzles/{question['id']}/answer",
                             json=_answer(stored, stored["best"]))
        assert result.status_code == 200, result.text
        body = result.json()
        assert body["solved"] and body["rating"] is None and body["solver"] is None
        assert [o["move"] for o in body["options"]] == [o["move"] for o in stored["options"]]
        assert sum(o["best"] for o in body["options"]) == 1


def test_a_bad_answer_is_refused_with_a_reason(server: ThreadServer) -> None:
    with httpx.Client(base_url=server.base) as client:
        plays = [p for p in shipped("baofen") if p["kind"] == "play"]
        got = client.post(f"/api/puzzles/{plays[0]['id']}/answer", json={"cards": ["SA"] * 9})
        assert got.status_code == 422
        assert got.json()["detail"]["reason"] == "illegal_play"
        missing = client.post("/api/puzzles/nosuchpuzzle/answer", json={"cards": ["SA"]})
        assert missing.status_code == 404
        assert missing.json()["detail"]["reason"] == "no_such_puzzle"


def test_a_signed_in_solvers_rating_moves_both_ways(server: ThreadServer) -> None:
    client = sign_up(server.base, "solver1")
    puzzles = {p["id"]: p for p in shipped("hongwu")}
    first = client.get("/api/puzzles/next", params={"game": "hongwu"}).json()
    won = client.post(f"/api/puzzles/{first['id']}/answer",
                      json=_answer(puzzles[first["id"]], puzzles[first["id"]]["best"])).json()
    assert won["solved"] and won["rating"]["change"] > 0 and won["solver"]["streak"] == 1
    second = client.get("/api/puzzles/next", params={"game": "hongwu"}).json()
    assert second["id"] != first["id"]
    wrong = puzzles[second["id"]]["options"][1]["move"]
    lost = client.post(f"/api/puzzles/{second['id']}/answer",
                       json=_answer(puzzles[second["id"]], wrong)).json()
    assert not lost["solved"] and lost["rating"]["change"] < 0 and lost["solver"]["streak"] == 0
    me = client.get("/api/puzzles/me", params={"game": "hongwu"}).json()
    assert me["solver"]["attempts"] == 2 and len(me["history"]) == 2
    assert httpx.get(f"{server.base}/api/puzzles/me").status_code == 401


def test_the_daily_puzzle_is_the_same_for_everyone(server: ThreadServer) -> None:
    one = httpx.get(f"{server.base}/api/puzzles/daily", params={"game": "baofen"}).json()
    two = httpx.get(f"{server.base}/api/puzzles/daily", params={"game": "baofen"}).json()
    assert one["id"] == two["id"] and one["daily"]


def _answer(puzzle: dict[str, object], move: str) -> dict[str, object]:
    """An option's text as an answer body."""
    kind = puzzle["kind"]
    if kind == "play":
        return {"cards": move.split()}
    if kind == "bid":
        return {"bid": move if move == "pass" else int(move)}
    trump, _, bury = move.partition(":")
    return {"trump": trump.strip(), "bury": bury.split()}
