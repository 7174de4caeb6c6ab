"""The native rule player (baofen.bots.native_players, and RuleBot where the native core runs) makes
the Python rule player's choices (``RulePlayer``, the reference): every bid,
declaration and play on the same observation, under every setting profile of both games and with
weights other than the defaults; its hands replay in the Python engine to the same results.

Without the extension these tests skip, saying why; with ``BAOFEN_TEST_REQUIRE_NATIVE=1`` (CI,
which builds it) they fail instead.
"""

from __future__ import annotations

import pytest

from baofen import Hand, RuleSet
from baofen import _native as native
from baofen.actions import Action, Bid, Declare, Play
from baofen.bots.engine import current, python, use
from baofen.bots.native_players import NativeRulePlayer
from baofen.bots.rule.bot import RuleBot
from baofen.bots.rule.play import RuleWeights
from baofen.bots.rule.player import RulePlayer
from baofen.cards import SUITS

from .native import PROFILES, needs_native

LOCKSTEP_HANDS = 6
"""Hands a profile checked decision by decision against the Python rule bot (~15 ms a hand)."""
REPLAY_HANDS = 60
"""Hands a profile played natively and replayed in the Python engine."""
OTHER_WEIGHTS = RuleWeights(
    plain_top=2.0, pair_break=2.5, bid_margin=-15.0, wangfen=10.0, rescue=0.5, realize=0.5,
    later_points=3.0, keep_defender=0.3,
)


def _native_action(entry: tuple[int, int, int, list[int]]) -> tuple[object, ...]:
    kind, seat, value, cards = entry
    if kind == 0:
        return ("bid", seat, None if value < 0 else value)
    if kind == 1:
        return ("declare", seat, SUITS[value], tuple(cards))
    return ("play", seat, tuple(cards))


def _python_action(seat: int, action: Action) -> tuple[object, ...]:
    if isinstance(action, Play):
        return ("play", seat, tuple(action.cards))
    if isinstance(action, Declare):
        return ("declare", seat, action.trump, tuple(action.bury))
    assert isinstance(action, Bid)
    return ("bid", seat, action.value)


def _lockstep(rules: RuleSet, seed: int, weights: RuleWeights) -> int:
    """A Python hand played by Python rule bots and its native twin: the native rule player's
    choice (and its list of play candidates) equals the bot's at every decision. Returns the
    decisions checked."""
    return _lockstep_hand(Hand(rules, seed=seed), weights)


def _lockstep_hand(hand: Hand, weights: RuleWeights) -> int:
    from baofen._native.batch import native_rules
    from baofen.bots.native_players import native_weights

    rules = hand.rules
    seed = hand.seed
    twin = native.core().Hand(native_rules(rules), [c for p in hand.deal for c in p], hand.first)
    bots = [RulePlayer(weights) for _ in range(4)]
    natives = [NativeRulePlayer(weights) for _ in range(4)]
    w = native_weights(weights)
    decisions = 0
    for seat in hand.turns():
        obs = hand.observation(seat)
        if hand.phase == "playing":
            plays = bots[seat].play_candidates(obs, 6)
            assert [list(p) for p in plays] == twin.rule_plays(w, 6), (seed, len(hand.tricks))
            assert natives[seat].play_candidates(obs, 6) == plays  # from the observation
            action: Action = Play.of(plays[0])
        else:
            action = bots[seat].act(obs)
            assert natives[seat].act(obs) == action
        assert _native_action(twin.rule_action(w)) == _python_action(seat, action), seed
        hand.apply(seat, action)
        twin.rule_act(w)
        decisions += 1
    assert twin.phase == "done"
    result = twin.result()
    assert result is not None and hand.result is not None
    assert tuple(result[9:13]) == hand.result.deltas
    return decisions


@needs_native
@pytest.mark.parametrize("profile", PROFILES)
def test_rule_decisions_agree_move_by_move(profile: str) -> None:
    rules = PROFILES[profile]
    decisions = sum(_lockstep(rules, seed, RuleWeights()) for seed in range(LOCKSTEP_HANDS))
    assert decisions > LOCKSTEP_HANDS * 20


@needs_native
@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_rule_decisions_agree_with_other_weights(variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    for seed in range(100, 100 + LOCKSTEP_HANDS):
        _lockstep(rules, seed, OTHER_WEIGHTS)


@needs_native
@pytest.mark.parametrize("profile", PROFILES)
def test_native_rule_hands_replay_in_the_python_engine(profile: str) -> None:
    from baofen.bots.native_players import player_hands

    rules = PROFILES[profile]
    hands = [Hand(rules, seed=seed) for seed in range(1000, 1000 + REPLAY_HANDS)]
    # North and South the rule player (other weights for South), East and West random.
    players = [RuleWeights(), "random", OTHER_WEIGHTS, "random"]
    played = player_hands(hands, players, player_seed=7)  # type: ignore[arg-type]
    for number, (hand, native_hand) in enumerate(zip(hands, played, strict=True)):
        if number % 20 == 0:
            hand = Hand.from_record(native_hand.to_record())  # checks the recorded result too
        else:
            for seat, action in native_hand.actions:
                hand.apply(seat, action)
        assert hand.result == native_hand.result, (profile, native_hand.seed)
        assert [t.winner for t in hand.tricks] == list(native_hand.winners)
    # Whole rule-player hands: each one's actions are the Python rule bots' (a few checked).
    for native_hand in player_hands(hands[:3], "rule"):
        replay = Hand(rules, seed=native_hand.seed)
        bots = [RulePlayer() for _ in range(4)]
        for seat, action in native_hand.actions:
            assert bots[seat].act(replay.observation(seat)) == action
            replay.apply(seat, action)
        assert replay.result == native_hand.result


@needs_native
@pytest.mark.parametrize("structure", [True, False])
def test_rule_decisions_agree_with_an_eight_of_a_kind(structure: bool) -> None:
    """Deals where one seat holds all eight cards of a rank (八张 leads, and the voids they
    show): the decisions agree, and the rule player leads an eight in some of them."""
    import random

    from baofen.cards import full_pack

    rules = RuleSet.baofen(must_follow_structure=structure)
    rng = random.Random(f"eight {structure}")
    eights = 0
    for number in range(36):
        if eights == 2:
            break
        rank = 3 + number % 12
        eight = [suit * 13 + rank - 2 for suit in range(4) for _ in (0, 1)]
        rest = [int(c) for c in full_pack()]
        for card in eight:
            rest.remove(card)
        rng.shuffle(rest)
        holder = rank % 4
        hands = [rest[17:42], rest[42:67], rest[67:92]]
        hands.insert(holder, eight + rest[:17])
        hand = Hand(rules, first=holder, hands=hands, kitty=rest[92:])
        _lockstep_hand(hand, RuleWeights())
        eights += any(len(t.plays[0][1]) == 8 for t in hand.tricks)
    assert eights


@needs_native
def test_random_seats_play_as_the_random_hands() -> None:
    from baofen._native.batch import random_table
    from baofen.bots.native_players import player_table

    rules = RuleSet.baofen()
    seeds = range(40)
    assert player_table(rules, seeds, "random", player_seed=5) == random_table(rules, seeds, 5)
    assert player_table(rules, seeds, "rule") == player_table(rules, seeds, "rule", 9)
    assert player_table(rules, seeds, "rule") != player_table(rules, seeds, OTHER_WEIGHTS)


def test_the_rule_bot_decides_on_the_engine_in_use() -> None:
    assert RuleBot().engine is current() and current().name == native.engine_name()
    assert isinstance(RuleBot().player, NativeRulePlayer) == native.available()
    with use(python()):
        bot = RuleBot()
    assert bot.engine.name == "python" and not isinstance(bot.player, NativeRulePlayer)


@needs_native
def test_rule_action_of_a_python_hand() -> None:
    from baofen.bots.native_players import rule_action

    rules = RuleSet.hongwu()
    hand = Hand(rules, seed=21)
    bots = [RulePlayer(OTHER_WEIGHTS) for _ in range(4)]
    while len(hand.tricks) < 3 or hand.lead_shape is None:
        seat = hand.to_act
        assert seat is not None
        action = bots[seat].act(hand.observation(seat))
        assert rule_action(hand, OTHER_WEIGHTS) == action
        hand.apply(seat, action)
    with pytest.raises(ValueError):
        native.core().RuleWeights({"no_such_weight": 1.0})


@needs_native
def test_play_out_candidates_from_worlds() -> None:
    from baofen._native.batch import native_hand
    from baofen.bots.native_players import native_weights, play_out_candidates, play_out_with

    rules = RuleSet.baofen()
    worlds = []
    for seed in range(30, 60):
        hand = Hand(rules, seed=seed)
        bots = [RulePlayer() for _ in range(4)]
        hand.play_out(bots, until=lambda h: len(h.tricks) >= 4)
        if hand.phase == "playing" and hand.lead_shape is None:
            worlds.append(native_hand(hand))
        if len(worlds) == 4:
            break
    assert len(worlds) == 4
    # Worlds of one position would share the seat's cards; here each world gets its own legal
    # leads, so the candidates are checked one world at a time.
    for world in worlds:
        candidates = world.rule_plays(native_weights(), 3)
        results = play_out_candidates(rules, [world, world], candidates, "rule")
        assert len(results) == 2 and all(len(row) == len(candidates) for row in results)
        assert results[0] == results[1]  # the rule player is deterministic
        for cards, result in zip(candidates, results[0], strict=True):
            copy = world.copy()
            seat = copy.to_act
            assert seat is not None
            copy.play(seat, cards)
            assert play_out_with(rules, [copy], "rule") == [result]
        assert world.phase == "playing"  # the worlds themselves are unchanged
    with pytest.raises(ValueError):
        play_out_candidates(rules, worlds[:1], [[999]], "rule")
