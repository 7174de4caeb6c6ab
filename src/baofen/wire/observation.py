"""One seat's observation on the wire: what the server sends each connection, and what a
Python client (a remote bot, the tests, the load benchmark) rebuilds an engine
:class:`~baofen.Observation` from, to decide with any engine bot.

The redaction itself happens in the engine (:meth:`Hand.observation`); this is its JSON form.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pydantic import BaseModel, Field

from ..actions import Phase
from ..cards import Card
from ..observation import AUDIENCE, Observation
from ..order import order_for
from ..record import result_json
from ..ruleset import RuleSet
from ..setting import Variant
from ..tricks import TrickJudge
from .cards import NAMES, CardName, SeatNumber, Suit, names
from .results import ResultView
from .tricks import TrickView, TrickViews

ENGINE_FIELDS: dict[str, str | None] = {
    "rules": "variant",
    "seat": "seat",
    "phase": "phase",
    "to_act": "to_act",
    "first": "first",
    "bids": "bids",
    "declarer": "declarer",
    "target": "target",
    "trump": "trump",
    "by_group": "hand",
    "kitty": "kitty",
    "buried": "buried",
    "tricks": "tricks",
    "current_trick": "current_trick",
    "current_attempt": "current_attempt",
    "leader": "leader",
    "lead_shape": None,  # rebuilt from the current trick's lead
    "hand_sizes": "hand_sizes",
    "penalties": "penalties",
    "declarer_points": "declarer_points",
    "result": "result",
    "judge": None,  # rebuilt from the rules and the trump
    "actions": None,  # the table's own messages carry each action
}
"""The wire field that carries each field of an engine :class:`~baofen.Observation` (``None``:
rebuilt or carried otherwise); every field the engine declares (:data:`baofen.observation.AUDIENCE`)
is named here, so a new one cannot be left off the wire unnoticed."""


COPIES = 2
"""Copies of each card kind in the deal (two packs)."""

SEAT_FIELDS = ("seat", "legal_bids", "hand", "kitty", "buried", "counter")
"""The fields of a seat's view that differ from seat to seat: its own cards, the declarer's,
and what follows from them; every other field every seat and spectator sees alike."""


class SharedView(NamedTuple):
    """What every seat's view has alike at one moment (:meth:`ObservationView.shared`)."""

    fields: dict[str, Any]
    """Every field of the view, those of :data:`SEAT_FIELDS` ``None``, in the model's order."""
    unplayed: bytes
    """For each card kind, the copies not played yet (the 记牌器 before a seat's own cards)."""


class OwnView(NamedTuple):
    """The fields of one seat's view that are its own (:data:`SEAT_FIELDS`, in that order) as
    JSON data, but the 记牌器: a byte per card kind in :data:`~.cards.NAMES`' order, its
    count (the view's ``counter`` maps the names to them)."""

    seat: int | None
    legal_bids: list[int | None]
    hand: list[str]
    kitty: list[str] | None
    buried: list[str] | None
    counter: bytes | None

    def counter_data(self) -> dict[str, int] | None:
        """The view's ``counter`` field."""
        counter = self.counter
        return None if counter is None else dict(zip(NAMES, counter, strict=True))


_OWN_PATHS = tuple(f"observation.{field}" for field in SEAT_FIELDS[:-1])
"""The patch's paths of an :class:`OwnView`'s fields before the 记牌器."""


def joined(shared: SharedView, own: OwnView) -> dict[str, Any]:
    """A seat's whole view (the JSON data of :class:`ObservationView`) of ``shared`` and
    ``own``."""
    return {**shared.fields, **own._asdict(), "counter": own.counter_data()}


def own_change(old: OwnView, new: OwnView, found: dict[str, Any],
               changes: dict[str, Any]) -> None:
    """Add the change from ``old`` to ``new`` to a patch's ``found`` (its ``set``) and
    ``changes`` (its ``counter``: the 记牌器's entries that changed), as
    :func:`~.patch.diff_part` finds it from the whole views."""
    for index, path in enumerate(_OWN_PATHS):
        if new[index] != old[index]:
            found[path] = new[index]
    before, after = old.counter, new.counter
    if after != before:
        if before is None or after is None:
            found["observation.counter"] = new.counter_data()
        else:
            changes["counter"] = _changed_counts(before, after)


def _changed_counts(before: bytes, after: bytes) -> dict[str, int]:
    """The 记牌器 entries of ``after`` that differ from ``before``. Each is read as one number:
    their XOR has bits set in the bytes (card kinds) that differ only, and the loop visits
    those alone (an action changes one or two kinds of 54, for every seat after every action)."""
    changed: dict[str, int] = {}
    differ = int.from_bytes(before, "little") ^ int.from_bytes(after, "little")
    while differ:
        kind = ((differ & -differ).bit_length() - 1) >> 3
        changed[NAMES[kind]] = after[kind]
        differ &= ~(0xFF << (8 * kind))
    return changed


class ObservationView(BaseModel):
    """What this connection's seat may know of the current hand.

    Other seats' cards never appear; ``kitty`` and ``buried`` are the declarer's only. A
    spectator's ``hand`` is empty.
    """

    seat: SeatNumber | None
    variant: Variant
    phase: Phase
    to_act: SeatNumber | None
    first: SeatNumber = Field(description="the caller / first bidder")
    bids: list[tuple[SeatNumber, int | None]] = Field(description="[seat, value|null] in order")
    legal_bids: list[int | None] = Field(description="bids this seat may make now")
    declarer: SeatNumber | None
    target: int | None
    trump: Suit | None
    hand: list[CardName] = Field(description="this seat's cards, trumps first")
    kitty: list[CardName] | None
    buried: list[CardName] | None
    tricks: list[TrickView]
    current_trick: list[tuple[SeatNumber, list[CardName]]]
    current_attempt: list[CardName] | None
    current_penalty: int = Field(
        0, description="the penalty of the trick in progress's failed throw (0: none), "
        "already counted in `penalties`"
    )
    leader: SeatNumber | None
    winning: SeatNumber | None = Field(
        description="the seat whose play wins the trick in progress so far (the engine's "
        "judgement); null before the lead"
    )
    trick_number: int = Field(
        description="the trick in progress, 1 for the first (the last one once the hand is "
        "done; 0 before the play)"
    )
    trick_points: int = Field(description="card points (分) in the trick in progress")
    counter: dict[CardName, int] | None = Field(
        description="记牌器 (when the table's card_counter is on): for each card kind, the "
        "copies this seat has not seen (not in its hand, not played, not buried by itself)"
    )
    hand_sizes: list[int]
    penalties: list[int]
    declarer_points: int
    result: ResultView | None

    @classmethod
    def of(
        cls, observation: Observation, tricks: TrickViews | None = None, counter: bool = True
    ) -> ObservationView:
        """The wire form of an engine observation; ``tricks`` converts its finished tricks
        (a server keeps one per table, to convert each trick once); ``counter`` includes the
        记牌器."""
        return cls.model_validate(cls.data(observation, tricks, counter))

    @staticmethod
    def data(
        observation: Observation, tricks: TrickViews | None = None, counter: bool = True
    ) -> dict[str, Any]:
        """The JSON data of :meth:`of`, built directly: a server makes a view per seat after
        every action, and the engine's own values need no validation (the tests check that
        the model gives back the same)."""
        return ObservationView.seat_data(
            observation, ObservationView.shared(observation, tricks), counter
        )

    @staticmethod
    def shared(observation: Observation, tricks: TrickViews | None = None) -> SharedView:
        """What every seat's :meth:`data` has alike at this moment (any seat's observation
        gives the same): a server builds it once per change, then each seat's view with
        :meth:`seat_data`."""
        attempt, result = observation.current_attempt, observation.result
        views = tricks or TrickViews()
        played = views.played(observation.tricks)  # as Observation.played_cards: the tricks
        for _, cards in observation.current_trick:  # and the trick in progress
            for card in cards:
                played[card] += 1
        fields = {
            "seat": None,
            "variant": observation.rules.variant,
            "phase": observation.phase,
            "to_act": observation.to_act,
            "first": observation.first,
            "bids": [[seat, value] for seat, value in observation.bids],
            "legal_bids": None,
            "declarer": observation.declarer,
            "target": observation.target,
            "trump": observation.trump,
            "hand": None,
            "kitty": None,
            "buried": None,
            "tricks": views.data(observation.tricks),
            "current_trick": [[seat, names(cards)] for seat, cards in observation.current_trick],
            "current_attempt": None if attempt is None else names(attempt),
            "current_penalty": (
                0 if attempt is None
                else observation.rules.throw_penalty_per_card * len(attempt)
            ),
            "leader": observation.leader,
            "winning": observation.winning,
            "trick_number": observation.trick_number,
            "trick_points": observation.trick_points,
            "counter": None,
            "hand_sizes": list(observation.hand_sizes),
            "penalties": list(observation.penalties),
            "declarer_points": observation.declarer_points,
            "result": None if result is None else result_json(result),
        }
        return SharedView(fields, bytes([COPIES - count for count in played]))

    @staticmethod
    def seat_data(
        observation: Observation, shared: SharedView, counter: bool = True
    ) -> dict[str, Any]:
        """The JSON data of :meth:`of` for ``observation``'s seat, from what every seat has
        alike (:meth:`shared`, made of any seat's observation at the same moment)."""
        return joined(shared, ObservationView.own(observation, shared, counter))

    @staticmethod
    def own(observation: Observation, shared: SharedView, counter: bool = True) -> OwnView:
        """What ``observation``'s seat has of its own (:data:`SEAT_FIELDS`) beside ``shared``:
        a server makes this per seat after every change, :func:`joined` only for a whole view."""
        kitty, buried, hand = observation.kitty, observation.buried, observation.hand
        unseen: bytes | None = None
        if counter:  # as Observation.counter: not in this hand, not played, not buried by it
            left = bytearray(shared.unplayed)
            for card in hand:
                left[card] -= 1
            for card in buried or ():
                left[card] -= 1
            unseen = bytes(left)
        return OwnView(
            observation.seat,
            observation.legal_bids(),
            names(hand),
            None if kitty is None else names(kitty),
            None if buried is None else names(buried),
            unseen,
        )

    def to_observation(self, rules: RuleSet) -> Observation:
        """The engine observation this describes, under ``rules`` (the table's).

        Only what the wire carries is rebuilt: ``actions`` is empty and ``result`` is not
        rebuilt (bots never act on a finished hand).
        """
        trump = self.trump
        order = order_for(rules.variant, trump)
        judge = TrickJudge(rules, order) if trump is not None else None
        by_group: list[list[Card]] = [[], [], [], [], []]
        for card in sorted(self.hand, key=order.display_rank.__getitem__):
            by_group[order.group[card]].append(card)
        current = tuple((seat, tuple(cards)) for seat, cards in self.current_trick)
        return Observation(
            rules=rules,
            seat=self.seat,
            phase=self.phase,
            to_act=self.to_act,
            first=self.first,
            bids=tuple(self.bids),
            declarer=self.declarer,
            target=self.target,
            trump=trump,
            by_group=tuple(map(tuple, by_group)) if self.seat is not None else (),
            kitty=_cards(self.kitty),
            buried=_cards(self.buried),
            tricks=tuple(trick.to_trick() for trick in self.tricks),
            current_trick=current,
            current_attempt=_cards(self.current_attempt),
            leader=self.leader,
            lead_shape=judge.shape(current[0][1]) if judge is not None and current else None,
            hand_sizes=tuple(self.hand_sizes),
            penalties=tuple(self.penalties),
            declarer_points=self.declarer_points,
            result=None,
            judge=judge,
            actions=(),
        )


def _cards(cards: list[Card] | None) -> tuple[Card, ...] | None:
    return None if cards is None else tuple(cards)


if set(ENGINE_FIELDS) != set(AUDIENCE) or not {
    name for name in ENGINE_FIELDS.values() if name is not None
} <= set(ObservationView.model_fields):
    raise RuntimeError("ENGINE_FIELDS must name every Observation field, by a wire field")
if OwnView._fields != SEAT_FIELDS:
    raise RuntimeError("OwnView's fields must be SEAT_FIELDS, in their order")
SHARED_FIELDS = tuple(name for name in ObservationView.model_fields if name not in SEAT_FIELDS)
"""The fields of a view that every seat and spectator has alike (:meth:`ObservationView.shared`)."""

if not {
    name for field, name in ENGINE_FIELDS.items()
    if name is not None and AUDIENCE[field] in ("own", "declarer")
} <= set(SEAT_FIELDS) <= set(ObservationView.model_fields):
    raise RuntimeError("SEAT_FIELDS must name every wire field of a seat's own or the declarer's")
