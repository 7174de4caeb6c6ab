"""The native core (baofen._native) plays the Python engine's rules: its random hands, written as
hand records, replay in the Python engine to the same tricks and results under every setting
profile of both games; its legality checks agree with the Python engine's, move by move.

Without the extension these tests skip, saying why; with ``BAOFEN_TEST_REQUIRE_NATIVE=1`` (CI,
which builds it) they fail instead.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baofen import Hand, RuleSet
from baofen import _native as native
from baofen.bots.random_bot import RandomBot
from baofen.errors import IllegalAction

from .native import PROFILES, REQUIRED, WHY, needs_native


def test_native_core_is_built() -> None:
    if not native.available():
        if REQUIRED:
            pytest.fail(f"BAOFEN_TEST_REQUIRE_NATIVE=1 but {WHY}")
        pytest.skip(WHY)
    assert native.engine_name() == "native"


HANDS_PER_PROFILE = 4000


@needs_native
@pytest.mark.parametrize("profile", PROFILES)
def test_native_hands_replay_in_the_python_engine(profile: str) -> None:
    from baofen._native.batch import play_random

    rules = PROFILES[profile]
    hands = [Hand(rules, seed=seed) for seed in range(HANDS_PER_PROFILE)]
    played = play_random(hands, player_seed=len(profile))
    kinds: Counter[str | None] = Counter()
    for number, (hand, native_hand) in enumerate(zip(hands, played, strict=True)):
        # Every 40th hand goes through its JSON record; the others replay on the Python hand
        # that dealt them.
        if number % 40 == 0:
            hand = Hand.from_record(native_hand.to_record())  # checks the recorded result too
        else:
            for seat, action in native_hand.actions:
                hand.apply(seat, action)
        assert hand.result == native_hand.result, (profile, native_hand.seed)
        assert [t.winner for t in hand.tricks] == list(native_hand.winners)
        kinds[native_hand.result.kind] += 1
    # The random players reach the rare outcomes too (a failed throw is in most hands).
    assert kinds[None] > HANDS_PER_PROFILE / 2
    if rules.variant == "baofen":
        assert kinds["no_bid"] and kinds["shutout"]


def _candidates(rng: random.Random, hand: Hand, seat: int, size: int) -> list[list[int]]:
    """Card lists worth asking both engines about: random ones of the right size, one too
    many, and for a follow every multiset when there are few."""
    cards = hand.hand_of(seat)
    out = [rng.sample(cards, min(size, len(cards))) for _ in range(6)]
    out.append(rng.sample(cards, min(size + 1, len(cards))))
    if hand.lead_shape is not None and size > 1:
        combos = list(itertools.islice(itertools.combinations(sorted(cards), size), 400))
        if len(combos) < 400:
            out += [list(c) for c in set(combos)]
    return out


def _lockstep(rules: RuleSet, seed: int, rng: random.Random, throw_rate: float) -> None:
    """A Python hand and a native one driven by the Python random bot, checked move by move."""
    from baofen._native.batch import native_rules

    hand = Hand(rules, seed=seed)
    twin = native.core().Hand(native_rules(rules), [c for p in hand.deal for c in p], hand.first)
    bots = [RandomBot(rng.getrandbits(32), throw_rate=throw_rate) for _ in range(4)]
    while hand.phase != "done":
        seat = hand.to_act
        assert seat is not None and twin.to_act == seat and twin.phase == hand.phase
        action = bots[seat].act(hand.observation(seat))
        if hand.phase == "playing":
            size = len(action.cards) if hand.lead_shape is None else hand.lead_shape.size
            for cards in _candidates(rng, hand, seat, size):
                assert twin.is_legal(seat, cards) == hand.is_legal(seat, cards), cards
            if hand.lead_shape is not None:
                plays = twin.legal_plays()
                assert all(hand.is_legal(seat, p) for p in plays)
                assert sorted(action.cards) in [sorted(p) for p in plays]
            outcome = hand.apply(seat, action)
            assert outcome is not None
            assert sorted(twin.play(seat, action.cards)) == sorted(outcome.played)
        elif hand.phase == "bidding":
            assert twin.legal_bids() == hand.legal_bids(seat)
            hand.apply(seat, action)
            twin.bid(seat, action.value)
        else:
            hand.apply(seat, action)
            twin.declare(seat, action.trump, action.bury)
    result = twin.result()
    assert result is not None and tuple(result[9:13]) == hand.result.deltas  # type: ignore[union-attr]
    assert twin.winners() == [t.winner for t in hand.tricks]


@needs_native
@pytest.mark.parametrize("profile", PROFILES)
def test_legality_agrees_move_by_move(profile: str) -> None:
    rng = random.Random(profile)
    for seed in range(6):
        _lockstep(PROFILES[profile], seed, rng, throw_rate=0.3)


@needs_native
@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_the_native_deal_of_a_seed_is_the_python_engines(variant: str) -> None:
    from baofen._native import batch

    rules = RuleSet.create(variant=variant)
    rng = random.Random(17)
    seeds = [0, 1, -1, 2**32 - 1, 2**32, -(2**32), 2**63 - 1, 2**64 - 1, -(2**64 - 1)]
    seeds += [rng.getrandbits(rng.choice([8, 31, 32, 33, 63, 64])) for _ in range(3000)]
    seeds += [-rng.getrandbits(40) for _ in range(300)]
    assert batch.seeded_deals(rules, seeds) == batch.pack_deals(
        batch.dealt(rules, seed) for seed in seeds
    )
    # a seed beyond the native shuffle's 64 bits is dealt by the Python engine
    huge = [2**64, -(2**70) - 3]
    assert batch.seeded_deals(rules, huge) == batch.pack_deals(batch.dealt(rules, s) for s in huge)


@needs_native
def test_refusals_change_nothing() -> None:
    from baofen._native.batch import native_rules

    rules = RuleSet.baofen()
    hand = Hand(rules, seed=3)
    twin = native.core().Hand(native_rules(rules), [c for p in hand.deal for c in p], hand.first)
    for bad in (lambda: twin.bid(1, 85), lambda: twin.bid(0, 87), lambda: twin.play(0, [0])):
        with pytest.raises(ValueError):
            bad()
    assert twin.phase == "bidding" and twin.to_act == 0 and twin.actions() == []
    with pytest.raises(ValueError, match="108 cards"):
        native.core().Hand(native_rules(rules), [0] * 107, 0)


@needs_native
def test_play_out_from_a_python_state() -> None:
    from baofen._native.batch import native_hand, play_out

    rules = RuleSet.hongwu()
    hand = Hand(rules, seed=11)
    bots = [RandomBot(seat) for seat in range(4)]
    while len(hand.tricks) < 5:  # part way into the play
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bots[seat].act(hand.observation(seat)))
    twin = native_hand(hand)
    results = play_out(rules, [twin] * 50, player_seed=1)
    assert twin.phase == "playing" and len(twin.winners()) == 5  # the copies played, not it
    assert len({r.deltas for r in results}) > 1
    assert all(r.declarer == hand.declarer and r.target == hand.target for r in results)
    assert all(sum(r.deltas) == 0 for r in results)  # 包红五's levels are zero-sum


def _eight_deal(data: st.DataObject, rank: int) -> tuple[list[list[int]], list[int]]:
    """A deal in which South holds all eight cards of ``rank`` (a rank number 3–14)."""
    from baofen.cards import full_pack

    eight = [suit * 13 + rank - 2 for suit in range(4) for _ in (0, 1)]
    rest = [int(c) for c in full_pack()]
    for card in eight:
        rest.remove(card)
    rest = data.draw(st.permutations(rest))
    south = eight + rest[:17]
    return [south, rest[17:42], rest[42:67], rest[67:92]], rest[92:]


@needs_native
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_edges_agree(data: st.DataObject) -> None:
    """Hypothesis picks the deal, the bids, the trump and every play (throws, long tractors,
    eights of a kind, when the red fives fall) and both engines must agree on each step."""
    from baofen._native.batch import native_rules

    variant = data.draw(st.sampled_from(["baofen", "hongwu"]))
    rules = RuleSet.create(
        variant=variant,
        must_follow_structure=data.draw(st.booleans()),
        throw_penalty_per_card=data.draw(st.sampled_from([0, 3])),
        no_bid_mode=data.draw(st.sampled_from(["pot", "direct"])),
    )
    hands, kitty = _eight_deal(data, data.draw(st.integers(3, 14)))
    hand = Hand(rules, first=data.draw(st.integers(0, 3)), hands=hands, kitty=kitty)
    twin = native.core().Hand(native_rules(rules), [c for p in hand.deal for c in p], hand.first)
    for seat in hand.turns():
        if hand.phase == "bidding":
            value = data.draw(st.sampled_from(hand.legal_bids(seat)))
            hand.bid(seat, value)
            twin.bid(seat, value)
        elif hand.phase == "kitty":
            trump = data.draw(st.sampled_from("SHCD"))
            held = hand.hand_of(seat)
            bury = [held[i] for i in data.draw(st.permutations(range(len(held))))[:8]]
            hand.declare(seat, trump, bury)
            twin.declare(seat, trump, bury)
        else:
            options = twin.legal_plays()
            if hand.lead_shape is None:
                # A throw: any two or more cards of one group held.
                group = data.draw(
                    st.sampled_from([g for g in hand.observation(seat).by_group if g])
                )
                if len(group) > 1:
                    options.append(
                        list(data.draw(st.permutations(group)))[
                            : data.draw(st.integers(2, len(group)))
                        ]
                    )
            cards = data.draw(st.sampled_from(options))
            try:
                outcome = hand.play(seat, cards)
            except IllegalAction:
                pytest.fail(f"native says {cards} is legal; Python refuses it")
            assert sorted(twin.play(seat, cards)) == sorted(outcome.played)
    result = twin.result()
    assert result is not None and hand.result is not None
    assert tuple(result[9:13]) == hand.result.deltas
    assert result[2] == hand.result.declarer_points


@needs_native
@pytest.mark.parametrize("engine", ["native", "python"])
def test_simulate_writes_records_that_replay(engine: str, tmp_path: Any) -> None:
    import json

    from typer.testing import CliRunner

    from baofen.cli import app

    path = tmp_path / "hands.json"
    argv = ["simulate", "--variant", "hongwu", "--hands", "30", "--seed", "4"]
    run = CliRunner().invoke(app, [*argv, "--engine", engine, "--records", str(path)])
    assert run.exit_code == 0, run.output
    assert f"{engine} engine" in run.output and "30 hand records written" in run.output
    records = json.loads(path.read_text())
    assert len(records) == 30
    assert all(Hand.from_record(record).phase == "done" for record in records)
    # The same deals whichever engine plays them: those of the Python engine from the seeds.
    master = random.Random(4)
    for _ in range(4):
        master.getrandbits(32)  # the bots' seeds
    for record in records[:3]:
        seed = master.getrandbits(63)
        assert record["seed"] == seed
        assert record["deal"] == Hand(RuleSet.hongwu(), seed=seed).to_record()["deal"]


@needs_native
def test_simulate_refuses_what_the_native_engine_cannot_play() -> None:
    from typer.testing import CliRunner

    from baofen.cli import app

    run = CliRunner().invoke(app, ["simulate", "--engine", "native", "--bot", "hard"])
    assert run.exit_code != 0
    assert "the native engine plays the random and rule bots only, not 'hard'" in run.output


@needs_native
def test_simulate_plays_the_same_rule_bot_hands_on_both_engines(tmp_path: Any) -> None:
    import json

    from typer.testing import CliRunner

    from baofen.cli import app

    argv = ["simulate", "--variant", "baofen", "--hands", "12", "--seed", "9", "--bot", "rule"]
    records = []
    for engine in ("native", "python"):
        path = tmp_path / f"{engine}.json"
        run = CliRunner().invoke(app, [*argv, "--engine", engine, "--records", str(path)])
        assert run.exit_code == 0, run.output
        records.append(json.loads(path.read_text()))
    native, python = records
    assert [r["actions"] for r in native] == [r["actions"] for r in python]
    assert [r["result"] for r in native] == [r["result"] for r in python]
