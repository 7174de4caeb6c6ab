"""One hand (一局): deal, bidding, kitty, play and score, as a state machine (rules.md §2).

:class:`Hand` is authoritative over hidden information; :meth:`Hand.observation` gives a seat
exactly what it may know. Every illegal action raises :class:`~baofen.errors.IllegalAction`
before anything changes.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any, Literal, NamedTuple

from .actions import Action, Bid, Declare, Play
from .cards import CARDS, KINDS, POINTS, SUITS, Card, parse_card, parse_cards
from .errors import IllegalAction, Reason
from .observation import Observation
from .order import TRUMP, Order, order_for
from .ruleset import RuleSet
from .scoring import HandResult, no_bid_result, score_baofen, score_hongwu
from .tricks import LeadShape, Trick, TrickJudge

Phase = Literal["bidding", "kitty", "playing", "done"]
HAND_SIZE = 25
KITTY_SIZE = 8


class PlayResult(NamedTuple):
    """Outcome of :meth:`Hand.play`."""

    played: tuple[Card, ...]
    """The cards actually played (a failed throw plays only its failing unit)."""
    failed_throw: bool
    penalty: int
    attempted: tuple[Card, ...]
    """The cards the player tried to play."""
    trick: Trick | None = None
    """The finished trick, when this play completed one."""


class Hand:
    """One hand of 包分 or 包红五.

    ``Hand(rules, seed=7)`` shuffles from a seed; ``Hand(rules, hands=[h0, h1, h2, h3], kitty=k)``
    takes an explicit deal. ``first`` is the caller / first bidder; it defaults to South (0),
    and in 包红五 with a seed to a seat drawn from the seed (§9.2).
    """

    __slots__ = (
        "_bid_high",
        "_counts",
        "_first_passer",
        "_held",
        "_judge",
        "_lead_shape",
        "_passed",
        "_plays",
        "_public_actions",
        "_sizes",
        "_trick_attempt",
        "_trick_penalty",
        "actions",
        "bids",
        "buried",
        "deal",
        "declarer",
        "declarer_points_so_far",
        "first",
        "leader",
        "order",
        "penalties",
        "phase",
        "result",
        "rules",
        "seed",
        "target",
        "to_act",
        "tricks",
        "trump",
    )

    def __init__(
        self,
        rules: RuleSet,
        seed: int | None = None,
        first: int | None = None,
        *,
        hands: Sequence[Iterable[int | str]] | None = None,
        kitty: Iterable[int | str] | None = None,
    ) -> None:
        if (hands is None) != (kitty is None):
            raise ValueError("give both hands and kitty for an explicit deal, or neither")
        rng = random.Random(seed)
        order = order_for(rules.variant, None)
        if hands is None or kitty is None:
            if seed is None:
                raise ValueError("give a seed or an explicit deal (hands and kitty)")
            # A random permutation of the pack's positions (sorting by random keys); each seat
            # takes a slice of it, and its positions in increasing order are its cards in
            # display order, already split by group at the pack's group boundaries.
            draw = rng.random
            keys = [draw() for _ in _POSITIONS]
            shuffled = sorted(_POSITIONS, key=keys.__getitem__)
            pack = order.pack
            bounds = order.pack_bounds
            held = []
            counts = []
            for start in _DEAL_STARTS:
                positions = sorted(shuffled[start:start + HAND_SIZE])
                cuts = [bisect_left(positions, bound) for bound in bounds]
                parts = [
                    tuple(map(pack.__getitem__, positions[lo:hi]))
                    for lo, hi in pairwise(cuts)
                ]
                held.append(parts[1:] + parts[:1])  # trumps come first in the pack, last here
                tally = [0] * KINDS
                for position in positions:
                    tally[pack[position]] += 1
                counts.append(tally)
            kitty_cards = [pack[p] for p in sorted(shuffled[4 * HAND_SIZE:])]
            dealt = [list(_flat(h)) for h in held]
        else:
            dealt, kitty_cards = _check_deal(hands, kitty)
            held = [_grouped(order, cards) for cards in dealt]
            counts = [[0] * KINDS for _ in range(4)]
            for seat in range(4):
                for card in dealt[seat]:
                    counts[seat][card] += 1
        if first is None:
            first = rng.randrange(4) if rules.variant == "hongwu" and seed is not None else 0
        if first not in (0, 1, 2, 3):
            raise ValueError(f"first must be a seat 0–3, not {first!r}")
        self.rules = rules
        self.seed = seed
        self.first = first
        self.deal: tuple[tuple[Card, ...], ...] = (*map(tuple, dealt), tuple(kitty_cards))
        """The original deal: four hands, then the kitty."""
        self.phase: Phase = "bidding"
        self.to_act: int | None = first
        self.bids: list[tuple[int, int | None]] = []
        """Every bid in order, ``(seat, value)``; ``None`` is a pass."""
        self.declarer: int | None = None
        self.target: int | None = None
        self.trump: str | None = None
        self.order: Order = order
        self.buried: tuple[Card, ...] | None = None
        self.tricks: list[Trick] = []
        self.leader: int | None = None
        self.penalties = [0, 0, 0, 0]
        """Failed-throw penalties each seat incurred so far."""
        self.declarer_points_so_far = 0
        """Card points the declarer has captured in tricks so far (public)."""
        self.result: HandResult | None = None
        self.actions: list[tuple[int, Action]] = []
        """Every action in order, as applied (the bury is hidden information)."""
        self._public_actions: list[tuple[int, Action]] = []
        self._first_passer: int | None = None
        self._counts = counts
        self._held = held
        self._sizes = [HAND_SIZE] * 4
        self._passed = [False, False, False, False]
        self._bid_high: tuple[int, int] | None = None
        self._judge: TrickJudge | None = None
        self._plays: list[tuple[int, tuple[Card, ...]]] = []
        self._lead_shape: LeadShape | None = None
        self._trick_attempt: tuple[Card, ...] | None = None
        self._trick_penalty = 0

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
        return list(_flat(self._held[seat]))

    def count(self, seat: int) -> int:
        """Number of cards ``seat`` holds (public)."""
        return self._sizes[seat]

    def legal_bids(self, seat: int) -> list[int | None]:
        """Bids ``seat`` may make now: ``None`` (pass) and every allowed value."""
        if self.phase != "bidding" or seat != self.to_act:
            return []
        floor = self._bid_high[1] if self._bid_high else -1
        return [None, *(v for v in self.rules.bid_grid() if v > floor)]

    def is_legal(self, seat: int, cards: Sequence[int]) -> bool:
        """True when ``seat`` may play ``cards`` now (a throw that will fail is legal)."""
        return self._play_error(seat, cards) is None

    def play_error(self, seat: int, cards: Sequence[int]) -> str | None:
        """Why ``seat`` may not play ``cards`` now, or ``None`` when it may. A refusal by the
        rules of play is a :class:`~baofen.errors.Reason`, with a code."""
        return self._play_error(seat, cards)

    def observation(self, seat: int | None) -> Observation:
        """Everything ``seat`` may know and nothing more; ``None`` for a spectator."""
        return Observation.of(self, seat)

    # -- actions ------------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> PlayResult | None:
        """Apply a :class:`Bid`, :class:`Declare` or :class:`Play`; returns what the method does."""
        if type(action) is Play or isinstance(action, Play):
            return self._play(seat, action)
        if isinstance(action, Bid):
            self.bid(seat, action.value)
            return None
        if isinstance(action, Declare):
            self.declare(seat, action.trump, action.bury)
            return None
        raise IllegalAction(f"not an action: {action!r}")

    def bid(self, seat: int, value: int | None) -> None:
        """Bid ``value`` (目标分), or pass with ``None`` (§9)."""
        self._expect("bidding", seat)
        rules = self.rules
        high = self._bid_high
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalAction(f"a bid is a number or None (pass), not {value!r}")
            grid = rules.bid_grid()
            if value not in grid:
                raise IllegalAction(Reason(
                    "bid_not_offered", value=value,
                    bids=(", ".join(map(str, grid)) if rules.variant == "baofen"
                          else f"{rules.bid_min}–{rules.bid_max} in steps of {rules.bid_step}"),
                ))
            if high is not None and value <= high[1]:
                raise IllegalAction(Reason("bid_too_low", high=high[1]))
        self.bids.append((seat, value))
        self._log(seat, Bid(value))
        if value is None:
            self._passed[seat] = True
            if self._first_passer is None:
                self._first_passer = seat
        else:
            self._bid_high = high = (seat, value)
        passed = self._passed
        if high is not None:
            done = value == rules.bid_grid()[-1] or all(
                passed[s] for s in range(4) if s != high[0]
            )
            if done:
                self._start_kitty(high[0], high[1])
                return
        elif all(passed):
            if rules.variant == "hongwu":
                assert self._first_passer is not None
                self._start_kitty(self._first_passer, rules.bid_min)
            else:
                self._finish(no_bid_result(rules, self.first))
            return
        nxt = (seat + 1) % 4
        while passed[nxt]:
            nxt = (nxt + 1) % 4
        self.to_act = nxt

    def declare(self, seat: int, trump: str, bury: str | Iterable[int | str]) -> None:
        """The declarer names ``trump`` and buries 8 of its 33 cards (§10)."""
        self._expect("kitty", seat)
        if not isinstance(trump, str) or trump.upper() not in SUITS:
            raise IllegalAction(Reason("bad_trump", trump=repr(trump)))
        trump = trump.upper()
        buried = _as_cards(bury)
        if len(buried) != KITTY_SIZE:
            raise IllegalAction(Reason("bury_count", size=KITTY_SIZE, count=len(buried)))
        missing = _missing(self._counts[seat], buried)
        if missing:
            raise IllegalAction(Reason("bury_not_held", cards=missing))
        counts = self._counts[seat]
        for card in buried:
            counts[card] -= 1
        self._sizes[seat] -= KITTY_SIZE
        kept = _without(_flat(self._held[seat]), buried)
        self._log(seat, Declare(trump, buried), Declare(trump, ()))
        self.trump = trump
        self.buried = buried
        self.order = order = order_for(self.rules.variant, trump)
        self._judge = TrickJudge(self.rules, order)
        self._held = [
            _grouped(order, kept if s == seat else _flat(self._held[s])) for s in range(4)
        ]
        self.phase = "playing"
        self.leader = self.to_act = seat

    def play(self, seat: int, cards: Sequence[int] | str) -> PlayResult:
        """Play ``cards`` to the current trick: lead (a unit or a throw) or follow (§5–8)."""
        try:
            action = Play(cards)
        except (ValueError, TypeError) as error:
            raise IllegalAction(f"not a list of cards: {cards!r} ({error})") from None
        return self._play(seat, action)

    def _play(self, seat: int, action: Play) -> PlayResult:
        attempted = action.cards
        judge = self._judge
        shape = self._lead_shape
        if (
            len(attempted) == 1
            and (shape is None or shape.size == 1)
            and seat == self.to_act
            and self.phase == "playing"
        ):
            # The common case, one card led or following a single, checked and applied inline.
            assert judge is not None
            card = attempted[0]
            g = judge.group[card]
            held = self._held[seat]
            counts = self._counts[seat]
            if not counts[card] or (shape is not None and g != shape.group and held[shape.group]):
                raise IllegalAction(self._play_error(seat, attempted) or "illegal play")
            if shape is None:
                self._lead_shape = judge.shape(attempted)
            self.actions.append((seat, action))
            self._public_actions.append((seat, action))
            counts[card] -= 1
            self._sizes[seat] -= 1
            cards = held[g]
            i = cards.index(card)
            held[g] = cards[:i] + cards[i + 1:]
            plays = self._plays
            plays.append((seat, attempted))
            trick = None
            if len(plays) == 4:
                trick = self._close_trick()
            else:
                self.to_act = (seat + 1) % 4
            return _new_result(PlayResult, (attempted, False, 0, attempted, trick))
        error = self._play_error(seat, attempted)
        if error:
            raise IllegalAction(error)
        assert judge is not None
        played = attempted
        penalty = 0
        if not self._plays:
            shape = judge.shape(attempted)
            if shape.is_throw:
                g = shape.group
                others = [self._held[s][g] for s in range(4) if s != seat]
                failing = judge.failed_throw(attempted, others)
                if failing is not None:
                    played = tuple(CARDS[c] for c in failing)
                    penalty = self.rules.throw_penalty_per_card * len(attempted)
                    self.penalties[seat] += penalty
                    shape = judge.shape(played)
                    self._trick_attempt = attempted
                    self._trick_penalty = penalty
            self._lead_shape = shape
        self._log(seat, action)
        counts = self._counts[seat]
        held = self._held[seat]
        for card in played:
            counts[card] -= 1
        self._sizes[seat] -= len(played)
        group = judge.group
        if len(played) == 1:
            g = group[played[0]]
            held[g] = _without(held[g], played)
        else:
            for g in {group[c] for c in played}:
                held[g] = _without(held[g], played)
        self._plays.append((seat, played))
        trick = None
        if len(self._plays) == 4:
            trick = self._close_trick()
        else:
            self.to_act = (seat + 1) % 4
        return PlayResult(played, played is not attempted, penalty, attempted, trick)

    def _log(self, seat: int, action: Action, public: Action | None = None) -> None:
        """Record an action, and what others see of it (all of it, but for the bury)."""
        self.actions.append((seat, action))
        self._public_actions.append((seat, public or action))

    # -- internals ----------------------------------------------------------------------------

    def _expect(self, phase: Phase, seat: int) -> None:
        if self.phase != phase:
            raise IllegalAction(Reason("wrong_phase", expected=phase, phase=self.phase))
        if seat != self.to_act:
            raise IllegalAction(Reason("not_your_turn", seat=seat, to_act=self.to_act))

    def _play_error(self, seat: int, cards: Sequence[int]) -> str | None:
        if self.phase != "playing":
            return Reason("wrong_phase", expected="playing", phase=self.phase)
        if seat != self.to_act:
            return Reason("not_your_turn", seat=seat, to_act=self.to_act)
        judge = self._judge
        assert judge is not None
        shape = self._lead_shape
        return judge.play_error(
            shape,
            self._counts[seat],
            None if shape is None else self._held[seat][shape.group],
            cards,
        )

    def _close_trick(self) -> Trick:
        judge = self._judge
        assert judge is not None and self._lead_shape is not None and self.leader is not None
        plays = tuple(self._plays)
        index = judge.best(self._lead_shape, [cards for _, cards in plays])
        winner = plays[index][0]
        points = 0
        for _, cards in plays:
            for card in cards:
                points += POINTS[card]
        trick = Trick(
            self.leader, plays, winner, points, self._trick_attempt, self._trick_penalty
        )
        self.tricks.append(trick)
        if winner == self.declarer:
            self.declarer_points_so_far += points
        self._plays = []
        self._lead_shape = None
        self._trick_attempt = None
        self._trick_penalty = 0
        self.leader = self.to_act = winner
        if not self._sizes[winner]:
            self._score()
        return trick

    def _start_kitty(self, declarer: int, target: int) -> None:
        self.declarer = declarer
        self.target = target
        counts = self._counts[declarer]
        for card in self.kitty:
            counts[card] += 1
        self._sizes[declarer] += KITTY_SIZE
        self._held[declarer] = _grouped(self.order, (*_flat(self._held[declarer]), *self.kitty))
        self.phase = "kitty"
        self.to_act = declarer

    def _score(self) -> None:
        assert self.declarer is not None and self.target is not None
        assert self.trump is not None and self.buried is not None
        if self.rules.variant == "baofen":
            result = score_baofen(
                self.rules, self.declarer, self.target, self.trump, self.tricks, self.buried,
                self.penalties,
            )
        else:
            last = self.tricks[-1]
            group = self.order.group
            trump_won = all(group[c] == TRUMP for c in last.cards_of(last.winner) or ())
            result = score_hongwu(
                self.rules, self.declarer, self.target, self.tricks, self.buried,
                self.penalties, trump_won,
            )
        self._finish(result)

    def _finish(self, result: HandResult) -> None:
        self.result = result
        self.phase = "done"
        self.to_act = None

    # -- records ------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """JSON-safe hand record: version, rules, deal, first bidder, actions, result."""
        from .record import hand_to_record

        return hand_to_record(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Hand:
        """Rebuild a hand by replaying a record made by :meth:`to_record`."""
        from .record import hand_from_record

        return hand_from_record(record)

    def copy(self) -> Hand:
        """An independent copy of this hand's whole state (for search)."""
        # Built through the constructor, not ``Hand.__new__``: a mypyc-compiled class always runs
        # ``__init__`` on creation. Immutable or shared-by-design values are then taken as they
        # are, the rest copied.
        other = Hand(self.rules, first=self.first, hands=self.deal[:4], kitty=self.deal[4])
        other.seed = self.seed
        other.deal = self.deal
        other.phase = self.phase
        other.to_act = self.to_act
        other.declarer = self.declarer
        other.target = self.target
        other.trump = self.trump
        other.order = self.order
        other.buried = self.buried
        other.leader = self.leader
        other.declarer_points_so_far = self.declarer_points_so_far
        other.result = self.result
        other._first_passer = self._first_passer
        other._bid_high = self._bid_high
        other._judge = self._judge
        other._lead_shape = self._lead_shape
        other._trick_attempt = self._trick_attempt
        other._trick_penalty = self._trick_penalty
        other.bids = list(self.bids)
        other.tricks = list(self.tricks)
        other.penalties = list(self.penalties)
        other.actions = list(self.actions)
        other._public_actions = list(self._public_actions)
        other._counts = [list(c) for c in self._counts]
        other._held = [list(h) for h in self._held]
        other._sizes = list(self._sizes)
        other._passed = list(self._passed)
        other._plays = list(self._plays)
        return other

    def __repr__(self) -> str:
        return (
            f"<Hand {self.rules.variant} phase={self.phase} to_act={self.to_act} "
            f"declarer={self.declarer} trump={self.trump} tricks={len(self.tricks)}>"
        )


# Built without the NamedTuple's Python-level __new__ on the hot path.
_new_result = tuple.__new__

_POSITIONS = range(4 * HAND_SIZE + KITTY_SIZE)
_DEAL_STARTS = range(0, 4 * HAND_SIZE, HAND_SIZE)


def _grouped(order: Order, cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """``cards`` split by group (S, H, C, D, trump), each in display order."""
    groups: list[list[Card]] = [[], [], [], [], []]
    group = order.group
    rank = order.display_rank
    for card in cards:
        groups[group[card]].append(card)
    return [tuple(sorted(g, key=rank.__getitem__)) if len(g) > 1 else tuple(g) for g in groups]


def _flat(held: Sequence[tuple[Card, ...]]) -> tuple[Card, ...]:
    """A hand held by group, in display order: trumps first, then S, H, C, D."""
    return held[4] + held[0] + held[1] + held[2] + held[3]


def _without(cards: tuple[Card, ...], removed: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` less one copy of each card of ``removed`` (present ones only)."""
    if len(removed) == 1:
        card = removed[0]
        if card in cards:
            i = cards.index(card)
            return cards[:i] + cards[i + 1:]
        return cards
    rest = list(cards)
    for card in removed:
        if card in rest:
            rest.remove(card)
    return tuple(rest)


def _check_seat(seat: int) -> None:
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"a seat is 0–3, not {seat!r}")


def _as_cards(cards: str | Iterable[int | str]) -> tuple[Card, ...]:
    """Cards from notation (``"SA SK"``) or an iterable of cards, kinds or tokens; anything
    else raises :class:`IllegalAction` saying what was wrong."""
    if isinstance(cards, str):
        try:
            return tuple(parse_cards(cards))
        except ValueError as error:
            raise IllegalAction(str(error)) from None
    try:
        items = list(cards)
    except TypeError:
        raise IllegalAction(f"expected a list of cards, not {cards!r}") from None
    out = []
    for card in items:
        if type(card) is Card:
            out.append(card)
        elif isinstance(card, str):
            try:
                out.append(parse_card(card))
            except ValueError as error:
                raise IllegalAction(str(error)) from None
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < KINDS:
            out.append(CARDS[card])
        else:
            raise IllegalAction(f"not a card: {card!r}")
    return tuple(out)


def _missing(counts: Sequence[int], cards: Iterable[int]) -> str:
    need: dict[int, int] = {}
    for card in cards:
        need[card] = need.get(card, 0) + 1
    return " ".join(str(CARDS[c]) for c, n in need.items() if n > counts[c])


def _check_deal(
    hands: Sequence[Iterable[int | str]], kitty: Iterable[int | str]
) -> tuple[list[list[Card]], list[Card]]:
    if len(hands) != 4:
        raise ValueError(f"an explicit deal has 4 hands, not {len(hands)}")
    try:
        dealt = [list(_as_cards(h)) for h in hands]
        kitty_cards = list(_as_cards(kitty))
    except IllegalAction as error:
        raise ValueError(str(error)) from None
    for seat, cards in enumerate(dealt):
        if len(cards) != HAND_SIZE:
            raise ValueError(f"hand {seat} has {len(cards)} cards; each hand has {HAND_SIZE}")
    if len(kitty_cards) != KITTY_SIZE:
        raise ValueError(f"the kitty has {len(kitty_cards)} cards; it has {KITTY_SIZE}")
    counts = [0] * KINDS
    for card in [c for h in dealt for c in h] + kitty_cards:
        counts[card] += 1
    wrong = [f"{CARDS[k]}×{n}" for k, n in enumerate(counts) if n != 2]
    if wrong:
        raise ValueError(
            "a deal must hold every card of two decks exactly twice; wrong counts: "
            + " ".join(wrong)
        )
    return dealt, kitty_cards
