"""A match (a sequence of hands) with its bookkeeping (rules.md §12).

Caller rotation (包分) or a random first bidder (包红五), the no-bid modes with the pot (捞水草),
running scores, the match length, and 包红五's leaving rule (逃跑: 胜不得分，负承担本方的输分).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .hand import Hand
from .ruleset import RuleSet
from .scoring import HandResult

FORMAT = "baofen-match"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Ledger:
    """The match's books between hands: running scores, the pot and the next caller."""

    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    pot: int = 0
    caller: int = 0


def settle(
    rules: RuleSet,
    ledger: Ledger,
    result: HandResult,
    left: frozenset[int] = frozenset(),
    last: bool = False,
) -> tuple[Ledger, tuple[int, int, int, int]]:
    """Book one finished hand (§12): the new ledger and each seat's change.

    ``left`` are the seats that were away during the hand (包红五's leaving rule); ``last``
    says the match ends with this hand, so what is in the pot is shared out.
    """
    deltas = list(result.deltas)
    pot, caller = ledger.pot, ledger.caller

    def split() -> int:
        nonlocal pot
        share = pot // 4  # a remainder that does not divide stays in the pot
        pot -= 4 * share
        return share

    if rules.variant == "hongwu":
        # 胜不得分，负承担本方的输分: a seat that left wins nothing but still pays.
        deltas = [0 if s in left and d > 0 else d for s, d in enumerate(deltas)]
    elif result.declarer is None:
        caller = (caller + 1) % 4
        if rules.no_bid_mode == "pot":
            pot -= sum(deltas)
            if pot > rules.pot_split_above:
                share = split()
                deltas = [d + share for d in deltas]
    else:
        declarer = result.declarer
        if pot:
            if result.made:
                deltas[declarer] += pot
                pot = 0
            else:
                deltas[declarer] -= pot
                pot *= 2
        caller = declarer if result.made else (declarer + 1) % 4
    if last and pot:
        share = split()
        deltas = [d + share for d in deltas]
    scores = tuple(a + b for a, b in zip(ledger.scores, deltas, strict=True))
    changes = (deltas[0], deltas[1], deltas[2], deltas[3])
    return Ledger(scores, pot, caller), changes  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class MatchEntry:
    """One finished hand of a match, as settled."""

    number: int
    """1 for the match's first hand."""
    hand: Hand
    deltas: tuple[int, int, int, int]
    """Each seat's change in running score from this hand, pot transfers and leaving rule
    included."""
    ledger: Ledger
    """The books after this hand."""
    left: tuple[int, ...]
    """Seats that were away (逃跑, played by the computer) during this hand."""


class Match:
    """A sequence of hands under one rule set, reproducible from ``seed``.

    A hand is booked (:func:`settle`) the moment it is done, however it was played: through
    ``match.hand`` directly or otherwise. Reading the match never changes it.
    """

    def __init__(self, rules: RuleSet, seed: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self._rng = random.Random(seed)
        self._ledger = Ledger()
        self._history: list[MatchEntry] = []
        self._away: set[int] = set()
        self._left: set[int] = set()
        self.hand = self._deal()

    # -- state --------------------------------------------------------------------------------

    @property
    def ledger(self) -> Ledger:
        """The books, the current hand included once it is done."""
        return self._ledger

    @property
    def history(self) -> list[MatchEntry]:
        """Every booked hand in order, the current hand included once it is done."""
        return list(self._history)

    @property
    def scores(self) -> list[int]:
        """Running score of each seat (包分 points, 包红五 levels)."""
        return list(self._ledger.scores)

    @property
    def pot(self) -> int:
        """The 包分 pot (捞水草); always 0 in 包红五."""
        return self._ledger.pot

    @property
    def caller(self) -> int:
        """The caller (主叫) of the current hand; in 包红五 its randomly drawn first bidder.

        The next hand's caller, once this one is done, is ``ledger.caller``.
        """
        return self.hand.first

    @property
    def coins(self) -> list[int]:
        """包红五 running score in coins (levels × ``coins_per_level``)."""
        return [s * self.rules.coins_per_level for s in self.scores]

    @property
    def number(self) -> int:
        """Number of the current hand, 1 for the first."""
        return len(self._history) + (0 if self._booked_current() else 1)

    @property
    def finished(self) -> bool:
        """True when the match has played its ``hands`` deals (never, when unlimited)."""
        return self.rules.hands is not None and len(self._history) >= self.rules.hands

    @property
    def away(self) -> frozenset[int]:
        """Seats currently away (left or dropped, played by the computer)."""
        return frozenset(self._away)

    def set_away(self, seat: int, away: bool) -> None:
        """Mark ``seat`` as having left (逃跑) or returned; see the leaving rule in §12.4."""
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"a seat is 0–3, not {seat!r}")
        if away:
            self._away.add(seat)
            # A hand already booked is over: leaving after it cannot change it.
            if not self._booked_current():
                self._left.add(seat)
        else:
            self._away.discard(seat)

    # -- flow ---------------------------------------------------------------------------------

    def next_hand(self) -> Hand:
        """Start the next hand once the current one is done (or ended with no bid)."""
        if self.hand.phase != "done":
            raise ValueError(f"the current hand is not done (phase {self.hand.phase})")
        if self.finished:
            raise ValueError("the match is over: it has played all its hands")
        self.hand = self._deal()
        self._left = set(self._away)
        return self.hand

    def _deal(self) -> Hand:
        seed = self._rng.getrandbits(63)
        if self.rules.variant == "hongwu":
            hand = Hand(self.rules, seed=seed, first=self._rng.randrange(4))
        else:
            hand = Hand(self.rules, seed=seed, first=self._ledger.caller)
        hand.on_done = self._book
        return hand

    def _booked_current(self) -> bool:
        return bool(self._history) and self._history[-1].hand is self.hand

    def _book(self) -> None:
        """Settle the current hand, now done, into the books and the history."""
        hand = self.hand
        result = hand.result
        assert result is not None and not self._booked_current()
        hands = self.rules.hands
        last = hands is not None and len(self._history) + 1 >= hands
        self._ledger, deltas = settle(
            self.rules, self._ledger, result, frozenset(self._left), last
        )
        self._history.append(
            MatchEntry(
                len(self._history) + 1, hand, deltas, self._ledger, tuple(sorted(self._left))
            )
        )

    # -- records ------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """JSON-safe match record: rule set, seed, and every hand's record with its leavers."""
        entries = [{"hand": e.hand.to_record(), "left": list(e.left)} for e in self._history]
        if not self._booked_current():
            entries.append({"hand": self.hand.to_record(), "left": sorted(self._left)})
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "hands": entries,
            "away": sorted(self._away),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Match:
        """Rebuild a match from :meth:`to_record`, replaying every hand on the match's seed."""
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        if record.get("version") != VERSION:
            raise ValueError(f"unsupported match record version {record.get('version')!r}")
        match = cls(RuleSet.from_dict(record["rules"]), record.get("seed"))
        for number, entry in enumerate(record["hands"]):
            if number:
                match.next_hand()
            replayed = Hand.from_record(entry["hand"])
            if replayed.deal != match.hand.deal or replayed.first != match.hand.first:
                raise ValueError(f"hand {number + 1} of the record was not dealt from its seed")
            match._left = set(entry["left"])
            match.hand = replayed
            if replayed.phase == "done":
                match._book()
            else:
                replayed.on_done = match._book
        match._away = set(record.get("away", []))
        return match
