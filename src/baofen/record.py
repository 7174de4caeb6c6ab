"""Hand records: the versioned JSON form of a hand, for storage, replay, export and bug reports.

A record holds the format version, the rule set, the deal (four hands and the kitty, plus the
seed when there was one), the first bidder, every action in order, and the result when done.
Replaying the actions on the deal rebuilds the same state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Bid, Declare, Play
from .cards import format_cards, parse_cards
from .errors import IllegalAction
from .observation import describe_action
from .ruleset import RuleSet

if TYPE_CHECKING:
    from .actions import Action
    from .hand import Hand

FORMAT = "baofen-hand"
VERSION = 1


def hand_to_record(hand: Hand) -> dict[str, Any]:
    """The JSON-safe record of ``hand`` (see the module docstring)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": hand.rules.to_dict(),
        "seed": hand.seed,
        "deal": {
            "hands": [format_cards(cards) for cards in hand.deal[:4]],
            "kitty": format_cards(hand.deal[4]),
        },
        "first": hand.first,
        "actions": [{"seat": seat, **describe_action(a)} for seat, a in hand.actions],
        "result": None if hand.result is None else hand.result.to_dict(),
    }


def action_from_dict(data: dict[str, Any]) -> Action:
    """Parse one action of a record (``{"bid": 90}``, ``{"declare": …}``, ``{"play": "SA"}``)."""
    if "bid" in data:
        value = data["bid"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"a bid is a number or null, not {value!r}")
        return Bid(value)
    if "declare" in data:
        declare = data["declare"]
        if not isinstance(declare, dict) or not isinstance(declare.get("bury"), str):
            raise ValueError("declare needs {'trump': 'S', 'bury': '8 cards'}")
        return Declare(str(declare.get("trump")), parse_cards(declare["bury"]))
    if "play" in data:
        if not isinstance(data["play"], str):
            raise ValueError("play needs a card string such as 'SA SK'")
        return Play(parse_cards(data["play"]))
    raise ValueError(f"unknown action {data!r}: expected bid, declare or play")


def hand_from_record(record: dict[str, Any]) -> Hand:
    """Rebuild a hand by replaying ``record``; a damaged record raises ``ValueError``."""
    from .hand import Hand

    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} record")
    if record.get("version") != VERSION:
        raise ValueError(
            f"unsupported record version {record.get('version')!r} (expected {VERSION})"
        )
    try:
        rules = RuleSet.from_dict(record["rules"])
        deal = record["deal"]
        hand = Hand(
            rules,
            first=record["first"],
            hands=[parse_cards(h) for h in deal["hands"]],
            kitty=parse_cards(deal["kitty"]),
        )
        actions = record["actions"]
        if not isinstance(actions, list):
            raise TypeError("actions must be a list")
    except (KeyError, TypeError) as error:
        raise ValueError(f"incomplete hand record: {error!r}") from None
    hand.seed = record.get("seed")
    for number, entry in enumerate(actions):
        try:
            hand.apply(entry["seat"], action_from_dict(entry))
        except (IllegalAction, KeyError, TypeError) as error:
            raise ValueError(
                f"record action {number} ({entry!r}) does not replay: {error}"
            ) from None
    expected = record.get("result")
    if expected is not None and (hand.result is None or hand.result.to_dict() != expected):
        raise ValueError("the record's result differs from the result of replaying it")
    return hand
