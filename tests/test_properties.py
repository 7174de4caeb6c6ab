"""Property tests over thousands of random full hands (both games, random settings).

Checked at every step: the 108 cards are conserved, a legal move exists (the random bot's
move is accepted) and ``is_legal`` agrees with ``play`` raising or not, observations hide
what they must. Checked at the end: the 200 points are accounted for, the record replays to
the same state, and the score follows rules.md §11 as recomputed here from the tricks.
Matches: the bookkeeping of §12.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from typing import Any, NamedTuple

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baofen import Card, Hand, Match, RuleSet, Trick, full_pack
from baofen.bots import make_bot
from baofen.cards import SAME_COLOUR

from .checks import check_observation
from .follow_reference import reference_legal
from .helpers import deal, play_some

PACK = Counter(full_pack())


def checked(examples: int) -> settings:
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


# -- random rule sets ---------------------------------------------------------------------------

@st.composite
def rule_sets(draw: st.DrawFn, variant: str | None = None) -> RuleSet:
    variant = variant or draw(st.sampled_from(["baofen", "hongwu"]))
    common: dict[str, Any] = {
        "must_follow_structure": draw(st.booleans()),
        "throw_penalty_per_card": draw(st.integers(0, 5)),
    }
    if variant == "baofen":
        bid_values = draw(st.sampled_from([(85, 90, 95), (80, 85, 90, 95, 100), (60, 120)]))
        return RuleSet.baofen(
            **common,
            bid_values=bid_values,
            eight_of_a_kind=draw(st.booleans()),
            no_bid_mode=draw(st.sampled_from(["pot", "direct"])),
            settlement=draw(st.sampled_from(["per_defender", "zero_sum"])),
            wangfen_all_bonus=draw(st.sampled_from([50, 30])),
            wangfen_none_penalty=draw(st.sampled_from([100, 60])),
        )
    grids = [(70, 5, 200), (60, 10, 150), (100, 25, 200)]
    bid_min, bid_step, bid_max = draw(st.sampled_from(grids))
    return RuleSet.hongwu(
        **common,
        bid_min=bid_min, bid_step=bid_step, bid_max=bid_max,
        red5_capture_points=draw(st.sampled_from([20, 40])),
        kitty_multiplier_trump=draw(st.sampled_from([2, 3])),
        kitty_multiplier_plain=draw(st.sampled_from([1, 0])),
        points_per_level=draw(st.sampled_from([10, 20])),
    )


EIGHTS = [" ".join(f"{s}{r} {s}{r}" for s in "SHCD") for r in "3456789TJQKA"]


class NewHand(NamedTuple):
    """A random hand to play, as drawn by :func:`new_hands`; :meth:`build` makes it (outside
    the strategy, which must not create random generators)."""

    rules: RuleSet
    seed: int
    first: int
    eight: tuple[int, str] | None  # a seat dealt an eight of a kind, and the eight cards
    throw_rate: float
    pass_rate: float

    def build(self) -> tuple[Hand, list[Any], random.Random]:
        """The hand, four random bots and a generator for the checks."""
        if self.eight is None:
            hand = Hand(self.rules, seed=self.seed, first=self.first)
        else:
            fixed = ["", "", "", ""]
            fixed[self.eight[0]] = self.eight[1]
            hands, kitty = deal(fixed, seed=self.seed)
            hand = Hand(self.rules, hands=hands, kitty=kitty, first=self.first)
        bots = [make_bot("random", seed=self.seed + s, throw_rate=self.throw_rate,
                         pass_rate=self.pass_rate) for s in range(4)]
        return hand, bots, random.Random(self.seed)


@st.composite
def new_hands(draw: st.DrawFn, variant: str | None = None) -> NewHand:
    rules = draw(rule_sets(variant))
    seed = draw(st.integers(0, 2**32))
    first = draw(st.integers(0, 3))
    eight = None
    if rules.is_baofen and draw(st.integers(0, 2)) == 0:
        # An eight of a kind in some hand, so 八张 is led and followed now and then.
        rules = rules.replace(eight_of_a_kind=True)
        eight = (draw(st.integers(0, 3)), draw(st.sampled_from(EIGHTS)))
    throw_rate = draw(st.sampled_from([0.0, 0.1, 0.4]))
    pass_rate = draw(st.sampled_from([0.2, 0.5]))
    return NewHand(rules, seed, first, eight, throw_rate, pass_rate)


# -- independent readings of the rules -----------------------------------------------------------

def is_trump(card: Card, variant: str, trump: str) -> bool:
    """§3: the trump group, from the rule book's words."""
    if card.is_joker or card.rank == 2 or card.suit == trump:
        return True
    if variant == "hongwu":
        return str(card) == "H5" or (card.rank == 3 and card.suit == SAME_COLOUR[trump])
    return False


def plain_chain(variant: str, trump: str, suit: str) -> str:
    ranks = "AKQJT9876543"
    if variant == "hongwu":
        if suit == "H":
            ranks = ranks.replace("5", "")
        if suit == SAME_COLOUR[trump]:
            ranks = ranks.replace("3", "")
    return ranks


def points(cards: Any) -> int:
    return sum(c.points for c in cards)


def expected_baofen(hand: Hand) -> tuple[int, int, str | None, tuple[int, ...]]:
    rules, declarer, trump = hand.rules, hand.declarer, hand.trump
    assert declarer is not None and hand.target is not None and hand.buried is not None
    won = [c for t in hand.tricks if t.winner == declarer for _, cards in t.plays for c in cards]
    captured = points(won)
    wangfen = points(c for c in won if c.suit == trump)
    adjustment = sum(
        (-t.penalty if t.leader == declarer else t.penalty) for t in hand.tricks if t.attempted
    )
    bonus = rules.wangfen_all_bonus if wangfen == 50 else (
        -rules.wangfen_none_penalty if wangfen == 0 else 0
    )
    d = captured + adjustment + bonus
    kitty_points = points(hand.buried)
    kind: str | None
    if captured == 200 - kitty_points:
        kind = "full_sweep" if kitty_points == 0 else "half_sweep"
        s = rules.full_sweep_score if kitty_points == 0 else rules.half_sweep_score
    elif captured == 0:
        kind, s = "shutout", rules.shutout_score
    else:
        kind, s = None, d - hand.target
    gain = s if rules.settlement == "per_defender" else 3 * s
    deltas = tuple(gain if seat == declarer else -s for seat in range(4))
    return d, s, kind, deltas


def expected_hongwu(hand: Hand) -> tuple[int, int, tuple[int, ...]]:
    rules, declarer, trump = hand.rules, hand.declarer, hand.trump
    assert declarer is not None and hand.target is not None and hand.buried is not None
    assert trump is not None
    p = 0
    for t in hand.tricks:
        if t.winner == declarer:
            p += points(c for _, cards in t.plays for c in cards)
        for seat, cards in t.plays:
            fives = sum(1 for c in cards if str(c) == "H5")
            if seat == declarer and t.winner != declarer:
                p -= rules.red5_capture_points * fives
            elif seat != declarer and t.winner == declarer:
                p += rules.red5_capture_points * fives
    last = hand.tricks[-1]
    kitty_points = points(hand.buried)
    if last.winner == declarer:
        p += kitty_points
    else:
        winning = last.cards_of(last.winner) or ()
        trump_won = all(is_trump(c, "hongwu", trump) for c in winning)
        p -= kitty_points * (
            rules.kitty_multiplier_trump if trump_won else rules.kitty_multiplier_plain
        )
    p += sum(-t.penalty if t.leader == declarer else t.penalty for t in hand.tricks if t.attempted)
    b, per = hand.target, rules.points_per_level
    levels = 1 + math.ceil((p - b) / per) if p >= b else -(1 + math.ceil((b - p) / per))
    deltas = tuple(3 * levels if seat == declarer else -levels for seat in range(4))
    return p, levels, deltas


def strength_ladder(variant: str, trump: str) -> dict[str, int]:
    """Trump order of §3 as numbers (higher beats), from the rule book's words."""
    partner = SAME_COLOUR[trump]
    others = [f"{s}2" for s in "SHCD" if s != trump]
    if variant == "baofen":
        top = [["BJ"], ["LJ"], [f"{trump}2"], others]
        suit = [[f"{trump}{r}"] for r in "AKQJT9876543"]
    else:
        top = [["H5"], ["BJ"], ["LJ"], [f"{trump}3"], [f"{partner}3"], [f"{trump}2"], others]
        suit = [[f"{trump}{r}"] for r in "AKQJT987654" if f"{trump}{r}" != "H5"]
    levels = top + suit
    return {name: 1000 - i for i, level in enumerate(levels) for name in level}


def expected_simple_winner(hand: Hand, trick: Trick) -> int:
    """§8 for a trick led with one card or one pair: index of the winning play."""
    variant, trump = hand.rules.variant, hand.trump
    assert trump is not None
    ladder = strength_ladder(variant, trump)
    lead = trick.plays[0][1][0]
    lead_trump = is_trump(lead, variant, trump)

    def rank(cards: tuple[Card, ...]) -> tuple[int, int]:
        """(2, order) trump, (1, order) the led plain suit, (0, 0) cannot win."""
        if len(set(cards)) != 1:  # two different cards never answer a pair
            return (0, 0)
        card = cards[0]
        if is_trump(card, variant, trump):
            return (2, ladder[str(card)])
        if card.suit == lead.suit and not lead_trump:
            return (1, plain_chain(variant, trump, lead.suit)[::-1].index(str(card)[1]))
        return (0, 0)

    best, best_rank = 0, rank(trick.plays[0][1])
    for index, (_, cards) in enumerate(trick.plays[1:], start=1):
        r = rank(cards)
        if r[0] and r > best_rank:
            best, best_rank = index, r
    return best


# -- one checked hand -----------------------------------------------------------------------------

def check_conservation(hand: Hand) -> None:
    held = Counter(c for s in range(4) for c in hand.hand_of(s))
    played = Counter(c for t in hand.tricks for _, cards in t.plays for c in cards)
    played.update(c for _, cards in hand.current_trick for c in cards)
    aside = Counter(hand.buried if hand.buried is not None else
                    (hand.kitty if hand.phase == "bidding" or hand.declarer is None else ()))
    assert held + played + aside == PACK
    sizes = hand.observation(None).hand_sizes
    assert list(sizes) == [len(hand.hand_of(s)) for s in range(4)]


def random_candidate(hand: Hand, seat: int, rng: random.Random) -> list[Card]:
    held = hand.hand_of(seat)
    shape = hand.lead_shape
    size = shape.size if shape is not None else rng.randint(1, min(4, len(held)))
    return rng.sample(held, min(size, len(held)))


def check_candidate(hand: Hand, seat: int, cards: list[Card]) -> None:
    """is_legal agrees with play (on a copy) raising or not, and with §7 for plain suits."""
    legal = hand.is_legal(seat, cards)
    trial = hand.copy()
    try:
        trial.play(seat, cards)
        accepted = True
    except ValueError:
        accepted = False
    assert legal == accepted
    shape, trump = hand.lead_shape, hand.trump
    if shape is None or shape.group == 4 or trump is None:
        return
    suit = "SHCD"[shape.group]
    variant = hand.rules.variant
    in_suit = [str(c) for c in hand.hand_of(seat)
               if c.suit == suit and not is_trump(c, variant, trump)]
    play_in_suit = [str(c) for c in cards if c.suit == suit and not is_trump(c, variant, trump)]
    lead = [str(c) for c in hand.current_trick[0][1]]
    expected = len(cards) == shape.size and reference_legal(
        lead, in_suit, play_in_suit, plain_chain(variant, trump, suit),
        hand.rules.must_follow_structure,
    )
    assert legal == expected, (lead, in_suit, [str(c) for c in cards])


def play_checked(hand: Hand, bots: list[Any], rng: random.Random, thorough: bool) -> None:
    for seat in hand.turns():
        if thorough:
            check_conservation(hand)
            for observer in (seat, (seat + 1) % 4, None):
                check_observation(hand, observer)
        observation = hand.observation(seat)
        action = bots[seat].act(observation)
        if hand.phase == "playing":
            cards = list(action.cards)
            assert hand.is_legal(seat, cards)
            assert observation.is_legal(cards)
            if thorough:
                candidate = random_candidate(hand, seat, rng)
                check_candidate(hand, seat, candidate)
                assert observation.is_legal(candidate) == hand.is_legal(seat, candidate)
        elif hand.phase == "bidding":
            assert action.value in hand.legal_bids(seat) == observation.legal_bids()
        hand.apply(seat, action)  # raises if the bot's move were illegal
    check_finished(hand)


def check_finished(hand: Hand) -> None:
    check_conservation(hand)
    result = hand.result
    assert result is not None and hand.to_act is None
    record = json.loads(json.dumps(hand.to_record()))
    again = Hand.from_record(record)
    assert again.to_record() == record
    assert again.result == result
    for seat in (None, 0, 1, 2, 3):
        assert again.observation(seat) == hand.observation(seat)
    if result.declarer is None:
        assert hand.rules.is_baofen and result.kind == "no_bid"
        return
    assert hand.buried is not None
    assert sum(t.points for t in hand.tricks) + points(hand.buried) == 200
    assert all(t.points == points(c for _, cs in t.plays for c in cs) for t in hand.tricks)
    assert hand.declarer_points_so_far == sum(
        t.points for t in hand.tricks if t.winner == result.declarer
    )
    for seat in range(4):
        assert sum(len(t.cards_of(seat) or ()) for t in hand.tricks) == 25
    for t in hand.tricks:
        sizes = {len(cards) for _, cards in t.plays}
        assert len(sizes) == 1 and [s for s, _ in t.plays] == [(t.leader + i) % 4 for i in range(4)]
        led = t.plays[0][1]
        if len(led) == 1 or (len(led) == 2 and led[0] == led[1]):
            assert t.plays[expected_simple_winner(hand, t)][0] == t.winner
    for previous, following in zip(hand.tricks, hand.tricks[1:], strict=False):
        assert following.leader == previous.winner
    assert hand.tricks[0].leader == result.declarer
    if hand.rules.is_baofen:
        d, s, kind, deltas = expected_baofen(hand)
        assert (result.declarer_points, result.score, result.kind, result.deltas) == (
            d, s, kind, deltas
        )
        assert result.made == (s >= 0)
    else:
        p, levels, deltas = expected_hongwu(hand)
        assert (result.declarer_points, result.levels, result.deltas) == (p, levels, deltas)
        assert result.made == (levels > 0)


@checked(150)
@given(new_hands("baofen"))
def test_baofen_hands_checked_at_every_step(case: NewHand) -> None:
    play_checked(*case.build(), thorough=True)


@checked(150)
@given(new_hands("hongwu"))
def test_hongwu_hands_checked_at_every_step(case: NewHand) -> None:
    play_checked(*case.build(), thorough=True)


@checked(250)
@given(st.lists(new_hands(), min_size=8, max_size=8))
def test_many_hands_end_to_end(cases: list[NewHand]) -> None:
    for case in cases:
        play_checked(*case.build(), thorough=False)


def test_mid_hand_records_replay() -> None:
    rng = random.Random(1)
    for number in range(60):
        rules = RuleSet.baofen() if number % 2 else RuleSet.hongwu()
        hand = Hand(rules, seed=number)
        play_some(hand, rng.randint(0, 140), seed=number * 4)
        again = Hand.from_record(json.loads(json.dumps(hand.to_record())))
        assert again.to_record() == hand.to_record()
        for seat in (None, 0, 1, 2, 3):
            assert again.observation(seat) == hand.observation(seat)
        copy = hand.copy()
        assert copy.to_record() == hand.to_record()
        for seat in (None, 0, 1, 2, 3):
            assert copy.observation(seat) == hand.observation(seat)
        before = hand.to_record()
        play_some(copy, 1000, seed=number)  # playing the copy out leaves the original as it was
        assert copy.phase == "done"
        assert hand.to_record() == before


# -- matches (§12) ------------------------------------------------------------------------------

@checked(40)
@given(rule_sets(), st.integers(0, 2**32), st.sampled_from([0.5, 0.8, 0.95]))
def test_match_bookkeeping(rules: RuleSet, seed: int, pass_rate: float) -> None:
    match = Match(rules, seed=seed)
    bots = [make_bot("random", seed=seed + s, pass_rate=pass_rate) for s in range(4)]
    scores, pot = [0, 0, 0, 0], 0
    for _ in range(10):
        hand = match.hand
        assert match.caller == hand.first
        result = hand.play_out(bots).result
        assert result is not None
        deltas = list(result.deltas)
        if rules.is_baofen:
            if result.declarer is None:
                next_caller = (hand.first + 1) % 4
                if rules.no_bid_mode == "pot":
                    pot -= sum(deltas)
                    if pot > rules.pot_split_above:
                        share, pot = pot // 4, pot % 4
                        deltas = [d + share for d in deltas]
            else:
                next_caller = result.declarer if result.made else (result.declarer + 1) % 4
                if result.made:
                    deltas[result.declarer] += pot
                    pot = 0
                else:
                    deltas[result.declarer] -= pot
                    pot *= 2
        scores = [a + b for a, b in zip(scores, deltas, strict=True)]
        assert match.scores == scores and match.pot == pot
        assert list(match.history[-1].deltas) == deltas
        if rules.is_baofen:
            assert match.ledger.caller == next_caller
            if rules.settlement == "zero_sum" and rules.no_bid_mode == "pot":
                assert sum(scores) + pot == 0  # nothing is created or lost
        else:
            assert pot == 0 and sum(scores) == 0
        match.next_hand()
        if rules.is_baofen:
            assert match.hand.first == next_caller
