"""Puzzles: what makes a candidate, an answer's text read back as an action, the shipped set
(each puzzle's answer legal in its position, the runner-up confirmed worse, a reason), the
reason drawn from play-outs, themes, and a generation that goes on where it stopped."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest

from baofen.actions import Bid, Declare, Play
from baofen.hand import Hand
from baofen.puzzles import THEMES, candidate, nontrivial, player_puzzles
from baofen.puzzles.find import SAFETY, Puzzle, action_of, explain
from baofen.puzzles.generate import done_seeds, generate
from baofen.puzzles.shipped import shipped
from baofen.puzzles.themes import themes
from baofen.review import THRESHOLDS, MoveReview, Option, review_action
from baofen.review.hand import screen_action
from baofen.review.moves import ReasonKind
from bench.common.screen import planted, points_let_go


def _move(options: list[tuple[str, float]], hint: str, best: str | None = None) -> MoveReview:
    return MoveReview(
        action=10, trick=3, seat=0, kind="play", made=options[-1][0],
        best=best or options[0][0], hint=hint, value_made=0.0, value_best=0.0, loss=0.0,
        loss_low=0.0, category="", reason=None, candidates=len(options), worlds=12,
        options=[Option(m, v) for m, v in options])


def test_a_candidate_is_clearly_best_and_not_trivial() -> None:
    gap = THRESHOLDS["baofen"]["inaccuracy"]
    clear = [("SA", 10.0), ("S3", 10.0 - gap), ("H4", -3.0)]
    assert candidate("baofen", _move(clear, hint="S3"))  # the hint gets it wrong
    assert not candidate("baofen", _move(clear, hint="SA"))  # 3 options, the hint finds it
    alike = [*clear, ("D5", -9.0)]
    assert nontrivial(_move(alike, hint="SA")) and candidate("baofen", _move(alike, hint="SA"))
    close = [("SA", 10.0), ("S3", 10.0 - gap / 2), ("H4", -3.0)]
    assert not candidate("baofen", _move(close, hint="S3"))  # not by a clear margin
    assert not candidate("baofen", _move([("SA", 10.0)], hint="H4"))  # no choice


def test_the_screen_that_finds_candidates_is_the_reviews_first_stage_alone() -> None:
    for seed in range(30):
        found = planted(seed, points_let_go)
        if found is not None:
            break
    assert found is not None
    hand, action, _ = found
    reviewed = review_action(hand, action, worlds=12, candidates=3)
    screened = screen_action(hand, action, worlds=12, candidates=3)
    assert reviewed.category and reviewed.worlds > 12  # the blunder confirmed on more worlds
    # The same worlds and values, the best found there; no verdict and no reason.
    assert screened.options == reviewed.options and screened.worlds == 12
    assert screened.best == screened.options[0].move and screened.loss > 0
    assert (screened.category, screened.reason) == ("", None)


@pytest.mark.parametrize("game", ["baofen", "hongwu"])
def test_the_shipped_themes_are_read_from_the_position(game: str) -> None:
    last_round = 0
    for puzzle in shipped(game)[:300]:
        hand = Hand.from_record(puzzle["record"])
        obs = hand.redeal(puzzle["action"]).observation(puzzle["seat"])
        move = _move([(o["move"], o["value"]) for o in puzzle["options"]], puzzle["hint"],
                     puzzle["best"])
        found = themes(obs, replace(move, kind=puzzle["kind"]))
        assert found == puzzle["themes"], puzzle["id"]
        if "末轮抠底" in found:  # certainly one of the last three tricks
            last_round += 1
            assert obs.hand_sizes[puzzle["seat"]] - len(puzzle["best"].split()) <= 2
    assert last_round


def test_an_options_text_reads_back_as_its_action() -> None:
    assert action_of("play", "SA SA") == Play("SA SA")
    assert action_of("bid", "pass") == Bid(None) and action_of("bid", "85") == Bid(85)
    assert action_of("declare", "C: S3 S4 H5 H6 D7 D8 C9 CT") == Declare(
        "C", "S3 S4 H5 H6 D7 D8 C9 CT")


@pytest.mark.parametrize("game", ["baofen", "hongwu"])
def test_the_shipped_set(game: str) -> None:
    from baofen.server.puzzles.position import answer_text, judgement

    puzzles = shipped(game)
    assert puzzles, "a starting set is shipped"
    assert len({p["id"] for p in puzzles}) == len(puzzles)
    threshold = THRESHOLDS[game]["inaccuracy"]
    for puzzle in puzzles[:40]:
        assert puzzle["game"] == game and set(puzzle["themes"]) <= set(THEMES)
        assert puzzle["margin_low"] >= SAFETY * threshold  # the runner-up confirmed worse
        values = [o["value"] for o in puzzle["options"]]
        assert puzzle["options"][0]["move"] == puzzle["best"] and values == sorted(values)[::-1]
        assert values[0] - values[1] >= threshold  # the values shown agree with the margin
        hand = Hand.from_record(puzzle["record"])
        assert hand.actions[puzzle["action"]][0] == puzzle["seat"]
        body = _body(puzzle["kind"], puzzle["best"])
        assert judgement(puzzle, answer_text(puzzle, body))["solved"]
        wrong = _body(puzzle["kind"], puzzle["options"][1]["move"])
        assert not judgement(puzzle, answer_text(puzzle, wrong))["solved"]
    # Every puzzle says why its best beats the runner-up, in a 复盘 reason's words.
    assert all(p["reason"] and p["reason"]["kind"] in get_args(ReasonKind) for p in puzzles)


def test_a_puzzle_is_explained_by_play_outs_of_its_best_and_runner_up() -> None:
    """The reason names facts of the two moves (the declare reason: their trumps)."""
    puzzle = next(p for p in shipped("baofen") if p["kind"] == "declare")
    reason = explain(Puzzle.from_dict(puzzle))
    assert reason is not None and reason["kind"] == "declare"
    assert reason["facts"]["trump_best"] == puzzle["best"].split(":")[0]
    assert reason["facts"]["trump_made"] == puzzle["options"][1]["move"].split(":")[0]


def _body(kind: str, move: str) -> dict[str, object]:
    if kind == "play":
        return {"cards": move.split()}
    if kind == "bid":
        return {"bid": move if move == "pass" else int(move)}
    trump, _, bury = move.partition(":")
    return {"trump": trump.strip(), "bury": bury.split()}


def test_generation_goes_on_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    first = generate("hongwu", 1, out, workers=1)
    seeds = done_seeds(out)
    assert first == 1 and seeds
    lines = out.read_text().splitlines()
    second = generate("hongwu", 2, out, workers=1)
    assert second == 2
    after = out.read_text().splitlines()
    assert after[:1] == lines[:1] and len(after) == 2
    assert done_seeds(out) > seeds  # the searched deals were not searched again
    assert json.loads(after[1])["id"] != json.loads(after[0])["id"]
    with pytest.raises(ValueError, match="unknown game"):
        generate("chess", 1, out)


def test_a_players_hand_is_searched_only_with_consent() -> None:
    record = shipped("hongwu")[0]["record"]
    with pytest.raises(PermissionError, match="has not agreed"):
        player_puzzles(record, player=7, seat=0, consent=False)
    found = player_puzzles(record, player=7, seat=1, consent=True, worlds=4)
    assert all(p.source == "player:7" and p.seat == 1 for p in found)


def test_a_trump_and_bury_puzzle_asks_which_trump() -> None:
    from baofen.server.puzzles.position import judgement

    puzzle = {"kind": "declare", "game": "baofen", "best": "H: S3 S4 S5 S6 S7 S8 S9 ST",
              "hint": "H: S3 S4 S5 S6 S7 S8 S9 ST", "margin": 9.0, "margin_low": 8.0,
              "themes": ["扣底"], "options": [
                  {"move": "H: S3 S4 S5 S6 S7 S8 S9 ST", "value": 20.0},
                  {"move": "C: S3 S4 S5 S6 S7 S8 S9 ST", "value": 5.0}]}
    assert judgement(puzzle, "H: C3 C4 C5 C6 C7 C8 C9 CT")["solved"]
    assert not judgement(puzzle, "C: S3 S4 S5 S6 S7 S8 S9 ST")["solved"]
    puzzle["options"][1]["move"] = "H: C3 C4 C5 C6 C7 C8 C9 CT"  # one trump, two buries
    assert not judgement(puzzle, "H: C3 C4 C5 C6 C7 C8 C9 CJ")["solved"]
