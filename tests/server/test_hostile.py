"""Malformed, illegal and hostile messages: each gets an error saying why, nothing changes, and
the connection stays up."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from baofen import RuleSet
from baofen.cards import full_pack
from baofen.server import ServerConfig

from .harness import FAST, Client, ThreadServer, create_table, to_act

BIG = json.dumps({"type": "ping", "pad": "x" * 5000})
DEEP = "[" * 2000 + "]" * 2000


def refused(client: Client, frame: str | bytes | dict[str, Any], code: str) -> None:
    """``frame`` is answered by an error ``code``, nothing changes, and the connection lives."""
    before = client.snapshot()
    client.send_raw(json.dumps(frame) if isinstance(frame, dict) else frame)
    error = client.expect("error")
    assert error["code"] == code, (frame, error)
    assert error["message"]
    assert client.snapshot() == before
    client.send(type="ping", id="alive")
    assert client.expect("pong")["id"] == "alive"


@pytest.fixture
def table(server: ThreadServer) -> Iterator[tuple[Client, Client, Client]]:
    """A 包分 table: me in seat 0 (to bid first), another player in seat 1, two computer
    players, started; and a spectator."""
    code = create_table(server.base, RuleSet.baofen().to_dict(), timer=None)
    me, other, spectator = Client(server.base, code), Client(server.base, code), Client(
        server.base, code
    )
    me.join(0, "me")
    other.join(1, "other")
    spectator.send(type="watch")
    spectator.expect("state")
    me.send(type="fill_bots", level="random")
    me.send(type="start")
    state = me.expect("state")
    while to_act(state) != 0:
        state = me.expect("state")
    yield me, other, spectator
    for client in (me, other, spectator):
        client.close()


def my_cards(client: Client) -> list[str]:
    state = client.snapshot()
    cards: list[str] = state["observation"]["hand"]
    return cards


BIDDING: list[tuple[str | bytes | dict[str, Any], str]] = [
    ("not json", "bad_json"),
    ("{\"type\": \"bid\", ", "bad_json"),
    (DEEP, "bad_json"),
    (b"\x00\x01binary", "binary_frame"),
    (BIG, "too_large"),
    ("[1, 2]", "invalid_message"),
    ("42", "invalid_message"),
    ({}, "invalid_message"),
    ({"type": "dance"}, "unknown_type"),
    ({"type": None}, "unknown_type"),
    ({"type": "bid"}, "invalid_message"),
    ({"type": "bid", "value": "90"}, "invalid_message"),
    ({"type": "bid", "value": 90.0}, "invalid_message"),
    ({"type": "bid", "value": 90, "seat": 2}, "invalid_message"),  # no acting for another seat
    ({"type": "bid", "value": None, "id": {"x": 1}}, "invalid_message"),
    ({"type": "bid", "value": 87}, "illegal_action"),
    ({"type": "bid", "value": 10**6}, "invalid_message"),
    ({"type": "play", "cards": ["SA"]}, "illegal_action"),
    ({"type": "play", "cards": ["XX"]}, "invalid_message"),
    ({"type": "play", "cards": "SA"}, "invalid_message"),
    ({"type": "play", "cards": ["SA"] * 40}, "invalid_message"),
    ({"type": "declare", "trump": "S", "bury": ["SA"] * 8}, "illegal_action"),
    ({"type": "declare", "trump": "NT", "bury": []}, "invalid_message"),
    ({"type": "join", "seat": 2, "name": "again"}, "already_joined"),
    ({"type": "watch"}, "already_joined"),
    ({"type": "reclaim", "token": "x" * 32}, "already_joined"),
    ({"type": "start"}, "already_started"),
    ({"type": "fill_bots", "level": "random"}, "already_started"),
    ({"type": "fill_bots", "level": "godlike"}, "invalid_message"),
    ({"type": "auto", "on": "yes"}, "invalid_message"),
    ({"type": "sync", "extra": True}, "invalid_message"),
]


@pytest.mark.parametrize(("frame", "code"), BIDDING, ids=[f"{i}-{c}" for i, (_, c) in
                                                          enumerate(BIDDING)])
def test_refused_while_bidding(
    table: tuple[Client, Client, Client], frame: str | dict[str, Any], code: str
) -> None:
    me, _, _ = table
    refused(me, frame, code)


def test_refused_from_others(table: tuple[Client, Client, Client], server: ThreadServer) -> None:
    me, other, spectator = table
    refused(other, {"type": "bid", "value": None}, "illegal_action")  # not seat 1's turn
    refused(spectator, {"type": "bid", "value": None}, "spectator")
    refused(spectator, {"type": "start"}, "spectator")
    code = me.url.rsplit("/", 1)[1]
    stranger = Client(server.base, code)
    refused_new(stranger, {"type": "bid", "value": None}, "not_joined")
    refused_new(stranger, {"type": "sync"}, "not_joined")
    refused_new(stranger, {"type": "reclaim", "token": "forged-token"}, "bad_token")
    refused_new(stranger, {"type": "join", "seat": 0, "name": "thief"}, "already_started")
    assert me.snapshot()["table"]["seats"][0]["name"] == "me"


def refused_new(client: Client, frame: dict[str, Any], code: str) -> None:
    """Like :func:`refused`, for a connection that has not joined (it cannot ``sync``)."""
    client.send(**frame)
    assert client.expect("error")["code"] == code
    client.send(type="ping")
    client.expect("pong")


def test_refused_in_the_kitty_and_play(table: tuple[Client, Client, Client]) -> None:
    me, other, _ = table
    me.send(type="bid", value=95)  # the top bid ends the bidding: I am the declarer
    state = me.expect("state")
    assert state["observation"]["phase"] == "kitty"
    hand = state["observation"]["hand"]
    held = set(hand)
    missing = next(str(c) for c in full_pack() if str(c) not in held)  # 33 cards of 54 kinds
    refused(me, {"type": "declare", "trump": "S", "bury": hand[:7]}, "illegal_action")
    refused(me, {"type": "declare", "trump": "S", "bury": hand[:9]}, "illegal_action")
    refused(me, {"type": "declare", "trump": "S", "bury": [*hand[:7], missing]}, "illegal_action")
    refused(me, {"type": "bid", "value": None}, "illegal_action")
    refused(me, {"type": "play", "cards": [hand[0]]}, "illegal_action")
    refused(other, {"type": "declare", "trump": "S", "bury": hand[:8]}, "illegal_action")
    me.send(type="declare", trump="S", bury=hand[-8:])
    state = me.expect("state")
    assert state["observation"]["phase"] == "playing" and to_act(state) == 0
    hand = state["observation"]["hand"]
    absent = next(str(c) for c in full_pack() if str(c) not in hand)  # 25 cards of 54 kinds
    refused(me, {"type": "play", "cards": [absent]}, "illegal_action")
    refused(me, {"type": "play", "cards": hand[:1] * 3}, "illegal_action")
    refused(me, {"type": "play", "cards": []}, "invalid_message")
    refused(me, {"type": "declare", "trump": "S", "bury": hand[:8]}, "illegal_action")
    refused(other, {"type": "play", "cards": other_first_card(other)}, "illegal_action")


def other_first_card(client: Client) -> list[str]:
    return my_cards(client)[:1]


def test_unknown_table(server: ThreadServer) -> None:
    client = Client(server.base, "no-such-table")
    assert client.expect("error")["code"] == "unknown_table"
    with pytest.raises(ConnectionClosed):
        client.recv(timeout=5)


def test_rate_limit(db_url: str) -> None:
    live = ThreadServer(ServerConfig(
        db=db_url, **{**FAST, "rate_per_second": 1.0, "rate_burst": 5.0}
    ))
    try:
        code = create_table(live.base, RuleSet.baofen().to_dict())
        client = Client(live.base, code)
        for _ in range(12):
            client.send(type="ping")
        answers = [client.recv()["type"] for _ in range(12)]
        assert answers.count("pong") == 5
        assert answers.count("error") == 7
        assert client.received[-1]["code"] == "rate_limited"
        assert httpx.get(f"{live.base}/health").status_code == 200
    finally:
        live.stop()


def test_oversized_frame_closes_the_connection(db_url: str) -> None:
    live = ThreadServer(ServerConfig(db=db_url, max_frame_bytes=2048, **FAST))
    try:
        code = create_table(live.base, RuleSet.baofen().to_dict())
        client = Client(live.base, code)
        client.send_raw("x" * 4096)
        with pytest.raises(ConnectionClosed) as closed:
            client.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        live.stop()


def test_rest_refuses_bad_tables(server: ThreadServer) -> None:
    bad = httpx.post(f"{server.base}/api/tables", json={"rules": {"bid_step": 0}})
    assert bad.status_code == 422 and "bid_step" in bad.text
    bad = httpx.post(f"{server.base}/api/tables", json={"rules": {"variant": "poker"}})
    assert bad.status_code == 422
    bad = httpx.post(f"{server.base}/api/tables", json={"settings": {"play_seconds": -1}})
    assert bad.status_code == 422
    bad = httpx.post(f"{server.base}/api/tables", json={"seed": 1})
    assert bad.status_code == 422
    assert httpx.get(f"{server.base}/api/tables/nope").status_code == 404
    assert httpx.get(f"{server.base}/api/tables/nope/hands/1").status_code == 404


def test_a_failed_write_changes_nothing(server: ThreadServer) -> None:
    """When the database refuses an action's event, the action is refused and undone."""
    code = create_table(server.base, RuleSet.baofen().to_dict(), timer=None)
    me = Client(server.base, code)
    me.join(0)
    me.send(type="fill_bots", level="random")
    me.send(type="start")
    state = me.expect("state")
    while to_act(state) != 0:
        state = me.expect("state")
    before = me.snapshot()
    store = server.app.state.lobby.store.store
    commit = store.commit

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    store.commit = refuse
    try:
        me.send(type="bid", value=85)
        assert me.expect("error")["code"] == "unavailable"
        assert me.snapshot() == before
    finally:
        store.commit = commit
    me.send(type="bid", value=85, id="again")
    assert me.expect("ack")["id"] == "again"
    assert me.snapshot()["observation"]["bids"][0] == [0, 85]
