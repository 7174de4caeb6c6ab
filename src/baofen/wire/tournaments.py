"""The REST bodies of tournaments (比赛): create, list, register, standings, travellers.

A refused request is answered with its HTTP status and a :class:`TournamentRefusal` body
(``{"detail": {"code": ..., "message": ...}}``), the code one of :data:`RefusalCode`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from ..ruleset import RuleSet
from ..setting import BotLevel
from .names import PlayerName, TableName
from .results import ResultView
from .rules import Rules

TournamentFormat = Literal["duplicate", "swiss"]
"""复式 (duplicate individual) or 瑞士移位 (Swiss)."""

TournamentStatus = Literal["registering", "playing", "break", "finished", "cancelled"]
"""Taking entrants; playing a round; between rounds (a countdown to the next); over; called
off (nobody had registered at the start)."""

RefusalCode = Literal[
    "no_tournament",
    "not_signed_in",
    "not_organiser",
    "registration_closed",
    "already_registered",
    "name_taken",
    "tournament_full",
    "guests_not_allowed",
    "name_required",
    "not_registered",
    "not_finished",
    "not_playing",
    "not_found",
    "not_admin",
    "not_member",
]
"""Why a tournament request was refused (docs/protocol.md, Tournaments)."""


class TournamentSettings(BaseModel):
    """An event's settings beyond its rule set."""

    model_config = ConfigDict(extra="forbid")

    name: TableName = Field("", description="the event's name")
    format: TournamentFormat = "duplicate"
    rounds: Annotated[int, Field(ge=1, le=20)] = 2
    hands: Annotated[int, Field(ge=1, le=32)] = Field(
        4, description="deals (duplicate) or hands (Swiss) a round; each round is one match")
    start: AwareDatetime = Field(description="when the first round starts, whatever happens")
    seat_limit: Annotated[int, Field(ge=4, le=1024)] = Field(64, description="entrants at most")
    rated: bool = Field(False, description="each hand changes the signed-in players' ratings")
    bot_level: BotLevel = Field("hard", description="the computer filling incomplete tables")
    guests: bool = Field(True, description="guests may register by name")
    points: Annotated[list[float], Field(min_length=4, max_length=4)] = Field(
        [4.0, 2.0, 1.0, 0.0], description="Swiss: tournament points of table ranks 1–4")
    break_seconds: Annotated[float, Field(ge=0, le=3600)] = Field(
        60.0, description="the countdown between rounds")
    play_seconds: Annotated[float, Field(gt=0, le=600)] = Field(
        30.0, description="time to bid or play a card (the kitty: three times as long)")


class CreateTournament(BaseModel):
    """Body of ``POST /api/tournaments`` (signed in: the account organises it)."""

    model_config = ConfigDict(extra="forbid")

    rules: Rules = Field(default_factory=RuleSet, description="the game and any house rules; "
                         "its hands field is set from the settings")
    settings: TournamentSettings
    club: str | None = Field(None, description="a club's id: the club's event, for its members "
                             "only (its owner or an admin creates it)")

    @model_validator(mode="after")
    def _rated_only_by_default_rules(self) -> CreateTournament:
        default = RuleSet(variant=self.rules.variant).replace(hands=self.rules.hands)
        if self.settings.rated and self.rules != default:
            raise ValueError("only an event of the game's default rules is rated: set rated "
                             "to false or use the default rules")
        return self


class Register(BaseModel):
    """Body of ``POST /api/tournaments/{code}/entrants``: a guest gives a name (an account
    registers under its username)."""

    model_config = ConfigDict(extra="forbid")

    name: PlayerName | None = None


class Registered(BaseModel):
    """Answer to a registration."""

    number: int = Field(description="the entrant's number in the event")
    name: str
    token: str | None = Field(description="a guest's token: it seats them at each round's "
                              "table (keep it; it is shown once)")


class EntrantView(BaseModel):
    """An entrant, as everyone sees them."""

    number: int
    name: str
    filler: bool = Field(description="a computer filling an incomplete table: never ranked")
    guest: bool


class StandingView(BaseModel):
    """A line of the standings."""

    number: int
    name: str
    filler: bool
    rank: int | None = Field(description="null for a computer filler")
    points: float = Field(description="duplicate: mean matchpoint %; Swiss: tournament points")
    score: int = Field(description="the sum of the entrant's hand results (the tie-break)")
    hands: int


class RoundTableView(BaseModel):
    """A table of a round; its code only once the round is over (a seated player finds
    their own with ``GET …/mine``)."""

    round: int
    table: int
    code: str | None
    entrants: list[int] = Field(description="entrant numbers by seat")


class TournamentInfo(BaseModel):
    """Answer to ``GET /api/tournaments/{code}``; a list entry leaves out the entrants, the
    standings and the tables."""

    code: str
    organiser: str
    rules: Rules
    settings: TournamentSettings
    status: TournamentStatus
    round: int = Field(description="the round playing or last played, from 1 (0 before)")
    next_start: datetime | None = Field(description="when the next round starts (countdown)")
    registered: int
    club: str | None = Field(None, description="the club whose members only it is for")
    entrants: list[EntrantView] = []
    standings: list[StandingView] = []
    counted: int = Field(0, description="deals of the current round counted in the standings: "
                         "a deal counts once every table has finished it")
    tables: list[RoundTableView] = []


class MyTable(BaseModel):
    """Answer to ``GET /api/tournaments/{code}/mine``: the caller's table this round."""

    round: int
    table: int
    code: str
    seat: int
    websocket: str


class TravellerLine(BaseModel):
    """One table's result on a deal."""

    table: int
    entrants: list[int]
    result: ResultView


class Traveller(BaseModel):
    """Answer to ``GET /api/tournaments/{code}/travellers/{round}/{deal}``: every table's
    result on one deal, once every table has finished it."""

    round: int
    deal: int
    lines: list[TravellerLine]


class RefusalDetail(BaseModel):
    """Why a tournament request was refused."""

    code: RefusalCode
    message: str


class TournamentRefusal(BaseModel):
    """The body of a refused tournament request."""

    detail: RefusalDetail
