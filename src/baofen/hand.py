"""One hand (一局): deal, bidding, kitty, play and score, as a state machine (rules.md §2).

:class:`Hand` is authoritative over hidden information; :meth:`Hand.observation` gives a seat
exactly what it may know. Every illegal action raises :class:`~baofen.errors.IllegalAction`
before anything changes. The hand's state is declared in :mod:`baofen.hand_state`, the deal
and the form in which seats hold their cards in :mod:`baofen.deal`, the record format in
:mod:`baofen.record`.

Playing and replaying, written once here: :func:`play_hand` deals from a seed and plays to the
end with one player per seat (:meth:`Hand.play_out` plays on a hand already under way),
:meth:`Hand.redeal` deals a hand again as it was before any action (or after its first few), and
:meth:`Hand.steps` plays a hand again from its deal, one :class:`Step` after each action. A
record is replayed with ``Hand.from_record(record).steps()``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

from .actions import Action, Bid, Declare, Phase, Play
from .cards import CARDS, POINTS, SUITS, Card
from .deal import (
    HAND_SIZE,
    KITTY_SIZE,
    as_cards,
    checked_deal,
    flat,
    grouped,
    missing,
    shuffled_deal,
    without,
)
from .errors import IllegalAction, Reason
from .hand_state import HandState
from .observation import Observation
from .order import TRUMP, order_for
from .record import read_record, record_of
from .ruleset import RuleSet
from .scoring import HandResult, no_bid_result, score_baofen, score_hongwu
from .tricks import Trick, TrickJudge

__all__ = [
    "HAND_SIZE", "KITTY_SIZE", "Hand", "Phase", "PlayResult", "Player", "Step", "play_hand",
]


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


class Player(Protocol):
    """Whatever chooses one seat's actions from that seat's observation: a bot
    (:func:`baofen.bots.make_bot`, :class:`baofen.bots.Bot`) or a researcher's own player."""

    def act(self, observation: Observation) -> Action:
        """A legal action for the seat whose ``observation`` this is."""
        ...


class Hand(HandState):
    """One hand of 包分 or 包红五: its state (:class:`~baofen.hand_state.HandState`) and the
    actions that move it on.

    ``Hand(rules, seed=7)`` shuffles from a seed; ``Hand(rules, hands=[h0, h1, h2, h3], kitty=k)``
    takes an explicit deal. ``first`` is the caller / first bidder; it defaults to South (0),
    and in 包红五 with a seed to a seat drawn from the seed (§9.2).
    """

    __slots__ = ()

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
            dealt = shuffled_deal(order, rng)
        else:
            dealt = checked_deal(order, hands, kitty)
        if first is None:
            first = rng.randrange(4) if rules.variant == "hongwu" and seed is not None else 0
        if first not in (0, 1, 2, 3):
            raise ValueError(f"first must be a seat 0–3, not {first!r}")
        self._start()
        self.rules = rules
        self.seed = seed
        self.first = self.to_act = first
        self.deal = dealt.cards
        self.order = order
        self._held = dealt.held
        self._counts = dealt.counts


    # -- queries ------------------------------------------------------------------------------

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
        if not isinstance(trump, str) or len(trump) != 1 or trump.upper() not in SUITS:
            raise IllegalAction(Reason("bad_trump", trump=repr(trump)))
        trump = trump.upper()
        buried = as_cards(bury)
        if len(buried) != KITTY_SIZE:
            raise IllegalAction(Reason("bury_count", size=KITTY_SIZE, count=len(buried)))
        lacking = missing(self._counts[seat], buried)
        if lacking:
            raise IllegalAction(Reason("bury_not_held", cards=lacking))
        counts = self._counts[seat]
        for card in buried:
            counts[card] -= 1
        self._sizes[seat] -= KITTY_SIZE
        kept = without(flat(self._held[seat]), buried)
        self._log(seat, Declare(trump, buried), Declare(trump, ()))
        self.trump = trump
        self.buried = buried
        self.order = order = order_for(self.rules.variant, trump)
        self._judge = TrickJudge(self.rules, order)
        self._held = [
            grouped(order, kept if s == seat else flat(self._held[s])) for s in range(4)
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
            held[g] = without(held[g], played)
        else:
            for g in {group[c] for c in played}:
                held[g] = without(held[g], played)
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
        self._held[declarer] = grouped(self.order, (*flat(self._held[declarer]), *self.kitty))
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
        if self.on_done is not None:
            self.on_done()

    # -- records ------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """JSON-safe hand record: version, rules, deal, first bidder, actions, result."""
        return record_of(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Hand:
        """Rebuild a hand by replaying a record made by :meth:`to_record`; a damaged record
        raises ``ValueError``."""
        read = read_record(record)
        hand = cls(read.rules, first=read.first, hands=read.hands, kitty=read.kitty)
        read.replay(hand)
        return hand

    def copy(self) -> Hand:
        """An independent copy of this hand's whole state (for search), without its
        :attr:`on_done` hook: a match never books a copy."""
        other = self.redeal()
        self._copy_into(other)
        return other

    # -- playing and replaying ----------------------------------------------------------------

    def redeal(self, actions: int = 0) -> Hand:
        """A fresh hand with this one's rules, deal, seed and first bidder, before any action;
        with ``actions``, its first ``actions`` actions applied again (the hand as it stood
        then). The new hand has no :attr:`on_done` hook: a match never books it."""
        other = Hand(self.rules, first=self.first, hands=self.deal[:4], kitty=self.deal[4])
        other.seed = self.seed
        for seat, action in self.actions[:actions]:
            other.apply(seat, action)
        return other

    def steps(self) -> Iterator[Step]:
        """This hand played again from its deal (:meth:`redeal`), one :class:`Step` after each
        of its actions, with the action's outcome and the replayed hand as it stands after it
        (``Hand.from_record(record).steps()`` walks a record). For the hand *before* each
        action, apply the actions to ``redeal()`` yourself."""
        again = self.redeal()
        for number, (seat, action) in enumerate(self.actions):
            yield Step(number, seat, action, again.apply(seat, action), again)

    def turns(self) -> Iterator[int]:
        """The seat to act, again after each action the caller applies, until the hand is done::

            for seat in hand.turns():
                hand.apply(seat, bots[seat].act(hand.observation(seat)))
        """
        while (seat := self.to_act) is not None:
            yield seat

    def play_out(
        self, players: Sequence[Player], until: Callable[[Hand], bool] | None = None
    ) -> Hand:
        """Play this hand on to its end, every action chosen by the seat's player,
        ``players[seat].act(self.observation(seat))``; returns the hand itself. With ``until``,
        stop before the first action at which ``until(hand)`` is true (or at the end)."""
        for seat in self.turns():
            if until is not None and until(self):
                break
            self.apply(seat, players[seat].act(self.observation(seat)))
        return self

    def __repr__(self) -> str:
        return (
            f"<Hand {self.rules.variant} phase={self.phase} to_act={self.to_act} "
            f"declarer={self.declarer} trump={self.trump} tricks={len(self.tricks)}>"
        )


class Step(NamedTuple):
    """One action of a hand played again (:meth:`Hand.steps`), just applied."""

    number: int
    """The action's index in :attr:`Hand.actions` (0 for the first)."""
    seat: int
    action: Action
    outcome: PlayResult | None
    """What :meth:`Hand.apply` gave (a play's :class:`PlayResult`, ``None`` for a bid or a
    declare)."""
    hand: Hand
    """The replayed hand just after this action: the same object at every step, moved on by the
    next one (copy it to keep it)."""


def play_hand(rules: RuleSet, seed: int, players: Sequence[Player]) -> Hand:
    """The hand dealt from ``seed`` (``Hand(rules, seed=seed)``) played to its end by
    ``players``, one per seat (:meth:`Hand.play_out`)::

        hand = play_hand(RuleSet.baofen(), 7, [make_bot("random", seed=s) for s in range(4)])
    """
    return Hand(rules, seed=seed).play_out(players)


# Built without the NamedTuple's Python-level __new__ on the hot path.
_new_result = tuple.__new__
