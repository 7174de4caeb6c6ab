"""What one seat may know of a hand (its *observation*): the one place hidden cards are redacted.

Bots decide from an :class:`Observation` only, and the server sends each connection its seat's
(in the wire form :class:`baofen.wire.observation.ObservationView`). Hidden: other hands, and
the kitty (底牌) except to the declarer. Public: bids, the declarer and target, the trump,
every played card, every failed throw's cards (甩错牌), hand sizes, penalties and the
declarer's captured points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Literal

from .actions import Action, Phase
from .cards import KINDS, Card
from .errors import Reason
from .order import Order, order_for
from .ruleset import RuleSet
from .scoring import HandResult
from .tricks import LeadShape, Trick, TrickJudge

Audience = Literal["context", "public", "own", "declarer"]
"""Who may see a field of an :class:`Observation`:

- ``context``: not of the hand's cards (the rules, the seat observing, the trick judge);
- ``public``: every seat and spectator (bids, trump, played cards, failed throws, sizes …);
- ``own``: the observing seat alone, of its own cards (empty for a spectator);
- ``declarer``: the declarer alone (the kitty and the bury); another seat gets the field's
  redacted value (``None``, or for ``actions`` the actions with the bury left out).
"""


_CONTEXT: dict[str, Audience] = {"audience": "context"}
_PUBLIC: dict[str, Audience] = {"audience": "public"}
_OWN: dict[str, Audience] = {"audience": "own"}
_DECLARER: dict[str, Audience] = {"audience": "declarer"}


@dataclass(slots=True, kw_only=True)
class Observation:
    """One seat's view of a hand at one moment (``seat`` ``None``: a spectator's).

    A snapshot, built by :meth:`Hand.observation <baofen.hand.Hand.observation>` (or by keyword):
    its values are immutable, and changing the hand later does not change it. Treat it as
    read-only. Each field declares who may see it (:data:`Audience`, :data:`AUDIENCE`): the
    engine's redaction, the wire view and the env's encoding are checked against it.
    """

    rules: RuleSet = field(metadata=_CONTEXT)
    seat: int | None = field(metadata=_CONTEXT)
    phase: Phase = field(metadata=_PUBLIC)
    to_act: int | None = field(metadata=_PUBLIC)
    first: int = field(metadata=_PUBLIC)
    """The caller / first bidder."""
    bids: tuple[tuple[int, int | None], ...] = field(metadata=_PUBLIC)
    """Every bid so far, ``(seat, value)``; ``None`` is a pass."""
    declarer: int | None = field(metadata=_PUBLIC)
    target: int | None = field(metadata=_PUBLIC)
    trump: str | None = field(metadata=_PUBLIC)
    by_group: tuple[tuple[Card, ...], ...] = field(metadata=_OWN)
    """This seat's cards of each group (S, H, C, D, trump), strongest first; before trump is
    named only the always-trump cards are grouped as trump. Empty for a spectator."""
    kitty: tuple[Card, ...] | None = field(metadata=_DECLARER)
    """The dealt kitty, for the declarer only."""
    buried: tuple[Card, ...] | None = field(metadata=_DECLARER)
    """The buried cards, for the declarer only."""
    tricks: tuple[Trick, ...] = field(metadata=_PUBLIC)
    """The finished tricks, in order."""
    current_trick: tuple[tuple[int, tuple[Card, ...]], ...] = field(metadata=_PUBLIC)
    current_attempt: tuple[Card, ...] | None = field(metadata=_PUBLIC)
    """All cards of the current trick's failed throw, if its lead was one."""
    leader: int | None = field(metadata=_PUBLIC)
    lead_shape: LeadShape | None = field(metadata=_PUBLIC)
    hand_sizes: tuple[int, ...] = field(metadata=_PUBLIC)
    penalties: tuple[int, ...] = field(metadata=_PUBLIC)
    declarer_points: int = field(metadata=_PUBLIC)
    """Card points the declarer has captured in tricks so far."""
    result: HandResult | None = field(metadata=_PUBLIC)
    judge: TrickJudge | None = field(metadata=_CONTEXT)
    actions: tuple[tuple[int, Action], ...] = field(metadata=_DECLARER)
    """Every action so far in order; the declarer's bury shows only to the declarer."""

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's cards, sorted for display: trumps first (empty for a spectator)."""
        held = self.by_group
        return held[4] + held[0] + held[1] + held[2] + held[3] if held else ()

    # -- derived ------------------------------------------------------------------------------

    @property
    def order(self) -> Order:
        """Card order of this hand (before trump is named: only the always-trump cards)."""
        return order_for(self.rules.variant, self.trump)

    @property
    def is_my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.seat is not None and self.seat == self.to_act

    def legal_bids(self) -> list[int | None]:
        """Bids this seat may make now (``None`` passes); empty when it is not bidding."""
        if self.phase != "bidding" or not self.is_my_turn:
            return []
        high = max((v for _, v in self.bids if v is not None), default=-1)
        return [None, *(v for v in self.rules.bid_grid() if v > high)]

    def is_legal(self, cards: Sequence[int]) -> bool:
        """True when this seat may play ``cards`` now (a throw that will fail is legal)."""
        return self.play_error(cards) is None

    def play_error(self, cards: Sequence[int]) -> str | None:
        """Why this seat may not play ``cards`` now, or ``None``. A refusal by the rules of
        play is a :class:`~baofen.errors.Reason`, with a code."""
        if self.phase != "playing" or not self.is_my_turn or self.judge is None:
            return Reason("not_my_turn")
        counts = [0] * KINDS
        for card in self.hand:
            counts[card] += 1
        shape = self.lead_shape
        suited = None if shape is None else self.by_group[shape.group]
        return self.judge.play_error(shape, counts, suited, cards)

    @property
    def winning(self) -> int | None:
        """The seat whose play wins the trick in progress so far (None before its lead)."""
        plays = self.current_trick
        if not plays or self.judge is None or self.lead_shape is None:
            return None
        best = self.judge.best(self.lead_shape, [cards for _, cards in plays])
        return plays[best][0]

    @property
    def trick_number(self) -> int:
        """Number of the trick in progress (1 for the first), or of the last one once the
        hand is done; 0 before the play."""
        if self.phase == "playing":
            return len(self.tricks) + 1
        return len(self.tricks)

    @property
    def trick_points(self) -> int:
        """Card points (分) on the table in the trick in progress."""
        return sum(card.points for _, cards in self.current_trick for card in cards)

    def counter(self) -> list[int]:
        """记牌器: for each card kind, the copies this seat has not seen — not in its hand,
        not played, not buried by itself. Whatever the seat may not know (other hands, a
        kitty it did not bury) counts as unseen. A spectator has seen the played cards only."""
        unseen = [2] * KINDS
        for card in self.hand:
            unseen[card] -= 1
        for card in self.played_cards():
            unseen[card] -= 1
        for card in self.buried or ():
            unseen[card] -= 1
        return unseen

    def played_cards(self) -> list[Card]:
        """Every card played so far, finished tricks and the current one."""
        played = [c for t in self.tricks for _, cards in t.plays for c in cards]
        played += [c for _, cards in self.current_trick for c in cards]
        return played


AUDIENCE: dict[str, Audience] = {f.name: f.metadata["audience"] for f in fields(Observation)}
"""Who may see each field of :class:`Observation`, by name: the one declaration of what a seat
sees."""
