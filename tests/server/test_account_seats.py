"""Accounts at the table (SQLite and PostgreSQL): a signed-in player's seat is bound to the
account and follows it to another device, no other account can take it; rated hands change
the ratings, every hand counts in the player's history; a deleted account's hands stay,
anonymised."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from baofen import RuleSet
from baofen.accounts.usernames import DELETED_NAME

from .accounts import PASSWORD, session, sign_up
from .harness import Client, Seated, ThreadServer, create_table, finished


def error_code(client: Client) -> str:
    code: str = client.expect("error")["code"]
    return code


def test_a_seat_follows_its_account_and_no_other(db_server: ThreadServer) -> None:
    ann, bob = sign_up(db_server.base, "Ann"), sign_up(db_server.base, "Bob")
    code = create_table(db_server.base, RuleSet.baofen(hands=1).to_dict(), timer=None)
    laptop = Client(db_server.base, code, session(ann))
    joined = laptop.join(0, "any name")
    assert joined["name"] == "Ann"  # a signed-in player plays under the account's name
    second = Client(db_server.base, code, session(ann))
    second.send(type="join", seat=1, name="Ann again")
    assert error_code(second) == "seat_taken"  # one seat per account and table
    laptop.send(type="fill_bots", level="random")
    laptop.send(type="start")
    laptop.expect("ack")

    guest = Client(db_server.base, code)
    guest.send(type="reclaim")
    assert error_code(guest) == "not_signed_in"
    intruder = Client(db_server.base, code, session(bob))
    intruder.send(type="reclaim")
    assert error_code(intruder) == "bad_token"
    intruder.send(type="reclaim", token=joined["token"])  # even with the seat's token
    assert error_code(intruder) == "wrong_account"
    forged = Client(db_server.base, code, "f" * 43)
    forged.send(type="reclaim")
    assert error_code(forged) == "not_signed_in"
    # A page of another site opening the table with Ann's cookie is nobody (no CSWSH).
    elsewhere = Client(db_server.base, code, session(ann), origin="https://evil.example")
    elsewhere.send(type="reclaim")
    assert error_code(elsewhere) == "not_signed_in"

    phone = Client(db_server.base, code, session(ann), origin=db_server.base)
    phone.send(type="reclaim")
    back = phone.expect("joined")
    assert (back["seat"], back["name"]) == (0, "Ann")
    assert back["token"] and back["token"] != joined["token"]
    assert phone.expect("state")["you"] == 0
    assert error_code(laptop) == "replaced"
    stale = Client(db_server.base, code)
    stale.send(type="reclaim", token=joined["token"])
    assert error_code(stale) == "bad_token"  # the old token went with the reclaim
    seats = httpx.get(f"{db_server.base}/api/tables/{code}").json()["seats"]
    assert (seats[0]["name"], seats[0]["account"]) == ("Ann", True)
    assert [seat["account"] for seat in seats[1:]] == [False] * 3


def test_quickplay_binds_the_seat_and_is_rated(db_server: ThreadServer) -> None:
    cy = sign_up(db_server.base, "Cyd")
    played = cy.post("/api/quickplay", json={"variant": "hongwu", "name": "ignored"}).json()
    assert played["name"] == "Cyd"
    info = httpx.get(f"{db_server.base}/api/tables/{played['code']}").json()
    assert info["settings"]["rated"] is True
    phone = Client(db_server.base, played["code"], session(cy))
    phone.send(type="reclaim")
    assert phone.expect("joined")["seat"] == 0
    guest = httpx.post(f"{db_server.base}/api/quickplay", json={"variant": "hongwu"}).json()
    table = httpx.get(f"{db_server.base}/api/tables/{guest['code']}").json()
    assert table["settings"]["rated"] is False


def test_an_account_plays_one_rated_match_at_a_time(db_server: ThreadServer) -> None:
    def rated(code: str) -> bool:
        answer: bool = httpx.get(f"{db_server.base}/api/tables/{code}").json()["settings"]["rated"]
        return answer

    dee = sign_up(db_server.base, "Dee")
    first = dee.post("/api/quickplay", json={"variant": "baofen"}).json()
    assert rated(first["code"])
    # against the computer again while the first match goes on: played, not rated
    second = dee.post("/api/quickplay", json={"variant": "baofen"}).json()
    assert second["name"] == "Dee" and not rated(second["code"])
    friends = create_table(db_server.base, RuleSet.baofen().to_dict(), timer=None, rated=True)
    assert rated(friends)
    refused = Client(db_server.base, friends, session(dee))
    refused.send(type="join", seat=1, name="Dee")
    assert error_code(refused) == "rated_elsewhere"
    seats = httpx.get(f"{db_server.base}/api/tables/{friends}").json()["seats"]
    assert all(seat["kind"] is None for seat in seats), "a refused join took no seat"
    casual = create_table(db_server.base, RuleSet.baofen().to_dict(), timer=None, rated=False)
    assert Client(db_server.base, casual, session(dee)).join(0, "Dee")["name"] == "Dee"


def play(base: str, rules: RuleSet, player: httpx.Client, rated: bool, seed: int) -> str:
    """A match of the signed-in ``player`` at seat 0 against random computer players."""
    code = create_table(base, rules.to_dict(), timer=None, rated=rated)
    me = Seated(Client(base, code, session(player)), rules, seed=seed)
    me.client.join(0, "me")
    me.client.send(type="fill_bots", level="random")
    me.client.send(type="start")
    me.until(finished)
    me.client.close()
    return code


def test_rated_hands_ratings_history_and_deletion(db_server: ThreadServer) -> None:
    ann = sign_up(db_server.base, "Ann")
    rated = play(db_server.base, RuleSet.baofen(hands=3), ann, rated=True, seed=3)
    unrated = play(db_server.base, RuleSet.hongwu(hands=1), ann, rated=False, seed=4)

    summaries = httpx.get(f"{db_server.base}/api/tables/{rated}/hands").json()
    declared = [s for s in summaries if s["result"]["declarer"] is not None]
    assert declared, "random players bid half the time: some hand had a declarer"
    profile = httpx.get(f"{db_server.base}/api/players/ann").json()
    game = profile["games"]["baofen"]
    mine = [s for s in declared if s["result"]["declarer"] == 0]
    assert game["hands"] == game["rated_hands"] == len(declared)
    assert (game["as_declarer"], game["as_defender"]) == (len(mine), len(declared) - len(mine))
    assert game["average_result"] == pytest.approx(
        sum(s["deltas"][0] for s in declared) / len(declared), abs=0.01
    )
    if mine:
        made = sum(s["result"]["made"] for s in mine) / len(mine)
        assert game["made_rate"] == pytest.approx(made, abs=1e-3)
    assert game["rating"] != {"mu": 25.0, "sigma": 8.333, "display": 0.0}
    assert game["rating"]["sigma"] < 8.333
    me = ann.get("/api/me").json()
    assert me["ratings"]["baofen"] == game["rating"]

    hongwu = profile["games"]["hongwu"]
    unrated_hands = [s for s in httpx.get(f"{db_server.base}/api/tables/{unrated}/hands").json()
                     if s["result"]["declarer"] is not None]
    assert hongwu["hands"] == len(unrated_hands)  # history counts unrated hands too
    assert hongwu["rated_hands"] == 0
    assert hongwu["rating"] == {"mu": 25.0, "sigma": 8.333, "display": 0.0}

    recent = profile["recent"]
    assert len(recent) == len(declared) + len(unrated_hands)
    for hand in recent:
        table = summaries if hand["table_code"] == rated else unrated_hands
        summary = next(s for s in table if s["number"] == hand["hand_number"])
        assert hand["result"] == summary["deltas"][0]
        assert hand["role"] == ("declarer" if summary["result"]["declarer"] == 0 else "defender")
        replay = httpx.get(f"{db_server.base}{hand['replay']}")
        assert replay.status_code == 200
        assert replay.json()["number"] == hand["hand_number"]

    board = httpx.get(f"{db_server.base}/api/leaderboard", params={"variant": "baofen"}).json()
    assert board == [{"rank": 1, "username": "Ann", "rating": game["rating"],
                      "hands": len(declared)}]
    assert httpx.get(f"{db_server.base}/api/leaderboard?variant=hongwu").json() == []

    # Deleting the account: the hands stay, under the deleted player's name.
    assert ann.request("DELETE", "/api/me", json={"password": "wrong password"}).status_code == 403
    assert ann.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
    assert ann.get("/api/me").json() == {"signed_in": False}
    assert httpx.get(f"{db_server.base}/api/players/Ann").status_code == 404
    assert httpx.get(f"{db_server.base}/api/leaderboard").json() == []
    assert httpx.get(f"{db_server.base}/api/tables/{rated}/hands").json() == summaries
    seats = httpx.get(f"{db_server.base}/api/tables/{rated}").json()["seats"]
    assert (seats[0]["name"], seats[0]["account"]) == (DELETED_NAME, False)
    again = sign_up(db_server.base, "ann")  # the name is free again, with a clean record
    assert again.get("/api/players/ann").json()["games"]["baofen"]["hands"] == 0


def test_a_private_table_stays_secret_in_the_history_until_it_ends(db_server: ThreadServer) -> None:
    dee = sign_up(db_server.base, "Dee")
    rules = RuleSet.baofen(hands=4)
    code = create_table(db_server.base, rules.to_dict(), timer=None, private=True)
    me = Seated(Client(db_server.base, code, session(dee)), rules, seed=8)
    me.client.join(0, "me")
    me.client.send(type="fill_bots", level="random")
    me.client.send(type="start")

    def declared(state: dict[str, Any]) -> bool:
        match = state["table"]["match"]
        return match is not None and any(
            hand["result"]["declarer"] is not None for hand in match["history"]
        )

    state = me.until(lambda state: declared(state) or finished(state))
    assert not finished(state), "random players bid half the time: a hand had a declarer"
    (hidden, *_) = httpx.get(f"{db_server.base}/api/players/Dee").json()["recent"]
    assert (hidden["table_code"], hidden["replay"]) == (None, None)
    assert code not in httpx.get(f"{db_server.base}/api/players/Dee").text
    me.poll(0.0)  # acts on (or presses 继续 after) the state it stopped at
    me.until(finished)
    shown = httpx.get(f"{db_server.base}/api/players/Dee").json()["recent"]
    assert {hand["table_code"] for hand in shown} == {code}


def test_an_account_deleted_mid_match_leaves_a_guest_who_plays_on(db_server: ThreadServer) -> None:
    eli = sign_up(db_server.base, "Eli")
    rules = RuleSet.hongwu(hands=2)
    code = create_table(db_server.base, rules.to_dict(), timer=None, rated=True)
    me = Seated(Client(db_server.base, code, session(eli)), rules, seed=11)
    me.client.join(0, "me")
    me.client.send(type="fill_bots", level="random")
    me.client.send(type="start")
    me.until(lambda state: state["table"]["status"] == "playing")
    assert eli.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
    state = me.until(lambda state: state["table"]["seats"][0]["name"] == DELETED_NAME)
    assert not state["table"]["seats"][0]["account"]
    final = me.until(finished)  # the hands are stored (and rated) without the account
    assert len(final["table"]["match"]["history"]) == 2
    assert httpx.get(f"{db_server.base}/api/leaderboard?variant=hongwu").json() == []
    assert httpx.get(f"{db_server.base}/api/players/Eli").status_code == 404
