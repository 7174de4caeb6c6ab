"""Seats over time: joining (a readable default name), the host (who alone starts and fills the
seats), reconnecting with the token, the turn timer and 托管 (a bury's timeout not the first of
two in the play), leaving (逃跑)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from baofen import Hand, RuleSet

from .harness import (
    Client,
    Seated,
    ThreadServer,
    create_table,
    finished,
    play_until_finished,
    south_bids_the_top,
    to_act,
)


def seat_of(state: dict[str, Any], seat: int) -> dict[str, Any]:
    found: dict[str, Any] = state["table"]["seats"][seat]
    return found


def test_reconnect_with_the_token(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    me = Seated(Client(server.base, code), rules, seed=2)
    token = me.client.join(3, "Di")["token"]
    me.client.send(type="fill_bots")
    me.client.send(type="start")
    before = me.until(lambda s: to_act(s) == 3 and s["observation"]["phase"] == "playing")
    me.client.close()

    back = Client(server.base, code)
    back.send(type="reclaim", token=token)
    joined = back.expect("joined")
    assert (joined["seat"], joined["name"], joined["token"]) == (3, "Di", token)
    state = back.expect("state")
    assert state["observation"] == before["observation"]  # the full current view
    assert seat_of(state, 3)["connected"]
    assert not seat_of(state, 3)["away"]
    again = Seated(back, rules, seed=3)
    again.act(state)
    assert again.until(finished)["table"]["match"]["finished"]


def test_a_second_reclaim_replaces_the_first_connection(server: ThreadServer) -> None:
    code = create_table(server.base, RuleSet.baofen().to_dict())
    first = Client(server.base, code)
    token = first.join(0)["token"]
    second = Client(server.base, code)
    second.send(type="reclaim", token=token)
    second.expect("joined")
    assert first.expect("error")["code"] == "replaced"


def test_a_timeout_plays_one_move_and_a_second_in_a_row_in_the_play_switches_on_auto(
    server: ThreadServer,
) -> None:
    # No timer on bids: were the computer to pass for South, the others might all pass too,
    # and the hand end with no turn of South's left to time out.
    me, _ = south_bids_the_top(server.base, timer=0.2)
    waiting = me.expect("state")
    while waiting["observation"]["phase"] != "kitty" or waiting["table"]["deadline"] is None:
        waiting = me.expect("state")
    assert to_act(waiting) == 0
    once = me.expect("state")  # nobody acts: the timer runs out, the computer buries once
    assert once["observation"]["phase"] == "playing" and to_act(once) == 0  # South leads
    assert not seat_of(once, 0)["auto"] and not seat_of(once, 0)["away"]
    while once["table"]["deadline"] is None:  # the lead's timer
        once = me.expect("state")
    lead = me.expect("state")  # the computer leads once: the first timeout of the play
    assert lead["last"]["seat"] == 0 and not seat_of(lead, 0)["auto"]
    twice = me.expect("state")
    while not seat_of(twice, 0)["auto"]:  # the second timeout in a row in the play: 托管
        twice = me.expect("state")
    assert twice["last"]["seat"] == 0
    assert not seat_of(twice, 0)["away"]
    me.send(type="auto", on=False, id="off")
    while True:
        state = me.expect("state")
        if not seat_of(state, 0)["auto"]:
            break
    assert me.expect("ack")["id"] == "off"


def test_auto_on_and_off_by_the_player(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    me = Client(server.base, code)
    me.join(0, "Ann")
    me.send(type="fill_bots")
    me.send(type="start")
    me.send(type="auto", on=True)
    final = me.expect("state")
    while not finished(final):  # the computer plays the whole hand for me
        final = me.expect("state")
    assert seat_of(final, 0)["kind"] == "human"
    assert final["table"]["match"]["history"][0]["left"] == []  # 托管 is not leaving


def test_leaving_in_hongwu(server: ThreadServer) -> None:
    """A player who drops has left (逃跑) after the grace; the hand records it (§12.4)."""
    rules = RuleSet.hongwu(hands=2)
    code = create_table(server.base, rules.to_dict(), timer=None)
    host = Seated(Client(server.base, code), rules, seed=7)
    host.client.join(0, "Al")
    me = Client(server.base, code)
    token = me.join(1, "Bo")["token"]
    host.client.send(type="fill_bots")
    host.client.send(type="start")
    me.expect("state")
    me.close()
    state = host.until(lambda s: seat_of(s, 1)["away"])
    assert seat_of(state, 1)["auto"] and not seat_of(state, 1)["connected"]
    # The host plays on until the second hand is dealt, and then stops: the table waits for
    # the host's turn while the checks below run.
    state = host.until(lambda s: s["table"]["match"]["hand_number"] == 2)
    summary = state["table"]["match"]["history"][0]
    assert summary["left"] == [1]
    # 胜不得分，负承担本方的输分: no gain for the leaver, a loss in full.
    assert summary["deltas"][1] == min(summary["result"]["deltas"][1], 0)
    # While the match goes on, a served record hides the seed (the deals to come follow from
    # the match's seeds), and still replays.
    response = httpx.get(f"{server.base}/api/tables/{code}/hands/1")
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["seed"] is None
    assert Hand.from_record(record).result is not None

    back = Client(server.base, code)
    back.send(type="reclaim", token=token)
    back.expect("joined")
    state = back.expect("state")
    assert not seat_of(state, 1)["away"] and not seat_of(state, 1)["auto"]
    final = play_until_finished([host.client, back], rules)
    assert final["table"]["match"]["finished"]
    hands = httpx.get(f"{server.base}/api/tables/{code}/hands").json()
    assert hands[0]["left"] == [1]
    assert hands[1]["left"] == [1]  # away when the second hand was dealt


def test_a_table_nobody_attends_waits(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    me = Client(server.base, code)
    token = me.join(0, "Ann")["token"]
    me.send(type="fill_bots")
    me.send(type="start")  # South bids first: the table waits for me
    state = me.expect("state")
    while to_act(state) != 0:
        state = me.expect("state")
    me.close()
    version = state["table"]["version"]
    watcher = Client(server.base, code)
    watcher.send(type="watch")
    state = watcher.expect("state")
    while not seat_of(state, 0)["away"]:
        state = watcher.expect("state")
    with pytest.raises(TimeoutError):  # nothing more happens while nobody plays
        watcher.expect("state", timeout=1.0)
    assert state["table"]["version"] == version + 1  # only the leaving was logged
    back = Seated(Client(server.base, code), rules, seed=1)
    back.client.send(type="reclaim", token=token)
    assert back.until(finished)["table"]["match"]["finished"]


def test_leave_before_the_start_frees_the_seat(server: ThreadServer) -> None:
    code = create_table(server.base, RuleSet.baofen().to_dict())
    me = Client(server.base, code)
    me.join(2)
    thief = Client(server.base, code)
    thief.send(type="join", seat=2, name="thief")
    assert thief.expect("error")["code"] == "seat_taken"
    thief.send(type="start")
    assert thief.expect("error")["code"] == "not_joined"
    me.send(type="start")
    assert me.expect("error")["code"] == "seats_empty"
    me.send(type="leave", id=1)
    state = me.expect("state")
    assert seat_of(state, 2)["kind"] is None
    assert state["you"] is None
    other = Client(server.base, code)
    other.join(2, "next")


def test_a_join_without_a_name_gets_a_readable_default(server: ThreadServer) -> None:
    code = create_table(server.base, RuleSet.baofen().to_dict())
    friend = Client(server.base, code)
    friend.send(type="join", seat=1, name="  ")
    joined = friend.expect("joined")
    assert re.fullmatch(r"玩家\d{4}", joined["name"]), joined
    state = friend.expect("state")
    assert state["table"]["seats"][1]["name"] == joined["name"]
    other = Client(server.base, code)
    other.send(type="join", seat=2)  # no name at all
    assert re.fullmatch(r"玩家\d{4}", other.expect("joined")["name"])


def errors(client: Client) -> list[str]:
    """The codes of the errors received so far (after reading what has arrived)."""
    try:
        while True:
            client.recv(timeout=0.3)
    except TimeoutError:
        pass
    return [m["code"] for m in client.received if m["type"] == "error"]


def test_only_the_host_starts_and_fills_the_seats(server: ThreadServer) -> None:
    code = create_table(server.base, RuleSet.baofen(hands=1).to_dict(), timer=None)
    host = Client(server.base, code)
    host.join(2, "Host")
    guest = Client(server.base, code)
    guest.join(0, "Guest")  # a lower seat, seated later
    assert guest.state is not None and guest.state["table"]["host"] == 2
    guest.send(type="fill_bots", id="f")
    guest.send(type="start", id="s")
    assert errors(guest) == ["not_host", "not_host"]
    refusal = next(m for m in guest.received if m["type"] == "error")
    assert refusal["id"] == "f" and "Host" in refusal["message"]
    info = httpx.get(f"{server.base}/api/tables/{code}").json()
    assert [seat["kind"] for seat in info["seats"]] == ["human", None, "human", None]
    assert info["status"] == "waiting" and info["host"] == 2

    host.send(type="leave")  # the host left: the longest-seated player is the host now
    host.expect("ack")
    guest.drain(0.2)
    assert guest.state is not None and guest.state["table"]["host"] == 0
    guest.send(type="fill_bots", id="f2")
    guest.expect("ack")
    guest.send(type="start", id="s2")
    guest.expect("ack")
    assert errors(guest) == ["not_host", "not_host"]


def test_a_bury_timeout_is_not_the_first_of_two_play_timeouts(server: ThreadServer) -> None:
    me, state = south_bids_the_top(server.base, timer=0.2)
    while state["observation"]["phase"] != "kitty":
        state = me.expect("state")
    timed_out: list[str] = []  # the phases of South's moves, all made by the timer
    while not state["table"]["seats"][0]["auto"]:
        assert not finished(state)
        before, state = state, me.expect("state")
        step = state["table"]["match"]["step"]
        if step > before["table"]["match"]["step"] and state["last"]["seat"] == 0:
            timed_out.append(before["observation"]["phase"])
    # the bury timed out, then the first play turn; 托管 came with the second
    assert timed_out == ["kitty", "playing", "playing"], timed_out
