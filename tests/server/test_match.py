"""Whole matches through the real server: one player and three computer players; four players."""

from __future__ import annotations

import httpx
import pytest

from baofen import Hand, RuleSet
from baofen.wire.results import ResultView

from .harness import (
    Client,
    ThreadServer,
    create_table,
    play_until_finished,
    start_with_bots,
)


def check_records(server: ThreadServer, code: str, hands: int) -> None:
    summaries = httpx.get(f"{server.base}/api/tables/{code}/hands").json()
    records = httpx.get(f"{server.base}/api/tables/{code}/records").json()
    assert [s["number"] for s in summaries] == list(range(1, hands + 1))
    totals = [0, 0, 0, 0]
    for summary, record in zip(summaries, records, strict=True):
        hand = Hand.from_record(record)
        assert hand.phase == "done"
        assert hand.result is not None
        assert ResultView.of(hand.result).model_dump(mode="json") == summary["result"]
        totals = [a + b for a, b in zip(totals, summary["deltas"], strict=True)]
    assert totals == summaries[-1]["scores"]


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_one_player_and_three_bots(server: ThreadServer, variant: str) -> None:
    rules = RuleSet.create(variant=variant, hands=2)
    me, code = start_with_bots(server.base, rules, seat=1)
    final = play_until_finished([me], rules)
    seats = final["table"]["seats"]
    assert [s["kind"] for s in seats] == ["bot", "human", "bot", "bot"]
    assert final["table"]["match"]["finished"]
    assert len(final["table"]["match"]["history"]) == 2
    check_records(server, code, 2)
    me.close()


def test_four_players(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    clients = [Client(server.base, code) for _ in range(4)]
    for seat, client in enumerate(clients):
        client.join(seat, f"p{seat}")
    clients[0].send(type="start")  # the host: the first seated
    clients[0].expect("ack")
    final = play_until_finished(clients, rules)
    assert all(s["kind"] == "human" for s in final["table"]["seats"])
    assert not any(s["auto"] for s in final["table"]["seats"])
    check_records(server, code, 1)
    for client in clients:
        client.close()
