"""复盘: the review of a finished hand flags a known blunder, and ``baofen analyze`` reports it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baofen import Hand, RuleSet, play_hand
from baofen._native import available as native_available
from baofen.actions import Play
from baofen.bots import make_bot
from baofen.bots.engine import native, python, use
from baofen.bots.rule.bot import RuleBot
from baofen.cards import POINTS
from baofen.cli import app
from baofen.observation import Observation
from baofen.review import (
    HINT,
    THRESHOLDS,
    VERSION,
    accuracy,
    decisions,
    review_action,
    review_hand,
    sure_winners,
)
from baofen.review.confirm import (
    CATEGORY_BATCHES,
    CONFIRM,
    EXTENSIONS,
    PICK,
    PRUNE,
    Worlds,
    categorize,
    confirm,
    rivals,
    undecided,
)
from bench.common.screen import planted, points_let_go

Planted = tuple[Hand, int, int]
"""A finished hand with a blunder planted, the index of that play among its actions, its seat."""


def blunder_hand(seed: int) -> Planted | None:
    """Once, the last seat to play on a trick worth 20 points or more that an opponent is
    winning, and that the rule bot would take, lets it go instead (plays a legal card that does
    not win)."""
    return planted(seed, points_let_go)


def first_blunder() -> tuple[Hand, int, int]:
    for seed in range(30):
        found = blunder_hand(seed)
        if found is not None:
            return found
    raise AssertionError("no deal with a trick to blunder on")


def test_review_flags_points_thrown_to_the_declarer() -> None:
    hand, action, seat = first_blunder()
    review = review_hand(hand, [seat], worlds=16, candidates=4)
    assert {move.seat for move in review.moves} == {seat}
    (move,) = [m for m in review.moves if m.action == action]
    # A mistake or a blunder: over the threshold and told from noise (its lower bound over it).
    assert move.category in ("mistake", "blunder") and move.reason is not None, move
    assert move.loss >= move.loss_low >= review.thresholds["mistake"]
    # The confirm stage measured it, on fresh worlds (more of them while undecided).
    assert move.best != move.made
    assert move.worlds in (CONFIRM * 16 * k for k in range(1, EXTENSIONS + 2))
    assert move.value_best - move.value_made == pytest.approx(move.loss, abs=0.01)
    summary = review.seats[0]
    assert summary.seat == seat and summary.mistakes + summary.blunders >= 1
    assert summary.matched < summary.choices <= summary.moves == len(review.moves)
    assert 0.0 <= summary.accuracy < 100.0
    # Reviewed alone, on worlds of its own seed, the move gets the same verdict.
    assert review_action(hand, action, worlds=16, candidates=4) == move


def highest_trump_thrown(seed: int) -> Planted | None:
    """Once, a seat that must follow an opponent's winning single trump it cannot beat, and
    whose highest trump would be a sure winner, throws that trump where the rule bot plays a
    lower one that is not (the issue's known blunder: the highest trump thrown away on a lost
    trick)."""
    return planted(seed, _winner_thrown)


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
        review = review_hand(hand, [seat], worlds=8, candidates=4, actions=[action])
        (move,) = review.moves
        assert move.category and move.reason is not None, move
        assert move.best != move.made
        summary = review.seats[0]
        assert summary.inaccuracies + summary.mistakes + summary.blunders == 1
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
            assert [m for m in plays if m.reason and m.reason.kind == "wasted_winner"] == []
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
                                      "--budget", "16", "--candidates", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert ("mistake" in result.output or "blunder" in result.output), result.output
    assert "summary" in result.output and "accuracy" in result.output
    (review,) = json.loads(out.read_text(encoding="utf-8"))
    assert review["unit"] == "points" and review["hint"] == HINT
    flagged = [m for m in review["moves"] if m["category"] in ("mistake", "blunder")]
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
    assert move["category"] and move["reason"]["kind"] in (
        "card", "trick", "value", "wasted_winner", "bid", "declare")
    named = "sure winner thrown"
    assert (named in result.output) == (move["reason"]["kind"] == "wasted_winner"), result.output


def test_a_loss_is_a_mistake_only_when_told_from_noise() -> None:
    """The paired statistics of the review: the same difference in every world is certain; a
    large mean difference from two noisy worlds is not told from noise."""
    same = Worlds()
    for weight in (1.0, 0.5, 0.25):
        same.add(weight, [10.0, -2.0])
    assert same.paired(0, 1) == (12.0, 12.0)
    noisy = Worlds()
    noisy.add(1.0, [40.0, 0.0])
    noisy.add(1.0, [-20.0, 0.0])
    loss, low = noisy.paired(0, 1)
    assert loss == 10.0 and low < 0.0
    steady = Worlds()
    for diff in (9.0, 11.0, 10.0, 12.0, 8.0, 10.0):
        steady.add(1.0, [diff, 0.0])
    loss, low = steady.paired(0, 1)
    assert loss == 10.0 and 0.0 < low < loss


def test_a_category_needs_its_threshold_told_from_noise() -> None:
    """A move is in a category only where its loss's lower bound reaches the threshold: a loss
    over the mistake threshold whose interval reaches below it is an inaccuracy, and one over
    the inaccuracy threshold not told from it is not flagged."""
    limits = THRESHOLDS["baofen"]
    assert categorize(limits, 4.9) == "" and categorize(limits, 5.0) == "inaccuracy"
    assert categorize(limits, 9.0) == "inaccuracy" and categorize(limits, 10.0) == "mistake"
    assert categorize(limits, 30.0) == "blunder" and categorize(limits, -1.0) == ""
    # Undecided while a threshold (the inaccuracy one too) lies within the interval; a verdict
    # taken early needs a wider margin.
    assert undecided(6.0, 4.0, limits) and undecided(4.0, 2.5, limits)
    assert not undecided(7.5, 6.0, limits) and undecided(7.5, 6.0, limits, widen=2.0)
    assert not undecided(1.0, 0.5, limits)
    # A flag taken early needs a wider margin still (the lower side, widened on its own).
    assert undecided(7.5, 6.0, limits, widen=1.0, widen_low=2.0)
    assert not undecided(4.0, 3.5, limits, widen=1.0, widen_low=5.0)


def _worlds(rows: list[list[float]]) -> Worlds:
    out = Worlds()
    for row in rows:
        out.add(1.0, row)
    return out


def test_the_confirm_stage_takes_options_the_screen_could_not_tell_apart() -> None:
    """Once an option's gain on the screen reaches a share of the inaccuracy threshold, or its
    upper bound the threshold, every other option is compared (best first: the screen does not
    pick the best reliably); a screen that tells every option from the move by the threshold
    runs no confirm stage."""
    # Option 0 the move made; 1 a little above it; 2 below it but noisy; 3 steadily below.
    screen = _worlds([[0.0, 0.5, 20.0, -3.0], [0.0, 0.5, -30.0, -3.0]] * 4)
    assert rivals(screen, 0, range(4), 5.0) == [1, 3, 2]
    steady = _worlds([[0.0, 0.5, -3.0]] * 8)  # all told apart, none gaining 30% of 5 points
    assert rivals(steady, 0, range(3), 5.0) == []
    assert rivals(_worlds([[0.0, 2.0]] * 8), 0, range(2), 5.0) == [1]  # 2 points ≥ 30% of 5
    assert rivals(screen, 0, [0], 5.0) == []  # a bid made as the hint's choice


def test_confirm_draws_while_a_threshold_is_within_the_interval() -> None:
    """A clear loss is decided on the first batch; one near a threshold is measured on every
    batch; from :data:`PRUNE` batches on an option worse than the best so far (told from
    noise) is no longer drawn."""
    limits = THRESHOLDS["baofen"]
    asked: list[list[int]] = []

    def evaluate(picked: list[int], n: int, gains: dict[int, list[float]]) -> Worlds:
        asked.append(list(picked))
        rows = [[gains.get(i, [0.0])[k % len(gains.get(i, [0.0]))] for i in picked]
                for k in range(n)]
        return _worlds(rows)

    clear = {1: [30.0, 32.0], 2: [1.0, 2.0]}  # option 1 loses 31 points to the move 0
    best, loss, low, value_best, value_made, worlds = confirm(
        lambda picked, n: evaluate(picked, n, clear), [1, 2], 0, limits, 32)
    assert (best, loss, worlds, value_best, value_made) == (1, 31.0, 32, 31.0, 0.0)
    assert low > limits["blunder"] and asked == [[1, 2, 0]]
    asked.clear()
    near = {1: [-10.0, 30.0], 2: [-20.0, 10.0]}  # option 1: 10 points, noisy
    best, loss, low, _, _, worlds = confirm(
        lambda picked, n: evaluate(picked, n, near), [1, 2], 0, limits, 32)
    # Only its category undecided (the mistake threshold within its interval): so many batches.
    assert best == 1 and loss == 10.0 and low < limits["mistake"]
    assert worlds == 32 * CATEGORY_BATCHES and categorize(limits, low) == "inaccuracy"
    assert asked[:PRUNE] == [[1, 2, 0]] * PRUNE and asked[PRUNE:] == [[1, 0]] * (
        CATEGORY_BATCHES - PRUNE)
    asked.clear()
    flag = {1: [-15.0, 25.0]}  # 5 points, noisy: whether it is flagged at all is undecided
    *_, low, _, _, worlds = confirm(lambda picked, n: evaluate(picked, n, flag), [1], 0, limits,
                                    32)
    assert worlds == 32 * (EXTENSIONS + 1) and categorize(limits, low) == ""
    asked.clear()
    tied = {1: [-10.0, 30.0], 2: [30.0, -10.0]}  # two better options not told apart
    confirm(lambda picked, n: evaluate(picked, n, tied), [1, 2], 0, limits, 32)
    assert asked[:PICK] == [[1, 2, 0]] * PICK and len(asked) == CATEGORY_BATCHES
    assert all(len(picked) == 2 and picked[1] == 0 for picked in asked[PICK:])


def test_every_option_is_valued_on_common_worlds_and_bids_follow_the_hint() -> None:
    """Each reviewed decision lists every option it compared (the move made and the hint's
    choice among them) with its value; a bid is judged against the hint's choice, so a bid the
    hint would make is never flagged, and the review names the hint's player."""
    from baofen.server.table.assist import HINT_BOT

    assert HINT == HINT_BOT  # the review's hint is the table's 提示
    for variant in ("baofen", "hongwu"):
        hand = play_hand(RuleSet.create(variant=variant), 5, [RuleBot()] * 4)
        review = review_hand(hand, worlds=2, candidates=3, seats=[0, 1])
        assert review.hint == HINT and review.version == VERSION
        assert [m.action for m in review.moves] == decisions(hand, [0, 1])
        for move in review.moves:
            shown = [o.move for o in move.options]
            assert move.made in shown and move.hint in shown and len(shown) == move.candidates
            assert [o.value for o in move.options] == sorted(
                (o.value for o in move.options), reverse=True)
            if move.kind == "bid":
                assert move.best == move.hint == move.made  # rule bots bid as the hint does
                assert not move.category and move.loss == 0.0
        assert all(0.0 <= s.accuracy <= 100.0 for s in review.seats)
        assert not any(hasattr(s, "total_loss") for s in review.seats)  # no sum of losses


def test_accuracy_counts_flagged_losses_only() -> None:
    hand = play_hand(RuleSet.baofen(), 5, [RuleBot()] * 4)
    moves = review_hand(hand, worlds=1, candidates=2, seats=[2]).moves
    assert accuracy("baofen", moves) == 100.0 or any(m.category for m in moves)
    assert THRESHOLDS["baofen"]["inaccuracy"] < THRESHOLDS["baofen"]["mistake"] \
        < THRESHOLDS["baofen"]["blunder"]


@pytest.mark.skipif(not native_available(), reason="the native core is not built")
def test_the_native_engine_gives_the_same_review() -> None:
    """The review draws its worlds and plays them out on the native core where it is built: the
    same values and verdicts as on the Python engine (bids, the bury and plays)."""
    for variant in ("baofen", "hongwu"):
        hand = play_hand(RuleSet.create(variant=variant), 5, [make_bot("easy", seed=1)] * 4)
        chosen = decisions(hand)
        for index in chosen[:5] + chosen[20:60:10]:
            with use(native()):
                natively = review_action(hand, index, 4, 3)
            with use(python()):
                assert review_action(hand, index, 4, 3) == natively
