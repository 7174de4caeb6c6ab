"""rules.md §11: scoring one hand, every special case, for both games."""

from __future__ import annotations

import pytest

from baofen import RuleSet, Trick, parse_cards
from baofen.cards import POINTS
from baofen.scoring import levels_for, score_baofen, score_hongwu

BAOFEN = RuleSet.baofen()
HONGWU = RuleSet.hongwu()
NO_PENALTIES = (0, 0, 0, 0)


def trick(winner: int, *plays: str, leader: int = 0) -> Trick:
    """A finished trick: ``plays`` in play order from ``leader``."""
    seated = tuple(
        ((leader + i) % 4, tuple(parse_cards(text))) for i, text in enumerate(plays)
    )
    points = sum(POINTS[c] for _, cards in seated for c in cards)
    return Trick(leader, seated, winner, points)


def points_of(text: str) -> int:
    return sum(c.points for c in parse_cards(text))


# Trump spades. The 王分 are S5 S5 ST ST SK SK (50).
WANGFEN = "S5 S5 ST ST SK SK"


def baofen(tricks: list[Trick], kitty: str = "", penalties=NO_PENALTIES, target: int = 85,
           rules: RuleSet = BAOFEN, declarer: int = 0):  # type: ignore[no-untyped-def]
    return score_baofen(rules, declarer, target, "S", tricks, parse_cards(kitty), penalties)


# A plausible hand: tricks holding every point card of the pack except those in ``kitty``.
def tricks_with(declarer_cards: str, defender_cards: str, declarer: int = 0) -> list[Trick]:
    """Two 'tricks': all of ``declarer_cards`` won by the declarer, the rest by seat
    declarer+1 (only points and winners matter to scoring)."""
    out = []
    if declarer_cards:
        out.append(trick(declarer, declarer_cards))
    if defender_cards:
        out.append(trick((declarer + 1) % 4, defender_cards))
    return out


MINE_85 = "S5 HT HK CK C5 DT DK DK D5 ST"
REST_85 = "S5 ST SK SK H5 H5 HT HK C5 CT CT CK D5 DT"
ALL_BUT_25 = "S5 ST ST SK SK H5 H5 HT HK C5 C5 CT CT CK CK D5 D5 DT DT DK DK"
ALL_POINTS = (
    "S5 S5 ST ST SK SK H5 H5 HT HT HK HK C5 C5 CT CT CK CK D5 D5 DT DT DK DK"
)


# -- 包分 §11.1 -------------------------------------------------------------------------------

def test_baofen_plain_score() -> None:
    result = baofen(tricks_with(MINE_85, REST_85))
    # captured: 5+10+10+10+5+10+10+10+5+10 = 85; 王分 captured: S5 ST = 15 (not all, not none)
    assert result.declarer_points == 85
    assert result.score == 0 and result.made and result.kind is None
    assert result.deltas == (0, 0, 0, 0)
    assert result.breakdown["wangfen"] == 15 and result.breakdown["wangfen_adjustment"] == 0


def test_baofen_failed_and_deltas() -> None:
    result = baofen(tricks_with("S5 HT HK", ALL_BUT_25))
    assert result.declarer_points == 25 and result.score == 25 - 85 and not result.made
    assert result.deltas == (-60, 60, 60, 60)
    assert result.levels is None


def test_baofen_zero_sum_settlement() -> None:
    rules = RuleSet.baofen(settlement="zero_sum")
    result = baofen(
        tricks_with("S5 HT HK", ALL_BUT_25, 2),
        rules=rules,
        declarer=2,
    )
    assert result.score == -60
    assert result.deltas == (60, 60, -180, 60)
    assert sum(result.deltas) == 0


def test_wangfen_all_bonus() -> None:
    mine = WANGFEN + " H5 HT"
    rest = "H5 HT HK HK C5 C5 CT CT CK CK D5 D5 DT DT DK DK"
    result = baofen(tricks_with(mine, rest))
    assert result.breakdown["wangfen"] == 50
    assert result.declarer_points == 65 + 50
    assert result.score == 65 + 50 - 85


def test_wangfen_bonus_forfeited_by_a_buried_trump_point() -> None:
    mine = "S5 ST ST SK SK H5 HT"
    rest = "H5 HT HK HK C5 C5 CT CT CK CK D5 D5 DT DT DK DK"
    result = baofen(tricks_with(mine, rest), kitty="S5 C3 C4 C6 C7 C8 C9 CJ")
    assert result.breakdown["wangfen"] == 45 and result.breakdown["wangfen_adjustment"] == 0
    assert result.declarer_points == 60


def test_wangfen_none_penalty() -> None:
    mine = "H5 H5 HT HT HK HK C5 C5 CT CT CK CK"
    rest = WANGFEN + " D5 D5 DT DT DK DK"
    result = baofen(tricks_with(mine, rest))
    assert result.breakdown["wangfen"] == 0
    assert result.declarer_points == 100 - 100
    assert result.score == -85
    # …also when every trump point is buried (the declarer captured none in tricks)
    result = baofen(
        tricks_with(mine + " D5 D5 DT", "DT DK DK"), kitty="S5 S5 ST ST SK SK C3 C4"
    )
    assert result.declarer_points == 120 - 100


def test_custom_wangfen_settings() -> None:
    rules = RuleSet.baofen(wangfen_all_bonus=30, wangfen_none_penalty=40)
    others = "H5 H5 HT HT HK HK C5 C5 CT CT CK CK D5 D5 DT DT DK DK"
    result = baofen(tricks_with(WANGFEN, others), rules=rules)
    assert result.declarer_points == 80
    mine = "H5 H5 HT HT HK HK C5 C5 CT CT CK CK D5 D5"
    result = baofen(tricks_with(mine, WANGFEN + " DT DT DK DK"), rules=rules)
    assert result.declarer_points == 110 - 40


def test_full_sweep() -> None:
    result = baofen(tricks_with(ALL_POINTS, ""))
    assert result.kind == "full_sweep" and result.score == 500 and result.made
    assert result.deltas == (500, -500, -500, -500)
    assert result.declarer_points == 200 + 50


def test_half_sweep() -> None:
    result = baofen(
        tricks_with(ALL_POINTS.replace("D5 D5 ", ""), ""), kitty="D5 D5 C3 C4 C6 C7 C8 C9"
    )
    assert result.kind == "half_sweep" and result.score == 250
    assert result.deltas == (250, -250, -250, -250)


def test_sweep_scores_are_settings_and_ignore_penalties() -> None:
    rules = RuleSet.baofen(full_sweep_score=600, half_sweep_score=300, shutout_score=-400)
    result = baofen(tricks_with(ALL_POINTS, ""), rules=rules, penalties=(30, 0, 0, 0))
    assert result.score == 600 and result.kind == "full_sweep"
    result = baofen(tricks_with("", ALL_POINTS), rules=rules)
    assert result.score == -400 and result.kind == "shutout"


def test_shutout() -> None:
    result = baofen([*tricks_with("", ALL_POINTS), trick(0, "SA SA SQ SQ")])
    assert result.kind == "shutout" and result.score == -500 and not result.made
    assert result.deltas == (-500, 500, 500, 500)
    # D after steps 1–2: no points, and 倒扣王分.
    assert result.declarer_points == -100


def test_capturing_one_point_card_is_no_shutout() -> None:
    rest = ALL_POINTS.replace("D5 D5", "D5")
    result = baofen(tricks_with("D5", rest))
    assert result.kind is None and result.declarer_points == 5 - 100
    assert result.score == 5 - 100 - 85


@pytest.mark.parametrize(
    ("penalties", "adjustment"),
    [((15, 0, 0, 0), -15), ((0, 15, 0, 0), 15), ((0, 9, 6, 0), 15), ((6, 9, 0, 3), 6)],
)
def test_throw_penalties_adjust_declarer_points(
    penalties: tuple[int, int, int, int], adjustment: int
) -> None:
    mine = "S5 HT HK CK C5 DT DK DK D5 ST"
    rest = "S5 ST SK SK H5 H5 HT HK C5 CT CT CK D5 DT"
    result = baofen(tricks_with(mine, rest), penalties=penalties)
    assert result.breakdown["penalties"] == adjustment
    assert result.declarer_points == 85 + adjustment
    assert result.score == adjustment and result.made == (adjustment >= 0)


def test_baofen_kitty_points_count_for_nobody() -> None:
    # DK DK buried: the declarer's 85 (MINE_85 holds both DKs, so use the other cards).
    mine = "S5 HT HK CK C5 DT D5 ST"  # 65
    rest = "S5 ST SK SK H5 H5 HT HK C5 CT CT CK D5 DT"
    result = baofen(tricks_with(mine, rest), kitty="DK DK C3 C4 C6 C7 C8 C9")
    assert result.declarer_points == 65
    assert result.breakdown["kitty_points"] == 20
    assert result.score == 65 - 85


# -- 包红五 §11.2 -----------------------------------------------------------------------------

def hongwu(tricks: list[Trick], kitty: str = "", trump_last: bool = False, target: int = 70,
           penalties=NO_PENALTIES, rules: RuleSet = HONGWU, declarer: int = 0):  # type: ignore[no-untyped-def]
    return score_hongwu(
        rules, declarer, target, tricks, parse_cards(kitty), penalties, trump_last
    )


def test_hongwu_plain_points_and_levels() -> None:
    # Declarer (0) captures 95 and wins the last trick with a kitty of 0 points.
    tricks = [
        trick(0, "SK", "ST", "CK", "CT"),
        trick(0, "DK", "DT", "C5", "D5"),
        trick(1, "HK", "HT", "S5", "D3"),
        trick(0, "SA", "S3", "S4", "ST"),
    ]
    result = hongwu(tricks)
    assert result.declarer_points == 40 + 30 + 10
    assert result.levels == levels_for(80, 70, 10) == 2
    assert result.made and result.score is None and result.kind is None
    assert result.deltas == (6, -2, -2, -2)


@pytest.mark.parametrize(
    ("plays", "winner", "expected"),
    [
        # declarer's H5 in a trick won by a defender: −20, and its 5 escapes
        (("H5", "BJ", "C3", "C4"), 1, -20),
        # a defender's H5 in a trick won by the declarer: +20 on top of the 5
        (("BJ", "H5", "C3", "C4"), 0, 25),
        # own side: the declarer's H5 won by the declarer scores normally
        (("H5", "S3", "C3", "C4"), 0, 5),
        # own side: a defender's H5 won by a defender scores nothing for the declarer
        (("S3", "H5", "C3", "C4"), 1, 0),
        (("S3", "H5", "H5", "C4"), 2, 0),
        # both red fives from defenders captured by the declarer
        (("BJ", "H5", "H5", "C4"), 0, 50),
        # a pair of red fives played by the declarer and beaten? (cannot be) — pair won
        (("H5 H5", "BJ BJ", "C3 C4", "C6 C7"), 0, 10),
        (("S3 S3", "H5 H5", "C3 C4", "C6 C7"), 1, 0),
        (("S3 S3", "H5 H5", "C3 C4", "C6 C7"), 0, 50),
    ],
)
def test_red_five(plays: tuple[str, ...], winner: int, expected: int) -> None:
    # The last trick is won by the declarer with an empty kitty, so nothing else counts.
    tricks = [trick(winner, *plays), trick(0, "SA", "S4", "S6", "S7")]
    result = hongwu(tricks)
    assert result.declarer_points == expected
    assert result.breakdown["red_fives"] == expected - sum(
        POINTS[c] for _, cards in tricks[0].plays for c in cards
    ) * (winner == 0)


def test_red_five_setting() -> None:
    rules = RuleSet.hongwu(red5_capture_points=40)
    tricks = [trick(1, "H5", "BJ", "C3", "C4"), trick(0, "SA", "S4", "S6", "S7")]
    assert hongwu(tricks, rules=rules).declarer_points == -40


KITTY = "DK DT D5 C3 C4 C6 C7 C8"  # 25 points


def test_kitty_declarer_wins_last_trick() -> None:
    tricks = [trick(0, "SA", "S4", "S6", "S7")]
    result = hongwu(tricks, kitty=KITTY)
    assert result.declarer_points == 25 and result.breakdown["kitty"] == 25


@pytest.mark.parametrize(("trump_last", "multiplier"), [(True, 2), (False, 1)])
def test_kitty_defender_wins_last_trick(trump_last: bool, multiplier: int) -> None:
    tricks = [trick(0, "SK", "S4", "S6", "S7"), trick(2, "CA", "C9", "CQ", "CJ")]
    result = hongwu(tricks, kitty=KITTY, trump_last=trump_last)
    assert result.declarer_points == 10 - 25 * multiplier
    assert result.breakdown["kitty"] == -25 * multiplier


def test_kitty_multiplier_settings() -> None:
    rules = RuleSet.hongwu(kitty_multiplier_trump=3, kitty_multiplier_plain=0)
    tricks = [trick(2, "CA", "C9", "CQ", "CJ")]
    assert hongwu(tricks, kitty=KITTY, trump_last=True, rules=rules).declarer_points == -75
    assert hongwu(tricks, kitty=KITTY, trump_last=False, rules=rules).declarer_points == 0


def test_hongwu_penalties() -> None:
    tricks = [trick(0, "SA", "S4", "S6", "S7")]
    assert hongwu(tricks, penalties=(4, 0, 0, 0)).declarer_points == -4
    assert hongwu(tricks, penalties=(0, 0, 6, 0)).declarer_points == 6


@pytest.mark.parametrize(
    ("points", "bid", "levels"),
    [
        (95, 70, 4), (65, 90, -4),  # the source's examples
        (70, 70, 1), (71, 70, 2), (80, 70, 2), (81, 70, 3), (200, 70, 14),
        (69, 70, -2), (60, 70, -2), (59, 70, -3), (0, 70, -8), (-40, 70, -12),
        (-5, 200, -22), (200, 200, 1),
    ],
)
def test_levels(points: int, bid: int, levels: int) -> None:
    assert levels_for(points, bid, 10) == levels


def test_levels_per_level_setting() -> None:
    assert levels_for(95, 70, 20) == 1 + 2
    assert levels_for(65, 90, 5) == -(1 + 5)


def test_hongwu_settlement_and_made() -> None:
    # P = 65 with bid 90: L = −4; declarer −12, each defender +4.
    tricks = [trick(0, "SK SK", "ST ST", "CK CT", "C5 C4"), trick(0, "SA", "S4", "S6", "S7")]
    result = hongwu(tricks, target=90, declarer=0)
    assert result.declarer_points == 65 and result.levels == -4 and not result.made
    assert result.deltas == (-12, 4, 4, 4)
    # bid 70 with 95: L = 4; declarer +12.
    tricks = [trick(3, "SK SK", "ST ST", "CK CT", "C5 C5", leader=3),
              trick(3, "HK", "HT", "H4", "S5", leader=3)]
    result = hongwu(tricks, declarer=3)
    assert result.declarer_points == 95 and result.levels == 4 and result.made
    assert result.deltas == (-4, -4, -4, 12)
