"""The events of a table's log, as the server stores and replays them.

Each event is one row of the store's log: its ``kind`` and its JSON ``payload`` (the store's
:class:`~baofen.store.Event`, which knows no models). Here they are one typed union,
:data:`TableEvent`, discriminated by ``kind``:

- ``start``: the match starts (payload ``{}``);
- ``action``: an action of the hand, its payload the action's record
  (:data:`~baofen.wire.actions.ActionRecord`, e.g. ``{"seat": 0, "bid": 90}``);
- ``next``: the next hand is dealt (payload ``{}``);
- ``away``: a player left (逃跑) or came back (``{"seat": 2, "away": true}``).

:func:`read_event` reads a stored row and :meth:`payload_data` gives the payload to store; the
JSON written is the same as the log has always held, so every stored log still loads.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .actions import ActionRecord
from .cards import SeatNumber


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class NoPayload(_Model):
    """The payload of an event that needs none: ``{}``."""


class Away(_Model):
    """Who left (逃跑) or came back: ``{"seat": 2, "away": true}``."""

    seat: SeatNumber
    away: bool


class _Event(_Model):
    payload: BaseModel
    """Each event's own (its subclass says which)."""

    def payload_data(self) -> dict[str, Any]:
        """The payload as the store keeps it (JSON data)."""
        return self.payload.model_dump(mode="json")


class StartEvent(_Event):
    """The match starts: the first hand is dealt from the table's seed."""

    kind: Literal["start"] = "start"
    payload: NoPayload = NoPayload()


class ActionEvent(_Event):
    """A seat's action in the hand (what the player or the computer did)."""

    kind: Literal["action"] = "action"
    payload: ActionRecord


class NextEvent(_Event):
    """The next hand is dealt (after a finished one)."""

    kind: Literal["next"] = "next"
    payload: NoPayload = NoPayload()


class AwayEvent(_Event):
    """A player left the match (the computer plays their seat) or took their seat back."""

    kind: Literal["away"] = "away"
    payload: Away


TableEvent = Annotated[
    StartEvent | ActionEvent | NextEvent | AwayEvent, Field(discriminator="kind")
]
"""One event of a table's log."""

_events: TypeAdapter[TableEvent] = TypeAdapter(TableEvent)


def read_event(kind: str, payload: Any) -> TableEvent:
    """The event of a stored row (its ``kind`` and ``payload``); a malformed one, or one of an
    unknown kind, raises ``ValueError`` (a pydantic ``ValidationError``) saying what is wrong."""
    return _events.validate_python({"kind": kind, "payload": payload})
