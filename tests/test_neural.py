"""The learned player: training writes weights, ``make_bot("neural", weights=…)`` plays legal
hands with them, and the arena takes it like any bot. Importing :mod:`baofen.env.neural`
registers it with the bots' registry."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import baofen.env.neural  # noqa: F401  (registers "neural")
from baofen import Hand, Play, RuleSet, play_hand
from baofen.arena import BotSpec, run_arena, summarize
from baofen.bots import make_bot
from baofen.bots.rule.bot import RuleBot
from baofen.env.candidates import candidates
from baofen.env.train import train


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Weights of a very short training run for each game."""
    out = {}
    for variant in ("baofen", "hongwu"):
        path = tmp_path_factory.mktemp("weights") / f"{variant}.pt"
        train(RuleSet.create(variant=variant), path, minutes=0.02, hands_per_round=2,
              steps_per_round=2, batch_size=16, warmup=0.5, log=lambda _: None)
        out[variant] = path
    return out


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_neural_bot_plays_legal_hands(weights: dict[str, Path], variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    bots = [make_bot("neural", seed=s, weights=str(weights[variant])) for s in range(4)]
    for deal in range(2):
        hand = play_hand(rules, deal, bots)  # raises if an action is illegal
        assert hand.result is not None


def test_neural_bot_is_deterministic_under_a_seed(weights: dict[str, Path]) -> None:
    def actions(seed: int) -> list[object]:
        rules = RuleSet.baofen()
        bots = [make_bot("neural", seed=seed, weights=str(weights["baofen"]), epsilon=0.3)
                for _ in range(4)]
        hand = play_hand(rules, 4, bots)
        return [a for _, a in hand.actions]

    assert actions(1) == actions(1)


def test_arena_takes_the_neural_bot_with_its_weights(weights: dict[str, Path]) -> None:
    spec = BotSpec.parse(f"neural:weights={weights['hongwu']}")
    rows = run_arena(RuleSet.hongwu(), spec, BotSpec.parse("random"), deals=2, seed=1)
    summary = summarize(rows)
    assert set(summary) == {spec.label, "random"}


def test_weights_must_exist_and_fit_the_game(weights: dict[str, Path], tmp_path: Path) -> None:
    hand = Hand(RuleSet.baofen(), seed=1)
    missing = make_bot("neural", weights=str(tmp_path / "none.pt"))
    with pytest.raises(ValueError, match="no weights"):
        missing.act(hand.observation(0))
    other = make_bot("neural", weights=str(weights["hongwu"]))
    with pytest.raises(ValueError, match="trained for hongwu"):
        other.act(hand.observation(0))


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_candidates_are_legal_with_the_rule_bots_choice_first(variant: str) -> None:
    rules = RuleSet.create(variant=variant)
    advisor = RuleBot()
    reference = RuleBot()
    rng = random.Random(3)
    for deal in range(3):
        hand = Hand(rules, seed=deal)
        for seat in hand.turns():
            obs = hand.observation(seat)
            options = candidates(obs, advisor, rng)
            assert options[0].rank == 0
            assert options[0].action == reference.act(obs)
            for option in options:
                if isinstance(option.action, Play):
                    assert hand.is_legal(seat, option.action.cards)
            hand.apply(seat, options[rng.randrange(len(options))].action)


def test_a_large_margin_keeps_to_the_rule_bots_choices(weights: dict[str, Path]) -> None:
    rules = RuleSet.baofen()
    neural = make_bot("neural", seed=1, weights=str(weights["baofen"]), margin=1e9)
    rule = RuleBot()
    for deal in range(2):
        hand = Hand(rules, seed=deal)
        for seat in hand.turns():
            obs = hand.observation(seat)
            action = neural.act(obs)
            assert action == rule.act(obs)
            hand.apply(seat, action)


def test_trust_limits_the_network_to_some_decisions(weights: dict[str, Path]) -> None:
    rules = RuleSet.baofen()
    neural = make_bot("neural", seed=1, weights=str(weights["baofen"]), trust="bidding")
    rule = RuleBot()
    hand = Hand(rules, seed=5)
    for seat in hand.turns():
        obs = hand.observation(seat)
        action = neural.act(obs)
        if hand.phase != "bidding":
            assert action == rule.act(obs)
        hand.apply(seat, action)
    with pytest.raises(ValueError, match="trust names phases"):
        make_bot("neural", weights=str(weights["baofen"]), trust="bidding+dancing")


@pytest.mark.parametrize(("variant", "ruled"), [
    ("baofen", {"kitty"}),  # the Q network bids
    ("hongwu", {"bidding", "kitty"}),  # no Q network ships: the rule bot bids too
])
def test_the_shipped_player_plays_the_evaluators_cards(variant: str, ruled: set[str]) -> None:
    from baofen.env.evaluator import Evaluator
    from baofen.env.neural import default_evaluator, default_weights

    assert default_weights(variant).exists() == ("bidding" not in ruled)
    neural = make_bot("neural", seed=2)
    rule = RuleBot()
    evaluator = Evaluator(default_evaluator(variant))
    departures = plays = 0
    for deal in (6, 7, 8):
        hand = Hand(RuleSet.create(variant=variant), seed=deal)
        for seat in hand.turns():
            obs = hand.observation(seat)
            action = neural.act(obs)
            if hand.phase == "playing":
                assert action == Play.of(evaluator.play(obs))
                departures += action != rule.act(obs)
                plays += 1
            elif hand.phase in ruled:
                assert action == rule.act(obs)
            hand.apply(seat, action)
    # The evaluator leaves the rule bot's play now and then (a few percent of the decisions).
    assert plays > 100 and departures > 0


def test_without_any_network_the_hongwu_player_says_what_is_missing() -> None:
    with pytest.raises(ValueError, match="no weights ship for hongwu"):
        make_bot("neural", evaluator="none").act(Hand(RuleSet.hongwu(), seed=1).observation(0))
