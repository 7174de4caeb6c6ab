"""The rule set (设置): every variant and setting of rules.md §13, validated.

:class:`RuleSet` is an immutable pydantic model. Every rule set carries every field; a field that
does not apply to its game keeps its default. ``must_follow_structure`` and
``throw_penalty_per_card`` default per game, so ``RuleSet(variant="hongwu")`` equals
``RuleSet.hongwu()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import pairwise
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .cards import Card
from .order import order_for
from .tricks import TrickJudge
from .units import is_tractor

Variant = Literal["baofen", "hongwu"]

_VARIANT_DEFAULTS: dict[str, dict[str, Any]] = {
    "baofen": {"must_follow_structure": True, "throw_penalty_per_card": 3},
    "hongwu": {"must_follow_structure": False, "throw_penalty_per_card": 0},
}

NonNegative = Field(ge=0, le=100_000)


class RuleSet(BaseModel):
    """Variant and settings of one table (rules.md §13).

    Build with :meth:`baofen` or :meth:`hongwu` and any field as a keyword; a bad field or value
    raises ``ValueError`` naming the field. :meth:`to_dict` / :meth:`from_dict` round-trip
    through JSON-safe dicts.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    variant: Variant = Field("baofen", description="包分 'baofen' or 包红五 'hongwu'")
    bid_values: tuple[int, ...] = Field(
        (85, 90, 95), description="包分: the targets one may bid, low to high (叫分)"
    )
    bid_min: int = Field(
        70, ge=0, le=200, description="包红五: lowest bid; all-pass declarer's bid"
    )
    bid_step: int = Field(5, ge=1, le=200, description="包红五: bids rise by multiples of this")
    bid_max: int = Field(200, ge=0, le=300, description="包红五: highest bid, ends bidding at once")
    must_follow_structure: bool = Field(
        True, description="followers owe pairs and tractors (包分 on, 包红五 off by default)"
    )
    eight_of_a_kind: bool = Field(
        True, description="包分: eight cards of a rank lead as trump (八张)"
    )
    throw_penalty_per_card: int = Field(
        3, ge=0, le=1000, description="failed throw (甩错牌) penalty per attempted card"
    )
    no_bid_mode: Literal["pot", "direct"] = Field(
        "pot", description="包分 four passes: 'pot' 暂时扣分法 (捞水草) or 'direct' 直接扣分法"
    )
    direct_penalty: int = Field(40, ge=0, le=100_000, description="direct mode: caller's loss")
    pot_caller_stake: int = Field(40, ge=0, le=100_000, description="pot mode: caller's stake")
    pot_other_stake: int = Field(20, ge=0, le=100_000, description="pot mode: each other's stake")
    pot_split_above: int = Field(
        400, ge=0, le=1_000_000, description="pot mode: split among all four above this"
    )
    wangfen_all_bonus: int = Field(50, ge=0, le=100_000, description="王分全抓 bonus")
    wangfen_none_penalty: int = Field(100, ge=0, le=100_000, description="倒扣王分 deduction")
    full_sweep_score: int = Field(500, ge=-100_000, le=100_000, description="全击 hand score")
    half_sweep_score: int = Field(250, ge=-100_000, le=100_000, description="半击 hand score")
    shutout_score: int = Field(-500, ge=-100_000, le=100_000, description="no point captured")
    settlement: Literal["per_defender", "zero_sum"] = Field(
        "per_defender", description="包分: declarer +S ('per_defender') or +3S ('zero_sum')"
    )
    red5_capture_points: int = Field(20, ge=0, le=1000, description="包红五: red five captured")
    kitty_multiplier_trump: int = Field(2, ge=0, le=100, description="包红五 抓底 with trump")
    kitty_multiplier_plain: int = Field(
        1, ge=0, le=100, description="包红五 抓底 with a plain suit"
    )
    points_per_level: int = Field(10, ge=1, le=200, description="包红五: points per level (级)")
    coins_per_level: int = Field(1, ge=1, le=1_000_000, description="包红五: coins per level")
    hands: int | None = Field(
        None, ge=1, le=100_000, description="deals in a match; None: unlimited"
    )

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
