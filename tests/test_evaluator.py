"""The learned evaluator: native labels, the trump-canonical features, the
training command and the gate's core."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from baofen import Hand, RuleSet
from baofen._native import available
from baofen.actions import Play
from baofen.bots.rule.bot import RuleBot

pytestmark = pytest.mark.skipif(not available(), reason="the labels are made natively")


def _rules(variant: str) -> RuleSet:
    return RuleSet.baofen() if variant == "baofen" else RuleSet.hongwu()


def _decisions(rules: RuleSet, seed: int) -> list[tuple[Hand, list[tuple[int, ...]]]]:
    """The Python engine's rule-bot hand of ``seed``: each play decision the labels keep (two
    rule candidates or more), as a copy of the hand, with the rule bot's candidates."""
    from baofen.env.labels import record_of  # noqa: F401  (the module under test loads)

    hand = Hand(rules, seed=seed)
    bot = RuleBot()
    out = []
    for seat in hand.turns():
        obs = hand.observation(seat)
        if hand.phase == "playing":
            plays = bot.play_candidates(obs, 12)
            if len(plays) > 1:
                out.append((hand.copy(), [tuple(p) for p in plays]))
        hand.apply(seat, bot.act(obs))
    return out


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_records_and_labels_match_the_python_engine(variant: str) -> None:
    from baofen.bots.learned.evaluator import FIRST_ROW, HAND_INDEX, OPTIONS
    from baofen.env.labels import label_hands, record_of

    rules = _rules(variant)
    seed = 4
    labels = label_hands(rules, [seed], limit=12, wide=0, keep=1.0)
    decisions = _decisions(rules, seed)
    assert len(labels) == len(decisions) > 20
    bot = RuleBot()
    for d, (hand, plays) in enumerate(decisions):
        seat = hand.to_act
        assert seat is not None
        state, planes = record_of(hand.observation(seat))
        native = labels.states[d].copy()
        assert native[HAND_INDEX] == 0
        native[[HAND_INDEX, OPTIONS, FIRST_ROW]] = 0
        assert np.array_equal(native, state)
        assert np.array_equal(labels.planes[d], planes)
        first = int(labels.states[d, FIRST_ROW])
        count = int(labels.states[d, OPTIONS])
        rows = range(first, first + count)
        # The rule bot's candidates, in its order.
        assert [labels.ranks[r] for r in rows[:len(plays)]] == list(range(len(plays)))
        for r, play in zip(rows, plays, strict=False):
            assert np.array_equal(np.bincount(play, minlength=54), labels.cards[r])
        if d % 9:
            continue
        # The label: the Python engine's play-out of the candidate on the true deal.
        for r in rows[:4]:
            cards = tuple(int(c) for c in np.repeat(np.arange(54), labels.cards[r]))
            copy = hand.copy()
            copy.apply(seat, Play.of(cards))
            copy.play_out([bot] * 4)
            assert copy.result is not None
            assert labels.values[r] == copy.result.deltas[seat]
    advantages = labels.advantages
    assert np.all(advantages[labels.states[:, FIRST_ROW]] == 0)


def _renamed(labels, perm):  # type: ignore[no-untyped-def]
    """``labels``' records with the suits renamed by ``perm`` (old suit → new), trump too."""
    from baofen.bots.learned.evaluator import LEAD_GROUP, TRUMP_SUIT, VOIDS

    new = np.array([perm[k // 13] * 13 + k % 13 if k < 52 else k for k in range(54)])
    states = labels.states.copy()
    planes = np.zeros_like(labels.planes)
    planes[..., new] = labels.planes
    cards = np.zeros_like(labels.cards)
    cards[..., new] = labels.cards
    states[:, TRUMP_SUIT] = np.array(perm)[states[:, TRUMP_SUIT]]
    voids = states[:, VOIDS:VOIDS + 4]
    renamed = voids & 16
    for group in range(4):
        renamed |= ((voids >> group) & 1) << perm[group]
    states[:, VOIDS:VOIDS + 4] = renamed
    lead = states[:, LEAD_GROUP]
    states[:, LEAD_GROUP] = np.where((lead >= 0) & (lead < 4),
                                     np.array(perm)[np.clip(lead, 0, 3)], lead)
    return states, planes, cards


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_features_are_trump_canonical(variant: str) -> None:
    from baofen.env.canonical import features, row_size
    from baofen.env.labels import label_hands

    labels = label_hands(_rules(variant), [7, 8], keep=1.0)
    d = labels.decision_of
    hongwu = variant == "hongwu"
    rows = features(hongwu, labels.states[d], labels.planes[d], labels.cards, labels.ranks)
    assert rows.shape == (len(labels.values), row_size())
    # 包分: any renaming of the suits; 包红五: S↔C (hearts hold the red five, the trump's
    # same-colour suit its 参谋).
    perms = list(itertools.permutations(range(4))) if not hongwu else [(2, 1, 0, 3)]
    for perm in perms[1:] if not hongwu else perms:
        states, planes, cards = _renamed(labels, perm)
        assert np.array_equal(rows, features(hongwu, states[d], planes[d], cards, labels.ranks))
    # Renaming changes the raw records (so the equality above is not a trivial one).
    states, planes, _ = _renamed(labels, (1, 0, 3, 2) if not hongwu else (2, 1, 0, 3))
    assert not np.array_equal(planes, labels.planes)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A tiny run of the training command: its weights and its arguments."""
    from baofen.env.evaluator import main

    folder = tmp_path_factory.mktemp("evaluator")
    out = folder / "tiny.pt"
    args = ["--variant", "baofen", "--labels", "300", "--seed", "3", "--epochs", "1",
            "--hidden", "16", "--out", str(out), "--cache", str(folder)]
    report = main(args)
    assert report is not None
    assert report.decisions == 300 and report.rows > 600
    assert report.oracle >= report.gain and report.oracle > 0
    assert (folder / "baofen-labels300-seed3.npz").exists()
    return out, args


def test_training_command_on_a_tiny_run(tiny: tuple[Path, list[str]]) -> None:
    import torch

    from baofen.bots.learned.evaluator import candidates_of
    from baofen.env.evaluator import Evaluator, load, main

    out, args = tiny
    first = {k: v.clone() for k, v in load(str(out))[0].state_dict().items()}
    load.cache_clear()
    main(args)  # the cached labels, the same seed: the same weights
    again = load(str(out))[0].state_dict()
    assert all(torch.equal(first[k], again[k]) for k in first)
    evaluator = Evaluator(out)
    hand, _ = _decisions(_rules("baofen"), 5)[3]
    seat = hand.to_act
    assert seat is not None
    obs = hand.observation(seat)
    plays, ranks = candidates_of(obs, RuleBot())
    assert ranks[0] == 0 and len(plays) == len(ranks) > 1
    assert obs.is_legal(evaluator.play(obs))


def test_gate_core_on_a_handful_of_positions(tiny: tuple[Path, list[str]]) -> None:
    from bench.common.gate import screen, table
    from bench.common.screen import positions, true_values

    rows = screen("baofen", 4, 11, tiny[0], hard="hard:iterations=32:gate=8:kitty=0")
    assert len(rows) == 4
    for row, (hand, seat) in zip(rows, positions("baofen", 4, 11), strict=True):
        assert row.best >= max(row.evaluator, row.hard, 0.0)
        assert row.role == ("declarer" if seat == hand.declarer else "defender")
        # The gate's values are the Python engine's play-outs on the true deal.
        play = RuleBot().play(hand.observation(seat))
        copy = hand.copy()
        copy.apply(seat, Play.of(play))
        copy.play_out([RuleBot()] * 4)
        assert copy.result is not None
        assert true_values(hand, seat, [play]) == [float(copy.result.deltas[seat])]
    text = table(rows, "score points")
    assert "verdict:" in text and "| all | 4 |" in text


def test_the_learned_player_plays_the_evaluators_cards(tiny: tuple[Path, list[str]]) -> None:
    import baofen.env.neural  # noqa: F401  (registers "neural")
    from baofen.bots import make_bot
    from baofen.env.evaluator import Evaluator

    out, _ = tiny
    # A huge margin keeps the Q network to the rule bot's bids: the cards are the evaluator's.
    neural = make_bot("neural", seed=1, evaluator=str(out), margin=1e9)
    evaluator = Evaluator(out)
    rule = RuleBot()
    hand = Hand(_rules("baofen"), seed=7)
    plays = 0
    for seat in hand.turns():
        obs = hand.observation(seat)
        action = neural.act(obs)
        if hand.phase == "playing":
            assert action == Play.of(evaluator.play(obs))
            plays += 1
        else:
            assert action == rule.act(obs)
        hand.apply(seat, action)
    assert hand.result is not None and plays >= 40
    with pytest.raises(ValueError, match="choose one"):
        make_bot("neural", evaluator=str(out), trust="bidding+playing")
    # Naming playing in trust gives the cards back to the Q network (here: its margin, the rule
    # bot's); evaluator=none leaves them to the rule bot.
    options: dict[str, str]
    for options in ({"trust": "playing"}, {"evaluator": "none"}):
        other = make_bot("neural", seed=1, margin=1e9, **options)
        copy = Hand(_rules("baofen"), seed=7)
        for seat in copy.turns():
            obs = copy.observation(seat)
            action = other.act(obs)
            assert action == rule.act(obs)
            copy.apply(seat, action)


def test_without_a_q_network_the_rule_bot_bids_where_an_evaluator_plays(tmp_path: Path) -> None:
    """包红五 has no Q network: a learned player given an evaluator bids and buries as the rule
    bot and plays the evaluator's cards; without an evaluator it still says what is missing."""
    import baofen.env.neural  # noqa: F401  (registers "neural")
    from baofen.bots import make_bot
    from baofen.env.evaluator import Evaluator, main

    out = tmp_path / "tiny-hongwu.pt"
    main(["--variant", "hongwu", "--labels", "200", "--seed", "4", "--epochs", "1",
          "--hidden", "16", "--out", str(out)])
    neural = make_bot("neural", seed=1, evaluator=str(out))
    evaluator = Evaluator(out)
    rule = RuleBot()
    hand = Hand(_rules("hongwu"), seed=9)
    phases = set()
    for seat in hand.turns():
        obs = hand.observation(seat)
        action = neural.act(obs)
        phases.add(hand.phase)
        if hand.phase == "playing":
            assert action == Play.of(evaluator.play(obs))
        else:
            assert action == rule.act(obs)
        hand.apply(seat, action)
    assert hand.result is not None and {"bidding", "playing"} <= phases
    with pytest.raises(ValueError, match="no weights ship for hongwu"):
        make_bot("neural", evaluator="none").act(Hand(_rules("hongwu"), seed=1).observation(0))


def test_training_labels_in_parts(tmp_path: Path) -> None:
    from baofen.env.evaluator import main
    from baofen.env.labels import Labels, generate

    args = ["--variant", "baofen", "--labels", "120", "--seed", "5", "--parts", "2",
            "--epochs", "1", "--hidden", "8", "--cache", str(tmp_path)]
    report = main(args)
    assert report is not None
    assert report.decisions == 120
    # Part k is the label set of seed 5 + k, whatever the machine's cores.
    for seed in (5, 6):
        part = Labels.load(str(tmp_path / f"baofen-labels60-seed{seed}.npz"))
        again = generate(_rules("baofen"), 60, seed=seed)
        assert np.array_equal(part.states, again.states)
        assert np.array_equal(part.values, again.values)
    with pytest.raises(SystemExit):
        main([*args[:4], "--parts", "7"])  # 7 does not divide 120
