"""The rule set (设置): every variant and setting of rules.md §13, validated.

:class:`RuleSet` is an immutable value of the standard library alone (a frozen dataclass), like
the rest of the engine. Every rule set carries every field; a field that does not apply to its
game keeps its default. ``must_follow_structure`` and ``throw_penalty_per_card`` default per
game, so ``RuleSet(variant="hongwu")`` equals ``RuleSet.hongwu()``.

Each field is declared once (:func:`rule`): its default, limits and description, and for every
field but ``variant`` how it is offered to people, its :class:`~baofen.setting.Setting` (game(s),
form group, when it shows, label keys) and an example value. :data:`FIELDS` lists them; the wire
layer builds the rule set's pydantic model and JSON Schema, which clients and tests read, from
them (:mod:`baofen.wire.rules`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from itertools import pairwise
from types import NoneType, UnionType
from typing import Any, Literal, get_args, get_origin, get_type_hints

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


@dataclass(frozen=True)
class RuleField:
    """One field of :class:`RuleSet` as declared (:data:`FIELDS`)."""

    name: str
    annotation: Any
    """Its type: ``int``, ``bool``, ``int | None``, ``tuple[int, ...]`` or a ``Literal``."""
    default: Any
    """包分's default where the games differ (``RuleSet.hongwu()`` shows 包红五's)."""
    description: str
    example: Any
    """A valid value other than the default (``None``: none given)."""
    setting: Setting | None
    """How it is offered to people (``None`` for ``variant``, chosen before any form)."""
    ge: int | None
    le: int | None
    """Inclusive limits of a number."""
    valid: Callable[[Any], str | None] | None
    """What else a value of the right type must be (what is wrong, or ``None``)."""

    def check(self, value: Any) -> tuple[Any, str | None]:
        """``value`` as stored (a list of bids becomes a tuple), and what is wrong with it."""
        kind, message = self.annotation, None
        if isinstance(kind, UnionType) and value is None and NoneType in get_args(kind):
            return value, None
        if isinstance(kind, UnionType):
            kind = next(k for k in get_args(kind) if k is not NoneType)
        if get_origin(kind) is Literal:
            choices = get_args(kind)
            if value not in choices or not isinstance(value, str):
                message = "Input should be " + " or ".join(repr(c) for c in choices)
        elif kind is bool:
            if type(value) is not bool:
                message = "Input should be a valid boolean"
        elif kind is int:
            if type(value) is not int:
                message = "Input should be a valid integer"
            elif self.ge is not None and value < self.ge:
                message = f"Input should be greater than or equal to {self.ge}"
            elif self.le is not None and value > self.le:
                message = f"Input should be less than or equal to {self.le}"
        elif get_origin(kind) is tuple:
            if isinstance(value, list | tuple) and all(type(v) is int for v in value):
                value = tuple(value)
            else:
                message = "Input should be a valid list of integers"
        else:
            raise TypeError(f"{self.name}: no check for a field of type {kind!r}")
        if message is None and self.valid is not None:
            message = self.valid(value)
        return value, message


def rule(
    default: Any, description: str, setting: Setting | None = None, *,
    ge: int | None = None, le: int | None = None, example: Any = None,
    valid: Callable[[Any], str | None] | None = None,
) -> Any:
    """Declare a field of :class:`RuleSet` (see :class:`RuleField`)."""
    return field(default=default, metadata={
        "description": description, "setting": setting, "ge": ge, "le": le, "example": example,
        "valid": valid,
    })


def _bid_values_problem(values: tuple[int, ...]) -> str | None:
    if not values:
        return "bid_values must list at least one target"
    if any(v <= 0 or v > 200 or v % 5 for v in values):
        return "bid_values must be multiples of 5 between 5 and 200"
    if any(a >= b for a, b in pairwise(values)):
        return "bid_values must be strictly increasing"
    return None


@dataclass(frozen=True, init=False)
class RuleSet:
    """Variant and settings of one table (rules.md §13).

    Build with :meth:`baofen` or :meth:`hongwu` and any field as a keyword; a bad field or value
    raises ``ValueError`` naming the field. :meth:`to_dict` / :meth:`from_dict` round-trip
    through JSON-safe dicts.
    """

    variant: Variant = rule("baofen", "包分 'baofen' or 包红五 'hongwu'")
    bid_values: tuple[int, ...] = rule(
        (85, 90, 95), "包分: the targets one may bid, low to high (叫分)",
        Setting("bidding", "field.bid_values", BAOFEN, help="field.bid_values.help"),
        example=[80, 85, 90, 95, 100], valid=_bid_values_problem,
    )
    bid_min: int = rule(
        70, "包红五: lowest bid; all-pass declarer's bid",
        Setting("bidding", "field.bid_min", HONGWU), ge=0, le=200, example=60,
    )
    bid_step: int = rule(
        5, "包红五: bids rise by multiples of this",
        Setting("bidding", "field.bid_step", HONGWU), ge=1, le=200, example=10,
    )
    bid_max: int = rule(
        200, "包红五: highest bid, ends bidding at once",
        Setting("bidding", "field.bid_max", HONGWU), ge=0, le=300, example=150,
    )
    must_follow_structure: bool = rule(
        True, "followers owe pairs and tractors (包分 on, 包红五 off by default)",
        Setting("play", "field.must_follow_structure"), example=False,
    )
    eight_of_a_kind: bool = rule(
        True, "包分: eight cards of a rank lead as trump (八张)",
        Setting("play", "field.eight_of_a_kind", BAOFEN), example=False,
    )
    throw_penalty_per_card: int = rule(
        3, "failed throw (甩错牌) penalty per attempted card",
        Setting("play", "field.throw_penalty_per_card"), ge=0, le=1000, example=5,
    )
    no_bid_mode: Literal["pot", "direct"] = rule(
        "pot", "包分 four passes: 'pot' 暂时扣分法 (捞水草) or 'direct' 直接扣分法",
        Setting("nobid", "field.no_bid_mode", BAOFEN, choice_labels="field.no_bid_mode"),
        example="direct",
    )
    direct_penalty: int = rule(
        40, "direct mode: caller's loss",
        Setting("nobid", "field.direct_penalty", BAOFEN, _WHEN_DIRECT), ge=0, le=100_000,
        example=30,
    )
    pot_caller_stake: int = rule(
        40, "pot mode: caller's stake",
        Setting("nobid", "field.pot_caller_stake", BAOFEN, _WHEN_POT), ge=0, le=100_000,
        example=50,
    )
    pot_other_stake: int = rule(
        20, "pot mode: each other's stake",
        Setting("nobid", "field.pot_other_stake", BAOFEN, _WHEN_POT), ge=0, le=100_000,
        example=10,
    )
    pot_split_above: int = rule(
        400, "pot mode: split among all four above this",
        Setting("nobid", "field.pot_split_above", BAOFEN, _WHEN_POT), ge=0, le=1_000_000,
        example=800,
    )
    wangfen_all_bonus: int = rule(
        50, "王分全抓 bonus",
        Setting("scoring", "field.wangfen_all_bonus", BAOFEN), ge=0, le=100_000, example=40,
    )
    wangfen_none_penalty: int = rule(
        100, "倒扣王分 deduction",
        Setting("scoring", "field.wangfen_none_penalty", BAOFEN), ge=0, le=100_000, example=80,
    )
    full_sweep_score: int = rule(
        500, "全击 hand score",
        Setting("scoring", "field.full_sweep_score", BAOFEN), ge=-100_000, le=100_000,
        example=600,
    )
    half_sweep_score: int = rule(
        250, "半击 hand score",
        Setting("scoring", "field.half_sweep_score", BAOFEN), ge=-100_000, le=100_000,
        example=300,
    )
    shutout_score: int = rule(
        -500, "no point captured",
        Setting("scoring", "field.shutout_score", BAOFEN), ge=-100_000, le=100_000,
        example=-400,
    )
    settlement: Literal["per_defender", "zero_sum"] = rule(
        "per_defender", "包分: declarer +S ('per_defender') or +3S ('zero_sum')",
        Setting("scoring", "field.settlement", BAOFEN, choice_labels="field.settlement"),
        example="zero_sum",
    )
    red5_capture_points: int = rule(
        20, "包红五: red five captured",
        Setting("scoring", "field.red5_capture_points", HONGWU), ge=0, le=1000, example=40,
    )
    kitty_multiplier_trump: int = rule(
        2, "包红五 抓底 with trump",
        Setting("scoring", "field.kitty_multiplier_trump", HONGWU), ge=0, le=100, example=3,
    )
    kitty_multiplier_plain: int = rule(
        1, "包红五 抓底 with a plain suit",
        Setting("scoring", "field.kitty_multiplier_plain", HONGWU), ge=0, le=100, example=2,
    )
    points_per_level: int = rule(
        10, "包红五: points per level (级)",
        Setting("levels", "field.points_per_level", HONGWU), ge=1, le=200, example=20,
    )
    coins_per_level: int = rule(
        1, "包红五: coins per level",
        Setting("levels", "field.coins_per_level", HONGWU), ge=1, le=1_000_000, example=5,
    )
    hands: int | None = rule(
        None, "deals in a match; None: unlimited",
        Setting("match", "field.hands", none_label="lobby.unlimited"), ge=1, le=100_000,
        example=8,
    )

    def __init__(self, **settings: Any) -> None:
        for name, value in _validated(settings).items():
            object.__setattr__(self, name, value)

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
        return cls(**settings)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Inverse of :meth:`to_dict` (JSON-safe dict, as stored in hand records)."""
        if not isinstance(data, dict):
            raise ValueError(f"a rule set must be a JSON object, not {type(data).__name__}")
        return cls.create(**data)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict of every field."""
        data = {name: getattr(self, name) for name in FIELDS}
        data["bid_values"] = list(self.bid_values)
        return data

    def replace(self, **changes: Any) -> RuleSet:
        """A validated copy with some fields changed."""
        return self.create(**{**self.to_dict(), **changes})

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


def _fields() -> dict[str, RuleField]:
    hints = get_type_hints(RuleSet)
    return {
        f.name: RuleField(name=f.name, annotation=hints[f.name], default=f.default, **f.metadata)
        for f in fields(RuleSet)
    }


FIELDS: dict[str, RuleField] = _fields()
"""Every field of :class:`RuleSet`, in order, as declared."""


def _validated(settings: dict[str, Any]) -> dict[str, Any]:
    """Every field's value from ``settings`` and the defaults; ``ValueError`` naming each bad
    field (all of them, not only the first)."""
    variant = settings.get("variant", "baofen")
    defaults = _VARIANT_DEFAULTS.get(variant) if isinstance(variant, str) else None
    given = {**(defaults or {}), **settings}
    values: dict[str, Any] = {}
    problems = []
    for name, spec in FIELDS.items():
        value, problem = spec.check(given.get(name, spec.default))
        if problem is not None:
            problems.append(f"{name}: {problem}")
        values[name] = value
    problems += [f"{name}: unknown setting" for name in settings if name not in FIELDS]
    if not problems and (
        values["bid_max"] < values["bid_min"]
        or (values["bid_max"] - values["bid_min"]) % values["bid_step"]
    ):
        problems.append(
            f"bid_max: bid_max ({values['bid_max']}) must be bid_min ({values['bid_min']}) plus"
            f" a multiple of bid_step ({values['bid_step']})"
        )
    if problems:
        raise ValueError("invalid rule set: " + "; ".join(problems))
    return values
