"""复盘: the review of a finished hand flags a known blunder, and ``baofen analyze`` reports it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baofen import Hand, RuleSet, play_hand
from baofen.actions import Play
from baofen.analysis import review_hand, sure_winners
from baofen.bots.rule_bot import RuleBot
from baofen.cards import POINTS
from baofen.cli import app
from baofen.observation import Observation

Planted = tuple[Hand, int, int]
"""A finished hand with a blunder planted, the index of that play among its actions, its seat."""


def rule_hand_with(seed: int, plant: Callable[[Observation, Play], Play | None]) -> Planted | None:
    """The 包分 hand of ``seed`` played by rule bots, where the first play that ``plant``
    replaces (it returns another play for the seat's view and the rule bot's play, or None)
    is replaced (None when it replaced none)."""
    hand = Hand(RuleSet.baofen(), seed=seed)
    bot = RuleBot()
    blunder: tuple[int, int] | None = None
    while hand.phase != "done":
        seat = hand.to_act
        assert seat is not None
        obs = hand.observation(seat)
        action = bot.act(obs)
        if blunder is None and isinstance(action, Play):
            replaced = plant(obs, action)
            if replaced is not None:
                action, blunder = replaced, (len(hand.actions), seat)
        hand.apply(seat, action)
    return None if blunder is None else (hand, *blunder)


def blunder_hand(seed: int) -> Planted | None:
    """Once, the last seat to play on a trick worth 20 points or more that an opponent is
    winning, and that the rule bot would take, lets it go instead (plays a legal card that does
    not win)."""
    return rule_hand_with(seed, _points_let_go)


def _points_let_go(obs: Observation, action: Play) -> Play | None:
    trick = obs.current_trick
    if len(trick) != 3 or obs.judge is None or obs.declarer is None:
        return None
    judge = obs.judge
    points = sum(POINTS[c] for _, cards in trick for c in cards)
    before = [cards for _, cards in trick]
    opponent = obs.declarer in (obs.seat, trick[judge.winner(before)][0])
    if not (opponent and points >= 20 and judge.winner([*before, action.cards]) == 3):
        return None
    losing = [p for p in RuleBot().play_candidates(obs) if judge.winner([*before, p]) != 3]
    return Play.of(losing[0]) if losing else None


def first_blunder() -> tuple[Hand, int, int]:
    for seed in range(30):
        found = blunder_hand(seed)
        if found is not None:
            return found
    raise AssertionError("no deal with a trick to blunder on")


def test_review_flags_points_thrown_to_the_declarer() -> None:
    hand, action, seat = first_blunder()
    review = review_hand(hand, [seat], worlds=24, candidates=4)
    assert {move.seat for move in review.moves} == {seat}
    (move,) = [m for m in review.moves if m.action == action]
    assert move.mistake and move.loss > review.threshold
    assert move.best != move.made
    summary = review.seats[0]
    assert summary.seat == seat and summary.mistakes >= 1
    assert summary.matched < summary.moves == len(review.moves)
    assert summary.total_loss >= move.loss


def highest_trump_thrown(seed: int) -> Planted | None:
    """Once, a seat that must follow an opponent's winning single trump it cannot beat, and
    whose highest trump would be a sure winner, throws that trump where the rule bot plays a
    lower one that is not (the issue's known blunder: the highest trump thrown away on a lost
    trick)."""
    return rule_hand_with(seed, _winner_thrown)


def _winner_thrown(obs: Observation, action: Play) -> Play | None:
    if not _lost_trump_trick(obs):
        return None
    assert obs.judge is not None
    order = obs.judge.order
    highest = max((c for c in obs.hand if order.is_trump(c)), key=order.strength.__getitem__)
    thrown = (highest,)
    if (action.cards != thrown and POINTS[action.cards[0]] == 0
            and sure_winners(obs, action.cards) > sure_winners(obs, thrown)):
        return Play.of(thrown)
    return None


def _lost_trump_trick(obs: Observation) -> bool:
    """True when an opponent leads a single trump that none of the seat's trumps beats."""
    if obs.judge is None or obs.declarer is None or len(obs.current_trick) != 1:
        return False
    leader, led = obs.current_trick[0]
    judge = obs.judge
    trumps = [c for c in obs.hand if judge.order.is_trump(c)]
    return ((leader == obs.declarer) != (obs.seat == obs.declarer) and len(led) == 1
            and judge.order.is_trump(led[0]) and len(trumps) >= 2
            and all(judge.winner([led, (c,)]) == 0 for c in trumps))


def test_review_flags_the_highest_trump_thrown_on_a_lost_trick() -> None:
    flagged = 0
    for seed in range(40):
        if flagged == 3:
            break
        found = highest_trump_thrown(seed)
        if found is None:
            continue
        hand, action, seat = found
        review = review_hand(hand, [seat], worlds=8, candidates=4)
        (move,) = [m for m in review.moves if m.action == action]
        assert move.mistake and move.reason in ("loss", "wasted_winner"), move
        assert move.best != move.made
        assert review.seats[0].mistakes >= 1 and review.seats[0].matched < review.seats[0].moves
        flagged += 1
    assert flagged == 3  # the deals hold such tricks


def test_the_rule_bots_own_plays_waste_no_winner() -> None:
    """No false alarm: in rule-bot hands of both games, the rule bot's plays (it follows a
    lost trick with its lowest card) are never taken for a winner thrown away."""
    reviewed = 0
    for variant in ("baofen", "hongwu"):
        for seed in range(2):
            bot = RuleBot()
            hand = play_hand(RuleSet.create(variant=variant), seed, [bot] * 4)
            review = review_hand(hand, worlds=1, candidates=8)
            plays = [m for m in review.moves if m.kind == "play"]
            assert len(plays) == sum(isinstance(a, Play) for _, a in hand.actions)
            assert [m for m in plays if m.reason == "wasted_winner"] == []
            reviewed += len(plays)
    assert reviewed > 150


def test_review_needs_a_finished_hand() -> None:
    hand = Hand(RuleSet.baofen(), seed=1)
    with pytest.raises(ValueError, match="finished"):
        review_hand(hand)
    with pytest.raises(ValueError, match="0–3"):
        review_hand(first_blunder()[0], [4])


def test_analyze_command_prints_and_writes_the_review(tmp_path: Path) -> None:
    hand, action, seat = first_blunder()
    records = tmp_path / "hands.json"
    records.write_text(json.dumps([hand.to_record()]), encoding="utf-8")
    out = tmp_path / "review.json"
    result = CliRunner().invoke(app, ["analyze", str(records), "--seat", str(seat),
                                      "--budget", "24", "--candidates", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "mistake" in result.output and "summary" in result.output
    (review,) = json.loads(out.read_text(encoding="utf-8"))
    assert review["unit"] == "points"
    flagged = [m for m in review["moves"] if m["mistake"]]
    assert action in {m["action"] for m in flagged}
    assert review["seats"][0]["seat"] == seat


def test_analyze_command_names_a_winner_thrown_away(tmp_path: Path) -> None:
    found = next(f for f in map(highest_trump_thrown, range(40)) if f is not None)
    hand, action, seat = found
    records = tmp_path / "hands.json"
    records.write_text(json.dumps([hand.to_record()]), encoding="utf-8")
    out = tmp_path / "review.json"
    result = CliRunner().invoke(app, ["analyze", str(records), "--seat", str(seat), "--budget",
                                      "4", "--candidates", "4", "--out", str(out)],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    (review,) = json.loads(out.read_text(encoding="utf-8"))
    (move,) = [m for m in review["moves"] if m["action"] == action]
    assert move["mistake"] and move["reason"] in ("loss", "wasted_winner")
    named = "sure winner thrown on a lost trick"
    assert (named in result.output) == (move["reason"] == "wasted_winner"), result.output
