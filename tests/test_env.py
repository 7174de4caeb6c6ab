"""The PettingZoo environment (baofen.env): the API conformance test, and the action space's
promise — every legal engine action can be composed, and nothing illegal can."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test

from baofen import (
    Bid,
    Declare,
    Hand,
    IllegalAction,
    Observation,
    Play,
    RuleSet,
    parse_cards,
)
from baofen.bots import make_bot
from baofen.cards import KINDS
from baofen.env import ActionSpace, BaofenEnv, Composer, SeatEnv, encode, layout
from baofen.env.actions import COMMIT, PASS, TRUMP_BASE
from baofen.env.encoding import HIGH
from baofen.env.selection import addable, counts_of

from .helpers import hand_with

RULE_SETS = [
    RuleSet.baofen(),
    RuleSet.hongwu(),
    RuleSet.hongwu(must_follow_structure=True),
    RuleSet.baofen(bid_values=[80, 85, 90, 95, 100], eight_of_a_kind=False),
]
IDS = ["baofen", "hongwu", "hongwu-structure", "baofen-custom"]

# Warnings the API test gives every environment whose observation is a dict with an action mask
# (PettingZoo's own card games are exempted from them by name).
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_pettingzoo_api_test(rules: RuleSet) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(BaofenEnv(rules), num_cycles=400)
    unexpected = {str(w.message) for w in caught} - {
        str(w.message) for w in caught if str(w.message).startswith(EXPECTED_WARNINGS)
    }
    assert not unexpected


def play_random_hands(rules: RuleSet, hands: int, seed: int) -> Iterator[tuple[Hand, int]]:
    """Hands played by random bots that throw often; yields (hand, seat) before each decision,
    then applies the bot's action."""
    bots = [make_bot("random", seed=seed + s, throw_rate=0.3, pass_rate=0.6) for s in range(4)]
    for number in range(hands):
        hand = Hand(rules, seed=seed * 1000 + number)
        for seat in hand.turns():
            yield hand, seat
            hand.apply(seat, bots[seat].act(hand.observation(seat)))


def compose(obs: Observation, steps: list[int]) -> object:
    """Push ``steps`` into a fresh composer, checking each is allowed; the action composed."""
    composer = Composer(ActionSpace(obs.rules))
    decided = None
    for i, step in enumerate(steps):
        assert decided is None, "the action completed before its last step"
        assert step in composer.allowed(obs), f"step {i} ({step}) of {steps} not allowed"
        decided = composer.push(obs, step)
    return decided


def legal_follows(obs: Observation) -> set[tuple[int, ...]]:
    """Every legal follow, as sorted tuples, by enumerating the multisets of the lead's size
    (of the led group alone when the follower holds enough of it: rules.md §7)."""
    shape = obs.lead_shape
    assert shape is not None
    suited = obs.by_group[shape.group]
    held = counts_of(suited if len(suited) >= shape.size else obs.hand)
    kinds = [k for k in range(KINDS) if held[k]]
    found: set[tuple[int, ...]] = set()

    def grow(index: int, chosen: list[int]) -> None:
        if len(chosen) == shape.size:
            if obs.is_legal(chosen):
                found.add(tuple(chosen))
            return
        if index == len(kinds):
            return
        kind = kinds[index]
        for copies in range(min(held[kind], shape.size - len(chosen)), -1, -1):
            grow(index + 1, chosen + [kind] * copies)

    grow(0, [])
    return found


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_every_action_of_the_bots_can_be_composed(rules: RuleSet) -> None:
    space = ActionSpace(rules)
    rng = random.Random(5)
    decisions = 0
    for hand, seat in play_random_hands(rules, 12, seed=11):
        obs = hand.observation(seat)
        bot = make_bot("random", seed=rng.getrandbits(32), throw_rate=0.3)
        action = bot.act(obs)
        steps = space.steps_of(action)
        # The cards in a random order: any order composes the same action.
        if isinstance(action, Play):
            cards = steps[:-1]
            rng.shuffle(cards)
            steps = [*cards, COMMIT]
        elif isinstance(action, Declare):
            cards = steps[1:]
            rng.shuffle(cards)
            steps = [steps[0], *cards]
        composed = compose(obs, steps)
        if isinstance(action, Bid):
            assert composed == action
        elif isinstance(action, Declare):
            assert isinstance(composed, Declare)
            assert composed.trump == action.trump
            assert sorted(composed.bury) == sorted(action.bury)
        else:
            assert isinstance(composed, Play)
            assert sorted(composed.cards) == sorted(action.cards)
        decisions += 1
    assert decisions > 500


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_follow_masks_are_exact(rules: RuleSet) -> None:
    """For small follows, the allowed cards are exactly those that some legal follow contains
    (with a random part of a legal follow already chosen), and every legal follow composes."""
    rng = random.Random(7)
    checked = structured = 0
    for hand, seat in play_random_hands(rules, 40, seed=3):
        obs = hand.observation(seat)
        shape = obs.lead_shape
        if hand.phase != "playing" or shape is None or not 2 <= shape.size <= 6:
            continue
        follows = legal_follows(obs)
        assert follows
        assert obs.judge is not None
        structured += bool(obs.judge.owed_structure(shape, obs.by_group[shape.group])[1])
        for _ in range(3):
            target = list(rng.choice(sorted(follows)))
            rng.shuffle(target)
            prefix = target[: rng.randrange(len(target))]
            expected = {
                k for k in range(KINDS)
                if any(_contains(f, [*prefix, k]) for f in follows)
            }
            assert set(addable(obs, prefix)) == expected, (obs.hand, shape, prefix)
        for follow in follows:
            cards = list(follow)
            rng.shuffle(cards)
            composed = compose(obs, [*cards, COMMIT])
            assert isinstance(composed, Play) and sorted(composed.cards) == sorted(follow)
        checked += 1
    assert checked > 20
    assert structured > 3 or not rules.must_follow_structure


LEADS = ["SK SK SQ SQ", "SK SK SQ SQ SJ SJ", "SK SK SQ SQ S9 S9", "SK SK SQ SQ S9 S9 S7",
         "SK SK S9 S9", "SK SQ SQ"]


@pytest.mark.parametrize(
    "rules", [r for r in RULE_SETS if r.must_follow_structure],
    ids=[i for r, i in zip(RULE_SETS, IDS, strict=True) if r.must_follow_structure],
)
def test_follow_masks_are_exact_when_tractors_are_owed(rules: RuleSet) -> None:
    """Tractor and pair leads (and throws holding them) to a follower long in the led suit."""
    rng = random.Random(13)
    leader = "SK SK SQ SQ SJ SJ S9 S9 S7"
    spades = parse_cards("SA SA ST ST S8 S8 S7 S6 S6 S5 S5 S4 S4 S3 S3")
    owed_tractors = 0
    for trial in range(60):
        held = " ".join(map(str, rng.sample(spades, rng.randrange(7, 13))))
        hand = hand_with(rules, (leader, held, "", ""), seed=trial)
        hand.bid(0, rules.bid_grid()[-1])
        hand.declare(0, "H", [c for c in hand.hand_of(0) if c.suit != "S"][:8])
        hand.play(0, LEADS[trial % len(LEADS)])
        obs = hand.observation(1)
        shape = obs.lead_shape
        assert shape is not None and obs.judge is not None
        owed_tractors += bool(obs.judge.owed_structure(shape, obs.by_group[shape.group])[0])
        follows = legal_follows(obs)
        for follow in list(follows)[:40]:
            target = list(follow)
            rng.shuffle(target)
            prefix = target[: rng.randrange(len(target))]
            expected = {
                k for k in range(KINDS) if any(_contains(f, [*prefix, k]) for f in follows)
            }
            assert set(addable(obs, prefix)) == expected, (obs.hand, shape, prefix)
            composed = compose(obs, [*target, COMMIT])
            assert isinstance(composed, Play) and sorted(composed.cards) == sorted(follow)
    assert owed_tractors > 5


def _contains(big: tuple[int, ...], small: list[int]) -> bool:
    need = counts_of(small)
    have = counts_of(big)
    return all(have[k] >= need[k] for k in range(KINDS))


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_random_masked_walks_only_make_legal_actions(rules: RuleSet) -> None:
    """Steps drawn at random from the masks always complete legal actions, never a dead end,
    and a selection can be committed exactly when the engine would accept it."""
    space = ActionSpace(rules)
    rng = random.Random(2)
    for number in range(15):
        hand = Hand(rules, seed=500 + number)
        composer = Composer(space)
        for seat in hand.turns():
            obs = hand.observation(seat)
            steps = composer.allowed(obs)
            assert steps, "a dead end"
            if hand.phase == "playing" and composer.selected:
                assert (COMMIT in steps) == hand.is_legal(seat, composer.selected)
            decided = composer.push(obs, rng.choice(steps))
            if decided is not None:
                hand.apply(seat, decided)
        assert hand.result is not None


def test_eight_of_a_kind_can_be_led_and_followed() -> None:
    rules = RuleSet.baofen()
    hand = hand_with(rules, ("SA SA HA HA CA CA DA DA", "", "", ""), seed=4)
    hand.bid(0, 95)
    hand.declare(0, "S", _bury_without_aces(hand))
    obs = hand.observation(0)
    aces = [int(c) for c in parse_cards("SA SA HA HA CA CA DA DA")]
    composer = Composer(ActionSpace(rules))
    for i, card in enumerate(aces):
        allowed = composer.allowed(obs)
        assert card in allowed
        assert (COMMIT in allowed) == (i in (1, 2))  # SA, SA SA: legal leads on the way
        composer.push(obs, card)
    assert composer.push(obs, COMMIT) == Play(aces)
    hand.apply(0, Play(aces))
    for seat in (1, 2, 3):
        obs = hand.observation(seat)
        composer = Composer(ActionSpace(rules))
        decided = None
        rng = random.Random(seat)
        while decided is None:
            decided = composer.push(obs, rng.choice(composer.allowed(obs)))
        hand.apply(seat, decided)
    assert len(hand.tricks) == 1 and hand.tricks[0].winner == 0


def _bury_without_aces(hand: Hand) -> list[int]:
    return [c for c in hand.hand_of(0) if c.rank != 14][-8:]


def test_bids_trump_and_bury_steps() -> None:
    rules = RuleSet.hongwu()
    space = ActionSpace(rules)
    assert space.size == PASS + 1 + len(rules.bid_grid())
    hand = Hand(rules, seed=9, first=0)
    composer = Composer(space)
    obs = hand.observation(0)
    assert composer.allowed(obs) == [PASS, *range(PASS + 1, space.size)]
    assert composer.push(obs, space.bid_index(200)) == Bid(200)
    hand.bid(0, 200)
    obs = hand.observation(0)
    assert composer.allowed(obs) == list(range(TRUMP_BASE, PASS))
    assert composer.push(obs, TRUMP_BASE + 1) is None
    bury = list(hand.hand_of(0)[:8])
    for card in bury[:-1]:
        assert composer.push(obs, card) is None
    decided = composer.push(obs, bury[-1])
    assert decided == Declare("H", bury)
    assert composer.selected == [] and composer.trump is None


def test_an_illegal_step_raises_and_changes_nothing() -> None:
    env = BaofenEnv(RuleSet.baofen())
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.hand.to_record() if env.hand else None
    with pytest.raises(IllegalAction, match="not allowed"):
        env.step(bad)
    assert env.hand is not None and env.hand.to_record() == before
    assert env.agent_selection == agent


def test_rewards_are_the_hand_results() -> None:
    env = BaofenEnv(RuleSet.hongwu())
    env.reset(seed=21)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.hand is not None and env.hand.result is not None
    assert [totals[a] for a in env.possible_agents] == list(env.hand.result.deltas)


def test_encoding_layout_and_hidden_information() -> None:
    rules = RuleSet.baofen()
    hand = Hand(rules, seed=8)
    sizes = sum(size for _, size, _ in layout(rules))
    vector = encode(hand.observation(1))
    assert vector.shape == (sizes,) and vector.dtype == np.float32
    assert vector.min() >= 0.0 and vector.max() <= HIGH
    assert vector[:KINDS].sum() == 25
    # Another seat's cards change nothing in seat 1's encoding: only its own hand shows.
    while hand.phase == "bidding":
        seat = hand.to_act
        assert seat is not None
        hand.bid(seat, 95 if seat == 2 else None)
    kitty = slice(*_segment(rules, "kitty"))
    assert encode(hand.observation(2))[kitty].sum() == 8
    assert encode(hand.observation(1))[kitty].sum() == 0


def _segment(rules: RuleSet, name: str) -> tuple[int, int]:
    at = 0
    for segment, size, _ in layout(rules):
        if segment == name:
            return at, at + size
        at += size
    raise KeyError(name)


def test_seat_env_plays_one_seat_against_bots() -> None:
    env = SeatEnv(RuleSet.baofen(), opponents=("rule",), seat=None)
    rng = np.random.default_rng(1)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        assert env.observation_space.contains(obs)
        done, reward, steps = False, 0.0, 0
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            steps += 1
            assert not truncated
        assert env.hand is not None and env.hand.result is not None
        assert reward == env.hand.result.deltas[info["seat"]]
        assert steps > 0
