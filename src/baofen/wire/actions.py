"""The actions of a hand on the wire, in their two forms, each with its one conversion.

- The *record* form (hand records, the server's event log, a ``state``'s ``last``):
  ``{"seat": 0, "bid": 90}``, ``{"seat": 1, "declare": {"trump": "S", "bury": "C3 C4 …"}}``,
  ``{"seat": 2, "play": "SA SK"}``: :data:`ActionRecord`, made by :func:`action_record`.
- The *message* form a client sends to act: ``{"type": "play", "cards": ["SA", "SK"]}``:
  :data:`ActionMessage`, made by :func:`action_message`.

Either model's ``to_action()`` gives the engine's :class:`~baofen.Bid`, :class:`~baofen.Declare`
or :class:`~baofen.Play` back.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    TypeAdapter,
)

from ..actions import Action, Bid, Declare, Play
from .cards import CardName, CardString, SeatNumber, Suit

# -- messages -------------------------------------------------------------------------------

MessageId = Annotated[
    int | Annotated[str, StringConstraints(max_length=64)] | None,
    Field(description="optional client-chosen id, echoed in the matching ack or error"),
]


class ClientMessageBase(BaseModel):
    """What every client → server message has: validated strictly, an optional ``id``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: MessageId = None


class BidMessage(ClientMessageBase):
    """Bid a target (叫分), or pass with ``null`` (不叫)."""

    type: Literal["bid"]
    value: Annotated[int, Field(ge=0, le=1000)] | None

    def to_action(self) -> Bid:
        """The engine action."""
        return Bid(self.value)


class DeclareMessage(ClientMessageBase):
    """The declarer names the trump suit (定主) and buries eight cards (扣底)."""

    type: Literal["declare"]
    trump: Suit
    bury: Annotated[list[CardName], Field(max_length=33)]

    def to_action(self) -> Declare:
        """The engine action."""
        return Declare(self.trump, self.bury)


class PlayMessage(ClientMessageBase):
    """Play cards to the current trick: a lead (one unit, or a throw 甩牌) or a follow."""

    type: Literal["play"]
    cards: Annotated[list[CardName], Field(min_length=1, max_length=33)]

    def to_action(self) -> Play:
        """The engine action."""
        return Play(self.cards)


ActionMessage = BidMessage | DeclareMessage | PlayMessage
"""A client message that acts in the hand."""

ACTION_MESSAGES = (BidMessage, DeclareMessage, PlayMessage)
"""The action messages' classes (for ``isinstance``)."""


def action_message(action: Action) -> ActionMessage:
    """The client message that makes ``action``."""
    if isinstance(action, Bid):
        return BidMessage.model_validate({"type": "bid", "value": action.value})
    if isinstance(action, Declare):
        return DeclareMessage.model_validate(
            {"type": "declare", "trump": action.trump, "bury": list(action.bury)}
        )
    if isinstance(action, Play):
        return PlayMessage.model_validate({"type": "play", "cards": list(action.cards)})
    raise TypeError(f"not an action: {action!r}")


# -- records --------------------------------------------------------------------------------


class _Recorded(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    seat: SeatNumber


class BidRecord(_Recorded):
    """A bid in a record: ``{"seat": 0, "bid": 90}``; ``null`` passes."""

    bid: int | None

    def to_action(self) -> Bid:
        """The engine action."""
        return Bid(self.bid)


class Declared(BaseModel):
    """What a declare names and buries (the bury is empty when it is hidden from the reader)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    trump: Suit
    bury: CardString


class DeclareRecord(_Recorded):
    """A declare in a record: ``{"seat": 1, "declare": {"trump": "S", "bury": "C3 C4 …"}}``."""

    declare: Declared

    def to_action(self) -> Declare:
        """The engine action."""
        return Declare(self.declare.trump, self.declare.bury)


class PlayRecord(_Recorded):
    """A play in a record: ``{"seat": 2, "play": "SA SK"}``."""

    play: CardString

    def to_action(self) -> Play:
        """The engine action."""
        return Play.of(self.play)


def _recorded_kind(value: Any) -> str | None:
    """Which action a record holds: the first of its keys (a model's fields) ``bid``,
    ``declare``, ``play``."""
    keys = vars(value) if isinstance(value, _Recorded) else value
    if isinstance(keys, dict):
        return next((kind for kind in ("bid", "declare", "play") if kind in keys), None)
    return None


ActionRecord = Annotated[
    Annotated[BidRecord, Tag("bid")]
    | Annotated[DeclareRecord, Tag("declare")]
    | Annotated[PlayRecord, Tag("play")],
    Discriminator(
        _recorded_kind,
        custom_error_type="unknown_action",
        custom_error_message="an action is a bid, a declare or a play, with its seat",
    ),
]
"""One action of a hand, with its seat, as records and the event log keep it."""

_action_records: TypeAdapter[ActionRecord] = TypeAdapter(ActionRecord)


def action_record(seat: int, action: Action) -> BidRecord | DeclareRecord | PlayRecord:
    """The record of ``seat``'s ``action``."""
    if isinstance(action, Play):
        return PlayRecord(seat=seat, play=action.cards)
    if isinstance(action, Bid):
        return BidRecord(seat=seat, bid=action.value)
    if isinstance(action, Declare):
        return DeclareRecord.model_validate(
            {"seat": seat, "declare": {"trump": action.trump, "bury": action.bury}}
        )
    raise TypeError(f"not an action: {action!r}")


def read_action_record(data: Any) -> BidRecord | DeclareRecord | PlayRecord:
    """A record's action from its JSON form; a malformed one raises ``ValueError``
    (a pydantic ``ValidationError``) saying what is wrong."""
    return _action_records.validate_python(data)
