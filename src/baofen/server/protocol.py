"""The wire protocol: every JSON message between a browser (or bot) client and the server.

Each message is one JSON object in one WebSocket text frame, told apart by its ``type`` field.
Client messages are validated here (strictly: unknown fields, wrong types and unknown ``type``
values are rejected with an ``error`` message); server messages are documented by models so that
``docs/protocol.schema.json`` (see :mod:`baofen.server.schema`) describes exactly what is sent.

The REST bodies of the lobby (create a table, table info, hand lists) live here too, so that one
schema covers everything a client sees.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StringConstraints,
    TypeAdapter,
)

from ..cards import parse_card
from ..errors import Reason
from ..ruleset import RuleSet
from .table_settings import BotLevel as BotLevel
from .table_settings import ClientDefaults as ClientDefaults
from .table_settings import TableSettings as TableSettings

SeatNumber = Annotated[int, Field(ge=0, le=3, description="a seat 0–3 (South, East, North, West)")]
MessageId = Annotated[
    int | Annotated[str, StringConstraints(max_length=64)] | None,
    Field(description="optional client-chosen id, echoed in the matching ack or error"),
]


def _card_name(token: str) -> str:
    """Canonical notation of one card (``"H10"`` → ``"HT"``); a bad token fails validation."""
    return str(parse_card(token))


CardName = Annotated[
    str,
    StringConstraints(min_length=2, max_length=4),
    AfterValidator(_card_name),
    Field(description="a card in notation: suit letter S H C D + rank 2–9 T J Q K A, or BJ / LJ"),
]


# -- client → server ------------------------------------------------------------------------


class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: MessageId = None


class Join(_ClientMessage):
    """Take an empty seat before the match starts; answered by ``joined`` with the seat token."""

    type: Literal["join"]
    seat: SeatNumber
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]


class Reclaim(_ClientMessage):
    """Take back one's seat (after a drop, a reload or a server restart) with its seat token."""

    type: Literal["reclaim"]
    token: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class Watch(_ClientMessage):
    """Watch the table as a spectator: public information only."""

    type: Literal["watch"]


class FillBots(_ClientMessage):
    """Seat a computer player in every empty seat (before the start); default: the table's level."""

    type: Literal["fill_bots"]
    level: BotLevel | None = None


class Start(_ClientMessage):
    """Start the match; every seat must be taken (by a player or a computer player)."""

    type: Literal["start"]


class BidMessage(_ClientMessage):
    """Bid a target (叫分), or pass with ``null`` (不叫)."""

    type: Literal["bid"]
    value: Annotated[int, Field(ge=0, le=1000)] | None


class DeclareMessage(_ClientMessage):
    """The declarer names the trump suit (定主) and buries eight cards (扣底)."""

    type: Literal["declare"]
    trump: Literal["S", "H", "C", "D"]
    bury: Annotated[list[CardName], Field(max_length=33)]


class PlayMessage(_ClientMessage):
    """Play cards to the current trick: a lead (one unit, or a throw 甩牌) or a follow."""

    type: Literal["play"]
    cards: Annotated[list[CardName], Field(min_length=1, max_length=33)]


class Auto(_ClientMessage):
    """Switch 托管 (the computer plays for this seat) on or off."""

    type: Literal["auto"]
    on: bool


class Leave(_ClientMessage):
    """Leave the seat: before the start it is freed; during the match the computer plays it
    (逃跑, rules.md §12.4) until the player reclaims it with the token."""

    type: Literal["leave"]


class Sync(_ClientMessage):
    """Ask for the full current ``state`` again."""

    type: Literal["sync"]


class Ping(_ClientMessage):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


class Check(_ClientMessage):
    """Ask whether this seat may play ``cards`` now; answered by ``checked`` (nothing is played).

    A browser sends it while a player selects cards, to enable its play button."""

    type: Literal["check"]
    cards: Annotated[list[CardName], Field(min_length=1, max_length=33)]


class Hint(_ClientMessage):
    """Ask the computer (the rule bot, 提示) what it would do for this seat now, from this seat's
    observation only; answered by ``suggestion`` (nothing is played)."""

    type: Literal["hint"]


ACTION_TYPES = frozenset({"bid", "declare", "play"})
"""Client message types that are actions of the hand."""

ClientMessage = Annotated[
    Join | Reclaim | Watch | FillBots | Start | BidMessage | DeclareMessage | PlayMessage | Auto
    | Leave | Sync | Ping | Check | Hint,
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
    "illegal_action",
    "replaced",
    "unavailable",
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
        default=None, description="for `illegal_action`: the reason's code, to translate `message`"
    )


class Joined(_ServerMessage):
    """Answer to ``join``, ``reclaim`` and ``watch``: who this connection is."""

    type: Literal["joined"] = "joined"
    table: str = Field(description="the table code")
    seat: SeatNumber | None = Field(description="the seat, or null for a spectator")
    name: str | None
    token: str | None = Field(
        description="the seat token (after join and reclaim): keep it to reclaim the seat"
    )
    id: MessageId = None


class Ack(_ServerMessage):
    """An accepted message: for actions, the action is stored and ``version`` counts it."""

    type: Literal["ack"] = "ack"
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
    cards: list[str] = Field(description="the checked cards, in notation")
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
    trump: Literal["S", "H", "C", "D"] | None = Field(None, description="declare: the trump")
    bury: list[str] | None = Field(None, description="declare: the 8 cards to bury")
    cards: list[str] | None = Field(None, description="play: the cards to play")


class TrickView(BaseModel):
    """A finished trick (public)."""

    leader: SeatNumber
    plays: list[tuple[SeatNumber, list[str]]] = Field(description="[seat, cards] in order")
    winner: SeatNumber
    points: int
    attempted: list[str] | None = Field(description="all cards of a failed throw (甩错牌)")
    penalty: int


class ResultView(BaseModel):
    """The scored result of a finished hand (rules.md §11)."""

    declarer: SeatNumber | None
    target: int | None
    declarer_points: int | None
    made: bool | None
    kind: str | None = Field(description="full_sweep, half_sweep, shutout, no_bid or null")
    score: int | None = Field(description="包分 hand score S")
    levels: int | None = Field(description="包红五 levels L")
    deltas: list[int]
    breakdown: dict[str, Any]


class ObservationView(BaseModel):
    """What this connection's seat may know of the current hand (``Observation.to_dict()``).

    Other seats' cards never appear; ``kitty`` and ``buried`` are the declarer's only. A
    spectator's ``hand`` is empty.
    """

    seat: SeatNumber | None
    variant: Literal["baofen", "hongwu"]
    phase: Literal["bidding", "kitty", "playing", "done"]
    to_act: SeatNumber | None
    first: SeatNumber = Field(description="the caller / first bidder")
    bids: list[tuple[SeatNumber, int | None]] = Field(description="[seat, value|null] in order")
    legal_bids: list[int | None] = Field(description="bids this seat may make now")
    declarer: SeatNumber | None
    target: int | None
    trump: Literal["S", "H", "C", "D"] | None
    hand: list[str] | None = Field(description="this seat's cards, trumps first")
    kitty: list[str] | None
    buried: list[str] | None
    tricks: list[TrickView]
    current_trick: list[tuple[SeatNumber, list[str]]]
    current_attempt: list[str] | None
    leader: SeatNumber | None
    hand_sizes: list[int]
    penalties: list[int]
    declarer_points: int
    result: ResultView | None


class SeatView(BaseModel):
    """One seat as everyone sees it."""

    seat: SeatNumber
    kind: Literal["human", "bot"] | None = Field(description="null: empty")
    name: str | None
    bot_level: BotLevel | None
    connected: bool = Field(description="a player's connection is open (bots: always true)")
    auto: bool = Field(description="托管: the computer plays this seat now")
    away: bool = Field(description="left or dropped (逃跑, rules.md §12.4)")


class HandSummary(BaseModel):
    """One settled hand of the match."""

    number: int
    deltas: list[int]
    scores: list[int] = Field(description="running scores after this hand")
    pot: int
    left: list[SeatNumber]
    result: ResultView


class MatchView(BaseModel):
    """The match's books (rules.md §12)."""

    hand_number: int = Field(description="1 for the first hand")
    hands: int | None = Field(description="hands in the match (null: unlimited)")
    step: int = Field(description="number of actions so far in the current hand")
    scores: list[int]
    coins: list[int] | None = Field(description="包红五: scores in coins")
    pot: int
    caller: SeatNumber
    finished: bool
    history: list[HandSummary]


class TableInfo(BaseModel):
    """Public information of a table (REST and every ``state``): never a hidden card."""

    code: str
    status: Literal["waiting", "playing", "finished"]
    rules: RuleSet
    settings: TableSettings
    seats: list[SeatView]
    match: MatchView | None = Field(description="null before the start")
    version: int = Field(description="number of stored events; grows with every change")
    deadline: float | None = Field(
        description="turn timer of the seat to act: Unix time in seconds, or null"
    )


class State(_ServerMessage):
    """The full view of this connection, sent after every change and on ``sync``."""

    type: Literal["state"] = "state"
    you: SeatNumber | None = Field(description="this connection's seat; null for a spectator")
    table: TableInfo
    observation: ObservationView | None = Field(description="null before the start")
    last: dict[str, Any] | None = Field(
        description="the last action of the hand as everyone may see it: "
        '{"seat": 1, "play": "SA SA"}, {"seat": 0, "bid": 90}, {"seat": 2, "declare": …}'
    )


ServerMessage = Annotated[
    ErrorMessage | Joined | Ack | Pong | State | Checked | Suggestion,
    Field(discriminator="type"),
]
"""Any server → client message."""

server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Validator of one server message (used by tests and client libraries)."""


# -- REST -----------------------------------------------------------------------------------


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``: the rule set (variant and every §13 field) and settings."""

    model_config = ConfigDict(extra="forbid")

    rules: RuleSet = Field(
        default_factory=RuleSet,
        description='variant and settings (rules.md §13), e.g. {"variant": "hongwu", "hands": 8}',
    )
    settings: TableSettings = Field(default_factory=TableSettings)


class TableCreated(BaseModel):
    """Answer to ``POST /api/tables``."""

    code: str = Field(description="the table's unguessable code")
    link: str = Field(description="shareable link to the table")
    websocket: str = Field(description="WebSocket path to join or watch")
    table: TableInfo


class CardOrderView(BaseModel):
    """Answer to ``GET /api/order/{variant}``: the display order of the 54 card kinds for one
    trump suit (or before trump is named), and each kind's suit group, so that a client can
    group and sort cards without knowing the rules."""

    variant: Literal["baofen", "hongwu"]
    trump: Literal["S", "H", "C", "D"] | None
    cards: list[str] = Field(description="the 54 kinds, trumps first, strongest first in a group")
    groups: list[int] = Field(
        description="suit group of each entry of cards: 0–3 the plain suit S H C D, 4 trump"
    )


class ReplayTrick(BaseModel):
    """One trick of a replay, with what followed from it."""

    number: int = Field(description="1 for the first trick")
    trick: TrickView
    declarer_points: int = Field(description="card points the declarer captured so far")
    hands: list[list[str]] = Field(description="each seat's cards after the trick, for display")


class HandReplay(BaseModel):
    """Answer to ``GET /api/tables/{code}/hands/{n}/replay``: a finished hand, worked out by
    the engine from its record, ready to step through trick by trick."""

    number: int
    rules: RuleSet
    first: SeatNumber = Field(description="the caller / first bidder")
    deal: list[list[str]] = Field(description="the four hands as dealt, for display")
    kitty: list[str]
    bids: list[tuple[SeatNumber, int | None]]
    declarer: SeatNumber | None
    target: int | None
    trump: Literal["S", "H", "C", "D"] | None
    buried: list[str] | None
    hands: list[list[str]] = Field(
        description="each seat's cards when play starts (after the kitty), for display"
    )
    tricks: list[ReplayTrick]
    result: ResultView


class ClientMessages(RootModel[ClientMessage]):
    """Every client → server message (for the schema)."""


class ServerMessages(RootModel[ServerMessage]):
    """Every server → client message (for the schema)."""


SCHEMA_MODELS: tuple[type[BaseModel], ...] = (
    ClientMessages,
    ServerMessages,
    CreateTable,
    TableCreated,
    TableInfo,
    HandSummary,
    RuleSet,
    ClientDefaults,
    CardOrderView,
    HandReplay,
)
"""Models whose JSON Schema forms ``docs/protocol.schema.json``."""
