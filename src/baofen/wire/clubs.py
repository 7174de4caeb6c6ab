"""The REST bodies of 亲友圈 (clubs): the club, its members, invitations and requests, its
presets (house rules), its 禁止同桌 pairs, its tables, standings and members' club history.

Members are named by username (account ids never travel). A refusal is answered with
``{"detail": {"reason": CODE, "message": TEXT}}`` (:class:`ClubRefusal`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from ..accounts.usernames import MAX_LENGTH
from ..setting import BotLevel, Variant
from .accounts import AnyUsername
from .names import PlayerName, plain_text
from .rest import CreateTable
from .table import ListedTable

ClubName = Annotated[
    str, StringConstraints(min_length=1, max_length=4 * MAX_LENGTH),
    Field(description="the rules of usernames: 3–20 characters after NFKC, letters a–z, digits, "
          "_ and -, or CJK characters; no two clubs' names may look alike"),
]
PresetName = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(plain_text),
    Field(description="a preset's name, e.g. 周六场 · 包分 95 起叫 · 直接扣分"),
]
Role = Literal["owner", "admin", "member"]
AddressRule = Literal["rated", "always", "never"]
Period = Literal["week", "month", "all"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


ClubReason = Literal[
    "not_found", "not_admin", "not_owner", "not_member", "club_full", "too_many_clubs",
    "name_taken", "bad_name", "already_member", "invitation_expired", "no_such_invitation",
    "no_such_member", "no_such_preset", "no_such_request", "owner_must_hand_over",
    "rate_limited", "table_taken", "bad_pair", "bad_period", "bad_role", "bad_preset_name",
    "no_such_table", "already_seated", "table_full", "self_invitation",
]
"""Why a club request is refused (docs/protocol.md, "Clubs"); a browser says each in its
language."""


class ClubRefusal(BaseModel):
    """What a refused club request's ``detail`` holds."""

    reason: ClubReason
    message: str


class CreateClub(_Body):
    """Body of ``POST /api/clubs``."""

    name: ClubName


class ClubSettings(_Body):
    """A club's settings (``PATCH /api/clubs/{id}/settings``: admins)."""

    same_address: AddressRule = Field(
        "rated", description="同IP禁止同桌: refuse two seats of one network address at the "
        "club's rated and event tables (rated), at every club table (always), or nowhere")


class ClubView(BaseModel):
    """A club as a member sees it."""

    id: str = Field(description="the club's unguessable id")
    name: str
    role: Role = Field(description="the asker's role")
    members: int
    settings: ClubSettings
    created: datetime


class MemberView(BaseModel):
    """A member of a club."""

    username: str
    role: Role
    joined: datetime


class RoleChange(_Body):
    """Body of ``PUT /api/clubs/{id}/members/{username}/role`` (the owner)."""

    role: Literal["admin", "member"]


class HandOver(_Body):
    """Body of ``POST /api/clubs/{id}/owner``: the owner hands the club to a member."""

    username: AnyUsername


class NewInvitation(_Body):
    """Body of ``POST /api/clubs/{id}/invitations`` (admins)."""

    hours: int | None = Field(72, ge=1, le=24 * 365, description="valid this long; null: "
                              "until revoked")
    uses: int | None = Field(None, ge=1, le=10_000, description="joins at most; null: any")
    approval: bool = Field(False, description="joining by it asks the admins, who approve")


class InvitationView(BaseModel):
    """An invitation of a club, as its admins see it."""

    code: str
    link: str = Field(description="the link to share (/clubs/join/{code})")
    qr: str = Field(description="the link as a QR code (SVG)")
    expires: datetime | None
    uses: int
    max_uses: int | None
    approval: bool


class InvitationInfo(BaseModel):
    """What an invitation shows whoever holds its link."""

    club: str = Field(description="the club's name")
    members: int
    approval: bool


class ClubJoined(BaseModel):
    """Answer to ``POST /api/club-invitations/{code}``."""

    club: str = Field(description="the club's id")
    member: bool = Field(description="false: the request awaits the admins")


class RequestView(BaseModel):
    """An account asking to join."""

    username: str
    created: datetime


class Decision(_Body):
    """Body of ``POST /api/clubs/{id}/requests/{username}`` (admins)."""

    accept: bool


class PresetBody(CreateTable):
    """Body of ``PUT /api/clubs/{id}/presets/{name}`` (admins): a rule set and table settings
    (a rated preset has the game's default rules: house rules are not rated)."""


class PresetView(CreateTable):
    """A preset of a club."""

    name: str
    updated: datetime


class Pair(_Body):
    """Two members who may not sit at one table (禁止同桌)."""

    first: AnyUsername
    second: AnyUsername


class OpenClubTable(_Body):
    """Body of ``POST /api/clubs/{id}/tables``: open a club table from a preset (none: the
    default rules) — or, with ``level``, play the computer at once (和电脑玩)."""

    preset: PresetName | None = None
    level: BotLevel | None = Field(None, description="和电脑玩: seat the asker at South and "
                                   "computer players of this level, and start")
    name: PlayerName = ""


class ClubTable(ListedTable):
    """An open table of the club, as its members see it listed."""

    preset: str | None = Field(description="the preset it was opened from (as it was then)")
    event: str | None = Field(
        None, description="the club event (tournament code) whose round it plays: it takes no "
        "spectator while the round runs, so it is listed to follow the event, not to watch")


class StandingView(BaseModel):
    """One member's line in the club's standings."""

    username: str
    matches: int
    hands: int
    made: int = Field(description="hands as declarer made")
    failed: int = Field(description="hands as declarer failed")
    result: int = Field(description="points (包分) or levels (包红五) won")


class Standings(BaseModel):
    """Answer to ``GET /api/clubs/{id}/standings``."""

    variant: Variant
    period: Period
    rows: list[StandingView]


class ClubHandView(BaseModel):
    """A hand of a member's club history, with where to replay and review it."""

    table: str
    hand: int
    variant: Variant
    role: Literal["declarer", "defender"]
    made: bool
    result: int
    finished: datetime
    replay: str = Field(description="the replay and 复盘 page of the hand")


class InviteToTable(_Body):
    """Body of ``POST /api/clubs/{id}/tables/{code}/invitations`` (members): the member invited
    to take a seat at the club's table."""

    username: AnyUsername


class TableInviteView(BaseModel):
    """An invitation to a club table, as the invited member sees it (and the inviter, answered)."""

    club: str = Field(description="the club's id")
    club_name: str
    table: str = Field(description="the table's code")
    table_name: str = Field(description="the table's name (empty: unnamed)")
    variant: Variant
    by: str = Field(description="the inviting member's username")
    created: float = Field(description="Unix time in seconds")
    expires: float = Field(description="Unix time in seconds")
    seat: str = Field(description="the page that seats the invited member: /t/{code}#sit")


class TableClub(BaseModel):
    """Answer to ``GET /api/tables/{code}/club``: the club of a club table, to its members."""

    club: str = Field(description="the club's id")
    club_name: str
