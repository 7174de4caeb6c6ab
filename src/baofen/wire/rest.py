"""The REST bodies of the lobby: create a table, the card order, replays of finished hands.

Table information (:class:`~.table.TableInfo`) and hand summaries are served as they are;
a hand record is served in its own JSON form (:class:`~.record.HandRecord`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..ruleset import RuleSet
from ..setting import BotLevel, Variant
from .cards import CardName, SeatNumber, Suit
from .names import PlayerName
from .results import ResultView
from .rules import Rules
from .settings import TableSettings
from .table import TableInfo
from .tricks import TrickView


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``: the rule set (variant and every §13 field) and settings."""

    model_config = ConfigDict(extra="forbid")

    rules: Rules = Field(
        default_factory=RuleSet,
        description='variant and settings (rules.md §13), e.g. {"variant": "hongwu", "hands": 8}',
    )
    settings: TableSettings = Field(default_factory=TableSettings)

    @model_validator(mode="after")
    def _rated_only_by_default_rules(self) -> CreateTable:
        # Ratings compare players over one game: a table of other rules of play (one bid only)
        # would rate something else, and be a way to farm them. The match's length is not one:
        # every hand is rated on its own.
        default = RuleSet(variant=self.rules.variant).replace(hands=self.rules.hands)
        if self.settings.rated and self.rules != default:
            raise ValueError(
                "only a table of the game's default rules is rated: set rated to false or use "
                "the default rules"
            )
        return self


class TableCreated(BaseModel):
    """Answer to ``POST /api/tables``."""

    code: str = Field(description="the table's unguessable code")
    link: str = Field(description="shareable link to the table")
    websocket: str = Field(description="WebSocket path to join or watch")
    table: TableInfo


class QuickPlay(BaseModel):
    """Body of ``POST /api/quickplay``: play the computer at once (和电脑玩)."""

    model_config = ConfigDict(extra="forbid")

    variant: Variant = "baofen"
    level: BotLevel | None = Field(None, description="the computer players' level; null: default")
    name: PlayerName = Field(
        "", description="the player's name; empty: a readable default such as 玩家4821"
    )


class QuickPlayed(BaseModel):
    """Answer to ``POST /api/quickplay``: the player sits at South (seat 0), the computer fills
    the other seats, and the match has started."""

    code: str = Field(description="the table's code")
    seat: SeatNumber
    name: str = Field(description="the player's name at the table")
    token: str = Field(description="the seat token: send `reclaim` with it on connecting")
    link: str = Field(description="the table's link")
    websocket: str = Field(description="WebSocket path of the table")


class CardOrderView(BaseModel):
    """Answer to ``GET /api/order/{variant}``: the display order of the 54 card kinds for one
    trump suit (or before trump is named), and each kind's suit group, so that a client can
    group and sort cards without knowing the rules."""

    variant: Variant
    trump: Suit | None
    cards: list[CardName] = Field(
        description="the 54 kinds, trumps first, strongest first in a group"
    )
    groups: list[int] = Field(
        description="suit group of each entry of cards: 0–3 the plain suit S H C D, 4 trump"
    )


class ReplayTrick(BaseModel):
    """One trick of a replay, with what followed from it."""

    number: int = Field(description="1 for the first trick")
    trick: TrickView
    declarer_points: int = Field(description="card points the declarer captured so far")
    hands: list[list[CardName]] = Field(
        description="each seat's cards after the trick, for display"
    )


class HandReplay(BaseModel):
    """Answer to ``GET /api/tables/{code}/hands/{n}/replay``: a finished hand, worked out by
    the engine from its record, ready to step through trick by trick."""

    number: int
    rules: Rules
    first: SeatNumber = Field(description="the caller / first bidder")
    deal: list[list[CardName]] = Field(description="the four hands as dealt, for display")
    kitty: list[CardName]
    bids: list[tuple[SeatNumber, int | None]]
    declarer: SeatNumber | None
    target: int | None
    trump: Suit | None
    buried: list[CardName] | None
    hands: list[list[CardName]] = Field(
        description="each seat's cards when play starts (after the kitty), for display"
    )
    tricks: list[ReplayTrick]
    result: ResultView
