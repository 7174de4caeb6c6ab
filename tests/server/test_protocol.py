"""The wire models: the committed JSON Schema is current and describes what the server sends,
and each model converts its engine value both ways."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, get_args

import httpx
import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from baofen import (
    Action,
    Bid,
    Declare,
    Hand,
    Observation,
    Play,
    RuleSet,
    Trick,
    parse_cards,
    play_hand,
)
from baofen.bots import make_bot
from baofen.ruleset import FIELDS
from baofen.server.schema import render
from baofen.wire.actions import action_message, action_record, read_action_record
from baofen.wire.messages import client_message
from baofen.wire.observation import ObservationView
from baofen.wire.tricks import TrickView, TrickViews

from .harness import (
    ROOT,
    Client,
    RandomPlayer,
    ThreadServer,
    create_table,
    play_until_finished,
    start_with_bots,
    to_act,
)


def committed_schema() -> dict[str, Any]:
    """docs/protocol.schema.json as committed."""
    schema: dict[str, Any] = json.loads(
        (ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8")
    )
    return schema


def validator(definition: str) -> Draft202012Validator:
    """A validator of the committed schema's ``definition``."""
    return Draft202012Validator(
        {"$defs": committed_schema()["$defs"], "$ref": f"#/$defs/{definition}"}
    )


def test_committed_schema_matches_the_models() -> None:
    committed = (ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/protocol.schema.json is stale: run "
        "PYTHONPATH=src python3 -m baofen.server.schema docs/protocol.schema.json"
    )


def test_schema_defines_every_message() -> None:
    schema = json.loads(render())
    client = {ref["$ref"].rsplit("/", 1)[1] for ref in schema["$defs"]["ClientMessages"]["oneOf"]}
    server = {ref["$ref"].rsplit("/", 1)[1] for ref in schema["$defs"]["ServerMessages"]["oneOf"]}
    assert {"Join", "Reclaim", "Watch", "BidMessage", "DeclareMessage", "PlayMessage", "Check",
            "Hint"} <= client
    assert server == {"ErrorMessage", "Joined", "Ack", "Pong", "State", "Patch", "Checked",
                      "Suggestion"}


def unusual_rules(variant: str) -> RuleSet:
    """A valid rule set of ``variant`` in which every other field differs from its default."""
    default = RuleSet.create(variant=variant)
    changed: dict[str, Any] = {"variant": variant}
    for name, field in FIELDS.items():
        value = getattr(default, name)
        if name == "variant":
            continue
        if isinstance(value, bool):
            changed[name] = not value
        elif isinstance(value, int):
            changed[name] = value + 5
        elif isinstance(value, tuple):
            changed[name] = value[:-1]
        elif value is None:
            changed[name] = 4
        else:
            changed[name] = next(v for v in get_args(field.annotation) if v != value)
    rules = RuleSet.create(**changed)
    assert all(
        getattr(rules, name) != getattr(default, name)
        for name in FIELDS if name != "variant"
    )
    return rules


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_table_info_carries_every_rule(server: ThreadServer, variant: str) -> None:
    rules = unusual_rules(variant)
    code = create_table(server.base, rules.to_dict())
    watcher = Client(server.base, code)
    watcher.send(type="watch")
    served = [
        httpx.get(f"{server.base}/api/tables/{code}").json(),
        watcher.expect("state")["table"],
        next(t for t in httpx.get(f"{server.base}/api/tables").json() if t["code"] == code),
    ]
    watcher.close()
    schema = committed_schema()["$defs"]
    assert schema["TableInfo"]["properties"]["rules"] == {"$ref": "#/$defs/RuleSet"}
    assert set(schema["RuleSet"]["properties"]) == set(FIELDS)
    table_info = validator("TableInfo")
    for info in served:
        # Every field, with this table's value (each differs from its default) ...
        assert info["rules"] == rules.to_dict()
        assert RuleSet.from_dict(info["rules"]) == rules
        # ... of the type the schema gives it.
        table_info.validate(info)


def test_every_message_of_a_match_matches_the_committed_schema(server: ThreadServer) -> None:
    rules = RuleSet.hongwu(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    me, watcher = Client(server.base, code), Client(server.base, code)
    me.join(0, "Ann")
    watcher.send(type="watch")
    for message, answers in [
        ({"type": "fill_bots", "level": "random"}, {"ack"}),
        ({"type": "start"}, {"ack"}),
        ({"type": "hint", "id": "h"}, {"suggestion", "error"}),  # seat 0 may not be first
        ({"type": "check", "cards": ["SA"], "id": 1}, {"checked"}),
        ({"type": "ping", "id": 2}, {"pong"}),
        ({"type": "dance"}, {"error"}),
    ]:
        me.send(**message)
        while me.recv()["type"] not in answers:
            pass
    play_until_finished([me, watcher], rules)
    messages = me.received + watcher.received
    kinds = {message["type"] for message in messages}
    assert {"joined", "state", "ack", "checked", "pong", "error"} <= kinds
    server_messages = validator("ServerMessages")
    for message in messages:
        server_messages.validate(message)


def played_observations(rules: RuleSet, seed: int) -> list[Observation]:
    """Every seat's and a spectator's observation after each action of a random hand."""
    hand = Hand(rules, seed=seed)
    bots = [make_bot("random", seed=seed + seat) for seat in range(4)]
    seen = []
    while True:
        seen += [hand.observation(seat) for seat in (0, 1, 2, 3, None)]
        if hand.phase == "done":
            return seen
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bots[seat].act(hand.observation(seat)))


@pytest.mark.parametrize("rules", [RuleSet.baofen(), RuleSet.hongwu()])
def test_observations_round_trip_through_the_wire(rules: RuleSet) -> None:
    for seen in played_observations(rules, seed=3):
        text = ObservationView.of(seen).model_dump_json()
        rebuilt = ObservationView.model_validate_json(text).to_observation(rules)
        # The wire carries neither the actions nor the result's breakdown object; the judge
        # is rebuilt for the same rules and trump.
        assert replace(rebuilt, judge=None) == replace(seen, actions=(), result=None, judge=None)
        assert (rebuilt.judge is None) == (seen.judge is None)
        if seen.result is not None:
            assert json.loads(text)["result"]["deltas"] == list(seen.result.deltas)


def played_hand(rules: RuleSet, seed: int) -> Hand:
    """A hand played to the end by random bots."""
    return play_hand(rules, seed, [make_bot("random", seed=seed + seat) for seat in range(4)])


def test_trick_views_convert_each_trick_once() -> None:
    views = TrickViews()
    first, second = played_hand(RuleSet.baofen(), 1), played_hand(RuleSet.hongwu(), 2)
    shown = views.of(first.tricks[:10])
    assert shown == [TrickView.of(trick) for trick in first.tricks[:10]]
    later = views.of(first.tricks)
    assert all(a is b for a, b in zip(shown, later, strict=False)), "converted again"
    assert later == [TrickView.of(trick) for trick in first.tricks]
    # Another hand's tricks, and copies equal to known ones, are converted anew.
    known = views.of(second.tricks)
    assert known == [TrickView.of(trick) for trick in second.tricks]
    copied = views.of([Trick(*trick) for trick in second.tricks])
    assert copied == known and not any(a is b for a, b in zip(copied, known, strict=True))


ACTIONS: list[tuple[Action, str, dict[str, Any]]] = [
    (Bid(90), '{"seat":2,"bid":90}', {"type": "bid", "value": 90}),
    (Bid(None), '{"seat":2,"bid":null}', {"type": "bid", "value": None}),
    (
        Declare("S", "C3 C4 D6 D7 D9 H3 H4 H8"),
        '{"seat":2,"declare":{"trump":"S","bury":"C3 C4 D6 D7 D9 H3 H4 H8"}}',
        {"type": "declare", "trump": "S", "bury": ["C3", "C4", "D6", "D7", "D9", "H3", "H4", "H8"]},
    ),
    (Declare("H", ()), '{"seat":2,"declare":{"trump":"H","bury":""}}',
     {"type": "declare", "trump": "H", "bury": []}),
    (Play("SA SA BJ"), '{"seat":2,"play":"SA SA BJ"}',
     {"type": "play", "cards": ["SA", "SA", "BJ"]}),
]


@pytest.mark.parametrize(("action", "record", "message"), ACTIONS)
def test_action_forms(action: Action, record: str, message: dict[str, Any]) -> None:
    recorded = action_record(2, action)
    assert recorded.model_dump_json() == record
    assert read_action_record(json.loads(record)).to_action() == action
    assert action_message(action).model_dump(mode="json", exclude={"id"}) == message
    assert client_message.validate_python(message).to_action() == action  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "record",
    [
        {"seat": 0, "fold": True},
        {"bid": 90},
        {"seat": 4, "bid": 90},
        {"seat": 0, "bid": "85"},
        {"seat": 0, "bid": True},
        {"seat": 0, "play": ["SA"]},
        {"seat": 0, "play": "SA XX"},
        {"seat": 0, "declare": {"trump": "N", "bury": ""}},
        {"seat": 0, "declare": "S"},
        {"seat": 0, "bid": 90, "note": "x"},
        [0, 90],
    ],
)
def test_bad_action_records(record: Any) -> None:
    with pytest.raises(ValueError):
        read_action_record(record)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "join", "seat": 0, "name": "Ann"},
        {"type": "play", "cards": ["SA", "H10"], "id": 7},
        {"type": "bid", "value": None},
        {"type": "declare", "trump": "S", "bury": ["SA"] * 8},
        {"type": "auto", "on": True, "id": "x"},
    ],
)
def test_valid_client_messages(message: dict[str, object]) -> None:
    client_message.validate_python(message)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "join", "seat": 4, "name": "Ann"},
        {"type": "join", "seat": 0, "name": "A" * 25},
        {"type": "play", "cards": []},
        {"type": "play", "cards": ["XX"]},
        {"type": "play", "cards": [5]},
        {"type": "play", "cards": ["SA   "]},
        {"type": "bid", "value": "90"},
        {"type": "bid", "value": True},
        {"type": "declare", "trump": "N", "bury": []},
        {"type": "auto", "on": 1},
        {"type": "fill_bots", "level": "genius"},
        {"type": "ping", "extra": 1},
        {"type": "dance"},
        {"seat": 1},
    ],
)
def test_invalid_client_messages(message: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        client_message.validate_python(message)


def test_cards_are_canonical() -> None:
    message = client_message.validate_python({"type": "play", "cards": ["h10", "♠A"]})
    assert message.cards == parse_cards("HT SA")  # type: ignore[union-attr]
    assert message.model_dump(mode="json")["cards"] == ["HT", "SA"]


def test_a_game_action_is_acknowledged_in_the_view_it_caused(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    me, _ = start_with_bots(server.base, rules)
    state = me.state
    while to_act(state) != me.seat:
        state = me.expect("state")
    assert state is not None
    acks = me.sizes["ack"]  # fill_bots' and start's, each a message of its own
    me.send(**RandomPlayer(rules, seed=3).message(state), id="mine")
    ack = me.expect("ack")
    assert me.state is not None
    assert ack == {"type": "ack", "id": "mine", "version": me.state["table"]["version"]}
    assert me.state["table"]["version"] == state["table"]["version"] + 1
    assert me.sizes["ack"] == acks  # the view carried it: no ack message of its own
    assert "ack" not in me.state  # not part of the view
