"""The 复盘's end game, its reasons and its figures: a seat is not charged twice for one error
(the play-outs' own later error), every flagged move says why from the play-outs, and a seat's
accuracy and best k of n agree."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baofen import Hand, RuleSet, play_hand
from baofen._native import available as native_available
from baofen.bots import make_bot
from baofen.cards import parse_cards
from baofen.cli import app
from baofen.review import MoveReview, Option, Reason, accuracy, review_hand
from baofen.review.hand import assemble, review_of_moves
from baofen.review.lines import Line
from baofen.review.moves import seat_swing
from baofen.review.reasons import (
    CARD_SHARE,
    TEXTS,
    UNIT_TEXTS,
    _card_reason,
    _reason,
    _trick_reason,
    describe,
    kept,
    loss_text,
    main_difference,
)

needs_native = pytest.mark.skipif(not native_available(), reason="the native core is not built")


def _kitty_hand() -> Hand:
    """包红五 deal 7310006, rule bots: the declarer (East) holds 大王 小王 ♦3 ♦K at trick 17; it
    must keep a joker for the last trick (the kitty's points, doubled if a defender takes it
    with trump). It plays 小王 (harmless: ♦K can still go at trick 19) and at trick 19 leads
    大王, leaving ♦K to lose the last trick: −6 levels where +12 were there."""
    rules, seed = RuleSet.hongwu(), 7310006
    hand = Hand(rules, seed=seed, first=seed % 4)
    bots = [make_bot("rule", seed=seed + i) for i in range(4)]
    while hand.phase != "done":
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bots[seat].act(hand.observation(seat)))
    return hand


@needs_native
def test_a_move_is_not_charged_with_the_seats_own_later_error() -> None:
    hand = _kitty_hand()
    assert hand.declarer == 1 and hand.result is not None and hand.result.deltas[1] == -6
    early, late = review_hand(hand, [1], seed=11, actions=[70, 77]).moves
    assert (early.trick, early.made, late.trick, late.made) == (17, "LJ", 19, "BJ")
    # The play-outs led 大王 at trick 19 after 小王 as well: 小王 was charged the 18 levels too.
    assert not early.flagged, early
    assert late.category == "blunder" and late.loss == pytest.approx(18.0), late
    # Why: 大王 kept, the last trick (and the kitty) changes hands in every deal.
    reason = late.reason
    assert reason is not None and reason.kind in ("card", "trick"), reason
    assert reason.facts["keeps"] == "BJ" and reason.facts["last"]
    assert reason.facts["trick"] == 20 and reason.facts["share"] == 1.0


@needs_native
@pytest.mark.parametrize(("variant", "seed"), [("hongwu", 1), ("hongwu", 3), ("hongwu", 7),
                                               ("baofen", 1), ("baofen", 8)])
def test_no_seats_losses_add_up_to_more_than_the_hand_can_swing(variant: str, seed: int) -> None:
    """South 简单 (erring 30% of the time), the others rule bots as in the play-outs: South's
    flagged losses (their sure parts) stay within what its moves could change (seat_swing).
    Hands where South errs; the kitty hand above broke the bound twice over."""
    players = [make_bot("easy", seed=seed)] + [make_bot("rule", seed=seed + i) for i in (1, 2, 3)]
    hand = play_hand(RuleSet.create(variant=variant), seed, players)
    own = review_hand(hand, [0], seed=1, worlds=8).moves
    flagged = [m for m in own if m.flagged]
    assert flagged
    assert sum(m.loss_low for m in flagged) <= seat_swing(own) + 1e-9, [asdict(m) for m in flagged]


@needs_native
def test_the_kitty_hand_stays_within_its_swing() -> None:
    own = review_hand(_kitty_hand(), [1], seed=11).moves
    assert sum(m.loss_low for m in own if m.flagged) <= seat_swing(own) + 1e-9


@needs_native
def test_every_flagged_move_has_a_reason_drawn_from_its_play_outs() -> None:
    hand = play_hand(RuleSet.baofen(), 2, [make_bot("easy", seed=2 + i) for i in range(4)])
    review = review_hand(hand, seats=[1, 2], seed=1, worlds=8)
    flagged = [m for m in review.moves if m.flagged]
    assert flagged
    for move in flagged:
        assert move.reason is not None, move
        facts = move.reason.facts
        if move.reason.kind in ("trick", "card"):
            assert facts["trick"] >= move.trick and 0.0 <= facts["share"] <= 1.0
            assert parse_cards(facts["keeps"]) == kept(parse_cards(move.made),
                                                       parse_cards(move.best))
        if move.reason.kind == "trick":  # the better move nets more points there
            assert facts["points"] > 0 and facts["share"] + facts["against"] <= 1.0 + 1e-9
        if move.reason.kind == "card":  # a kept card, later, in CARD_SHARE of the deals or more
            assert facts["trick"] > move.trick and facts["card"] in facts["keeps"].split()
            assert facts["share"] >= CARD_SHARE
        if move.reason.kind in ("card", "trick", "value"):  # the whole difference: the loss
            assert facts["loss"] == pytest.approx(move.loss) and facts["unit"] == "points"
            assert f"{loss_text(move.loss, 'points', 'en')} more" in describe(move.reason)
        for lang in ("en", "zh"):
            assert describe(move.reason, lang)
        assert main_difference(move.reason)[0] == move.reason.kind
    assert all(m.reason is None for m in review.moves if not m.flagged)
    # The reason travels in the JSON and comes back the same.
    again = review_of_moves(hand.to_record(), 8, [asdict(m) for m in review.moves])
    assert [MoveReview.from_dict(m) for m in again["moves"]] == review.moves


def _move(action: int, category: str, loss: float, low: float) -> MoveReview:
    return MoveReview(action, 1, 0, "play", "SA", "SK", "SK", 0.0, loss, loss, low,
                      category, Reason("value", {"points": 1}) if category else None,  # type: ignore[arg-type]
                      3, 16, [Option("SK", loss), Option("SA", 0.0)])


def test_best_k_of_n_and_accuracy_agree() -> None:
    clean = [_move(i, "", 0.4, -1.0) for i in range(30)]
    review = assemble("hongwu", 16, clean, [0])
    assert (review.seats[0].matched, review.seats[0].choices, review.seats[0].accuracy) == \
        (30, 30, 100.0)
    # One move flagged among many, and one flagged move whose loss rounds to nothing.
    for flagged in (_move(30, "inaccuracy", 1.2, 1.1), _move(30, "inaccuracy", 0.0, 0.0)):
        review = assemble("hongwu", 16, [*clean, flagged] * 3, [0])
        seat = review.seats[0]
        assert seat.matched < seat.choices and seat.accuracy < 100.0
        assert accuracy("hongwu", [*clean, flagged]) <= 99.9


@needs_native
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_command_shows_the_reason_the_json_holds(tmp_path: Path, lang: str) -> None:
    hand = _kitty_hand()
    records = tmp_path / "hands.json"
    records.write_text(json.dumps([hand.to_record()]), encoding="utf-8")
    out = tmp_path / "review.json"
    result = CliRunner().invoke(app, ["analyze", str(records), "--seat", "1", "--seed", "11",
                                      "--lang", lang, "--out", str(out)],
                                env={"COLUMNS": "1000"})
    assert result.exit_code == 0, result.output
    (review,) = json.loads(out.read_text(encoding="utf-8"))
    flagged = [MoveReview.from_dict(m) for m in review["moves"] if m["category"]]
    assert any(m.trick == 19 for m in flagged)
    for move in flagged:
        assert move.reason is not None and describe(move.reason, lang) in result.output


def test_the_command_refuses_an_unknown_language(tmp_path: Path) -> None:
    records = tmp_path / "hands.json"
    records.write_text("[]", encoding="utf-8")
    result = CliRunner().invoke(app, ["analyze", str(records), "--lang", "fr"])
    assert result.exit_code != 0 and "--lang" in result.output


def test_the_command_and_the_browser_word_a_reason_alike() -> None:
    """The CLI's words for each reason are the browser's (its ``review.reason.*`` strings)."""
    js = Path(__file__).parent.parent / "src" / "baofen" / "web" / "static" / "js" / "i18n"
    for lang, words in TEXTS.items():
        strings = dict(re.findall(r'^  "review\.reason\.(\w+)": "(.*)",$',
                                  (js / f"{lang}.js").read_text(encoding="utf-8"), re.MULTILINE))
        assert strings == words, lang
        units = dict(re.findall(r'^  "review\.unit\.(\w+)": "(.*)",$',
                                (js / f"{lang}.js").read_text(encoding="utf-8"), re.MULTILINE))
        assert units == UNIT_TEXTS[lang], lang


def test_a_card_thrown_on_a_lost_trick_is_first_of_all_its_points() -> None:
    """♦K thrown on the declarer's trick where ♥8 would do: the reason names the 10 points
    given on this trick before the later trick ♦K wins when kept."""
    king, eight = (int(c) for c in parse_cards("DK H8"))
    made = Line(-40.0, (False, False), (False, False), (30, 20), ((king,), (eight,)))
    best = Line(-10.0, (False, True), (False, True), (20, 20), ((eight,), (king,)))
    reason, _ = _card_reason([(made, best, 1.0)], parse_cards("DK"), 9, 30) or (None, 0)
    assert reason is not None and reason.facts["given"] == 10 and reason.facts["trick"] == 10
    assert "10 fewer points on this trick, and in 100%" in describe(reason)
    assert "这一轮少送对方10分，并且在100%" in describe(reason, "zh")
    # A reason kept before the points given were told reads as it did.
    older = Reason("card", {k: v for k, v in reason.facts.items() if k != "given"})
    assert describe(older).startswith("the better move keeps DK: in 100%")


def test_a_better_move_that_pays_points_now_says_what_it_pays() -> None:
    """♥6 under a defender's ♥A where ♥10 would do better: the better move gives 10 more points
    on this trick, and the reason says so before the later trick ♥6 wins when kept."""
    six, ten = (int(c) for c in parse_cards("H6 HT"))
    made = Line(-20.0, (False, False), (False, False), (10, 15), ((six,), (ten,)))
    best = Line(-5.0, (False, True), (False, True), (20, 15), ((ten,), (six,)))
    reason, _ = _card_reason([(made, best, 1.0)], parse_cards("H6"), 3, 5) or (None, 0)
    assert reason is not None and reason.facts["given"] == -10 and reason.facts["card"] == "H6"
    assert describe(reason).startswith("the better move keeps H6: it gives the opponents 10 "
                                       "more points on this trick, but in 100%")
    assert describe(reason, "zh").startswith("更好的一手留住H6：这一轮多送对方10分，但在100%")


def test_a_kept_card_that_wins_back_less_than_is_paid_now_is_not_the_reason() -> None:
    """The better move throws ♠10 ♥10 on a lost trick and keeps ♣4 ♣7; ♣7 later wins a trick
    of 5 points in half the deals, while the trick after nets 30 more: the reason is that
    trick, not the 2.5 points ♣7 wins back for the 20 paid now."""
    made_cards, best_cards = parse_cards("C4 C7"), parse_cards("ST HT")
    made_codes = tuple(int(c) for c in made_cards)
    best_codes = tuple(int(c) for c in best_cards)
    c4, c7 = made_codes
    pairs = []
    for wins in (True, False):
        made = Line(-30.0, (False, False, False), (False, False, False), (0, 30, 5),
                    (made_codes, (), ()))
        best = Line(0.0, (False, True, wins), (False, False, wins), (20, 30, 5),
                    (best_codes, (), (c7,) if wins else (c4,)))
        pairs.append((made, best, 0.5))
    keeps, plays = kept(made_cards, best_cards), kept(best_cards, made_cards)
    card = _card_reason(pairs, keeps, 6, 10)
    assert card is not None and card[0].facts["card"] == "C7" and card[0].facts["given"] == -20
    reason = _reason(pairs, keeps, plays, 6)
    assert reason.kind == "trick" and reason.facts["trick"] == 7 and reason.facts["points"] == 60
    # Where the kept card wins back more than is paid, it stays the reason.
    rich = [(a, Line(b.value, b.won, b.mine, (20, 30, 45), b.cards), w) for a, b, w in pairs]
    assert _reason(rich, keeps, plays, 6).facts.get("card") == "C7"


def test_a_trick_reason_on_this_trick_names_what_the_better_move_plays() -> None:
    """♥7 ♥9 on a partner's winning pair where ♥10 ♥7 feeds it: on this trick the reason
    names the ♥10 played, not the ♥9 kept; on a later trick, the cards kept."""
    made_cards, best_cards = parse_cards("H7 H9"), parse_cards("HT H7")
    codes = (tuple(int(c) for c in made_cards), tuple(int(c) for c in best_cards))
    made = Line(0.0, (True, False), (False, False), (15, 5), (codes[0], ()))
    best = Line(10.0, (True, False), (False, False), (25, 5), (codes[1], ()))
    keeps, plays = kept(made_cards, best_cards), kept(best_cards, made_cards)
    reason, _ = _trick_reason([(made, best, 1.0)], keeps, plays, 11) or (None, 0)
    assert reason is not None and reason.facts["plays"] == "HT" and reason.facts["keeps"] == "H9"
    assert describe(reason).startswith("the better move plays HT: on trick 11 your side nets 10")
    assert describe(reason, "zh").startswith("更好的一手出HT：第11轮")
    later = Reason("trick", {**reason.facts, "plays": "", "trick": 14})
    assert describe(later).startswith("the better move keeps H9: on trick 14")
