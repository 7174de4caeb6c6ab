"""An event's deals from a secret and its key (HMAC): fixed for the key, unrelated across keys
and secrets, the entrant's seat and the computer players' seeds fixed per deal; and the
standings of a day and a period, checked against counts made by hand."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from baofen import RuleSet
from baofen.competition import challenge_day, daily_key, event_deals, week_start
from baofen.competition.daily_standings import Standing, day_standings, period_standings
from baofen.match import Match

SECRET = b"a server secret of some length"


def test_a_key_s_deals_are_fixed_and_another_key_s_unrelated() -> None:
    today = daily_key("baofen", date(2026, 12, 6))
    deals = event_deals(SECRET, today, 8)
    assert deals == event_deals(SECRET, today, 8)
    assert event_deals(SECRET, today, 3) == deals[:3]
    assert len({deal.seed for deal in deals}) == 8
    assert all(0 <= deal.seed < 2**63 and deal.seat in range(4) for deal in deals)
    others = [event_deals(SECRET, daily_key("baofen", date(2026, 12, 7)), 8),
              event_deals(SECRET, daily_key("hongwu", date(2026, 12, 6)), 8),
              event_deals(b"another secret entirely", today, 8)]
    for other in others:
        assert not {deal.seed for deal in deals} & {deal.seed for deal in other}


def test_the_computer_players_seeds_follow_from_the_deal_and_seat() -> None:
    deal = event_deals(SECRET, "tournament/7/round/1", 1)[0]
    seeds = [deal.bot_seed(seat) for seat in range(4)]
    assert seeds == [deal.bot_seed(seat) for seat in range(4)] and len(set(seeds)) == 4
    with pytest.raises(ValueError, match="seat"):
        deal.bot_seed(4)


def test_a_deal_seed_fixes_the_cards_and_the_first_caller() -> None:
    for variant in ("baofen", "hongwu"):
        rules = RuleSet.create(variant=variant, hands=1)
        for deal in event_deals(SECRET, daily_key(variant, date(2026, 1, 1)), 4):
            one, two = Match(rules, deal.seed).hand, Match(rules, deal.seed).hand
            assert one.deal == two.deal and one.first == two.first


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="secret"):
        event_deals(b"", "k", 1)
    with pytest.raises(ValueError, match="at least one"):
        event_deals(SECRET, "k", 0)


def test_the_day_is_the_server_zone_s_date() -> None:
    late = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    assert challenge_day(late, "UTC") == date(2026, 12, 6)
    assert challenge_day(late, "Asia/Shanghai") == date(2026, 12, 7)
    assert week_start(date(2026, 12, 6)) == date(2026, 11, 30)


def test_a_day_s_standings_count_matchpoints_as_by_hand() -> None:
    # Deal 1: a 30, b 10, c 10; deal 2: a -5, b 20 (c did not play it).
    rows = [("a", 1, 30), ("b", 1, 10), ("c", 1, 10), ("a", 2, -5), ("b", 2, 20)]
    standings = {s.key: s for s in day_standings(rows)}
    assert standings["a"].percentage == pytest.approx((100 + 0) / 2)
    assert standings["b"].percentage == pytest.approx((25 + 100) / 2)
    assert standings["c"].percentage == pytest.approx(25)
    assert (standings["a"].total, standings["a"].count) == (25, 2)
    assert [s.key for s in day_standings(rows)] == ["b", "a", "c"]
    assert [s.rank for s in day_standings(rows)] == [1, 2, 3]


def test_equal_standings_share_a_rank() -> None:
    rows = [("a", 1, 10), ("b", 1, 10), ("c", 1, 0)]
    assert [(s.key, s.rank) for s in day_standings(rows)] == [("a", 1), ("b", 1), ("c", 3)]


def test_a_period_lists_players_from_the_minimum_days() -> None:
    days = [("ann", Standing("e1", 60.0, 8, 10)), ("ann", Standing("e2", 40.0, 8, -5)),
            ("bob", Standing("e3", 90.0, 8, 50))]
    board = period_standings(days, min_days=2)
    assert [(s.key, s.percentage, s.count, s.total) for s in board] == [("ann", 50.0, 2, 5)]
    assert [s.key for s in period_standings(days, min_days=1)] == ["bob", "ann"]
