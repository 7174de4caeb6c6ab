"""Hand records: the versioned JSON form of a hand, for storage, replay, export and bug reports.

A record holds the format version, the rule set, the deal (four hands and the kitty, plus the
seed when there was one), the first bidder, every action in order, and the result when done.
Replaying the actions on the deal rebuilds the same state (:meth:`baofen.Hand.from_record`).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..ruleset import RuleSet
from .actions import ActionRecord
from .cards import CardString, SeatNumber
from .results import ResultView

FORMAT: Final = "baofen-hand"
VERSION: Final = 1


class Deal(BaseModel):
    """The cards as dealt: four hands of 25 and the kitty (底牌) of 8."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    hands: Annotated[list[CardString], Field(min_length=4, max_length=4)]
    kitty: CardString


class HandRecord(BaseModel):
    """One hand as a record (see the module docstring); ``to_record()`` of a :class:`Hand`."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    format: Literal["baofen-hand"]
    version: Literal[1]
    rules: RuleSet
    seed: int | None = Field(description="the deal's seed, when it was shuffled from one")
    deal: Deal
    first: SeatNumber = Field(description="the caller / first bidder")
    actions: list[ActionRecord] = Field(description="every action in order")
    result: ResultView | None = Field(description="the result, once the hand is done")

    @classmethod
    def read(cls, data: Any) -> HandRecord:
        """The record in ``data`` (its JSON form); anything else raises ``ValueError`` saying
        what is wrong."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        if data.get("version") != VERSION:
            raise ValueError(
                f"unsupported record version {data.get('version')!r} (expected {VERSION})"
            )
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            problems = "; ".join(
                f"{'.'.join(map(str, item['loc'])) or 'record'}: {item['msg']}"
                for item in error.errors()
            )
            raise ValueError(f"invalid hand record: {problems}") from None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-safe form (what :meth:`read` takes back)."""
        return self.model_dump(mode="json")
