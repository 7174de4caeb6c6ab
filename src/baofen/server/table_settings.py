"""Settings of a server's table beyond the rule set, and what a client starts from.

:class:`TableSettings` fields carry their :class:`~baofen.setting.Setting` like the rule set's
fields do, so the browser's new-table form is built from the schema for both.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..bots import BotLevel
from ..ruleset import RuleSet
from ..setting import Setting, SettingGroup, Variant

TrumpSuit = Literal["S", "H", "C", "D"]
"""A suit that may be trump (there is no no-trump game)."""


class TableSettings(BaseModel):
    """Settings of a table beyond the rule set."""

    model_config = ConfigDict(extra="forbid", strict=True)

    timer_seconds: Annotated[
        Annotated[float, Field(gt=0, le=3600)] | None,
        Setting("table", "field.timer_seconds", none_label="lobby.none"),
    ] = Field(
        30.0, description="turn timer; on timeout the computer plays the seat (托管); null: none"
    )
    bot_level: Annotated[
        BotLevel, Setting("table", "field.bot_level", choice_labels="bot")
    ] = Field("normal", description="level of computer players filling seats")
    private: Annotated[bool, Setting("table", "field.private")] = Field(
        False, description="a private table is not listed in the lobby"
    )
    name: Annotated[
        str,
        StringConstraints(strip_whitespace=True, max_length=40),
        Setting("table", "field.name"),
    ] = ""


class ClientDefaults(BaseModel):
    """Answer to ``GET /api/defaults``: what a client starts from. The settings form's fields,
    types, limits and labels are in the JSON Schema of ``RuleSet`` and ``TableSettings``
    (``x-setting``); this gives their values and what the table needs to know of a deal."""

    rules: dict[Variant, RuleSet] = Field(
        description="each game's default rule set (every rules.md §13 field)"
    )
    settings: TableSettings = Field(description="default table settings")
    bot_levels: list[BotLevel] = Field(description="computer player levels this server has")
    groups: list[SettingGroup] = Field(
        description="the settings form's groups in order (a field's group is in its x-setting)"
    )
    kitty_size: int = Field(description="cards in the kitty: the declarer buries as many (扣底)")
    trumps: list[TrumpSuit] = Field(description="the suits a declarer may name as trump (定主)")
