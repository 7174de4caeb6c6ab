"""The ``check`` and ``hint`` messages: answers from the asking seat's view, nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from baofen import CARDS, RuleSet
from baofen.bots import make_bot
from baofen.wire.actions import action_message
from baofen.wire.messages import Suggestion

from .harness import Client, ThreadServer, create_table, start_with_bots


def my_turn(client: Client) -> dict[str, Any]:
    """The observation of the latest state in which it is this client's turn, or the hand is
    done (read on until there is one)."""
    state = client.state
    while True:
        observation: dict[str, Any] | None = state and state["observation"]
        if observation is not None and (
            observation["to_act"] == client.seat or observation["phase"] == "done"
        ):
            return observation
        state = client.expect("state")


def answer(client: Client, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, skipping states; fails on an error."""
    while True:
        message = client.recv()
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message


@pytest.fixture
def started(server: ThreadServer) -> tuple[Client, str]:
    """Seat 0 (the caller of 包分's first hand) with three random bots, match started."""
    return start_with_bots(server.base, RuleSet.baofen())


def test_hint_and_check_through_a_hand(started: tuple[Client, str]) -> None:
    me, _ = started
    observation = my_turn(me)
    assert observation["phase"] == "bidding"
    version = me.state["table"]["version"] if me.state else None

    me.send(type="check", cards=[observation["hand"][0]], id="c1")
    checked = answer(me, "checked")
    assert checked["id"] == "c1" and checked["legal"] is False
    assert "not this seat's turn to play" in checked["reason"]

    me.send(type="hint", id="h1")
    hint = answer(me, "suggestion")
    assert hint["id"] == "h1" and hint["action"] == "bid"
    assert hint["value"] in observation["legal_bids"]
    me.send(type="sync")
    assert me.expect("state")["table"]["version"] == version, "a hint changed the table"

    me.send(type="bid", value=95)  # the top value ends the bidding: seat 0 declares
    me.expect("ack")
    observation = my_turn(me)
    assert observation["phase"] == "kitty" and len(observation["hand"]) == 33
    me.send(type="hint", id=2)
    hint = answer(me, "suggestion")
    assert hint["action"] == "declare" and hint["trump"] in "SHCD"
    assert len(hint["bury"]) == 8
    hand = list(observation["hand"])
    for card in hint["bury"]:
        hand.remove(card)
    me.send(type="declare", trump=hint["trump"], bury=hint["bury"])
    me.expect("ack")

    observation = my_turn(me)
    assert observation["phase"] == "playing" and observation["leader"] == 0
    me.send(type="hint", id=3)
    hint = answer(me, "suggestion")
    assert hint["action"] == "play" and hint["cards"]
    me.send(type="check", cards=hint["cards"], id=4)
    checked = answer(me, "checked")
    assert checked == {
        "type": "checked", "id": 4, "cards": hint["cards"], "legal": True, "reason": None,
        "reason_code": None,
    }
    missing = next(str(c) for c in CARDS if str(c) not in observation["hand"])
    me.send(type="check", cards=[missing], id=5)
    checked = answer(me, "checked")
    assert checked["legal"] is False and checked["reason"] == f"you do not hold {missing}"
    assert checked["reason_code"] == {"code": "not_held", "params": {"card": missing}}
    me.send(type="play", cards=[missing], id=6)  # played anyway: refused with the same code
    refused = me.expect("error")
    assert refused["code"] == "illegal_action" and refused["message"] == checked["reason"]
    assert refused["reason_code"] == checked["reason_code"]
    me.send(type="play", cards=hint["cards"], id=7)
    assert answer(me, "ack")["id"] == 7
    me.close()


def test_hint_when_not_to_act_is_refused(server: ThreadServer) -> None:
    code = create_table(server.base, RuleSet.baofen().to_dict(), timer=None)
    clients = [Client(server.base, code) for _ in range(4)]
    for seat, client in enumerate(clients):
        client.join(seat, f"p{seat}")
    clients[0].send(type="start")
    clients[0].expect("ack")
    east = clients[1]
    east.send(type="hint", id="early")
    error = east.expect("error")
    assert error["id"] == "early" and error["code"] == "illegal_action"
    assert "not your turn" in error["message"]
    assert error["reason_code"] == {"code": "no_hint", "params": {}}
    east.send(type="bid", value=85, id="bid")  # out of turn: the seats in the code
    error = east.expect("error")
    assert error["reason_code"] == {"code": "not_your_turn", "params": {"seat": 1, "to_act": 0}}
    for client in clients:
        client.close()


def test_check_and_hint_need_a_seat_and_a_match(server: ThreadServer) -> None:
    code = create_table(server.base, RuleSet.hongwu().to_dict())
    me = Client(server.base, code)
    me.join(2, "Bo")
    me.send(type="check", cards=["SA"], id=1)
    assert me.expect("error")["code"] == "not_started"
    me.send(type="hint", id=2)
    assert me.expect("error")["code"] == "not_started"
    watcher = Client(server.base, code)
    watcher.send(type="watch")
    watcher.expect("state")
    watcher.send(type="check", cards=["SA"])
    assert watcher.expect("error")["code"] == "spectator"
    watcher.send(type="hint")
    assert watcher.expect("error")["code"] == "spectator"
    me.close()
    watcher.close()


def test_every_hint_of_a_hand_is_the_rule_bots_move(
    server: ThreadServer, started: tuple[Client, str]
) -> None:
    """Through a whole hand, each hint is exactly what the rule bot does from the seat's own
    observation (the declare alone, 8 of 33 cards, tells another bot apart)."""
    me, code = started
    table = server.app.state.lobby.tables[code]
    rule = make_bot("rule")
    my_turn(me)
    me.send(type="bid", value=95)  # the top value: this seat declares, so it hints a bury too
    me.expect("ack")
    hints: list[str] = []
    while True:
        observation = my_turn(me)
        if observation["phase"] == "done":
            break
        truth = table.match.hand.observation(me.seat)  # the table waits for this seat
        expected = Suggestion.of(rule.act(truth), len(hints))
        me.send(type="hint", id=len(hints))
        assert answer(me, "suggestion") == expected.model_dump(mode="json")
        me.send(**action_message(rule.act(truth)).model_dump(mode="json", exclude={"id"}))
        me.expect("ack")
        hints.append(expected.action)
    assert hints[0] == "declare" and len(hints) > 10 and set(hints[1:]) == {"play"}
    me.close()
