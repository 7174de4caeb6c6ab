"""REST views for the browser: form defaults, card order, replays of finished hands."""

from __future__ import annotations

from collections import Counter
from typing import Any, get_args

import httpx
import pytest

from baofen import Hand, RuleSet, parse_cards, play_hand
from baofen.bots import BOT_LEVELS, BotLevel, make_bot
from baofen.order import order_for
from baofen.server.browser import replay
from baofen.setting import GAMES, SCHEMA_KEY, settings_of
from baofen.wire.rest import CardOrderView
from baofen.wire.results import ResultView
from baofen.wire.settings import ClientDefaults, TableSettings
from baofen.wire.tricks import TrickView

from .harness import ThreadServer, play_until_finished, start_with_bots


def played_hand(rules: RuleSet, seed: int) -> Hand:
    """A hand played to the end by random bots."""
    return play_hand(rules, seed, [make_bot("random", seed=seed + seat) for seat in range(4)])


def test_defaults(server: ThreadServer) -> None:
    body = httpx.get(f"{server.base}/api/defaults").json()
    ClientDefaults.model_validate(body)
    assert RuleSet.from_dict(body["rules"]["baofen"]) == RuleSet.baofen()
    assert RuleSet.from_dict(body["rules"]["hongwu"]) == RuleSet.hongwu()
    timers = {name: body["settings"][f"{name}_seconds"] for name in ("bid", "kitty", "play")}
    assert timers == {"bid": 20, "kitty": 90, "play": 30}
    assert body["settings"]["ready_seconds"] == 60 and body["settings"]["card_counter"]
    # One list of levels: the registry's; the messages' and settings' type accepts them, and the
    # library names too (stored tables still load).
    assert body["bot_levels"] == ["easy", "normal", "hard", "master"] == list(BOT_LEVELS)
    assert set(get_args(BotLevel)) == {*BOT_LEVELS, "random", "rule", "search"}
    assert body["kitty_size"] == 8 and body["trumps"] == ["S", "H", "C", "D"]
    # every setting's group is one of the form's groups, and the table's come last
    settings = {**settings_of(RuleSet), **settings_of(TableSettings)}
    assert body["groups"][-1] == "table"
    assert {setting.group for setting in settings.values()} == set(body["groups"])
    assert all(
        (setting.group == "table") == (name in TableSettings.model_fields)
        for name, setting in settings.items()
    )


def test_table_settings_are_settings_of_both_games() -> None:
    found = settings_of(TableSettings)
    assert set(found) == set(TableSettings.model_fields)
    schema = TableSettings.model_json_schema()["properties"]
    for name, setting in found.items():
        assert setting.games == GAMES and setting.label == f"field.{name}"
        assert schema[name][SCHEMA_KEY] == setting.to_json()
        assert (setting.choice_labels is not None) == ("enum" in schema[name])
    for timer in ("bid_seconds", "kitty_seconds", "play_seconds", "ready_seconds"):
        assert found[timer].none_label is not None  # null: no timer


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
@pytest.mark.parametrize("trump", [None, "S", "H", "C", "D"])
def test_card_order_is_the_engines(
    server: ThreadServer, variant: str, trump: str | None
) -> None:
    params = {"trump": trump} if trump else {}
    body = httpx.get(f"{server.base}/api/order/{variant}", params=params).json()
    CardOrderView.model_validate(body)
    order = order_for(variant, trump)
    cards = parse_cards(body["cards"])
    assert sorted(cards) == list(range(54))
    assert order.sort(list(cards)) == cards
    assert body["groups"] == [order.group[c] for c in cards]


def test_card_order_examples(server: ThreadServer) -> None:
    body = httpx.get(f"{server.base}/api/order/hongwu", params={"trump": "S"}).json()
    trumps = [c for c, g in zip(body["cards"], body["groups"], strict=True) if g == 4]
    assert trumps[:6] == ["H5", "BJ", "LJ", "S3", "C3", "S2"]
    body = httpx.get(f"{server.base}/api/order/baofen").json()
    assert body["cards"][:6] == ["BJ", "LJ", "S2", "H2", "C2", "D2"]
    assert httpx.get(f"{server.base}/api/order/bridge").status_code == 422
    assert httpx.get(f"{server.base}/api/order/baofen?trump=N").status_code == 422


@pytest.mark.parametrize("rules", [RuleSet.baofen(), RuleSet.hongwu()])
def test_replay_follows_the_hand(rules: RuleSet) -> None:
    hand = played_hand(rules, seed=5)
    view = replay(hand.to_record(), 3).model_dump(mode="json")
    assert view["number"] == 3 and view["declarer"] == hand.declarer
    assert [t["trick"] for t in view["tricks"]] == [
        TrickView.of(t).model_dump(mode="json") for t in hand.tricks
    ]
    assert view["tricks"][-1]["hands"] == [[], [], [], []]
    assert view["tricks"][-1]["declarer_points"] == hand.declarer_points_so_far
    assert [Counter(h) for h in view["deal"]] == [
        Counter(map(str, cards)) for cards in hand.deal[:4]
    ]
    order = order_for(rules.variant, hand.trump)
    start: list[list[str]] = view["hands"]
    assert all(order.sort(parse_cards(h)) == parse_cards(h) for h in start)
    assert sum(map(len, start)) == 100
    for before, trick in zip([start, *(t["hands"] for t in view["tricks"])], view["tricks"],
                             strict=False):
        after = trick["hands"]
        for seat, cards in trick["trick"]["plays"]:
            assert Counter(before[seat]) - Counter(cards) == Counter(after[seat])
    assert hand.result is not None
    assert view["result"] == ResultView.of(hand.result).model_dump(mode="json")


def test_replay_of_a_hand_without_declarer() -> None:
    hand = Hand(RuleSet.baofen(), seed=1)
    for seat in range(4):
        hand.bid(seat, None)
    view = replay(hand.to_record(), 1)
    assert view.tricks == [] and view.trump is None and view.declarer is None
    assert view.hands == view.deal
    assert view.result.kind == "no_bid"


def test_replay_endpoint(server: ThreadServer) -> None:
    rules = RuleSet.hongwu(hands=1)
    me, code = start_with_bots(server.base, rules)
    play_until_finished([me], rules)
    me.close()
    body: dict[str, Any] = httpx.get(f"{server.base}/api/tables/{code}/hands/1/replay").json()
    record = httpx.get(f"{server.base}/api/tables/{code}/hands/1").json()
    assert body == replay(record, 1).model_dump(mode="json")
    assert httpx.get(f"{server.base}/api/tables/{code}/hands/2/replay").status_code == 404
    assert httpx.get(f"{server.base}/api/tables/nope/hands/1/replay").status_code == 404
