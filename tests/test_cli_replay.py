"""``baofen replay``: hand records printed trick by trick, checked against the engine."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from baofen import Card, Hand, Match, RuleSet, parse_card
from baofen.bots import make_bot
from baofen.cli import app
from baofen.cli.render import SEAT_NAMES

runner = CliRunner()


def bot_hand(
    rules: RuleSet, seed: int, throw_rate: float = 0.1, pass_rate: float = 0.5,
    actions: int | None = None,
) -> Hand:
    """A hand played by random bots (to its end, or for ``actions`` actions)."""
    bots = [make_bot("random", seed=seed + s, throw_rate=throw_rate, pass_rate=pass_rate)
            for s in range(4)]
    return Hand(rules, seed=seed).play_out(
        bots, until=lambda hand: actions is not None and len(hand.actions) >= actions
    )


def hand_with_failed_throw(rules: RuleSet) -> Hand:
    """The first seeded bot hand (seeds 0, 1, …) in which a throw fails."""
    for seed in range(100):
        hand = bot_hand(rules, seed, throw_rate=1.0, pass_rate=0.2)
        if any(t.attempted is not None for t in hand.tricks):
            return hand
    raise AssertionError("no failed throw in 100 hands")


def replay(tmp_path: Path, data: Any) -> tuple[int, str]:
    """Run ``baofen replay`` on ``data`` written as JSON; exit code and output."""
    path = tmp_path / "records.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "300"})
    return result.exit_code, result.output


def symbols(cards: Sequence[Card]) -> str:
    """Cards as the terminal shows them: suit symbol and rank, the ten written 10."""
    return " ".join(c.symbol().replace("T", "10") for c in cards)


def check_hand_printed(output: str, hand: Hand) -> None:
    """Every part of ``hand`` appears in ``output`` as the replay prints it."""
    if hand.declarer is not None:
        assert f"Declarer 庄家: {SEAT_NAMES[hand.declarer]}, target 目标分 {hand.target}." in output
    bids = ", ".join(f"{SEAT_NAMES[s]} {'pass' if v is None else v}" for s, v in hand.bids)
    assert f"): {bids}\n" in output
    if hand.buried is not None:
        buried = re.search(r"^Buried 扣底: (.*)$", output, re.M)
        assert buried and sorted(buried.group(1).split()) == sorted(symbols(hand.buried).split())
    captured = 0
    for number, trick in enumerate(hand.tricks, 1):
        plays = "   ".join(f"{SEAT_NAMES[s]} {symbols(cards)}" for s, cards in trick.plays)
        side = "declarer" if trick.winner == hand.declarer else "defenders"
        points = f", {trick.points} points" if trick.points else ""
        captured += trick.points if trick.winner == hand.declarer else 0
        line = (
            f"Trick {number} · led by {SEAT_NAMES[trick.leader]}: {plays}  → "
            f"{SEAT_NAMES[trick.winner]} wins ({side}){points} · declarer {captured}\n"
        )
        assert line in output, line
        if trick.attempted is not None:
            check_reveal(output, hand, number)
    result = hand.result
    assert result is not None
    deltas = "  ".join(f"{SEAT_NAMES[s]} {d:+d}" for s, d in enumerate(result.deltas))
    assert deltas in output


def check_reveal(output: str, hand: Hand, number: int) -> None:
    """The failed throw leading trick ``number`` is shown with the seat and cards that beat
    it: cards that seat still held then, which beat what was played by the rule of §6."""
    trick = hand.tricks[number - 1]
    leader = SEAT_NAMES[trick.leader]
    assert trick.attempted is not None
    played = trick.plays[0][1]
    penalty = f", penalty {trick.penalty}" if trick.penalty else ""
    found = re.search(
        rf"^{leader} tried to throw {symbols(trick.attempted)} — the throw fails \(甩错牌\): "
        rf"(\S) holds (.+?), (?:which beats|as high as) {symbols(played)}; "
        rf"{leader} plays only {symbols(played)}{penalty}$",
        output, re.M,
    )
    assert found, f"no reveal of the failed throw of trick {number}"
    seat = SEAT_NAMES.index(found.group(1))
    beater = [parse_card(token) for token in found.group(2).split()]
    # A finished hand plays every card still held, so what a seat held at this trick's lead is
    # what it played from this trick on.
    held = Counter(c for later in hand.tricks[number - 1:] for s, cards in later.plays
                   if s == seat for c in cards)
    assert seat != trick.leader and not Counter(beater) - held
    assert hand.judge is not None
    assert hand.judge.failed_throw(played, [beater]) == tuple(played)


def test_list_of_records_trick_by_trick(tmp_path: Path) -> None:
    baofen = hand_with_failed_throw(RuleSet.baofen())
    hongwu = hand_with_failed_throw(RuleSet.hongwu())
    code, output = replay(tmp_path, [baofen.to_record(), hongwu.to_record()])
    assert code == 0, output
    first, second = output.split("Hand 2 · 包红五 Bao Hong Wu")
    assert f"Hand 1 · 包分 Baofen · seed {baofen.seed}" in first
    check_hand_printed(first, baofen)
    check_hand_printed(second, hongwu)
    assert baofen.result is not None and hongwu.result is not None
    assert re.search(rf"declarer points D\s*│\s*{baofen.result.declarer_points} │", first)
    assert re.search(rf"levels L \(级\)\s*│\s*{hongwu.result.levels:+d} │", second)


def test_single_record_and_match_record(tmp_path: Path) -> None:
    hand = bot_hand(RuleSet.baofen(), seed=5, pass_rate=0.2)
    code, output = replay(tmp_path, hand.to_record())
    assert code == 0
    check_hand_printed(output, hand)
    match = Match(RuleSet.hongwu(), seed=2)
    bots = [make_bot("random", seed=s) for s in range(4)]
    for number in range(2):
        if number:
            match.next_hand()
        match.hand.play_out(bots)
    first = match.history[0].hand
    code, output = replay(tmp_path, match.to_record())
    assert code == 0
    one, two = output.split("Hand 2 · ")
    check_hand_printed(one, first)
    check_hand_printed(two, match.hand)


def test_hand_without_declarer(tmp_path: Path) -> None:
    hand = Hand(RuleSet.baofen(), seed=1)
    for seat in range(4):
        hand.bid(seat, None)
    code, output = replay(tmp_path, hand.to_record())
    assert code == 0
    assert "南 pass, 东 pass, 北 pass, 西 pass" in output
    assert "no declarer: all four passed" in output
    assert "南 -40  东 -20  北 -20  西 -20" in output  # the caller stakes 40, the others 20


def test_unfinished_record(tmp_path: Path) -> None:
    hand = bot_hand(RuleSet.baofen(), seed=5, pass_rate=0.2, actions=12)
    assert hand.phase == "playing"
    code, output = replay(tmp_path, hand.to_record())
    assert code == 0
    assert "The record stops in the playing phase, before the hand ended." in output
    if hand.current_trick:
        assert "On the table: " in output


def test_damaged_record_is_reported_and_the_rest_printed(tmp_path: Path) -> None:
    good = bot_hand(RuleSet.baofen(), seed=5, pass_rate=0.2)
    bad = good.to_record()
    plays = [i for i, a in enumerate(bad["actions"]) if "play" in a]
    bad["actions"][plays[3]]["play"] = "BJ BJ BJ"
    code, output = replay(tmp_path, [bad, good.to_record()])
    assert code == 1
    assert "record 1 cannot be replayed: record action" in output
    check_hand_printed(output.split("Hand 2 · ")[1], good)


def test_unreadable_files(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("[{", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "cannot read" in result.output
    code, output = replay(tmp_path, 42)
    assert code == 1 and "expected a hand record" in output
    code, output = replay(tmp_path, [])
    assert code == 0 and "holds no hand records" in output
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "does not exist" in result.output
