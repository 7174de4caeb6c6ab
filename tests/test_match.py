"""rules.md §12: the match — caller rotation, first bidder, no-bid modes, the pot, running
scores, the match length, the leaving rule, match records."""

from __future__ import annotations

import json

import pytest

from baofen import HandResult, Match, RuleSet
from baofen.bots import make_bot
from baofen.match import Ledger, settle

from .helpers import pass_all

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


def result(declarer: int | None, score: int = 0, *, rules: RuleSet = BAOFEN,
           caller: int = 0) -> HandResult:
    """A finished hand's result: ``score`` S (包分) or levels L (包红五) for ``declarer``;
    ``None`` for four passes (包分)."""
    if declarer is None:
        deltas = [-rules.pot_other_stake] * 4
        deltas[caller] = -rules.pot_caller_stake
        if rules.no_bid_mode == "direct":
            deltas = [rules.direct_penalty] * 4
            deltas[caller] = -rules.direct_penalty
        return HandResult(None, None, 0, False, "no_bid", None, None, tuple(deltas))  # type: ignore[arg-type]
    gain = score if rules.variant == "baofen" else 3 * score
    deltas = [-score] * 4
    deltas[declarer] = gain
    made = score >= 0 if rules.variant == "baofen" else score > 0
    return HandResult(
        declarer, 90, 90 + score, made, None,
        score if rules.variant == "baofen" else None,
        None if rules.variant == "baofen" else score,
        tuple(deltas),  # type: ignore[arg-type]
    )


# -- caller rotation (§12.1) -----------------------------------------------------------------

@pytest.mark.parametrize(
    ("caller", "declarer", "score", "next_caller"),
    [
        (0, 2, 10, 2),  # made: the declarer calls
        (0, 2, 0, 2),  # S = 0 is made
        (0, 2, -5, 3),  # failed: the declarer's next player
        (1, 3, -5, 0),
        (3, None, 0, 0),  # no bid: the caller's next player
        (1, None, 0, 2),
    ],
)
def test_caller_rotation(caller: int, declarer: int | None, score: int, next_caller: int) -> None:
    ledger = Ledger(caller=caller)
    new, _ = settle(BAOFEN, ledger, result(declarer, score, caller=caller))
    assert new.caller == next_caller


def test_caller_rotation_over_a_real_match() -> None:
    match = Match(BAOFEN, seed=3)
    bots = [make_bot("random", seed=10 + s) for s in range(4)]
    for _ in range(12):
        hand = match.hand
        assert match.caller == hand.first
        hand.play_out(bots)
        res = hand.result
        assert res is not None
        if res.declarer is None:
            expected = (hand.first + 1) % 4
        elif res.made:
            expected = res.declarer
        else:
            expected = (res.declarer + 1) % 4
        match.next_hand()
        assert match.hand.first == expected == match.caller


def test_a_hand_is_booked_when_it_ends_and_reading_changes_nothing() -> None:
    match = Match(BAOFEN, seed=3)
    bots = [make_bot("random", seed=s, pass_rate=0.2) for s in range(4)]
    hand = match.hand
    while hand.phase != "done":
        for _ in range(2):  # reading the match, twice, changes nothing
            assert match.history == [] and match.ledger == Ledger() and match.number == 1
            assert not match.finished and match.to_record()["hands"][0]["hand"]["result"] is None
        if len(hand.actions) == 30:
            # A copy of the hand (as search makes) played to its end is not booked.
            trial = hand.copy()
            trial.play_out(bots)
            assert match.history == [] and match.ledger == Ledger()
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bots[seat].act(hand.observation(seat)))
    assert hand.result is not None
    [entry] = match.history
    assert entry.hand is hand and entry.number == 1 and match.number == 1
    assert entry.deltas == hand.result.deltas and match.ledger == entry.ledger
    assert match.scores == list(hand.result.deltas)


def test_first_match_hand_starts_with_south() -> None:
    for seed in range(5):
        assert Match(BAOFEN, seed=seed).hand.first == 0


def test_hongwu_first_bidder_of_each_hand_random_and_reproducible() -> None:
    def firsts(seed: int) -> list[int]:
        match = Match(HONGWU, seed=seed)
        bots = [make_bot("random", seed=s) for s in range(4)]
        out = []
        for _ in range(16):
            out.append(match.hand.first)
            match.hand.play_out(bots)
            match.next_hand()
        return out

    assert firsts(7) == firsts(7)
    assert set(firsts(7)) == {0, 1, 2, 3}
    assert firsts(7) != firsts(8)
    # The deals are reproducible too.
    assert Match(HONGWU, seed=7).hand.deal == Match(HONGWU, seed=7).hand.deal


# -- no-bid modes and the pot (§12.2) ----------------------------------------------------------

def test_direct_mode() -> None:
    rules = RuleSet.baofen(no_bid_mode="direct")
    match = Match(rules, seed=1)
    pass_all(match)
    assert match.scores == [-40, 40, 40, 40] and match.pot == 0
    match.next_hand()
    assert match.caller == 1
    pass_all(match)
    assert match.scores == [0, 0, 80, 80] and match.pot == 0


def test_pot_grows_with_each_all_pass_and_splits_above_the_limit() -> None:
    match = Match(BAOFEN, seed=1)
    expected_scores = [0, 0, 0, 0]
    for number in range(1, 5):
        caller = match.caller  # of the hand in progress
        pass_all(match)
        assert match.caller == caller  # still the current hand's
        assert match.ledger.caller == (caller + 1) % 4  # the next hand's caller
        for seat in range(4):
            expected_scores[seat] -= 40 if seat == caller else 20
        assert match.pot == 100 * number
        assert match.scores == expected_scores
        match.next_hand()
    # The fifth: 500 > 400 — split equally, nothing left.
    caller = match.caller
    pass_all(match)
    for seat in range(4):
        expected_scores[seat] += 125 - (40 if seat == caller else 20)
    assert match.pot == 0
    assert match.scores == expected_scores
    assert match.history[-1].deltas == tuple(125 - (40 if s == caller else 20) for s in range(4))


def test_pot_split_remainder_stays() -> None:
    rules = RuleSet.baofen(pot_caller_stake=41, pot_split_above=250)
    ledger = Ledger()
    for number in range(2):
        ledger, _ = settle(rules, ledger, result(None, caller=ledger.caller, rules=rules))
        assert ledger.pot == 101 * (number + 1)
    ledger, deltas = settle(rules, ledger, result(None, caller=ledger.caller, rules=rules))
    # 303 > 250: 75 each, 3 stay.
    assert ledger.pot == 3
    assert deltas == (75 - 20, 75 - 20, 75 - 41, 75 - 20)
    assert sum(ledger.scores) + ledger.pot == 0


def test_pot_exactly_at_the_limit_is_not_split() -> None:
    ledger = Ledger(pot=300, caller=2)
    ledger, deltas = settle(BAOFEN, ledger, result(None, caller=2))
    assert ledger.pot == 400 and deltas == (-20, -20, -40, -20)


def test_failed_declarer_doubles_the_pot_without_split() -> None:
    ledger = Ledger(scores=(-40, -20, -20, -20), pot=100, caller=1)
    ledger, deltas = settle(BAOFEN, ledger, result(1, -20))
    assert ledger.pot == 200 and deltas == (20, -120, 20, 20)
    ledger, deltas = settle(BAOFEN, ledger, result(2, -10))
    assert ledger.pot == 400 and deltas == (10, 10, -210, 10)
    ledger, deltas = settle(BAOFEN, ledger, result(3, -5))
    assert ledger.pot == 800  # doubling never triggers the split
    assert deltas == (5, 5, 5, -405)


def test_successful_declarer_takes_the_pot() -> None:
    ledger = Ledger(scores=(-40, -20, -20, -20), pot=100, caller=1)
    ledger, deltas = settle(BAOFEN, ledger, result(2, 15))
    assert ledger.pot == 0
    assert deltas == (-15, -15, 115, -15)
    assert ledger.scores == (-55, -35, 95, -35)
    assert ledger.caller == 2
    # S = 0 counts as made: the pot is taken.
    ledger, deltas = settle(BAOFEN, Ledger(pot=200), result(0, 0))
    assert ledger.pot == 0 and deltas == (200, 0, 0, 0)


def test_direct_mode_has_no_pot() -> None:
    rules = RuleSet.baofen(no_bid_mode="direct", direct_penalty=25)
    ledger, deltas = settle(rules, Ledger(caller=3), result(None, caller=3, rules=rules))
    assert ledger.pot == 0 and deltas == (25, 25, 25, -25) and ledger.caller == 0


def test_end_of_match_splits_the_pot() -> None:
    ledger = Ledger(pot=206, caller=0)
    ledger, deltas = settle(BAOFEN, ledger, result(1, -10), last=True)
    # doubled to 412 by the failed declarer, then split at the end: 103 each.
    assert ledger.pot == 0
    assert deltas == (10 + 103, -10 - 206 + 103, 10 + 103, 10 + 103)
    ledger, deltas = settle(BAOFEN, Ledger(pot=102), result(None), last=True)
    # 202 at the end: 50 each, 2 stay.
    assert ledger.pot == 2
    assert deltas == (-40 + 50, -20 + 50, -20 + 50, -20 + 50)


def test_hands_limit_and_end_split_in_a_match() -> None:
    rules = RuleSet.baofen(hands=2)
    match = Match(rules, seed=4)
    pass_all(match)
    assert match.pot == 100 and not match.finished
    match.next_hand()
    pass_all(match)
    # The last hand: pot 200 split at the end, 50 each.
    assert match.finished and match.pot == 0
    assert match.scores == [-40 - 20 + 50, -20 - 40 + 50, -20 - 20 + 50, -20 - 20 + 50]
    with pytest.raises(ValueError):
        match.next_hand()
    assert len(match.history) == 2
    assert [e.number for e in match.history] == [1, 2]


def test_next_hand_before_done_raises() -> None:
    match = Match(BAOFEN, seed=1)
    with pytest.raises(ValueError):
        match.next_hand()


def test_hongwu_levels_and_coins() -> None:
    rules = RuleSet.hongwu(coins_per_level=5)
    match = Match(rules, seed=2)
    bots = [make_bot("random", seed=s) for s in range(4)]
    total = [0, 0, 0, 0]
    for _ in range(5):
        match.hand.play_out(bots)
        res = match.hand.result
        assert res is not None and res.levels is not None
        total = [t + d for t, d in zip(total, res.deltas, strict=True)]
        assert match.scores == total
        assert match.coins == [5 * t for t in total]
        assert match.pot == 0
        match.next_hand()
    assert sum(total) == 0  # levels are zero-sum


# -- the leaving rule (§12.4) -------------------------------------------------------------------

def test_hongwu_leaver_wins_nothing_but_pays() -> None:
    won = result(1, 3, rules=HONGWU)  # declarer 1 wins 3 levels from each defender
    _, deltas = settle(HONGWU, Ledger(), won, left=frozenset({1}))
    assert deltas == (-3, 0, -3, -3)
    _, deltas = settle(HONGWU, Ledger(), won, left=frozenset({2}))
    assert deltas == (-3, 9, -3, -3)  # a defender who left bears the loss in full
    lost = result(1, -2, rules=HONGWU)
    _, deltas = settle(HONGWU, Ledger(), lost, left=frozenset({1, 3}))
    assert deltas == (2, -6, 2, 0)


def test_baofen_leaving_has_no_scoring_effect() -> None:
    won = result(1, 30)
    _, deltas = settle(BAOFEN, Ledger(), won, left=frozenset({1}))
    assert deltas == (-30, 30, -30, -30)


def test_set_away_in_a_match() -> None:
    match = Match(HONGWU, seed=5)
    bots = [make_bot("random", seed=s) for s in range(4)]
    match.set_away(2, True)
    match.set_away(2, False)  # back before the hand ends: still left during it
    match.hand.play_out(bots)
    res = match.hand.result
    assert res is not None
    entry_deltas = match.history[-1].deltas if match.history else None
    expected = list(res.deltas)
    if expected[2] > 0:
        expected[2] = 0
    assert match.scores == expected
    assert entry_deltas is None or list(entry_deltas) == expected
    assert match.history[-1].left == (2,)
    match.next_hand()
    # Seat 2 returned: the next hand counts normally.
    match.hand.play_out(bots)
    assert match.history[-1].left == ()
    assert match.away == frozenset()
    with pytest.raises(ValueError):
        match.set_away(4, True)


# -- match records --------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [BAOFEN, HONGWU, RuleSet.baofen(no_bid_mode="direct", hands=6)])
def test_match_record_round_trip(rules: RuleSet) -> None:
    match = Match(rules, seed=9)
    bots = [make_bot("random", seed=s, pass_rate=0.7) for s in range(4)]
    for number in range(6):
        if number == 2:
            match.set_away(3, True)
        match.hand.play_out(bots)
        if not match.finished:
            match.next_hand()
    # the current hand part-played
    if not match.finished:
        hand = match.hand
        for _ in range(3):
            if hand.phase == "done":
                break
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, bots[seat].act(hand.observation(seat)))
    record = json.loads(json.dumps(match.to_record()))
    again = Match.from_record(record)
    assert again.scores == match.scores and again.pot == match.pot
    assert again.caller == match.caller and again.away == match.away
    assert again.hand.to_record() == match.hand.to_record()
    assert [e.deltas for e in again.history] == [e.deltas for e in match.history]
    assert again.to_record() == match.to_record()
    assert again.finished == match.finished


def test_match_record_rejects_tampering() -> None:
    match = Match(BAOFEN, seed=9)
    pass_all(match)
    record = match.to_record()
    with pytest.raises(ValueError):
        Match.from_record({**record, "format": "other"})
    with pytest.raises(ValueError):
        Match.from_record({**record, "version": 99})
    with pytest.raises(ValueError):
        Match.from_record({**record, "seed": 10})  # the hands were not dealt from this seed


def test_leaving_after_a_hand_ended_does_not_change_it() -> None:
    match = Match(HONGWU, seed=5)
    bots = [make_bot("random", seed=s) for s in range(4)]
    match.hand.play_out(bots)
    res = match.hand.result
    assert res is not None
    match.set_away(res.declarer if res.levels and res.levels > 0 else (res.declarer + 1) % 4, True)
    assert match.scores == list(res.deltas)
    assert match.history[-1].left == ()
    match.next_hand()
    assert match.history[-1].left == ()
    match.hand.play_out(bots)
    assert match.history[-1].left != ()
