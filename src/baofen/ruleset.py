"""The rule set (设置): every variant and setting of rules.md §13, validated.

:class:`RuleSet` is an immutable pydantic model. Every rule set carries every field; a field that
does not apply to its game keeps its default. ``must_follow_structure`` and
``throw_penalty_per_card`` default per game, so ``RuleSet(variant="hongwu")`` equals
``RuleSet.hongwu()``.

Each field but ``variant`` also says, once, how it is offered to people: its
:class:`~baofen.setting.Setting` (game(s), form group, when it shows, label keys) and an example
value, both in the JSON Schema that clients and tests read.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .cards import Card
from .order import order_for
from .setting import BAOFEN, HONGWU, Setting, ShownWhen, Variant
from .tricks import TrickJudge
from .units import is_tractor

_VARIANT_DEFAULTS: dict[str, dict[str, Any]] = {
    "baofen": {"must_follow_structure": True, "throw_penalty_per_card": 3},
    "hongwu": {"must_follow_structure": False, "throw_penalty_per_card": 0},
}

_WHEN_POT = ShownWhen("no_bid_mode", "pot")
_WHEN_DIRECT = ShownWhen("no_bid_mode", "direct")


class RuleSet(BaseModel):
    """Variant and settings of one table (rules.md §13).

    Build with :meth:`baofen` or :meth:`hongwu` and any field as a keyword; a bad field or value
    raises ``ValueError`` naming the field. :meth:`to_dict` / :meth:`from_dict` round-trip
    through JSON-safe dicts.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    variant: Variant = Field("baofen", description="包分 'baofen' or 包红五 'hongwu'")
    bid_values: Annotated[
        tuple[int, ...],
        Setting("bidding", "field.bid_values", BAOFEN, help="field.bid_values.help"),
    ] = Field(
        (85, 90, 95),
        description="包分: the targets one may bid, low to high (叫分)",
        examples=[[80, 85, 90, 95, 100]],
    )
    bid_min: Annotated[int, Setting("bidding", "field.bid_min", HONGWU)] = Field(
        70, ge=0, le=200, description="包红五: lowest bid; all-pass declarer's bid", examples=[60]
    )
    bid_step: Annotated[int, Setting("bidding", "field.bid_step", HONGWU)] = Field(
        5, ge=1, le=200, description="包红五: bids rise by multiples of this", examples=[10]
    )
    bid_max: Annotated[int, Setting("bidding", "field.bid_max", HONGWU)] = Field(
        200, ge=0, le=300, description="包红五: highest bid, ends bidding at once", examples=[150]
    )
    must_follow_structure: Annotated[bool, Setting("play", "field.must_follow_structure")] = Field(
        True,
        description="followers owe pairs and tractors (包分 on, 包红五 off by default)",
        examples=[False],
    )
    eight_of_a_kind: Annotated[bool, Setting("play", "field.eight_of_a_kind", BAOFEN)] = Field(
        True, description="包分: eight cards of a rank lead as trump (八张)", examples=[False]
    )
    throw_penalty_per_card: Annotated[
        int, Setting("play", "field.throw_penalty_per_card")
    ] = Field(
        3, ge=0, le=1000, description="failed throw (甩错牌) penalty per attempted card",
        examples=[5],
    )
    no_bid_mode: Annotated[
        Literal["pot", "direct"],
        Setting("nobid", "field.no_bid_mode", BAOFEN, choice_labels="field.no_bid_mode"),
    ] = Field(
        "pot",
        description="包分 four passes: 'pot' 暂时扣分法 (捞水草) or 'direct' 直接扣分法",
        examples=["direct"],
    )
    direct_penalty: Annotated[
        int, Setting("nobid", "field.direct_penalty", BAOFEN, _WHEN_DIRECT)
    ] = Field(40, ge=0, le=100_000, description="direct mode: caller's loss", examples=[30])
    pot_caller_stake: Annotated[
        int, Setting("nobid", "field.pot_caller_stake", BAOFEN, _WHEN_POT)
    ] = Field(40, ge=0, le=100_000, description="pot mode: caller's stake", examples=[50])
    pot_other_stake: Annotated[
        int, Setting("nobid", "field.pot_other_stake", BAOFEN, _WHEN_POT)
    ] = Field(20, ge=0, le=100_000, description="pot mode: each other's stake", examples=[10])
    pot_split_above: Annotated[
        int, Setting("nobid", "field.pot_split_above", BAOFEN, _WHEN_POT)
    ] = Field(
        400, ge=0, le=1_000_000, description="pot mode: split among all four above this",
        examples=[800],
    )
    wangfen_all_bonus: Annotated[
        int, Setting("scoring", "field.wangfen_all_bonus", BAOFEN)
    ] = Field(50, ge=0, le=100_000, description="王分全抓 bonus", examples=[40])
    wangfen_none_penalty: Annotated[
        int, Setting("scoring", "field.wangfen_none_penalty", BAOFEN)
    ] = Field(100, ge=0, le=100_000, description="倒扣王分 deduction", examples=[80])
    full_sweep_score: Annotated[
        int, Setting("scoring", "field.full_sweep_score", BAOFEN)
    ] = Field(500, ge=-100_000, le=100_000, description="全击 hand score", examples=[600])
    half_sweep_score: Annotated[
        int, Setting("scoring", "field.half_sweep_score", BAOFEN)
    ] = Field(250, ge=-100_000, le=100_000, description="半击 hand score", examples=[300])
    shutout_score: Annotated[
        int, Setting("scoring", "field.shutout_score", BAOFEN)
    ] = Field(-500, ge=-100_000, le=100_000, description="no point captured", examples=[-400])
    settlement: Annotated[
        Literal["per_defender", "zero_sum"],
        Setting("scoring", "field.settlement", BAOFEN, choice_labels="field.settlement"),
    ] = Field(
        "per_defender",
        description="包分: declarer +S ('per_defender') or +3S ('zero_sum')",
        examples=["zero_sum"],
    )
    red5_capture_points: Annotated[
        int, Setting("scoring", "field.red5_capture_points", HONGWU)
    ] = Field(20, ge=0, le=1000, description="包红五: red five captured", examples=[40])
    kitty_multiplier_trump: Annotated[
        int, Setting("scoring", "field.kitty_multiplier_trump", HONGWU)
    ] = Field(2, ge=0, le=100, description="包红五 抓底 with trump", examples=[3])
    kitty_multiplier_plain: Annotated[
        int, Setting("scoring", "field.kitty_multiplier_plain", HONGWU)
    ] = Field(1, ge=0, le=100, description="包红五 抓底 with a plain suit", examples=[2])
    points_per_level: Annotated[
        int, Setting("levels", "field.points_per_level", HONGWU)
    ] = Field(10, ge=1, le=200, description="包红五: points per level (级)", examples=[20])
    coins_per_level: Annotated[
        int, Setting("levels", "field.coins_per_level", HONGWU)
    ] = Field(1, ge=1, le=1_000_000, description="包红五: coins per level", examples=[5])
    hands: Annotated[
        int | None, Setting("match", "field.hands", none_label="lobby.unlimited")
    ] = Field(None, ge=1, le=100_000, description="deals in a match; None: unlimited", examples=[8])

    @model_validator(mode="before")
    @classmethod
    def _variant_defaults(cls, data: Any) -> Any:
        if isinstance(data, dict):
            variant = data.get("variant", "baofen")
            defaults = _VARIANT_DEFAULTS.get(variant) if isinstance(variant, str) else None
            if defaults:
                data = {**defaults, **data}
            if isinstance(data.get("bid_values"), list):
                data = {**data, "bid_values": tuple(data["bid_values"])}
        return data

    @field_validator("bid_values")
    @classmethod
    def _check_bid_values(cls, values: tuple[int, ...]) -> tuple[int, ...]:
        if not values:
            raise ValueError("bid_values must list at least one target")
        if any(v <= 0 or v > 200 or v % 5 for v in values):
            raise ValueError("bid_values must be multiples of 5 between 5 and 200")
        if any(a >= b for a, b in pairwise(values)):
            raise ValueError("bid_values must be strictly increasing")
        return values

    @model_validator(mode="after")
    def _check_bid_grid(self) -> RuleSet:
        if self.bid_max < self.bid_min or (self.bid_max - self.bid_min) % self.bid_step:
            raise ValueError(
                f"bid_max ({self.bid_max}) must be bid_min ({self.bid_min}) plus a multiple of "
                f"bid_step ({self.bid_step})"
            )
        return self

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def baofen(cls, **settings: Any) -> RuleSet:
        """包分 (Jiangsu) with its defaults; any §13 field may be given as a keyword."""
        return cls._preset("baofen", settings)

    @classmethod
    def hongwu(cls, **settings: Any) -> RuleSet:
        """包红五 (Shaoxing) with its defaults; any §13 field may be given as a keyword."""
        return cls._preset("hongwu", settings)

    @classmethod
    def _preset(cls, variant: str, settings: dict[str, Any]) -> RuleSet:
        # ``variant`` is a §13 field too: repeating the preset's own is fine, another is not.
        given = settings.get("variant", variant)
        if given != variant:
            raise ValueError(
                f"invalid rule set: variant: the {variant} preset cannot have variant {given!r}"
            )
        return cls.create(**{**settings, "variant": variant})

    @classmethod
    def create(cls, **settings: Any) -> RuleSet:
        """Validate ``settings``; errors become one ``ValueError`` naming each bad field."""
        try:
            return cls.model_validate(settings)
        except ValidationError as error:
            raise ValueError(_describe(error)) from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Inverse of :meth:`to_dict` (JSON-safe dict, as stored in hand records)."""
        if not isinstance(data, dict):
            raise ValueError(f"a rule set must be a JSON object, not {type(data).__name__}")
        return cls.create(**data)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict of every field."""
        data = self.model_dump()
        data["bid_values"] = list(self.bid_values)
        return data

    def replace(self, **changes: Any) -> RuleSet:
        """A validated copy with some fields changed."""
        return self.create(**{**self.model_dump(), **changes})

    # -- derived ------------------------------------------------------------------------------

    @property
    def is_baofen(self) -> bool:
        """True for 包分."""
        return self.variant == "baofen"

    def bid_grid(self) -> tuple[int, ...]:
        """Every value a bid may take in this game, low to high."""
        return self._grid

    @cached_property
    def _grid(self) -> tuple[int, ...]:
        if self.variant == "baofen":
            return self.bid_values
        return tuple(range(self.bid_min, self.bid_max + 1, self.bid_step))

    # -- rule helpers (see baofen.tricks) -----------------------------------------------------

    def is_tractor(self, cards: Sequence[int], trump: str) -> bool:
        """True when ``cards`` are one tractor (拖拉机) of this game, ``trump`` the trump suit."""
        return is_tractor(order_for(self.variant, trump), [Card(c) for c in cards])

    def trick_winner(self, plays: Sequence[Sequence[int]], trump: str) -> int:
        """Index of the winning play in ``plays`` (lead first, each a card list).

        A lead of several units is taken to be a good throw.
        """
        return TrickJudge(self, order_for(self.variant, trump)).winner(
            [[Card(c) for c in play] for play in plays]
        )



def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        field = ".".join(str(p) for p in item["loc"]) or "settings"
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown setting"
        parts.append(f"{field}: {message}")
    return "invalid rule set: " + "; ".join(parts)
