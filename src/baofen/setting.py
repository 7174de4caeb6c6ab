"""How a setting (设置) is offered to people, declared once on the field of its model.

A :class:`Setting` is declared on a field of :class:`~baofen.ruleset.RuleSet` (``bid_min: int =
rule(70, ..., Setting("bidding", "field.bid_min", HONGWU))``) or annotates one of the server's
table settings (``Annotated[int | None, Setting(...)]``). It says which game(s) the setting
belongs to, its group in a settings form, when it shows, and the keys of its labels in the
interface's dictionaries. The model's JSON Schema carries it as
``x-setting`` beside the field's type, default and limits, so that a client (the browser's
new-table form) and the tests are built from the schema, never from a second list.

The module imports nothing but the standard library: pydantic calls
:meth:`Setting.__get_pydantic_json_schema__` by its name. It also names the computer players a
table may seat (:data:`BotLevel`), so that the wire's models need not import the bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Literal, get_args

Variant = Literal["baofen", "hongwu"]
"""The two games: 包分 ``"baofen"`` and 包红五 ``"hongwu"``."""

GAMES: tuple[Variant, ...] = get_args(Variant)
"""Every game, in the order a client lists them."""

BAOFEN: tuple[Variant, ...] = ("baofen",)
"""A setting of 包分 only."""

HONGWU: tuple[Variant, ...] = ("hongwu",)
"""A setting of 包红五 only."""

SettingGroup = Literal["bidding", "play", "scoring", "nobid", "levels", "match", "table"]
"""Groups of a settings form, in the order a form shows them (label key ``group.<group>``)."""

BotLevel = Literal["easy", "normal", "hard", "master", "random", "rule", "search"]
"""A computer player a table may seat: a level players pick (``easy`` 简单, ``normal`` 普通,
``hard`` 困难, ``master`` 大师; see :mod:`baofen.bots.levels`) or a library bot by its name
(``random``, ``rule``, ``search``: still accepted, so stored tables load). Re-exported by
:mod:`baofen.bots`."""

BOT_LEVELS: tuple[BotLevel, ...] = ("easy", "normal", "hard", "master")
"""The levels players pick, weakest first: the one list the server, the browser's form and the
CLI offer."""

SCHEMA_KEY = "x-setting"
"""Key of a setting's metadata in its field's JSON Schema."""


@dataclass(frozen=True)
class ShownWhen:
    """A setting that matters only while another field of its model has one value (e.g. the
    stakes of the pot only while ``no_bid_mode`` is ``"pot"``)."""

    field: str
    value: str


@dataclass(frozen=True)
class Setting:
    """Metadata of one setting, given as ``Annotated`` metadata of its field.

    ``label`` and the other ``*_label`` / ``help`` values are keys of the interface's
    dictionaries: ``choice_labels`` is the prefix of a choice's label (``<prefix>.<value>``),
    ``none_label`` the label of ``null`` (e.g. "unlimited"), ``help`` a line under the field.
    """

    group: SettingGroup
    label: str
    games: tuple[Variant, ...] = GAMES
    shown_when: ShownWhen | None = None
    choice_labels: str | None = None
    none_label: str | None = None
    help: str | None = None

    def __post_init__(self) -> None:
        if self.group not in get_args(SettingGroup):
            raise ValueError(f"unknown setting group {self.group!r}")
        if not self.games or any(game not in GAMES for game in self.games):
            raise ValueError(f"a setting belongs to one or both of {GAMES}, not {self.games!r}")
        if not self.label:
            raise ValueError("a setting needs the key of its label")

    def to_json(self) -> dict[str, Any]:
        """The metadata as it appears under ``x-setting`` (unset keys left out)."""
        data: dict[str, Any] = {"group": self.group, "label": self.label, "games": list(self.games)}
        if self.shown_when is not None:
            data["shown_when"] = {"field": self.shown_when.field, "value": self.shown_when.value}
        for name in ("choice_labels", "none_label", "help"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        return data

    def __get_pydantic_json_schema__(
        self, core_schema: Any, handler: Callable[[Any], dict[str, Any]]
    ) -> dict[str, Any]:
        """The field's schema with this metadata added under :data:`SCHEMA_KEY`."""
        schema = handler(core_schema)
        schema[SCHEMA_KEY] = self.to_json()
        return schema


def settings_of(model: Any) -> dict[str, Setting]:
    """Each field of ``model`` that is a setting, with its :class:`Setting`, in field order:
    a dataclass whose fields carry it as ``metadata["setting"]`` (the rule set), or a pydantic
    model class whose fields are annotated with it (the server's table settings)."""
    if is_dataclass(model):
        return {f.name: f.metadata["setting"] for f in fields(model) if f.metadata.get("setting")}
    found: dict[str, Setting] = {}
    for name, info in model.model_fields.items():
        for item in info.metadata:
            if isinstance(item, Setting):
                found[name] = item
    return found
