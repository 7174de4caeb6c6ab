"""Usernames (allowed characters, canonical form, look-alike skeleton) and the rating method
(OpenSkill, one declarer against the defenders' mean; computer levels' fixed ratings)."""

from __future__ import annotations

import re

import pytest

from baofen.accounts import ratings
from baofen.accounts.ratings import (
    ARENA_MAKE_RATES,
    BOT_RATINGS,
    NEW,
    Rating,
    bot_rating,
    calibrated_mu,
    level_mu,
    update,
    win_probability,
)
from baofen.accounts.usernames import UsernameError, canonical, display_form, skeleton


@pytest.mark.parametrize("name", ["Ann", "bob_1", "a-b", "张三丰", "さくら子", "김철수", "Ａｎｎ"])
def test_allowed_usernames(name: str) -> None:
    assert 3 <= len(display_form(name)) <= 20


@pytest.mark.parametrize(
    ("name", "why"),
    [("ab", "3–20"), ("a" * 21, "3–20"), ("Аnn", "U+0410"), ("Αnn", "U+0391"),
     ("a\u200bb", "U+200B"), ("a b", "' '"), ("ann!", "'!'"), ("é" * 3, "U+00E9"),
     ("ab\u0301c", "U+0301")],
)
def test_refused_usernames(name: str, why: str) -> None:
    with pytest.raises(UsernameError, match=re.escape(why)):
        display_form(name)


def test_canonical_form_and_skeleton() -> None:
    assert display_form("Ａｎｎ") == "Ann"
    assert canonical("ANN") == canonical("Ａｎｎ") == canonical("ann") == "ann"
    assert skeleton("bob1") == skeleton("B0BL") == skeleton("boBI") == skeleton("bobl")
    assert skeleton("arnie") == skeleton("amie")
    assert skeleton("a_b") == skeleton("a-b")
    assert skeleton("ann") != skeleton("anna")
    assert skeleton("张三") != skeleton("张王")


def test_a_made_contract_moves_the_sides_apart_and_shrinks_uncertainty() -> None:
    defenders = [NEW, bot_rating("baofen", "normal"), Rating(*ratings.GUEST)]
    declarer, after = update(NEW, defenders, made=True)
    assert declarer.mu > NEW.mu and declarer.sigma < NEW.sigma
    assert all(new.mu < old.mu for new, old in zip(after, defenders, strict=True))
    # A defender with a small sigma (a computer level) moves far less than a new player.
    assert NEW.mu - after[0].mu > 10 * (defenders[1].mu - after[1].mu)
    lost, _ = update(NEW, defenders, made=False)
    assert lost.mu < NEW.mu
    # Between equals, winning and losing are symmetric: the defenders' mean, not their sum.
    assert declarer.mu - NEW.mu == pytest.approx(NEW.mu - lost.mu)
    assert win_probability(NEW, [NEW] * 3) == pytest.approx(0.5)


def test_a_level_is_calibrated_in_both_roles() -> None:
    for role in ("declarer", "defender"):
        assert calibrated_mu(0.6, 0.6, role=role) == pytest.approx(25.0, abs=1e-6)
    # a stronger declarer makes more; a stronger defender lets the others make fewer
    assert calibrated_mu(0.7, 0.6) > 25 < calibrated_mu(0.5, 0.6, role="defender")
    assert calibrated_mu(0.5, 0.6) < 25 > calibrated_mu(0.7, 0.6, role="defender")
    # as a defender: the model gives a base declarer against it the arena's odds ratio
    defending = calibrated_mu(0.5, 0.6, role="defender")
    base = Rating(25.0, ratings.FIXED_SIGMA)
    level = Rating(defending, ratings.FIXED_SIGMA)
    odds = (0.5 / 0.5) / (0.6 / 0.4)
    assert win_probability(base, [level, base, base]) == pytest.approx(odds / (1 + odds), abs=1e-6)
    both = level_mu((0.7, 0.6), (0.5, 0.6))
    assert both == pytest.approx((calibrated_mu(0.7, 0.6) + defending) / 2)


def test_the_fixed_ratings_are_the_calibration_of_the_arena_figures() -> None:
    for variant, rates in ARENA_MAKE_RATES.items():
        levels = BOT_RATINGS[variant]
        assert levels["normal"] == levels["rule"] == 25.0
        assert rates["normal"][0] == rates["normal"][1]
        for level in ("easy", "hard", "neural"):  # both roles: as declarer and as a defender
            assert levels[level] == pytest.approx(
                level_mu(rates[level], rates[f"{level}_defending"]), abs=0.05
            )
        assert levels["random"] == pytest.approx(
            50 - calibrated_mu(*rates["rule_vs_random"]), abs=0.05
        )
        assert levels["hard"] == levels["search"]
        if "master_vs_hard" in rates:  # 大师 placed head to head, from 困难's rating
            assert levels["master"] == pytest.approx(
                calibrated_mu(*rates["master_vs_hard"], base_mu=levels["hard"]), abs=0.05
            )
        else:
            assert levels["master"] == levels["hard"]
        assert levels["random"] < levels["easy"] < levels["normal"] < levels["hard"]
        assert levels["hard"] <= levels["master"]
    assert NEW.display == 0.0
    assert bot_rating("hongwu", None) == bot_rating("hongwu", "normal")


@pytest.mark.parametrize(("katakana", "kanji"), [
    ("カ", "力"), ("エ", "工"), ("ロ", "口"), ("ニ", "二"), ("ハ", "八"), ("タ", "夕"),
    ("ト", "卜"), ("ヘ", "へ"), ("ベ", "べ"), ("ペ", "ぺ"),
])
def test_katakana_drawn_like_kanji_share_a_skeleton(katakana: str, kanji: str) -> None:
    assert skeleton(f"王{katakana}子") == skeleton(f"王{kanji}子")


def test_the_deleted_players_name_cannot_be_registered() -> None:
    with pytest.raises(UsernameError, match="deleted account"):
        display_form("已注销玩家")
