"""The fixed-size numeric encoding of one seat's observation (everything it may know).

Seats are written *relative* to the observing seat: ``0`` is itself, ``1`` its next player
(下家), ``2`` across, ``3`` its previous player. Cards are the 54 kinds of :data:`baofen.CARDS`,
given as counts (0, 1 or 2 copies). Every value lies in ``[0, 2]``. :func:`layout` lists the
segments in order with their sizes (``docs/research.md`` prints it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..bots.shared import tally_plays
from ..cards import KINDS, POINTS, SUITS
from ..observation import Observation
from ..order import TRUMP
from ..ruleset import RuleSet
from ..tricks import Trick
from .selection import counts_of

PHASES = ("bidding", "trump", "bury", "lead", "follow", "done")
"""Decision kinds of the phase segment: the kitty decision is split into naming the trump and
burying; the play into leading and following."""

HIGH = 2.0
"""Upper bound of every value of the encoding."""


def layout(rules: RuleSet) -> list[tuple[str, int, str]]:
    """The segments of the encoding for ``rules``, in order: ``(name, size, meaning)``."""
    v = len(rules.bid_grid())
    return [
        ("hand", KINDS, "own cards (during the kitty phase the declarer's 33)"),
        ("selection", KINDS, "cards picked so far for the pending bury or play"),
        ("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
        ("bids", 4 * (2 + v), "per relative seat, one-hot: not yet spoken, passed, last bid value"),
        ("target", v, "one-hot bid value the declarer must reach (none before the kitty)"),
        ("first", 4, "one-hot relative seat of the first bidder"),
        ("declarer", 4, "one-hot relative seat of the declarer (none before the kitty)"),
        ("trump", 4, "one-hot trump suit S H C D (the one being named, during the bury)"),
        ("played", 4 * KINDS, "per relative seat, the cards it has played in the hand so far"),
        ("trick", 4 * KINDS, "per relative seat, its cards in the current trick"),
        ("leader", 4, "one-hot relative seat that led the current trick"),
        ("lead_group", 5, "one-hot group of the current lead: S H C D plain, trump"),
        ("revealed", 4 * KINDS, "per relative seat, cards shown by its failed throws (甩错牌) "
                                "and still held"),
        ("voids", 4 * 5, "per relative seat, the groups it has shown void in"),
        ("kitty", KINDS, "the dealt kitty (declarer only)"),
        ("buried", KINDS, "the buried cards (declarer only)"),
        ("sizes", 4, "cards held per relative seat / 25"),
        ("penalties", 4, "failed-throw penalties per relative seat / 100 (capped at 2)"),
        ("points", 3, "declarer's captured points / 100, points seen in tricks / 100, "
                      "tricks finished / 25"),
    ]


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
    """Encodes observations of one rule set; the finished tricks of the hand being played are
    tallied once (each new observation adds only the tricks finished since the last one)."""

    __slots__ = ("grid", "history", "rules", "size")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.grid = rules.bid_grid()
        self.size = size_of(rules)
        self.history = _History()

    def encode(
        self, observation: Observation, selected: Sequence[int] = (), trump: str | None = None
    ) -> npt.NDArray[np.float32]:
        """See :func:`encode`."""
        me = observation.seat
        if me is None:
            raise ValueError("encode a seat's observation, not a spectator's")
        if observation.rules != self.rules:
            raise ValueError("this encoder is for another rule set")
        grid = self.grid
        v = len(grid)
        out = np.zeros(self.size, dtype=np.float32)
        at = 0

        def cards(values: Sequence[int], offset: int) -> None:
            for card in values:
                out[offset + card] += 1.0

        def rel(seat: int) -> int:
            return (seat - me) % 4

        def by_seat(table: npt.NDArray[np.float32], offset: int) -> None:
            out[offset:offset + 4 * KINDS] = np.roll(table, -me, axis=0).reshape(-1)

        cards(observation.hand, at)
        at += KINDS
        cards(selected, at)
        at += KINDS
        out[at + PHASES.index(_phase(observation, trump))] = 1.0
        at += len(PHASES)
        spoken: dict[int, int | None] = {}
        for seat, value in observation.bids:
            spoken[seat] = value
        for seat in range(4):
            base = at + rel(seat) * (2 + v)
            said = spoken.get(seat, -1)
            if said == -1:
                out[base] = 1.0
            elif said is None:
                out[base + 1] = 1.0
            else:
                out[base + 2 + grid.index(said)] = 1.0
        at += 4 * (2 + v)
        if observation.target is not None and observation.target in grid:
            out[at + grid.index(observation.target)] = 1.0
        at += v
        out[at + rel(observation.first)] = 1.0
        at += 4
        if observation.declarer is not None:
            out[at + rel(observation.declarer)] = 1.0
        at += 4
        named = observation.trump or trump
        if named is not None:
            out[at + SUITS.index(named)] = 1.0
        at += 4
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
        by_seat(played, at)
        at += 4 * KINDS
        for seat, cards_played in current:
            cards(cards_played, at + rel(seat) * KINDS)
        at += 4 * KINDS
        if current and observation.leader is not None:
            out[at + rel(observation.leader)] = 1.0
        at += 4
        if observation.lead_shape is not None:
            out[at + observation.lead_shape.group] = 1.0
        at += 5
        by_seat(revealed, at)
        at += 4 * KINDS
        for seat in range(4):
            for g in range(TRUMP + 1):
                if voids[seat] >> g & 1:
                    out[at + rel(seat) * 5 + g] = 1.0
        at += 20
        if observation.kitty is not None:
            cards(observation.kitty, at)
        at += KINDS
        if observation.buried is not None:
            cards(observation.buried, at)
        at += KINDS
        for seat in range(4):
            out[at + rel(seat)] = observation.hand_sizes[seat] / 25
            out[at + 4 + rel(seat)] = min(HIGH, observation.penalties[seat] / 100)
        at += 8
        seen = history.points + sum(POINTS[c] for _, cs in current for c in cs)
        out[at] = min(HIGH, max(0.0, observation.declarer_points / 100))
        out[at + 1] = seen / 100
        out[at + 2] = len(observation.tricks) / 25
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
