"""The table's second pass (issue 25), on a real server: a join without a name gets a readable
default; only the host starts and fills the seats; the open-table list says what a visitor can
do; a failed throw shows at once who stopped it, with which cards, and its penalty; a bury that
timed out is not the first of two play timeouts."""

from __future__ import annotations

import re

import httpx

from baofen import RuleSet
from baofen.bots import make_bot
from baofen.wire.observation import ObservationView
from baofen.wire.tricks import TrickViews

from .harness import Client, Seated, ThreadServer, create_table, finished, south_bids_the_top
from .test_leak import truth_at


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


def test_the_open_tables_say_what_a_visitor_can_do(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1).to_dict()
    waiting = create_table(server.base, rules, timer=None)
    ann = Client(server.base, waiting)
    ann.join(0, "Ann")
    playing = create_table(server.base, rules, timer=None)
    bo = Client(server.base, playing)
    bo.join(1, "Bo")
    bo.send(type="fill_bots")
    bo.send(type="start")
    bo.expect("ack")
    quick = httpx.post(f"{server.base}/api/quickplay", json={"name": "Cy"})
    assert quick.status_code == 201
    listed = httpx.get(f"{server.base}/api/tables").json()
    assert [entry["code"] for entry in listed] == [waiting, playing]  # a free seat first
    first, second = listed
    assert (first["stage"], first["free_seats"], first["host_name"]) == (
        "waiting",
        [1, 2, 3],
        "Ann",
    )
    assert (second["stage"], second["free_seats"], second["host_name"]) == ("playing", [], "Bo")
    for entry in listed:
        assert 0 < entry["created"] <= entry["active"]
    assert quick.json()["code"] not in {entry["code"] for entry in listed}  # 和电脑玩: private


def throwing(client: Client, rules: RuleSet, seed: int) -> Seated:
    """A seated player who leads throws (甩牌) whenever it can."""
    player = Seated(client, rules, seed=seed)
    player.player.bot = make_bot("random", seed=seed, throw_rate=1.0, pass_rate=0.2)
    return player


def test_a_failed_throw_shows_its_cards_and_penalty_at_once_and_no_hidden_card(
    server: ThreadServer,
) -> None:
    """A failed throw's cards and penalty show at once; who stopped it, with which cards of a
    hand, does not: a person sees what the computers' Observation holds (docs/rules.md §2)."""
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    clients = [Client(server.base, code) for _ in range(4)]
    for seat, client in enumerate(clients):
        client.join(seat, f"p{seat}")
    clients[0].send(type="start")
    players = [throwing(client, rules, seed) for seed, client in enumerate(clients)]
    while not all(c.state is not None and finished(c.state) for c in clients):
        for player in players:
            player.poll(0.01)
    record = httpx.get(f"{server.base}/api/tables/{code}/records").json()[0]

    current = finished_tricks = 0
    for message in clients[1].received:
        if message["type"] != "state" or message["observation"] is None:
            continue
        observation = message["observation"]
        truth = truth_at(record, message["table"]["match"]["step"])
        expected = ObservationView.of(
            truth.observation(1), TrickViews()
        ).model_dump(mode="json")
        assert observation == expected
        attempt = observation["current_attempt"]
        if attempt is not None:
            assert "current_stopper" not in observation
            assert observation["current_penalty"] == 3 * len(attempt)
            current += 1
        else:
            assert observation["current_penalty"] == 0
        for trick in observation["tricks"]:
            assert "stopper" not in trick
            finished_tricks += trick["attempted"] is not None
    assert current > 0 and finished_tricks > 0  # failed throws were seen, in and after the trick


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


def test_a_signed_out_visitor_asks_who_they_are_without_an_error(server: ThreadServer) -> None:
    answer = httpx.get(f"{server.base}/api/me")
    assert (answer.status_code, answer.json()) == (200, {"signed_in": False})
    forged = httpx.get(f"{server.base}/api/me", cookies={"baofen_session": "x" * 40})
    assert (forged.status_code, forged.json()) == (200, {"signed_in": False})
