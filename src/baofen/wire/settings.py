"""Settings of a server's table beyond the rule set, and what a client starts from.

:class:`TableSettings` fields carry their :class:`~baofen.setting.Setting` like the rule set's
fields do, so the browser's new-table form is built from the schema for both.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..setting import BotLevel, Setting, SettingGroup, Variant
from .names import TableName
from .rules import Rules

TrumpSuit = Literal["S", "H", "C", "D"]
"""A suit that may be trump (there is no no-trump game)."""


Seconds = Annotated[float, Field(gt=0, le=3600)] | None
"""A timer in seconds, or ``None`` for none."""


class TableSettings(BaseModel):
    """Settings of a table beyond the rule set."""

    model_config = ConfigDict(extra="forbid", strict=True)

    bid_seconds: Annotated[
        Seconds, Setting("table", "field.bid_seconds", none_label="lobby.none")
    ] = Field(
        20.0, description="time to bid; on timeout the computer bids once for the seat; null: none"
    )
    kitty_seconds: Annotated[
        Seconds, Setting("table", "field.kitty_seconds", none_label="lobby.none")
    ] = Field(
        90.0, description="time to name trump and bury (定主扣底); on timeout the computer does "
        "it once; null: none"
    )
    play_seconds: Annotated[
        Seconds, Setting("table", "field.play_seconds", none_label="lobby.none")
    ] = Field(
        30.0, description="time to play; on timeout the computer plays one move for the seat, "
        "and a second timeout in a row puts it in 托管; null: none"
    )
    ready_seconds: Annotated[
        Seconds, Setting("table", "field.ready_seconds", none_label="lobby.none")
    ] = Field(
        60.0, description="between hands, with several players connected: after this long the "
        "next hand starts for those who have not pressed 继续 (ready); null: wait for all"
    )
    card_counter: Annotated[bool, Setting("table", "field.card_counter")] = Field(
        True, description="记牌器: each observation carries the copies of each card not seen"
    )
    bot_level: Annotated[
        BotLevel, Setting("table", "field.bot_level", choice_labels="level")
    ] = Field("normal", description="level of computer players filling seats")
    private: Annotated[bool, Setting("table", "field.private")] = Field(
        False, description="a private table is not listed in the lobby"
    )
    rated: Annotated[bool, Setting("table", "field.rated")] = Field(
        False, description="each hand changes the ratings of the signed-in players (docs/"
        "ratings.md); guests and computer players take part with fixed ratings"
    )
    name: Annotated[TableName, Setting("table", "field.name")] = ""


    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> TableSettings:
        """Settings as the store keeps them. Tables stored before the per-phase timers had one
        ``timer_seconds`` for every turn: it becomes the bid, kitty and play timers alike."""
        if "timer_seconds" in data:
            data = dict(data)
            timer = data.pop("timer_seconds")
            for field in ("bid_seconds", "kitty_seconds", "play_seconds"):
                data.setdefault(field, timer)
        return cls.model_validate(data)

    def turn_seconds(self, phase: str) -> float | None:
        """The turn timer of a hand's ``phase`` (bidding, kitty or playing), or ``None``."""
        if phase == "bidding":
            return self.bid_seconds
        return self.kitty_seconds if phase == "kitty" else self.play_seconds


class ClientDefaults(BaseModel):
    """Answer to ``GET /api/defaults``: what a client starts from. The settings form's fields,
    types, limits and labels are in the JSON Schema of ``RuleSet`` and ``TableSettings``
    (``x-setting``); this gives their values and what the table needs to know of a deal."""

    rules: dict[Variant, Rules] = Field(
        description="each game's default rule set (every rules.md §13 field)"
    )
    settings: TableSettings = Field(description="default table settings")
    bot_levels: list[BotLevel] = Field(description="computer player levels this server has")
    groups: list[SettingGroup] = Field(
        description="the settings form's groups in order (a field's group is in its x-setting)"
    )
    kitty_size: int = Field(description="cards in the kitty: the declarer buries as many (扣底)")
    trumps: list[TrumpSuit] = Field(description="the suits a declarer may name as trump (定主)")
