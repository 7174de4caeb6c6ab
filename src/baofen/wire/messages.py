"""The WebSocket messages between a client (a browser, a bot, a test) and the server.

Each message is one JSON object in one text frame, told apart by its ``type`` field. Client
messages are validated strictly (unknown fields, wrong types and unknown ``type`` values are
refused with an ``error``); the server sends ``model_dump_json()`` of a server message model, so
``docs/protocol.schema.json`` describes exactly what is sent.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, StringConstraints, TypeAdapter

from ..actions import Action
from ..errors import Reason
from ..setting import BotLevel
from .actions import (
    ActionRecord,
    BidMessage,
    ClientMessageBase,
    DeclareMessage,
    MessageId,
    PlayMessage,
    action_message,
)
from .cards import CardName, SeatNumber, Suit
from .names import PlayerName
from .observation import ObservationView
from .table import TableInfo
from .tricks import TrickView

# -- client → server ------------------------------------------------------------------------


class Join(ClientMessageBase):
    """Take an empty seat before the match starts; answered by ``joined`` with the seat token."""

    type: Literal["join"]
    seat: SeatNumber
    name: PlayerName = Field(
        "", description="the player's name; empty: a readable default such as 玩家4821, given "
        "back in `joined.name` (a signed-in player's is their username)"
    )


class Reclaim(ClientMessageBase):
    """Take back one's seat (after a drop, a reload or a server restart) with its seat token;
    or, without a token, the seat bound to the account signed in on this connection (its
    session cookie came with the WebSocket handshake), e.g. on another device. A seat bound to
    an account is never taken by another account's connection, token or not."""

    type: Literal["reclaim"]
    token: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = Field(
        None, description="the seat token; null: the seat of the signed-in account"
    )


class Watch(ClientMessageBase):
    """Watch the table as a spectator: public information only."""

    type: Literal["watch"]


class FillBots(ClientMessageBase):
    """Seat a computer player in every empty seat (before the start); default: the table's level."""

    type: Literal["fill_bots"]
    level: BotLevel | None = None


class Start(ClientMessageBase):
    """Start the match; every seat must be taken (by a player or a computer player)."""

    type: Literal["start"]


class Auto(ClientMessageBase):
    """Switch 托管 (the computer plays for this seat) on or off."""

    type: Literal["auto"]
    on: bool


class Ready(ClientMessageBase):
    """继续: this player has seen the hand's result; the next hand is dealt once every connected
    player is ready (with several players, at the latest ``ready_seconds`` after the hand)."""

    type: Literal["ready"]


class Leave(ClientMessageBase):
    """Leave the seat: before the start it is freed; during the match the computer plays it
    (逃跑, rules.md §12.4) until the player reclaims it with the token."""

    type: Literal["leave"]


class Sync(ClientMessageBase):
    """Ask for the full current ``state`` again."""

    type: Literal["sync"]


class Ping(ClientMessageBase):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


class Check(ClientMessageBase):
    """Ask whether this seat may play ``cards`` now; answered by ``checked`` (nothing is played).

    A browser sends it while a player selects cards, to enable its play button."""

    type: Literal["check"]
    cards: Annotated[list[CardName], Field(min_length=1, max_length=33)]


class Hint(ClientMessageBase):
    """Ask the computer (the rule bot, 提示) what it would do for this seat now, from this seat's
    observation only; answered by ``suggestion`` (nothing is played)."""

    type: Literal["hint"]


ClientMessage = Annotated[
    Join | Reclaim | Watch | FillBots | Start | BidMessage | DeclareMessage | PlayMessage | Auto
    | Ready | Leave | Sync | Ping | Check | Hint,
    Field(discriminator="type"),
]
"""Any client → server message."""

client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
"""Validator of one client message (a parsed JSON value)."""


# -- server → client ------------------------------------------------------------------------


class _ServerMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")


ErrorCode = Literal[
    "bad_json",
    "binary_frame",
    "too_large",
    "rate_limited",
    "unknown_type",
    "invalid_message",
    "unknown_table",
    "not_joined",
    "already_joined",
    "seat_taken",
    "bad_token",
    "spectator",
    "not_started",
    "already_started",
    "seats_empty",
    "match_over",
    "not_between_hands",
    "illegal_action",
    "replaced",
    "unavailable",
    "not_signed_in",
    "wrong_account",
    "not_host",
    "rated_elsewhere",
    "not_member",
    "seat_forbidden",
    "no_spectators",
]
"""Why a message was refused (see docs/protocol.md for each)."""


class ReasonCode(BaseModel):
    """Why the rules refuse an action, as a code with parameters (``baofen.Reason``), so that a
    client can say it in its own language; the English text comes beside it."""

    code: str = Field(description="one of the codes of baofen.errors.REASONS")
    params: dict[str, str | int | None] = Field(
        description="`group`: 'trump' or a suit letter; `card`, `cards`: in notation; seats, "
        "phases, bids and counts"
    )

    @classmethod
    def of(cls, reason: str | None) -> ReasonCode | None:
        """The code of an engine reason, or ``None`` when it has none."""
        if not isinstance(reason, Reason):
            return None
        return cls(code=reason.code, params=reason.params)


class ErrorMessage(_ServerMessage):
    """A refused message: nothing changed, and the connection stays open (except ``replaced``)."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str = Field(description="what was wrong, in plain words")
    id: MessageId = None
    reason_code: ReasonCode | None = Field(
        default=None, description="for `illegal_action`, and `seat_forbidden` (`forbidden_pair`: "
        "禁止同桌 with `name`; `same_address`: 同IP禁止同桌): the reason's code, to translate "
        "`message`"
    )


class Joined(_ServerMessage):
    """Answer to ``join``, ``reclaim`` and ``watch``: who this connection is."""

    type: Literal["joined"] = "joined"
    table: str = Field(description="the table code")
    seat: SeatNumber | None = Field(description="the seat, or null for a spectator")
    name: str | None
    token: str | None = Field(
        description="the seat token (after join and reclaim): keep it to reclaim the seat "
        "(a reclaim by account gets a new token: the old one no longer works)"
    )
    id: MessageId = None


class Ack(_ServerMessage):
    """An accepted message: for actions, the action is stored and ``version`` counts it. An
    action's ack comes in the view it caused (:class:`Acknowledged`), not on its own."""

    type: Literal["ack"] = "ack"
    id: MessageId = None
    version: int


class Acknowledged(_ServerMessage):
    """The ack of this connection's action, carried by the view (``state`` or ``patch``) that
    the action caused, so that no ``ack`` message of its own follows: the same fields."""

    id: MessageId = None
    version: int


class Pong(_ServerMessage):
    """Answer to ``ping``."""

    type: Literal["pong"] = "pong"
    id: MessageId = None


class Checked(_ServerMessage):
    """Answer to ``check``: whether the cards may be played now, and if not, why."""

    type: Literal["checked"] = "checked"
    id: MessageId = None
    cards: list[CardName] = Field(description="the checked cards")
    legal: bool
    reason: str | None = Field(description="the engine's reason when not legal, else null")
    reason_code: ReasonCode | None = Field(
        default=None, description="the reason's code, when the rules of play refuse the cards"
    )


class Suggestion(_ServerMessage):
    """Answer to ``hint``: the action the computer suggests for this seat now."""

    type: Literal["suggestion"] = "suggestion"
    id: MessageId = None
    action: Literal["bid", "declare", "play"]
    value: int | None = Field(None, description="bid: the value, or null to pass")
    trump: Suit | None = Field(None, description="declare: the trump")
    bury: list[CardName] | None = Field(None, description="declare: the 8 cards to bury")
    cards: list[CardName] | None = Field(None, description="play: the cards to play")

    @classmethod
    def of(cls, action: Action, ident: int | str | None = None) -> Suggestion:
        """The suggestion of ``action``: the fields of the message that would make it."""
        message = action_message(action)
        return cls.model_validate({
            **message.model_dump(exclude={"id", "type"}), "id": ident, "action": message.type,
        })


ACK_FIELD = (
    "only in the view that this connection's own game action caused: that action's ack "
    "(`id`, `version`), instead of an `ack` message; not part of the view"
)


class State(_ServerMessage):
    """The full view of this connection, sent after every change and on ``sync``."""

    type: Literal["state"] = "state"
    you: SeatNumber | None = Field(description="this connection's seat; null for a spectator")
    table: TableInfo
    observation: ObservationView | None = Field(description="null before the start")
    last: ActionRecord | None = Field(
        description="the hand's last action as everyone may see it (a declare's bury shows to "
        "the declarer only)"
    )
    view: int = Field(
        0, description="this view's number at the table: a later `patch` with this `since` "
        "changes it"
    )
    ack: Acknowledged | None = Field(None, description=ACK_FIELD)


class Patch(_ServerMessage):
    """What changed since this connection's previous view (:mod:`baofen.wire.patch`), sent
    instead of a whole ``state`` after a change. It changes the view numbered ``since`` into
    view ``view``; a client that does not have view ``since`` asks for the whole view
    (``sync``)."""

    type: Literal["patch"] = "patch"
    view: int = Field(description="the number of the view this makes")
    since: int = Field(description="the number of the view it changes")
    set: dict[str, Any] = Field(
        default_factory=dict, description="the new value of each path that changed: a field "
        "of the state (`you`, `last`, `table`, `observation`), of its table or observation "
        "(`table.seats`, `observation.hand`), or of an object there (`table.match.step`), "
        "replaced whole"
    )
    tricks: list[TrickView] = Field(
        default_factory=list, description="finished tricks to append to `observation.tricks`"
    )
    counter: dict[CardName, int] = Field(
        default_factory=dict, description="the entries of `observation.counter` that changed"
    )
    ack: Acknowledged | None = Field(None, description=ACK_FIELD)


ServerMessage = Annotated[
    ErrorMessage | Joined | Ack | Pong | State | Patch | Checked | Suggestion,
    Field(discriminator="type"),
]
"""Any server → client message."""

server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Validator of one server message (used by tests and client libraries)."""


class ClientMessages(RootModel[ClientMessage]):
    """Every client → server message (for the schema)."""


class ServerMessages(RootModel[ServerMessage]):
    """Every server → client message (for the schema)."""
