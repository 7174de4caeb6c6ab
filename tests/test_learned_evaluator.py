"""The learned evaluator in plain Python (the search's prior in 大师): its rows, scores and picks
are the research code's, the package's file is the shipped network exported, and the search
takes its pick as the baseline."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from baofen import RuleSet
from baofen.bots.learned.bidder import default_weights as bidder_weights
from baofen.bots.learned.evaluator import (
    KINDS,
    ROW_SIZE,
    LearnedEvaluator,
    candidates_of,
    default_weights,
    read_weights,
    row_inputs,
)
from baofen.bots.levels import hard_bot, master_bot
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import search_bot
from bench.common.screen import positions


def test_the_package_ships_an_evaluator_for_baofen_only() -> None:
    evaluator = LearnedEvaluator()
    assert evaluator.serves(RuleSet.baofen())
    assert not evaluator.serves(RuleSet.hongwu())
    hand, seat = positions("hongwu", 1, seed=2)[0]
    obs = hand.observation(seat)
    plays, ranks = candidates_of(obs, RuleBot())
    with pytest.raises(ValueError, match="no network for hongwu"):
        evaluator.scores(obs, plays, ranks)


def test_an_evaluator_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a weights file"):
        read_weights(bidder_weights("baofen"))
    with pytest.raises(ValueError, match="no weights at"):
        read_weights(tmp_path / "none.enet")


def test_the_search_takes_the_evaluators_pick_as_its_baseline() -> None:
    """With a margin no search can clear, the search plays its baseline: the learned
    evaluator's pick with ``prior="evaluator"``, the rule bot's without."""
    evaluator = LearnedEvaluator()
    rule = RuleBot()
    departures = 0
    for index, (hand, seat) in enumerate(positions("baofen", 40, seed=6)):
        obs = hand.observation(seat)
        pick = evaluator.play(obs)
        options = dict(iterations=32, candidates=6, margin=1e9, seed=index)
        assert sorted(search_bot(prior="evaluator", **options).play(obs)) == sorted(pick)
        assert sorted(search_bot(**options).play(obs)) == sorted(rule.play(obs))
        departures += sorted(pick) != sorted(rule.play(obs))
    assert departures >= 3
    with pytest.raises(ValueError, match="prior is one of rule, evaluator"):
        search_bot(prior="oracle")


def test_master_searches_from_the_evaluators_pick_and_hard_from_the_rule_bots() -> None:
    assert master_bot().evaluator is not None
    assert hard_bot().evaluator is None


torch = pytest.importorskip("torch")


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_rows_are_the_research_features(variant: str) -> None:
    from baofen._native import available

    if not available():
        pytest.skip("the labels are made natively")
    from baofen.env.canonical import FINGERPRINT, VOID_FINGERPRINT, features
    from baofen.env.labels import label_hands

    rules = RuleSet.create(variant=variant)
    labels = label_hands(rules, [7], keep=1.0)
    hongwu = variant == "hongwu"
    d = labels.decision_of
    expected = features(hongwu, labels.states[d], labels.planes[d], labels.cards, labels.ranks)
    assert len(expected) > 100
    for row in range(len(expected)):
        decision = int(d[row])
        dense = np.zeros(ROW_SIZE)
        inputs = row_inputs(hongwu, labels.states[decision].tolist(),
                            labels.planes[decision].tolist(), labels.cards[row].tolist(),
                            int(labels.ranks[row]), FINGERPRINT.tolist(),
                            VOID_FINGERPRINT.tolist())
        for index, value in inputs:
            dense[index] = value
        assert np.allclose(dense, expected[row], atol=1e-6), row
    assert KINDS == 54


def test_the_package_file_is_the_shipped_evaluator_exported(tmp_path: Path) -> None:
    from baofen.env.evaluator import export
    from baofen.env.neural import default_evaluator

    out = tmp_path / "evaluator-baofen.enet"
    export(default_evaluator("baofen"), out)
    assert out.read_bytes() == default_weights("baofen").read_bytes()


def test_scores_and_picks_are_the_research_evaluators() -> None:
    from baofen.env.evaluator import Evaluator
    from baofen.env.neural import default_evaluator

    research = Evaluator(default_evaluator("baofen"))
    plain = LearnedEvaluator()
    for hand, seat in positions("baofen", 60, seed=5):
        obs = hand.observation(seat)
        plays, ranks = candidates_of(obs, research.rule)
        assert np.allclose(plain.scores(obs, plays, ranks), research.scores(obs, plays, ranks),
                           atol=1e-5)
        assert sorted(plain.play(obs)) == sorted(research.play(obs))
