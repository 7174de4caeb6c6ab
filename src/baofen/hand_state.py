"""The state of one hand (一局), declared once: every field a :class:`~baofen.hand.Hand` holds,
how it starts and how a copy takes it, the queries on it, and what each seat may see of it.

:class:`HandState` is the declaration; :class:`~baofen.hand.Hand` adds the deal and the actions
that move it on. :meth:`HandState.observation` is the one place hidden cards are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any

from .actions import Action, Phase
from .cards import Card
from .deal import HAND_SIZE, flat
from .observation import AUDIENCE, Observation
from .order import Order
from .ruleset import RuleSet
from .scoring import HandResult
from .tricks import LeadShape, Trick, TrickJudge


def _each_copied(per_seat: list[list[Any]]) -> list[list[Any]]:
    return [list(value) for value in per_seat]


# How a copy takes a field, in the field's metadata. A field without any holds an immutable
# value, which the copy shares.
_LIST: dict[str, Any] = {"copy": list}
"""A list: the copy has its own."""
_PER_SEAT: dict[str, Any] = {"copy": _each_copied}
"""A list of four lists, one per seat: the copy has its own of each."""
_NOT_COPIED: dict[str, Any] = {"copied": False}
"""Left at its default in a copy."""


@dataclass(slots=True, init=False, eq=False, repr=False, match_args=False)
class HandState:
    """Everything one hand holds: each field once, with its type, its starting value and how a
    copy takes it (see the module docstring)."""

    # Set by ``Hand.__init__`` from the deal:
    rules: RuleSet
    seed: int | None
    first: int
    """The caller / first bidder."""
    deal: tuple[tuple[Card, ...], ...]
    """The original deal: four hands, then the kitty."""
    order: Order
    """Card order: before trump is named, only the always-trump cards are trumps."""
    _held: list[list[tuple[Card, ...]]] = field(metadata=_PER_SEAT)
    """Each seat's cards by group (S, H, C, D, trump), each in display order."""
    _counts: list[list[int]] = field(metadata=_PER_SEAT)
    """How many of each card kind each seat holds."""
    # Every other field starts at its default:
    phase: Phase = "bidding"
    to_act: int | None = None
    """The seat to act, ``None`` when done."""
    bids: list[tuple[int, int | None]] = field(default_factory=list, metadata=_LIST)
    """Every bid in order, ``(seat, value)``; ``None`` is a pass."""
    declarer: int | None = None
    target: int | None = None
    trump: str | None = None
    buried: tuple[Card, ...] | None = None
    tricks: list[Trick] = field(default_factory=list, metadata=_LIST)
    leader: int | None = None
    """The seat that leads (led) the current trick."""
    penalties: list[int] = field(default_factory=lambda: [0, 0, 0, 0], metadata=_LIST)
    """Failed-throw penalties each seat incurred so far."""
    declarer_points_so_far: int = 0
    """Card points the declarer has captured in tricks so far (public)."""
    result: HandResult | None = None
    actions: list[tuple[int, Action]] = field(default_factory=list, metadata=_LIST)
    """Every action in order, as applied (the bury is hidden information)."""
    on_done: Callable[[], None] | None = field(default=None, metadata=_NOT_COPIED)
    """Called when the hand is done (a :class:`~baofen.match.Match` books it then)."""
    _public_actions: list[tuple[int, Action]] = field(default_factory=list, metadata=_LIST)
    """Every action as the other seats see it: the bury hidden."""
    _sizes: list[int] = field(default_factory=lambda: [HAND_SIZE] * 4, metadata=_LIST)
    _passed: list[bool] = field(default_factory=lambda: [False] * 4, metadata=_LIST)
    _first_passer: int | None = None
    _bid_high: tuple[int, int] | None = None
    """The highest bid so far, ``(seat, value)``."""
    _judge: TrickJudge | None = None
    _plays: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list, metadata=_LIST)
    """The current trick's plays, ``(seat, cards)``."""
    _lead_shape: LeadShape | None = None
    _trick_attempt: tuple[Card, ...] | None = None
    """All cards of the current trick's failed throw, if its lead was one."""
    _trick_penalty: int = 0

    def _start(self) -> None:
        """Give every field with a default its starting value."""
        for name, default in _DEFAULTS:
            setattr(self, name, default())

    def _copy_into(self, other: HandState) -> None:
        """Give ``other`` this hand's state, each field copied as declared (but the hook)."""
        for name, copied in _COPIED:
            value = getattr(self, name)
            setattr(other, name, value if copied is None else copied(value))

    # -- queries ------------------------------------------------------------------------------

    @property
    def kitty(self) -> tuple[Card, ...]:
        """The kitty (底牌) as dealt. Hidden information: only the declarer may see it."""
        return self.deal[4]

    @property
    def current_trick(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """Plays of the trick in progress, ``(seat, cards)`` in order."""
        return tuple(self._plays)

    @property
    def judge(self) -> TrickJudge | None:
        """Rule checks for this hand's trump, once trump is named."""
        return self._judge

    @property
    def lead_shape(self) -> LeadShape | None:
        """Shape of the current trick's lead, if it has been led."""
        return self._lead_shape

    def hand_of(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, sorted for display (trumps first, in order)."""
        _check_seat(seat)
        return list(flat(self._held[seat]))

    def count(self, seat: int) -> int:
        """Number of cards ``seat`` holds (public)."""
        return self._sizes[seat]

    def observation(self, seat: int | None) -> Observation:
        """Everything ``seat`` may know and nothing more; ``None`` for a spectator."""
        if seat is not None and seat not in (0, 1, 2, 3):
            raise ValueError(f"a seat is 0–3 or None (spectator), not {seat!r}")
        return _observe(self, seat)


_SOURCES: dict[str, tuple[str, str]] = {
    "rules": ("hand.rules", ""),
    "seat": ("seat", ""),
    "phase": ("hand.phase", ""),
    "to_act": ("hand.to_act", ""),
    "first": ("hand.first", ""),
    "bids": ("tuple(hand.bids)", ""),
    "declarer": ("hand.declarer", ""),
    "target": ("hand.target", ""),
    "trump": ("hand.trump", ""),
    "by_group": ("tuple(hand._held[seat])", "()"),
    "kitty": ("hand.deal[4]", "None"),
    "buried": ("hand.buried", "None"),
    "tricks": ("tuple(hand.tricks)", ""),
    "current_trick": ("tuple(hand._plays)", ""),
    "current_attempt": ("hand._trick_attempt", ""),
    "leader": ("hand.leader", ""),
    "lead_shape": ("hand._lead_shape", ""),
    "hand_sizes": ("tuple(hand._sizes)", ""),
    "penalties": ("tuple(hand.penalties)", ""),
    "declarer_points": ("hand.declarer_points_so_far", ""),
    "result": ("hand.result", ""),
    "judge": ("hand._judge", ""),
    "actions": ("tuple(hand.actions)", "tuple(hand._public_actions)"),
}
"""Where the hand keeps each field of an :class:`Observation`: the full value, and for a field
some seats may not see (:data:`~baofen.observation.AUDIENCE`) what they get instead."""


def _observer() -> Callable[[HandState, int | None], Observation]:
    """The redaction, made from the observation's declared audiences (the one place hidden
    cards are left out). It is written out as one function, field by field, as dataclasses
    write ``__init__``: a loop over the fields, or a call with 23 keywords, costs a sixth of
    the engine's speed (bench/speed/random_hands.py)."""
    if set(_SOURCES) != set(AUDIENCE):
        raise RuntimeError("every field of an Observation needs its source in the hand")
    lines = [
        "def observe(hand, seat):",
        "    entitled = seat is not None and seat == hand.declarer",
        "    seen = new(Observation)",
    ]
    for name, audience in AUDIENCE.items():
        full, redacted = _SOURCES[name]
        if audience == "own":
            value = f"{full} if seat is not None else {redacted}"
        elif audience == "declarer":
            value = f"{full} if entitled else {redacted}"
        else:
            value = full
        lines.append(f"    seen.{name} = {value}")
    lines.append("    return seen")
    namespace: dict[str, Any] = {"Observation": Observation, "new": Observation.__new__}
    exec("\n".join(lines), namespace)
    observe: Callable[[HandState, int | None], Observation] = namespace["observe"]
    return observe


_observe = _observer()


_FIELDS = fields(HandState)


def _start(default: Field[Any]) -> Callable[[], Any]:
    """How to make the starting value of a field with a default."""
    if default.default_factory is not MISSING:
        return default.default_factory
    value = default.default
    return lambda: value


_DEFAULTS: list[tuple[str, Callable[[], Any]]] = [
    (f.name, _start(f))
    for f in _FIELDS
    if f.default is not MISSING or f.default_factory is not MISSING
]
"""Each field with a default, and how to make its starting value."""
_COPIED: list[tuple[str, Callable[[Any], Any] | None]] = [
    (f.name, f.metadata.get("copy")) for f in _FIELDS if f.metadata.get("copied", True)
]
"""Each field a copy takes, and how to copy its value (``None``: shared, being immutable)."""


def _check_seat(seat: int) -> None:
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"a seat is 0–3, not {seat!r}")

