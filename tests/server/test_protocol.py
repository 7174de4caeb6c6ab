"""The protocol models: the committed JSON Schema is current, and the models match the engine."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from baofen import Hand, RuleSet
from baofen.server.protocol import ObservationView, TableInfo, client_message
from baofen.server.schema import render

from .harness import ROOT


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
    assert server == {"ErrorMessage", "Joined", "Ack", "Pong", "State", "Checked", "Suggestion"}


@pytest.mark.parametrize("rules", [RuleSet.baofen(), RuleSet.hongwu()])
def test_observation_model_matches_the_engine(rules: RuleSet) -> None:
    hand = Hand(rules, seed=3)
    wire = hand.observation(0).to_dict()
    assert set(wire) == set(ObservationView.model_fields)
    ObservationView.model_validate(wire)
    ObservationView.model_validate(hand.observation(None).to_dict())


def test_table_info_carries_every_rule() -> None:
    info = TableInfo.model_json_schema()
    assert "RuleSet" in info["$defs"]


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
        {"type": "join", "seat": 0, "name": ""},
        {"type": "play", "cards": []},
        {"type": "play", "cards": ["XX"]},
        {"type": "bid", "value": "90"},
        {"type": "bid", "value": True},
        {"type": "declare", "trump": "N", "bury": []},
        {"type": "auto", "on": 1},
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
    assert message.cards == ["HT", "SA"]  # type: ignore[union-attr]
