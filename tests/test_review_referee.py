"""The planted-blunder checks' referee (bench/review/referee.py): a plant's cost is the rule
bot's own play less the plant, each played on to the end, on the true deal and on deals drawn
for the seat; a blunder costs the inaccuracy threshold or more, beyond noise."""

from __future__ import annotations

from baofen import Hand
from baofen.bots.rule.bot import RuleBot
from baofen.review import seat_value
from bench.common.screen import planted, points_let_go
from bench.review.referee import Verdict, referee


def _first_plant() -> tuple[Hand, int, int]:
    for seed in range(30):
        found = planted(seed, points_let_go)
        if found is not None:
            return found
    raise AssertionError("no deal with a trick to let go")


def test_on_the_true_deal_the_referee_plays_both_moves_on() -> None:
    hand, action, seat = _first_plant()
    before = hand.redeal(action)
    values = []
    for first in (RuleBot().act(before.observation(seat)), hand.actions[action][1]):
        line = before.copy()
        line.apply(seat, first)
        line.play_out([RuleBot()] * 4)
        assert line.result is not None
        values.append(seat_value("baofen", line.result, seat))
    verdict = referee(hand, action, seat, level="rule", worlds=0)
    assert verdict == Verdict(values[0] - values[1], values[0] - values[1], 1)


def test_drawn_deals_are_counted_and_the_same_seed_gives_the_same_verdict() -> None:
    hand, action, seat = _first_plant()
    verdict = referee(hand, action, seat, level="rule", worlds=4, seed=3)
    assert verdict.deals == 5 and verdict.low < verdict.loss
    assert referee(hand, action, seat, level="rule", worlds=4, seed=3) == verdict


def test_a_blunder_reaches_the_threshold_beyond_noise() -> None:
    assert Verdict(6.0, 0.5, 17).blunder("baofen")
    assert not Verdict(6.0, -0.5, 17).blunder("baofen")  # not told from noise
    assert not Verdict(4.0, 2.0, 17).blunder("baofen")  # under the 5-point threshold
    assert Verdict(1.0, 0.2, 17).blunder("hongwu")
