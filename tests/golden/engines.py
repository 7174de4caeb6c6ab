"""The two engines a playthrough is replayed on, behind one small interface.

:class:`PythonEngine` drives :class:`baofen.Hand`; :class:`NativeEngine` drives the native core's
hand (``baofen._native._core.Hand``), dealt by the native shuffle from the same seed. Both report
what they know of a hand as lines of text (:meth:`observe`): the native hand has no
:class:`~baofen.Observation`, so it renders the lines it can build from its own state (the seat's
cards, the trump and declarer, the trick winners) and leaves out the others
(:data:`PYTHON_ONLY`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from baofen import Hand, RuleSet
from baofen import _native as native
from baofen.actions import Action, Bid, Declare
from baofen.cards import KINDS, Card, format_cards
from baofen.order import TRUMP, order_for
from baofen.scoring import HandResult

if TYPE_CHECKING:
    from baofen._native import _core

SEATS = ("南", "东", "北", "西")
"""Seat names, 0 South to 3 West (play goes counter-clockwise)."""

PYTHON_ONLY = frozenset({"bids", "kitty", "buried", "score"})
"""Observation lines the native hand cannot render (it holds no bids, kitty or penalties
apart from its action log and its result)."""

_GROUP_LABELS = ("S", "H", "C", "D")


def seat_name(seat: int | None) -> str:
    return "-" if seat is None else f"{seat} {SEATS[seat]}"


def grouped(by_group: Sequence[Sequence[int]]) -> str:
    """A hand as groups, trumps first: ``trump BJ H2 · S SA SK · H - · C CQ · D D3``."""
    parts = [("trump", by_group[TRUMP])] + [
        (label, by_group[g]) for g, label in enumerate(_GROUP_LABELS)
    ]
    return " · ".join(f"{label} {format_cards(cards) or '-'}" for label, cards in parts)


def state_line(phase: str, tricks: int, to_act: int | None) -> str:
    after = "" if to_act is None else f" · {seat_name(to_act)} to act"
    return f"{phase} · {tricks} tricks played{after}"


class Engine(Protocol):
    """What a playthrough asks of an engine."""

    name: str

    def dealt(self) -> tuple[list[list[int]], int]:
        """The five parts of the deal (four hands, the kitty) and the first bidder."""
        ...

    @property
    def to_act(self) -> int | None: ...

    def legal_bids(self) -> list[int | None]: ...

    def follows(self, limit: int) -> list[list[int]] | None:
        """Every legal follow of the seat to act, each sorted; ``None`` for more than
        ``limit``."""
        ...

    def act(self, seat: int, action: Action) -> list[int]:
        """Take ``action``; the cards it put on the table (fewer than tried for a failed
        throw), none for a bid or the kitty. An illegal action raises ``ValueError``."""
        ...

    def winners(self) -> list[int]: ...

    def result(self) -> HandResult | None: ...

    def observe(self, seat: int) -> list[tuple[str, str]]:
        """``seat``'s observation as (key, text) lines."""
        ...


class PythonEngine:
    """The pure Python engine, the reference."""

    name = "python"

    def __init__(self, rules: RuleSet, seed: int) -> None:
        self.hand = Hand(rules, seed=seed)

    def dealt(self) -> tuple[list[list[int]], int]:
        return [list(part) for part in self.hand.deal], self.hand.first

    @property
    def to_act(self) -> int | None:
        return self.hand.to_act

    def legal_bids(self) -> list[int | None]:
        seat = self.hand.to_act
        return [] if seat is None else self.hand.legal_bids(seat)

    def follows(self, limit: int) -> list[list[int]] | None:
        hand, seat = self.hand, self.hand.to_act
        shape = hand.lead_shape
        assert seat is not None and shape is not None, "a follow is asked after a lead"
        obs = hand.observation(seat)
        # Follow suit (rules.md §7.1): only cards of the led group while they last; the rest
        # of the cards is free. Which of those plays are legal is the engine's answer.
        suited = list(obs.by_group[shape.group])
        if len(suited) >= shape.size:
            base, pool, size = [], suited, shape.size
        else:
            base, size = suited, shape.size - len(suited)
            pool = [c for g, cards in enumerate(obs.by_group) if g != shape.group for c in cards]
        out: list[list[int]] = []
        for rest in _multisets(pool, size):
            play = sorted(base + rest)
            if hand.is_legal(seat, play):
                if len(out) == limit:
                    return None
                out.append(play)
        return out

    def act(self, seat: int, action: Action) -> list[int]:
        outcome = self.hand.apply(seat, action)
        return [] if outcome is None else list(outcome.played)

    def winners(self) -> list[int]:
        return [trick.winner for trick in self.hand.tricks]

    def result(self) -> HandResult | None:
        return self.hand.result

    def observe(self, seat: int) -> list[tuple[str, str]]:
        obs = self.hand.observation(seat)
        lines = [
            ("state", state_line(obs.phase, len(obs.tricks), obs.to_act)),
            ("hand", grouped(obs.by_group)),
            ("bids", " · ".join(
                f"{SEATS[s]} {'pass' if v is None else v}" for s, v in obs.bids
            ) or "-"),
            ("trump", f"{obs.trump or '-'} · declarer {seat_name(obs.declarer)}"),
        ]
        if obs.kitty is not None:
            lines.append(("kitty", format_cards(obs.kitty)))
        if obs.buried is not None:
            lines.append(("buried", format_cards(obs.buried)))
        lines.append(("won", " ".join(SEATS[t.winner] for t in obs.tricks) or "-"))
        lines.append(("score", (
            f"declarer points {obs.declarer_points} · penalties "
            f"{' '.join(map(str, obs.penalties))} · cards held "
            f"{' '.join(map(str, obs.hand_sizes))}"
        )))
        return lines


class NativeEngine:
    """The native core's hand, dealt by the native shuffle."""

    name = "native"

    def __init__(self, rules: RuleSet, seed: int) -> None:
        core = native.core()
        self.rules = rules
        cards, firsts = core.deals_from_seeds(
            bytes(order_for(rules.variant, None).pack), rules.variant == "hongwu", [seed]
        )
        self.hand: _core.Hand = core.Hand(core.Rules(rules.to_dict()), list(cards), firsts[0])

    def dealt(self) -> tuple[list[list[int]], int]:
        deal = self.hand.deal
        return [deal[i : i + 25] for i in range(0, 100, 25)] + [deal[100:]], self.hand.first

    @property
    def to_act(self) -> int | None:
        return self.hand.to_act

    def legal_bids(self) -> list[int | None]:
        return self.hand.legal_bids()

    def follows(self, limit: int) -> list[list[int]] | None:
        try:
            plays = self.hand.legal_plays(limit)
        except ValueError:  # more legal plays than the limit
            return None
        return [sorted(play) for play in plays]

    def act(self, seat: int, action: Action) -> list[int]:
        if isinstance(action, Bid):
            self.hand.bid(seat, action.value)
            return []
        if isinstance(action, Declare):
            self.hand.declare(seat, action.trump, action.bury)
            return []
        return self.hand.play(seat, action.cards)

    def winners(self) -> list[int]:
        return self.hand.winners()

    def result(self) -> HandResult | None:
        from baofen._native.batch import result_of

        row = self.hand.result()
        return None if row is None else result_of(self.rules, row)

    def observe(self, seat: int) -> list[tuple[str, str]]:
        hand = self.hand
        order = order_for(self.rules.variant, hand.trump)
        by_group: list[list[int]] = [[], [], [], [], []]
        for card in order.sort(hand.hand_of(seat)):
            by_group[order.group[card]].append(card)
        winners = hand.winners()
        return [
            ("state", state_line(hand.phase, len(winners), hand.to_act)),
            ("hand", grouped(by_group)),
            ("trump", f"{hand.trump or '-'} · declarer {seat_name(hand.declarer)}"),
            ("won", " ".join(SEATS[w] for w in winners) or "-"),
        ]


def _multisets(pool: Sequence[int], size: int) -> Iterator[list[int]]:
    """Every multiset of ``size`` cards drawn from ``pool`` (which may hold a kind twice)."""
    counts = [0] * KINDS
    for card in pool:
        counts[card] += 1
    kinds = [Card(k) for k in range(KINDS) if counts[k]]

    def grow(at: int, left: int, chosen: list[int]) -> Iterator[list[int]]:
        if not left:
            yield list(chosen)
            return
        if at == len(kinds):
            return
        kind = kinds[at]
        for n in range(min(left, counts[kind]), -1, -1):
            yield from grow(at + 1, left - n, chosen + [kind] * n)

    yield from grow(0, size, [])
