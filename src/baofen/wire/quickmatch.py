"""匹配 (quick match) on the wire: ask for a game of one variant, then follow the ticket until
the player is seated at a started table (``POST /api/match``, ``GET``/``DELETE
/api/match/{ticket}``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..setting import Variant
from .cards import SeatNumber
from .names import PlayerName

TicketStatus = Literal["waiting", "seated", "cancelled"]
"""Where a quick-match ticket stands: still waiting for players, seated at a table (the match
has started), or cancelled (by the player, by not asking for news in time, or because the
table could not be made)."""


class MatchRequest(BaseModel):
    """Body of ``POST /api/match``: ask for a game of one variant."""

    model_config = ConfigDict(extra="forbid")

    variant: Variant = "baofen"
    name: PlayerName = Field(
        "", description="the player's name; empty: a readable default such as 玩家4821 (a "
        "signed-in player plays under the account's name)"
    )


class MatchTicket(BaseModel):
    """A quick-match ticket as its holder sees it (the ticket id is its secret)."""

    ticket: str = Field(description="the ticket's unguessable id")
    variant: Variant
    status: TicketStatus
    waiting_players: int = Field(
        description="players waiting for this variant now (this one included while waiting)"
    )
    seconds_left: float = Field(
        description="seconds until the computer fills the empty seats and the match starts"
    )
    code: str | None = Field(None, description="seated: the table's code")
    seat: SeatNumber | None = Field(None, description="seated: the player's seat")
    token: str | None = Field(
        None, description="seated: the seat token (send `reclaim` with it on connecting)"
    )
