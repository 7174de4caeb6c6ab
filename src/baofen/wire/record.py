"""Hand records on the wire: the pydantic model of the record's JSON, for its JSON Schema (the
protocol's downloads) and for code that wants a record as a typed value.

The engine builds and reads records itself, with the standard library only (:mod:`baofen.record`:
:meth:`baofen.Hand.to_record`, :meth:`baofen.Hand.from_record`); :class:`HandRecord` validates
the same JSON. Python-chess style: ``HandRecord.of(hand)`` is a hand's record,
``record.replay()`` the hand it replays to.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..hand import Hand
from ..record import FORMAT, VERSION, RecordedHand, record_of
from .actions import ActionRecord
from .cards import CardString, SeatNumber
from .results import ResultView
from .rules import Rules

__all__ = ["FORMAT", "VERSION", "Deal", "HandRecord", "RecordedHand"]


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
    rules: Rules
    seed: int | None = Field(description="the deal's seed, when it was shuffled from one")
    deal: Deal
    first: SeatNumber = Field(description="the caller / first bidder")
    actions: list[ActionRecord] = Field(description="every action in order")
    result: ResultView | None = Field(description="the result, once the hand is done")

    @classmethod
    def of(cls, hand: RecordedHand) -> HandRecord:
        """The record of ``hand`` as it stands."""
        return cls.model_validate(record_of(hand))

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

    def replay(self) -> Hand:
        """The hand this record replays to: dealt from the record, every action applied
        (``ValueError`` when an action does not replay or the result differs)."""
        return Hand.from_record(self.to_dict())
