"""Hand records: the versioned JSON form of a hand, for storage, replay, export and bug reports.

A record holds the format version, the rule set, the deal (four hands and the kitty, plus the
seed when there was one), the first bidder, every action in order, and the result when done.
Replaying the actions on the deal rebuilds the same state: :meth:`baofen.Hand.to_record` and
:meth:`baofen.Hand.from_record` go through :class:`HandRecord`, which knows a hand only as a
:class:`RecordedHand` (so that the hand can use it without an import circle).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..actions import Action
from ..cards import Card
from ..errors import IllegalAction
from ..ruleset import RuleSet
from ..scoring import HandResult
from .actions import ActionRecord, action_record
from .cards import CardString, SeatNumber
from .results import ResultView

FORMAT: Final = "baofen-hand"
VERSION: Final = 1


class RecordedHand(Protocol):
    """What a record holds of a hand, and replays on it: a :class:`~baofen.Hand` is one."""

    rules: RuleSet
    seed: int | None
    first: int
    deal: tuple[tuple[Card, ...], ...]
    actions: list[tuple[int, Action]]
    result: HandResult | None

    def apply(self, seat: int, action: Action) -> object:
        """Apply one action of the hand."""


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
    def of(cls, hand: RecordedHand) -> HandRecord:
        """The record of ``hand`` as it stands."""
        return cls(
            format=FORMAT,
            version=VERSION,
            rules=hand.rules,
            seed=hand.seed,
            deal=Deal(hands=list(hand.deal[:4]), kitty=hand.deal[4]),
            first=hand.first,
            actions=[action_record(seat, action) for seat, action in hand.actions],
            result=None if hand.result is None else ResultView.of(hand.result),
        )

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

    def replay(self, hand: RecordedHand) -> None:
        """Replay the actions on ``hand``, freshly dealt from this record; ``ValueError`` when
        an action does not replay or the result differs from the recorded one."""
        hand.seed = self.seed
        for number, entry in enumerate(self.actions):
            try:
                hand.apply(entry.seat, entry.to_action())
            except IllegalAction as error:
                raise ValueError(
                    f"record action {number} ({entry.model_dump(mode='json')}) does not replay: "
                    f"{error}"
                ) from None
        if self.result is not None and (
            hand.result is None or ResultView.of(hand.result) != self.result
        ):
            raise ValueError("the record's result differs from the result of replaying it")
