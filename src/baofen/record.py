"""Hand records: the versioned JSON form of a hand, for storage, replay, export and bug reports.

A record holds the format version, the rule set, the deal (four hands and the kitty, plus the
seed when there was one), the first bidder, every action in order, and the result when done.
Replaying the actions on the deal rebuilds the same state.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from .actions import Action, Bid, Declare, Play
from .cards import Card, format_cards, parse_cards
from .errors import IllegalAction
from .observation import describe_action
from .ruleset import RuleSet
from .scoring import HandResult

FORMAT = "baofen-hand"
VERSION = 1


class RecordedHand(Protocol):
    """What a record holds of a hand, and replays on it: a :class:`~baofen.hand.Hand` is one."""

    rules: RuleSet
    seed: int | None
    first: int
    deal: tuple[tuple[Card, ...], ...]
    actions: list[tuple[int, Action]]
    result: HandResult | None

    def apply(self, seat: int, action: Action) -> object:
        """Apply one action of the hand."""


class HandRecord(NamedTuple):
    """A hand record read back (:func:`read_hand_record`): the deal to replay its actions on."""

    rules: RuleSet
    seed: int | None
    first: int
    hands: list[list[Card]]
    kitty: list[Card]
    actions: list[Any]
    """The record's action entries, each ``{"seat": …, "bid" | "declare" | "play": …}``."""
    result: dict[str, Any] | None


def hand_to_record(hand: RecordedHand) -> dict[str, Any]:
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


def read_hand_record(record: dict[str, Any]) -> HandRecord:
    """The deal, rules and actions of ``record``; a damaged record raises ``ValueError``."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} record")
    if record.get("version") != VERSION:
        raise ValueError(
            f"unsupported record version {record.get('version')!r} (expected {VERSION})"
        )
    try:
        rules = RuleSet.from_dict(record["rules"])
        deal = record["deal"]
        read = HandRecord(
            rules,
            record.get("seed"),
            record["first"],
            [parse_cards(h) for h in deal["hands"]],
            parse_cards(deal["kitty"]),
            record["actions"],
            record.get("result"),
        )
        if not isinstance(read.actions, list):
            raise TypeError("actions must be a list")
    except (KeyError, TypeError) as error:
        raise ValueError(f"incomplete hand record: {error!r}") from None
    return read


def replay_record(hand: RecordedHand, record: HandRecord) -> None:
    """Replay ``record``'s actions on ``hand``, freshly dealt from it; ``ValueError`` when an
    action does not replay or the result differs from the recorded one."""
    hand.seed = record.seed
    for number, entry in enumerate(record.actions):
        try:
            hand.apply(entry["seat"], action_from_dict(entry))
        except (IllegalAction, KeyError, TypeError) as error:
            raise ValueError(
                f"record action {number} ({entry!r}) does not replay: {error}"
            ) from None
    expected = record.result
    if expected is not None and (hand.result is None or hand.result.to_dict() != expected):
        raise ValueError("the record's result differs from the result of replaying it")
