"""api.md: every public name with its meaning; IllegalAction for every bad action with the
state exactly unchanged; observations hide what they must; hand records."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

import baofen
from baofen import (
    Bid,
    Card,
    Declare,
    Hand,
    IllegalAction,
    Match,
    Observation,
    Play,
    RuleSet,
    format_cards,
    full_pack,
    parse_cards,
    play_hand,
)
from baofen.bots import make_bot
from baofen.hand_state import HandState
from baofen.wire.observation import ObservationView
from baofen.wire.results import ResultView

from .checks import check_observation
from .helpers import deal, declare_by, hand_with, play_some

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()


# -- the public names of api.md ---------------------------------------------------------------

def test_public_names_exist() -> None:
    for name in (
        "RuleSet", "Card", "parse_cards", "format_cards", "Hand", "Match", "IllegalAction",
        "Bid", "Declare", "Play",
    ):
        assert hasattr(baofen, name), name
    assert issubclass(IllegalAction, ValueError)
    for name in ("baofen", "hongwu", "from_dict", "to_dict", "is_tractor", "trick_winner"):
        assert callable(getattr(RuleSet, name))
    for name in ("bid", "declare", "hand_of", "is_legal", "play", "observation", "to_record",
                 "from_record", "apply"):
        assert callable(getattr(Hand, name))
    for name in ("next_hand",):
        assert callable(getattr(Match, name))
    assert Bid(90).value == 90 and Bid(None).value is None
    declare = Declare("S", parse_cards("SA SK SQ SJ ST S9 S8 S7"))
    assert declare.trump == "S" and len(declare.bury) == 8
    assert Play(parse_cards("SA SK")).cards == tuple(parse_cards("SA SK"))
    assert Play("SA SK").cards == tuple(parse_cards("SA SK"))


def test_api_example_rule_helpers() -> None:
    rules = RuleSet.baofen()
    assert rules.is_tractor(parse_cards("SK SK SQ SQ"), trump="H")
    assert RuleSet.from_dict(rules.to_dict()) == rules
    cards = parse_cards("SA SK SK HT BJ LJ")
    assert format_cards(cards) == "SA SK SK HT BJ LJ"
    assert all(type(c) is Card for c in cards)


def test_hand_lifecycle_through_the_api() -> None:
    hand = Hand(BAOFEN, seed=7, first=0)
    assert hand.phase == "bidding" and hand.to_act == 0
    assert hand.declarer is None and hand.target is None and hand.trump is None
    assert hand.result is None and hand.tricks == []
    assert [len(hand.hand_of(s)) for s in range(4)] == [25] * 4
    assert sorted([c for s in range(4) for c in hand.hand_of(s)] + list(hand.kitty)) == sorted(
        full_pack()
    )
    hand.bid(0, 90)
    assert hand.apply(1, Bid(None)) is None
    hand.bid(2, None)
    hand.bid(3, None)
    assert hand.phase == "kitty" and hand.declarer == 0 and hand.target == 90
    assert len(hand.hand_of(0)) == 33 and hand.to_act == 0
    bury = hand.hand_of(0)[-8:]
    hand.apply(0, Declare("H", bury))
    assert hand.trump == "H" and hand.phase == "playing" and hand.to_act == 0
    assert len(hand.hand_of(0)) == 25
    assert sorted(hand.buried or ()) == sorted(bury)
    # hand_of is sorted for display: trumps first, strongest first.
    held = hand.hand_of(0)
    assert held == hand.order.sort(list(held))
    card = held[0]
    assert hand.is_legal(0, [card])
    result = hand.apply(0, Play([card]))
    assert result is not None and result.played == (card,) and not result.failed_throw
    assert result.penalty == 0 and hand.to_act == 1
    hand.play_out([make_bot("random", seed=s) for s in range(4)])
    assert hand.to_act is None and 1 <= len(hand.tricks) <= 25
    for seat in range(4):  # every seat played its 25 cards (fewer tricks when throws were led)
        assert sum(len(t.cards_of(seat) or ()) for t in hand.tricks) == 25
    trick = hand.tricks[0]
    assert trick.leader == 0 and len(trick.plays) == 4 and 0 <= trick.winner <= 3
    assert trick.points == sum(c.points for _, cards in trick.plays for c in cards)
    res = hand.result
    assert res is not None and res.declarer == 0 and res.target == 90
    assert res.kind in (None, "full_sweep", "half_sweep", "shutout")
    assert res.score is not None and res.levels is None and len(res.deltas) == 4
    assert res.made == (res.score >= 0)
    assert json.loads(ResultView.of(res).model_dump_json())["deltas"] == list(res.deltas)


def test_hongwu_result_has_levels() -> None:
    hand = play_hand(HONGWU, 3, [make_bot("random", seed=s) for s in range(4)])
    res = hand.result
    assert res is not None and res.levels is not None and res.score is None
    assert res.made == (res.levels > 0)
    assert res.deltas[res.declarer] == 3 * res.levels  # type: ignore[index]


@pytest.mark.parametrize(
    "mutate",
    [
        lambda hands, kitty: (hands[:3], kitty),  # three hands
        lambda hands, kitty: ([hands[0][:-1], *hands[1:]], kitty),  # 24 cards
        lambda hands, kitty: (hands, kitty[:-1]),  # 7 in the kitty
        lambda hands, kitty: ([[*hands[0][:-1], hands[1][0]], *hands[1:]], kitty),  # 3 copies
        lambda hands, kitty: ([[*hands[0][:-1], "XX"], *hands[1:]], kitty),  # bad token
    ],
)
def test_explicit_deal_must_be_the_pack(mutate: Callable[..., Any]) -> None:
    hands, kitty = deal()
    bad_hands, bad_kitty = mutate([list(h) for h in hands], list(kitty))
    with pytest.raises(ValueError):
        Hand(BAOFEN, hands=bad_hands, kitty=bad_kitty, first=0)


def test_explicit_deal_accepts_notation_and_needs_seed_or_deal() -> None:
    hands, kitty = deal()
    hand = Hand(BAOFEN, hands=[format_cards(h).split() for h in hands], kitty=kitty, first=2)
    assert hand.first == 2 and hand.to_act == 2
    with pytest.raises(ValueError):
        Hand(BAOFEN)
    with pytest.raises(ValueError):
        Hand(BAOFEN, seed=1, first=4)
    with pytest.raises(ValueError):
        Hand(BAOFEN, hands=hands)


def test_seeded_deals_are_reproducible() -> None:
    assert Hand(BAOFEN, seed=5).deal == Hand(BAOFEN, seed=5).deal
    assert Hand(BAOFEN, seed=5).deal != Hand(BAOFEN, seed=6).deal


# -- IllegalAction leaves the state exactly as it was ----------------------------------------------

def snapshot(hand: Hand) -> tuple[Any, ...]:
    return (
        json.dumps(hand.to_record(), sort_keys=True),
        [hand.observation(s) for s in (None, 0, 1, 2, 3)],
        [hand.hand_of(s) for s in range(4)],
        hand.phase, hand.to_act, list(hand.penalties), hand.current_trick, hand.lead_shape,
        hand.declarer_points_so_far,
    )


def bidding_hand() -> Hand:
    hand = hand_with(BAOFEN, ("HA HA HK", "H9 H9 H8 H4", "", ""), seed=1)
    hand.bid(0, 85)
    return hand


def kitty_hand() -> Hand:
    hand = hand_with(BAOFEN, ("HA HA HK", "H9 H9 H8 H4", "", ""), seed=1)
    for seat, value in ((0, 85), (1, None), (2, None), (3, None)):
        hand.bid(seat, value)
    return hand


def lead_hand() -> Hand:
    hand = hand_with(BAOFEN, ("HA HA HK", "H9 H9 H8 H4", "", ""), seed=1)
    declare_by(hand, 0, 85, "S")
    return hand


def follow_hand() -> Hand:
    hand = lead_hand()
    hand.play(0, "HA HA")
    return hand


def done_hand() -> Hand:
    hand = Hand(BAOFEN, seed=1)
    for seat in range(4):
        hand.bid(seat, None)
    return hand


def other_group(hand: Hand) -> Card:
    """A card of South's that is not in the hearts' group."""
    hearts = hand.order.group[parse_cards("HA")[0]]
    return next(c for c in hand.hand_of(0) if hand.order.group[c] != hearts)


def not_held(hand: Hand, seat: int) -> list[Card]:
    held = hand.hand_of(seat)
    return [next(c for c in baofen.CARDS if c not in held)]


BAD_ACTIONS: list[tuple[str, Callable[[], Hand], Callable[[Hand], Any]]] = [
    # bidding
    ("bid by the wrong seat", bidding_hand, lambda h: h.bid(3, 90)),
    ("bid not higher", bidding_hand, lambda h: h.bid(1, 85)),
    ("bid off the list", bidding_hand, lambda h: h.bid(1, 87)),
    ("bid not a number", bidding_hand, lambda h: h.bid(1, "90")),
    ("play while bidding", bidding_hand, lambda h: h.play(1, h.hand_of(1)[:1])),
    ("declare while bidding", bidding_hand, lambda h: h.declare(1, "S", h.hand_of(1)[:8])),
    ("apply a non-action", bidding_hand, lambda h: h.apply(1, "pass")),
    # kitty
    ("bid in the kitty phase", kitty_hand, lambda h: h.bid(0, 90)),
    ("play in the kitty phase", kitty_hand, lambda h: h.play(0, h.hand_of(0)[:1])),
    ("declare by a defender", kitty_hand, lambda h: h.declare(1, "S", h.hand_of(1)[:8])),
    ("bury seven", kitty_hand, lambda h: h.declare(0, "S", h.hand_of(0)[:7])),
    ("bury nine", kitty_hand, lambda h: h.declare(0, "S", h.hand_of(0)[:9])),
    ("trump of no letter", kitty_hand, lambda h: h.declare(0, "", h.hand_of(0)[:8])),
    ("trump of two suits", kitty_hand, lambda h: h.declare(0, "HC", h.hand_of(0)[:8])),
    ("bury nothing", kitty_hand, lambda h: h.declare(0, "S", [])),
    ("bury cards not held", kitty_hand,
     lambda h: h.declare(0, "S", h.hand_of(0)[:7] + not_held(h, 0))),
    ("bury a card thrice", kitty_hand, lambda h: h.declare(0, "S", parse_cards("HA") * 8)),
    ("bury a bad token", kitty_hand, lambda h: h.declare(0, "S", ["XX"] * 8)),
    ("bury not a list", kitty_hand, lambda h: h.declare(0, "S", 8)),
    ("no-trump", kitty_hand, lambda h: h.declare(0, "N", h.hand_of(0)[:8])),
    ("trump None", kitty_hand, lambda h: h.declare(0, None, h.hand_of(0)[:8])),
    ("trump a joker", kitty_hand, lambda h: h.declare(0, "BJ", h.hand_of(0)[:8])),
    # leading
    ("lead by the wrong seat", lead_hand, lambda h: h.play(1, h.hand_of(1)[:1])),
    ("lead a card not held", lead_hand, lambda h: h.play(0, not_held(h, 0))),
    ("lead two groups", lead_hand, lambda h: h.play(0, [*parse_cards("HA"), other_group(h)])),
    ("lead nothing", lead_hand, lambda h: h.play(0, [])),
    ("lead HK twice", lead_hand, lambda h: h.play(0, "HK HK")),
    ("lead a bad token", lead_hand, lambda h: h.play(0, ["HA", "ZZ"])),
    ("lead a number out of range", lead_hand, lambda h: h.play(0, [99])),
    ("lead not a list", lead_hand, lambda h: h.play(0, None)),
    ("bid while playing", lead_hand, lambda h: h.bid(0, 90)),
    ("declare again", lead_hand, lambda h: h.declare(0, "S", h.hand_of(0)[:8])),
    # following
    ("follow out of turn", follow_hand, lambda h: h.play(2, h.hand_of(2)[:2])),
    ("follow with too few", follow_hand, lambda h: h.play(1, "H9")),
    ("follow with too many", follow_hand, lambda h: h.play(1, "H9 H9 H8")),
    ("follow without the pair", follow_hand, lambda h: h.play(1, "H9 H8")),
    ("revoke", follow_hand, lambda h: h.play(1, [
        c for c in h.hand_of(1) if h.order.group[c] != h.order.group[parse_cards("HA")[0]]
    ][:2])),
    ("follow with cards not held", follow_hand, lambda h: h.play(1, "HK HK")),
    # done
    ("play when done", done_hand, lambda h: h.play(0, h.hand_of(0)[:1])),
    ("bid when done", done_hand, lambda h: h.bid(0, 85)),
    ("declare when done", done_hand, lambda h: h.declare(0, "S", h.hand_of(0)[:8])),
]


@pytest.mark.parametrize(("why", "make", "act"), BAD_ACTIONS, ids=[b[0] for b in BAD_ACTIONS])
def test_illegal_actions_raise_and_change_nothing(
    why: str, make: Callable[[], Hand], act: Callable[[Hand], Any]
) -> None:
    hand = make()
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as error:
        act(hand)
    assert len(str(error.value)) > 10, why  # says why
    assert snapshot(hand) == before
    # …and the hand goes on normally afterwards.
    if hand.phase == "playing" and hand.to_act is not None:
        seat = hand.to_act
        hand.apply(seat, make_bot("random", seed=1).act(hand.observation(seat)))


def test_is_legal_never_raises_for_card_lists() -> None:
    hand = follow_hand()
    for seat in range(4):
        for cards in ([], parse_cards("HA"), parse_cards("H9 H9"), parse_cards("BJ BJ BJ"),
                      parse_cards("H9 H8")):
            assert isinstance(hand.is_legal(seat, cards), bool)
    assert not hand.is_legal(7, parse_cards("H9 H9"))
    assert hand.is_legal(1, parse_cards("H9 H9"))
    assert not Hand(BAOFEN, seed=1).is_legal(0, parse_cards("SA"))


# -- observations: everything a seat may know, nothing more --------------------------------------

OBSERVATION_FIELDS = {
    "rules", "seat", "phase", "to_act", "first", "bids", "declarer", "target", "trump",
    "by_group", "kitty", "buried", "tricks", "current_trick", "current_attempt", "leader",
    "lead_shape", "hand_sizes", "penalties", "declarer_points", "result", "judge", "actions",
}


def test_observation_fields_are_the_known_ones() -> None:
    # A new field must be reviewed for leaks before it is added here.
    assert {f.name for f in dataclasses.fields(Observation)} == OBSERVATION_FIELDS


@pytest.mark.parametrize("rules", [BAOFEN, HONGWU])
def test_observations_through_a_hand(rules: RuleSet) -> None:
    hand = Hand(rules, seed=12)
    bots = [make_bot("random", seed=s, throw_rate=0.3) for s in range(4)]
    while True:
        for seat in (None, 0, 1, 2, 3):
            check_observation(hand, seat)
        if hand.phase == "done":
            break
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bots[seat].act(hand.observation(seat)))


def test_observation_does_not_depend_on_hidden_cards() -> None:
    # Two deals that differ only in what seat 2 holds and what is in the kitty: seats 0, 1
    # and 3 (and a spectator) cannot tell them apart, during bidding and after it.
    hands, kitty = deal(("HA HA HK", "", "", ""), seed=3)
    swapped = [list(h) for h in hands]
    swapped[2] = swapped[2][:17] + list(kitty)
    other_kitty = hands[2][17:]
    first = Hand(BAOFEN, hands=hands, kitty=kitty, first=0)
    second = Hand(BAOFEN, hands=swapped, kitty=other_kitty, first=0)
    for hand in (first, second):
        for seat, value in ((0, 85), (1, None), (2, None), (3, None)):
            hand.bid(seat, value)
        hand.declare(0, "S", hand.hand_of(0)[-8:])
    for seat in (None, 1, 3):
        a, b = first.observation(seat), second.observation(seat)
        assert ObservationView.of(a).model_dump_json() == ObservationView.of(b).model_dump_json()
        assert a == b
    # The declarer sees its kitty; seat 2 sees its own cards: both differ.
    assert first.observation(0).kitty != second.observation(0).kitty
    assert first.observation(2).hand != second.observation(2).hand


def test_bad_observer_seat() -> None:
    with pytest.raises(ValueError):
        Hand(BAOFEN, seed=1).observation(4)


# -- hand records ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [BAOFEN, HONGWU, RuleSet.baofen(no_bid_mode="direct")])
@pytest.mark.parametrize("steps", [0, 3, 6, 40, 1000])
def test_record_round_trip_and_replay(rules: RuleSet, steps: int) -> None:
    hand = Hand(rules, seed=21)
    play_some(hand, steps)
    record = hand.to_record()
    text = json.dumps(record)
    again = Hand.from_record(json.loads(text))
    assert again.to_record() == record
    for seat in (None, 0, 1, 2, 3):
        assert again.observation(seat) == hand.observation(seat)
    assert again.phase == hand.phase and again.to_act == hand.to_act
    assert again.result == hand.result
    assert [again.hand_of(s) for s in range(4)] == [hand.hand_of(s) for s in range(4)]
    assert record["version"] == 1 and record["first"] == hand.first
    assert record["seed"] == 21
    assert RuleSet.from_dict(record["rules"]) == rules
    # the replayed hand continues exactly like the original
    play_some(hand, 30, seed=5)
    play_some(again, 30, seed=5)
    assert again.to_record() == hand.to_record()


def finished_record() -> dict[str, Any]:
    hand = Hand(BAOFEN, seed=21)
    play_some(hand, 1000)
    return json.loads(json.dumps(hand.to_record()))


def _corrupt_play(record: dict[str, Any]) -> None:
    plays = [a for a in record["actions"] if "play" in a]
    plays[5]["play"] = plays[6]["play"]


CORRUPTIONS: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("format", lambda r: r.update(format="chess")),
    ("version", lambda r: r.update(version=2)),
    ("no rules", lambda r: r.pop("rules")),
    ("bad rules", lambda r: r["rules"].update(direct_penalty=-1)),
    ("no deal", lambda r: r.pop("deal")),
    ("deal short a card", lambda r: r["deal"].update(kitty=r["deal"]["kitty"][3:])),
    ("deal bad token", lambda r: r["deal"].update(kitty="XX " + r["deal"]["kitty"][3:])),
    ("first out of range", lambda r: r.update(first=5)),
    ("actions not a list", lambda r: r.update(actions=None)),
    ("action unknown", lambda r: r["actions"].insert(0, {"seat": 0, "fold": True})),
    ("action wrong seat", lambda r: r["actions"][0].update(seat=(r["actions"][0]["seat"] + 1) % 4)),
    ("action missing seat", lambda r: r["actions"][0].pop("seat")),
    ("bid not a number", lambda r: r["actions"][0].update(bid="85")),
    ("play swapped", _corrupt_play),
    ("bury changed", lambda r: next(a for a in r["actions"] if "declare" in a)["declare"].update(
        bury="BJ BJ LJ LJ BJ BJ LJ LJ")),
    ("result changed", lambda r: r["result"].update(made=not r["result"]["made"])),
    ("not a dict", lambda r: r.clear()),
]


@pytest.mark.parametrize(("why", "corrupt"), CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_corrupted_records_are_rejected(why: str, corrupt: Callable[[dict[str, Any]], Any]) -> None:
    record = finished_record()
    assert Hand.from_record(record).result is not None
    corrupt(record)
    with pytest.raises(ValueError):
        Hand.from_record(record)


def test_record_of_non_object() -> None:
    with pytest.raises(ValueError):
        Hand.from_record([])  # type: ignore[arg-type]


def test_any_cards_may_be_buried() -> None:
    # §10: trumps and point cards included.
    hand = hand_with(BAOFEN, ("BJ BJ LJ S5 S5 ST SK HK", "", "", ""), seed=2)
    declare_by(hand, 0, 85, "S", bury="BJ BJ LJ S5 S5 ST SK HK")
    assert hand.phase == "playing"
    assert sorted(hand.buried or ()) == sorted(parse_cards("BJ BJ LJ S5 S5 ST SK HK"))
    assert parse_cards("BJ")[0] not in hand.hand_of(0)


# -- copies -------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [BAOFEN, HONGWU])
@pytest.mark.parametrize("stage", ["bidding", "kitty", "playing"])
def test_a_copy_has_the_whole_state_and_goes_on_alike(rules: RuleSet, stage: str) -> None:
    hand = Hand(rules, seed=8, first=1)
    bots = [make_bot("rule") for _ in range(4)]
    hand.bid(1, None)
    hand.bid(2, rules.bid_grid()[0])
    if stage != "bidding":
        while hand.phase == "bidding":
            seat = hand.to_act
            assert seat is not None
            hand.bid(seat, None)
    if stage == "playing":
        hand.declare(2, "H", hand.kitty)
        for _ in range(37):  # into the tenth trick
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, bots[seat].act(hand.observation(seat)))
    assert hand.phase == stage
    booked: list[str] = []
    hand.on_done = lambda: booked.append("original")
    copy = hand.copy()
    for field in dataclasses.fields(HandState):
        mine, theirs = getattr(hand, field.name), getattr(copy, field.name)
        if field.name == "on_done":
            assert theirs is None  # a copy is never booked by the original's match
            continue
        assert theirs == mine, field.name
        if isinstance(mine, list):
            assert theirs is not mine, field.name
            for inner, other in zip(mine, theirs, strict=True):
                assert not isinstance(inner, list) or other is not inner, field.name
    for played in (copy, hand):
        played.play_out(bots)
    assert copy.to_record() == hand.to_record()
    assert booked == ["original"]


# -- playing out and replaying ------------------------------------------------------------------

@pytest.mark.parametrize("rules", [BAOFEN, HONGWU])
def test_turns_names_the_seat_to_act_until_the_hand_is_done(rules: RuleSet) -> None:
    hand = Hand(rules, seed=3)
    bots = [make_bot("random", seed=s, throw_rate=0.5) for s in range(4)]
    seen = []
    for seat in hand.turns():
        assert seat == hand.to_act and hand.phase != "done"
        seen.append(seat)
        hand.apply(seat, bots[seat].act(hand.observation(seat)))
    assert hand.phase == "done" and seen == [seat for seat, _ in hand.actions]
    assert list(hand.turns()) == []


@pytest.mark.parametrize("rules", [BAOFEN, HONGWU])
def test_play_hand_is_the_loop_of_one_bot_per_seat(rules: RuleSet) -> None:
    def bots() -> list[Any]:
        return [make_bot("random", seed=s, throw_rate=0.5) for s in range(4)]

    for seed in range(5):
        hand, players = Hand(rules, seed=seed), bots()
        while hand.phase != "done":  # the loop written out, against play_hand
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, players[seat].act(hand.observation(seat)))
        played = play_hand(rules, seed, bots())
        assert played.phase == "done" and played.to_record() == hand.to_record()
    assert played.play_out(bots()) is played  # a finished hand has nothing left to play


def test_play_out_stops_where_asked() -> None:
    hand = Hand(BAOFEN, seed=2)
    bots = [make_bot("rule") for _ in range(4)]
    assert hand.play_out(bots, until=lambda h: len(h.actions) == 9) is hand
    assert len(hand.actions) == 9 and hand.phase != "done"
    hand.play_out(bots, until=lambda h: h.phase == "playing" and len(h.tricks) == 3)
    assert hand.phase == "playing" and len(hand.tricks) == 3 and not hand.current_trick
    assert hand.play_out(bots).phase == "done"


@pytest.mark.parametrize("rules", [BAOFEN, HONGWU])
def test_redeal_and_steps_play_the_hand_again(rules: RuleSet) -> None:
    bots = [make_bot("random", seed=s, throw_rate=0.7) for s in range(4)]
    hand = play_hand(rules, 11, bots)
    fresh = hand.redeal()
    assert fresh.phase == "bidding" and not fresh.actions and fresh.on_done is None
    assert (fresh.rules, fresh.seed, fresh.first, fresh.deal) == (
        rules, 11, hand.first, hand.deal)
    assert fresh.to_record() == Hand(rules, seed=11).to_record()
    halfway = len(hand.actions) // 2
    assert hand.redeal(halfway).to_record() == Hand.from_record(
        {**hand.to_record(), "actions": hand.to_record()["actions"][:halfway], "result": None}
    ).to_record()
    steps = list(hand.steps())
    assert [(s.number, s.seat, s.action) for s in steps] == [
        (i, seat, action) for i, (seat, action) in enumerate(hand.actions)]
    again = steps[-1].hand
    assert all(s.hand is again for s in steps) and again is not hand
    assert again.to_record() == hand.to_record()
    plays = [s for s in steps if isinstance(s.action, Play)]
    assert all(s.outcome is not None for s in plays)
    assert all(s.outcome is None for s in steps if not isinstance(s.action, Play))
    assert [s.outcome.trick for s in plays if s.outcome and s.outcome.trick] == hand.tricks
    assert sum(bool(s.outcome and s.outcome.failed_throw) for s in plays) == sum(
        t.attempted is not None for t in hand.tricks)
    # each step is the hand as it stood after that action
    for step in hand.redeal(7).steps():
        assert step.hand.to_record() == hand.redeal(step.number + 1).to_record()
