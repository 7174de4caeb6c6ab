"""The fixed-size numeric encoding of one seat's observation (everything it may know).

Seats are written *relative* to the observing seat: ``0`` is itself, ``1`` its next player
(下家), ``2`` across, ``3`` its previous player. Cards are the 54 kinds of :data:`baofen.CARDS`,
given as counts (0, 1 or 2 copies). Every value lies in ``[0, 2]``. :func:`layout` lists the
segments in order with their sizes (``docs/research.md`` prints it); both it and
:class:`Encoder` are made from one declaration, :data:`PIECES`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..bots.rule.shared import tally_plays
from ..cards import KINDS, POINTS, SUITS
from ..observation import AUDIENCE, Observation
from ..order import TRUMP
from ..ruleset import RuleSet
from ..tricks import Trick
from .selection import counts_of

PHASES = ("bidding", "trump", "bury", "lead", "follow", "done")
"""Decision kinds of the phase segment: the kitty decision is split into naming the trump and
burying; the play into leading and following."""

HIGH = 2.0
"""Upper bound of every value of the encoding."""


@dataclass(slots=True)
class Seen:
    """What a piece is written from: the observation, the decision pending in the composer, and
    what the finished tricks and the trick in progress tell, by absolute seat."""

    observation: Observation
    me: int
    grid: tuple[int, ...]
    selected: Sequence[int]
    trump: str | None
    played: npt.NDArray[np.float32]
    revealed: npt.NDArray[np.float32]
    voids: list[int]
    points_seen: int

    def rel(self, seat: int) -> int:
        """``seat`` relative to the observing one."""
        return (seat - self.me) % 4

    def by_seat(self, table: npt.NDArray[np.float32], out: npt.NDArray[np.float32]) -> None:
        """Write a per-seat table of card counts, rows by relative seat."""
        out.reshape(4, KINDS)[:] = table[_FROM[self.me]]


_FROM = [np.array([(me + rel) % 4 for rel in range(4)]) for me in range(4)]
"""For each observing seat, the absolute seat at each relative one."""

Write = Callable[[Seen, npt.NDArray[np.float32]], None]


@dataclass(frozen=True, slots=True)
class Piece:
    """One named segment of the encoding (OpenSpiel's observer pieces): its size for a bid grid
    of ``v`` values, its meaning, how it is written into its own slice, and what it reads."""

    name: str
    size: Callable[[int], int]
    meaning: str
    write: Write
    reads: tuple[str, ...]
    """The :class:`~baofen.Observation` fields it is written from."""


def _count(cards: Sequence[int], out: npt.NDArray[np.float32]) -> None:
    for card in cards:
        out[card] += 1.0


def _one_hot(index: int | None, out: npt.NDArray[np.float32]) -> None:
    if index is not None:
        out[index] = 1.0


def _bids(seen: Seen, out: npt.NDArray[np.float32]) -> None:
    v = len(seen.grid)
    spoken: dict[int, int | None] = {}
    for seat, value in seen.observation.bids:
        spoken[seat] = value
    for seat in range(4):
        base = seen.rel(seat) * (2 + v)
        said = spoken.get(seat, -1)
        if said == -1:
            out[base] = 1.0
        elif said is None:
            out[base + 1] = 1.0
        else:
            out[base + 2 + seen.grid.index(said)] = 1.0


def _target(seen: Seen, out: npt.NDArray[np.float32]) -> None:
    target = seen.observation.target
    if target is not None and target in seen.grid:
        out[seen.grid.index(target)] = 1.0


def _seat(seat: int | None, seen: Seen, out: npt.NDArray[np.float32]) -> None:
    _one_hot(None if seat is None else seen.rel(seat), out)


def _trick(seen: Seen, out: npt.NDArray[np.float32]) -> None:
    for seat, cards in seen.observation.current_trick:
        _count(cards, out[seen.rel(seat) * KINDS:])


def _voids(seen: Seen, out: npt.NDArray[np.float32]) -> None:
    for seat in range(4):
        for group in range(TRUMP + 1):
            if seen.voids[seat] >> group & 1:
                out[seen.rel(seat) * 5 + group] = 1.0


def _optional(cards: Sequence[int] | None, out: npt.NDArray[np.float32]) -> None:
    if cards is not None:
        _count(cards, out)


def _sizes(seen: Seen, out: npt.NDArray[np.float32]) -> None:
    for seat in range(4):
        out[seen.rel(seat)] = seen.observation.hand_sizes[seat] / 25


def _penalties(seen: Seen, out: npt.NDArray[np.float32]) -> None:
    for seat in range(4):
        out[seen.rel(seat)] = min(HIGH, seen.observation.penalties[seat] / 100)


def _points(seen: Seen, out: npt.NDArray[np.float32]) -> None:
    observation = seen.observation
    out[0] = min(HIGH, max(0.0, observation.declarer_points / 100))
    out[1] = seen.points_seen / 100
    out[2] = len(observation.tricks) / 25


def _fixed(size: int) -> Callable[[int], int]:
    return lambda _: size


PIECES: tuple[Piece, ...] = (
    Piece("hand", _fixed(KINDS), "own cards (during the kitty phase the declarer's 33)",
          lambda seen, out: _count(seen.observation.hand, out), ("by_group",)),
    Piece("selection", _fixed(KINDS), "cards picked so far for the pending bury or play",
          lambda seen, out: _count(seen.selected, out), ()),
    Piece("phase", _fixed(len(PHASES)), "one-hot: " + ", ".join(PHASES),
          lambda seen, out: _one_hot(PHASES.index(_phase(seen.observation, seen.trump)), out),
          ("phase", "lead_shape")),
    Piece("bids", lambda v: 4 * (2 + v),
          "per relative seat, one-hot: not yet spoken, passed, last bid value", _bids, ("bids",)),
    Piece("target", lambda v: v,
          "one-hot bid value the declarer must reach (none before the kitty)", _target,
          ("target",)),
    Piece("first", _fixed(4), "one-hot relative seat of the first bidder",
          lambda seen, out: _seat(seen.observation.first, seen, out), ("first",)),
    Piece("declarer", _fixed(4), "one-hot relative seat of the declarer (none before the kitty)",
          lambda seen, out: _seat(seen.observation.declarer, seen, out), ("declarer",)),
    Piece("trump", _fixed(4), "one-hot trump suit S H C D (the one being named, during the bury)",
          lambda seen, out: _one_hot(_named(seen), out), ("trump",)),
    Piece("played", _fixed(4 * KINDS), "per relative seat, the cards it has played in the hand "
          "so far", lambda seen, out: seen.by_seat(seen.played, out),
          ("tricks", "current_trick")),
    Piece("trick", _fixed(4 * KINDS), "per relative seat, its cards in the current trick", _trick,
          ("current_trick",)),
    Piece("leader", _fixed(4), "one-hot relative seat that led the current trick",
          lambda seen, out: _seat(
              seen.observation.leader if seen.observation.current_trick else None, seen, out),
          ("leader",)),
    Piece("lead_group", _fixed(5), "one-hot group of the current lead: S H C D plain, trump",
          lambda seen, out: _one_hot(
              None if seen.observation.lead_shape is None else seen.observation.lead_shape.group,
              out), ("lead_shape",)),
    Piece("revealed", _fixed(4 * KINDS), "per relative seat, cards shown by its failed throws "
          "(甩错牌) and still held", lambda seen, out: seen.by_seat(seen.revealed, out),
          ("tricks", "current_trick", "current_attempt")),
    Piece("voids", _fixed(4 * 5), "per relative seat, the groups it has shown void in", _voids,
          ("tricks", "current_trick")),
    Piece("kitty", _fixed(KINDS), "the dealt kitty (declarer only)",
          lambda seen, out: _optional(seen.observation.kitty, out), ("kitty",)),
    Piece("buried", _fixed(KINDS), "the buried cards (declarer only)",
          lambda seen, out: _optional(seen.observation.buried, out), ("buried",)),
    Piece("sizes", _fixed(4), "cards held per relative seat / 25", _sizes, ("hand_sizes",)),
    Piece("penalties", _fixed(4), "failed-throw penalties per relative seat / 100 (capped at 2)",
          _penalties, ("penalties",)),
    Piece("points", _fixed(3), "declarer's captured points / 100, points seen in tricks / 100, "
          "tricks finished / 25", _points, ("declarer_points", "tricks", "current_trick")),
)
"""The encoding's pieces, in order: the one declaration that :func:`layout` lists and
:class:`Encoder` writes."""

NOT_ENCODED: dict[str, str] = {
    "to_act": "a seat is encoded when it is to act",
    "result": "a finished hand asks for no decision",
    "actions": "what they tell is in the bids and the tricks",
}
"""The seat-visible :class:`~baofen.Observation` fields no piece reads, and why: with
:data:`PIECES`' ``reads`` they name every field a seat may see
(:data:`baofen.observation.AUDIENCE`), so a new one cannot be left out unnoticed."""


def _named(seen: Seen) -> int | None:
    named = seen.observation.trump or seen.trump
    return None if named is None else SUITS.index(named)


def layout(rules: RuleSet) -> list[tuple[str, int, str]]:
    """The segments of the encoding for ``rules``, in order: ``(name, size, meaning)``."""
    v = len(rules.bid_grid())
    return [(piece.name, piece.size(v), piece.meaning) for piece in PIECES]


def size_of(rules: RuleSet) -> int:
    """Length of the encoding for ``rules``."""
    return sum(size for _, size, _ in layout(rules))


def encode(
    observation: Observation, selected: Sequence[int] = (), trump: str | None = None
) -> npt.NDArray[np.float32]:
    """The encoding of ``observation`` (a seat's, not a spectator's), with the decision pending
    in the composer: the cards ``selected`` and the ``trump`` named during the bury."""
    return Encoder(observation.rules).encode(observation, selected, trump)


class _History:
    """What the finished tricks of one hand tell, by absolute seat, kept across observations."""

    __slots__ = ("last", "played", "points", "revealed", "tricks", "voids")

    def __init__(self) -> None:
        self.tricks = 0
        self.last: Trick | None = None
        self.played = np.zeros((4, KINDS), dtype=np.float32)
        self.revealed = np.zeros((4, KINDS), dtype=np.float32)
        self.voids = [0, 0, 0, 0]
        self.points = 0


class Encoder:
    """Encodes observations of one rule set, piece by piece (:data:`PIECES`); the finished
    tricks of the hand being played are tallied once (each new observation adds only the tricks
    finished since the last one)."""

    __slots__ = ("grid", "history", "rules", "size", "slices")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.grid = rules.bid_grid()
        self.slices: list[tuple[Write, int, int]] = []
        at = 0
        for piece in PIECES:
            size = piece.size(len(self.grid))
            self.slices.append((piece.write, at, at + size))
            at += size
        self.size = at
        self.history = _History()

    def encode(
        self, observation: Observation, selected: Sequence[int] = (), trump: str | None = None
    ) -> npt.NDArray[np.float32]:
        """See :func:`encode`."""
        me = observation.seat
        if me is None:
            raise ValueError("encode a seat's observation, not a spectator's")
        if observation.rules is not self.rules and observation.rules != self.rules:
            raise ValueError("this encoder is for another rule set")
        history = self._history(observation)
        played = history.played.copy()
        revealed = history.revealed.copy()
        voids = list(history.voids)
        current = observation.current_trick
        for seat, cards_played in current:
            for card in cards_played:
                played[seat, card] += 1.0
        _reveal(revealed, current, observation.current_attempt)
        if observation.judge is not None:
            tally_plays(observation.judge, current, [0] * KINDS, voids)
        seen = Seen(
            observation, me, self.grid, selected, trump, played, revealed, voids,
            history.points + sum(POINTS[c] for _, cs in current for c in cs),
        )
        out = np.zeros(self.size, dtype=np.float32)
        for write, start, end in self.slices:
            write(seen, out[start:end])
        return out

    def _history(self, observation: Observation) -> _History:
        tricks = observation.tricks
        history = self.history
        known = history.tricks
        if known > len(tricks) or (known and tricks[known - 1] is not history.last):
            history = self.history = _History()
            known = 0
        judge = observation.judge
        for trick in tricks[known:]:
            assert judge is not None
            for seat, cards_played in trick.plays:
                for card in cards_played:
                    history.played[seat, card] += 1.0
                    history.points += POINTS[card]
            _reveal(history.revealed, trick.plays, trick.attempted)
            tally_plays(judge, trick.plays, [0] * KINDS, history.voids)
        history.tricks = len(tricks)
        history.last = tricks[-1] if tricks else None
        return history


def _phase(observation: Observation, trump: str | None) -> str:
    phase = observation.phase
    if phase == "kitty":
        return "trump" if trump is None else "bury"
    if phase == "playing":
        return "lead" if observation.lead_shape is None else "follow"
    return phase


def _reveal(
    revealed: npt.NDArray[np.float32],
    plays: Sequence[tuple[int, Sequence[int]]],
    attempted: Sequence[int] | None,
) -> None:
    """Update, per seat, the cards its failed throws showed that it still holds, by one trick's
    ``plays`` and its failed throw ``attempted`` (if any)."""
    for seat, played in plays:
        for card in played:
            if revealed[seat, card]:
                revealed[seat, card] -= 1.0
    if attempted is not None and plays:
        leader, led = plays[0]
        kept = np.array(counts_of(attempted), dtype=np.float32)
        for card in led:
            kept[card] -= 1.0
        # Both are lower bounds on what the leader holds now: keep the larger.
        np.maximum(revealed[leader], kept, out=revealed[leader])


if {name for name, audience in AUDIENCE.items() if audience != "context"} != {
    name for piece in PIECES for name in piece.reads
} | set(NOT_ENCODED):
    raise RuntimeError("the encoding's pieces and NOT_ENCODED must name every field a seat sees")
