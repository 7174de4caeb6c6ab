"""Hand records: the versioned JSON form of a hand, for storage, replay, export and bug reports.

A record holds the format version, the rule set, the deal (four hands and the kitty, plus the
seed when there was one), the first bidder, every action in order, and the result when done::

    {"format": "baofen-hand", "version": 1, "rules": {...}, "seed": 7,
     "deal": {"hands": ["SA SK …", …], "kitty": "C3 C4 …"}, "first": 0,
     "actions": [{"seat": 0, "bid": 90}, {"seat": 1, "declare": {"trump": "S", "bury": "…"}},
                 {"seat": 2, "play": "SA SK"}, …],
     "result": {"declarer": 1, …} or null}

Replaying the actions on the deal rebuilds the same state. This module builds and reads records
with the standard library only, so that :meth:`baofen.Hand.to_record` and
:meth:`baofen.Hand.from_record` need nothing of the server's dependencies; the wire layer's
pydantic model of the same JSON (:class:`baofen.wire.record.HandRecord`) gives its JSON Schema
for the protocol. A hand is known here only as a :class:`RecordedHand` (no import circle).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from .actions import Action, Bid, Declare, Play
from .cards import Card, format_cards, parse_cards
from .errors import IllegalAction
from .ruleset import RuleSet
from .scoring import HandResult

FORMAT: Final = "baofen-hand"
VERSION: Final = 1

_SUITS = ("S", "H", "C", "D")
_RESULT_FIELDS = (
    "declarer", "target", "declarer_points", "made", "kind", "score", "levels", "deltas",
    "breakdown",
)


class RecordedHand(Protocol):
    """What a record holds of a hand, and replays on it: a :class:`~baofen.Hand` is one."""

    rules: RuleSet
    seed: int | None
    first: int
    deal: tuple[tuple[Card, ...], ...]
    actions: list[tuple[int, Action]]
    result: HandResult | None

    def apply(self, seat: int, action: Action) -> object:
        """Apply one action of the hand."""


# -- writing ----------------------------------------------------------------------------------


def action_json(seat: int, action: Action) -> dict[str, Any]:
    """One action with its seat as a record holds it: ``{"seat": 0, "bid": 90}``,
    ``{"seat": 1, "declare": {"trump": "S", "bury": "C3 C4 …"}}``, ``{"seat": 2, "play": "SA"}``."""
    if isinstance(action, Play):
        return {"seat": seat, "play": format_cards(action.cards)}
    if isinstance(action, Bid):
        return {"seat": seat, "bid": action.value}
    if isinstance(action, Declare):
        return {
            "seat": seat,
            "declare": {"trump": action.trump, "bury": format_cards(action.bury)},
        }
    raise TypeError(f"not an action: {action!r}")


def result_json(result: HandResult) -> dict[str, Any]:
    """A scored result, field by field (rules.md §11)."""
    return {
        "declarer": result.declarer,
        "target": result.target,
        "declarer_points": result.declarer_points,
        "made": result.made,
        "kind": result.kind,
        "score": result.score,
        "levels": result.levels,
        "deltas": list(result.deltas),
        "breakdown": dict(result.breakdown),
    }


def build_record(
    rules: RuleSet,
    seed: int | None,
    deal: Sequence[Sequence[Card]],
    first: int,
    actions: Sequence[tuple[int, Action]],
    result: HandResult | None,
) -> dict[str, Any]:
    """The JSON-safe record of a hand from its parts (e.g. a hand the native core played)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules.to_dict(),
        "seed": seed,
        "deal": {
            "hands": [format_cards(part) for part in deal[:4]],
            "kitty": format_cards(deal[4]),
        },
        "first": first,
        "actions": [action_json(seat, action) for seat, action in actions],
        "result": None if result is None else result_json(result),
    }


def record_of(hand: RecordedHand) -> dict[str, Any]:
    """The record of ``hand`` as it stands (what :meth:`baofen.Hand.to_record` gives)."""
    return build_record(
        hand.rules, hand.seed, hand.deal, hand.first, hand.actions, hand.result
    )


# -- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadRecord:
    """A record read and checked (but not yet replayed): :func:`read_record`."""

    rules: RuleSet
    seed: int | None
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    first: int
    actions: tuple[tuple[int, Action], ...]
    result: dict[str, Any] | None
    """The recorded result in its JSON form (:func:`result_json`), checked by :meth:`replay`."""

    def replay(self, hand: RecordedHand) -> None:
        """Replay the actions on ``hand``, freshly dealt from this record; ``ValueError`` when
        an action does not replay or the result differs from the recorded one."""
        hand.seed = self.seed
        for number, (seat, action) in enumerate(self.actions):
            try:
                hand.apply(seat, action)
            except IllegalAction as error:
                raise ValueError(
                    f"record action {number} ({action_json(seat, action)}) does not replay: "
                    f"{error}"
                ) from None
        if self.result is not None and (
            hand.result is None or result_json(hand.result) != self.result
        ):
            raise ValueError("the record's result differs from the result of replaying it")


class _Invalid(ValueError):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"invalid hand record: {where}: {message}")


def _object(value: Any, where: str, keys: Sequence[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Invalid(where, f"expected an object, not {type(value).__name__}")
    missing = [key for key in keys if key not in value]
    if missing:
        raise _Invalid(f"{where}.{missing[0]}" if where != "record" else missing[0], "missing")
    extra = [key for key in value if key not in keys]
    if extra:
        raise _Invalid(where, f"unknown field {extra[0]!r}")
    return value


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if type(value) is not int:
        raise _Invalid(where, f"expected an integer, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _Invalid(where, f"expected {low}–{high}, not {value}")
    return value


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, str):
        raise _Invalid(where, f"expected cards in one string such as 'SA SK', not {value!r}")
    try:
        return tuple(parse_cards(value))
    except ValueError as error:
        raise _Invalid(where, str(error)) from None


def _action(value: Any, where: str) -> tuple[int, Action]:
    if not isinstance(value, dict):
        raise _Invalid(where, f"expected an object, not {type(value).__name__}")
    kind = next((kind for kind in ("bid", "declare", "play") if kind in value), None)
    if kind is None:
        raise _Invalid(where, "an action is a bid, a declare or a play, with its seat")
    _object(value, where, ("seat", kind))
    seat = _int(value["seat"], f"{where}.seat", 0, 3)
    if kind == "bid":
        bid = value["bid"]
        return seat, Bid(None if bid is None else _int(bid, f"{where}.bid"))
    if kind == "play":
        return seat, Play.of(_cards(value["play"], f"{where}.play"))
    declared = _object(value["declare"], f"{where}.declare", ("trump", "bury"))
    trump = declared["trump"]
    if trump not in _SUITS:
        raise _Invalid(f"{where}.declare.trump", f"expected S, H, C or D, not {trump!r}")
    return seat, Declare(trump, _cards(declared["bury"], f"{where}.declare.bury"))


def _result(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    result = _object(value, "result", _RESULT_FIELDS)
    if not isinstance(result["deltas"], list) or not isinstance(result["breakdown"], dict):
        raise _Invalid("result", "deltas is a list and breakdown an object")
    return result


def read_record(data: Any) -> ReadRecord:
    """The record in ``data`` (its JSON form), checked; anything else raises ``ValueError``
    saying what is wrong. :meth:`ReadRecord.replay` replays it on a hand dealt from it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} record")
    if data.get("version") != VERSION:
        raise ValueError(
            f"unsupported record version {data.get('version')!r} (expected {VERSION})"
        )
    fields = ("format", "version", "rules", "seed", "deal", "first", "actions", "result")
    _object(data, "record", fields)
    if not isinstance(data["rules"], dict):
        raise _Invalid("rules", "expected an object")
    try:
        rules = RuleSet.from_dict(data["rules"])
    except ValueError as error:
        raise _Invalid("rules", str(error)) from None
    seed = None if data["seed"] is None else _int(data["seed"], "seed")
    deal = _object(data["deal"], "deal", ("hands", "kitty"))
    if not isinstance(deal["hands"], list) or len(deal["hands"]) != 4:
        raise _Invalid("deal.hands", "expected a list of four hands")
    hands = tuple(_cards(part, f"deal.hands.{i}") for i, part in enumerate(deal["hands"]))
    if not isinstance(data["actions"], list):
        raise _Invalid("actions", "expected a list")
    return ReadRecord(
        rules=rules,
        seed=seed,
        hands=hands,
        kitty=_cards(deal["kitty"], "deal.kitty"),
        first=_int(data["first"], "first", 0, 3),
        actions=tuple(_action(item, f"actions.{i}") for i, item in enumerate(data["actions"])),
        result=_result(data["result"]),
    )
