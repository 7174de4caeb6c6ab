"""Settings of a table and the defaults a new-table form starts from.

Every other message and body of the protocol is in :mod:`baofen.wire`; these two stay with the
server because they describe what the server offers (its table settings and bot levels).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..bots import BotLevel
from ..ruleset import RuleSet


class TableSettings(BaseModel):
    """Settings of a table beyond the rule set."""

    model_config = ConfigDict(extra="forbid", strict=True)

    timer_seconds: Annotated[float, Field(gt=0, le=3600)] | None = Field(
        30.0, description="turn timer; on timeout the computer plays the seat (托管); null: none"
    )
    bot_level: BotLevel = Field("rule", description="level of computer players filling seats")
    private: bool = Field(False, description="a private table is not listed in the lobby")
    name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)] = ""


class ClientDefaults(BaseModel):
    """Answer to ``GET /api/defaults``: what a new-table form starts from."""

    rules: dict[Literal["baofen", "hongwu"], RuleSet] = Field(
        description="each game's default rule set (every rules.md §13 field)"
    )
    settings: TableSettings = Field(description="default table settings")
    bot_levels: list[BotLevel] = Field(description="computer player levels this server has")
