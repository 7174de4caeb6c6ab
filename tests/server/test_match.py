"""Whole matches through the real server: one player and three computer players; four players."""

from __future__ import annotations

import time

import httpx
import pytest

from baofen import Hand, RuleSet

from .harness import Client, RandomPlayer, ThreadServer, create_table, to_act

MATCH_TIMEOUT = 120.0


def play_until_finished(clients: list[Client], rules: RuleSet) -> dict[str, object]:
    """Every client plays at random on its turns until the match is over; the last state."""
    players = {c.seat: RandomPlayer(rules, seed=c.seat or 0) for c in clients}
    acted: dict[int | None, int] = {}
    deadline = time.monotonic() + MATCH_TIMEOUT
    while time.monotonic() < deadline:
        for client in clients:
            client.drain(0.05 / len(clients))
            state = client.state
            assert state is not None
            if state["table"]["status"] == "finished":
                return state
            version = state["table"]["version"]
            if to_act(state) == client.seat and acted.get(client.seat) != version:
                acted[client.seat] = version
                client.send(**players[client.seat].message(state))
    raise AssertionError(f"the match did not finish in {MATCH_TIMEOUT} s")


def check_records(server: ThreadServer, code: str, hands: int) -> None:
    summaries = httpx.get(f"{server.base}/api/tables/{code}/hands").json()
    records = httpx.get(f"{server.base}/api/tables/{code}/records").json()
    assert [s["number"] for s in summaries] == list(range(1, hands + 1))
    totals = [0, 0, 0, 0]
    for summary, record in zip(summaries, records, strict=True):
        hand = Hand.from_record(record)
        assert hand.phase == "done"
        assert hand.result is not None and hand.result.to_dict() == summary["result"]
        totals = [a + b for a, b in zip(totals, summary["deltas"], strict=True)]
    assert totals == summaries[-1]["scores"]


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_one_player_and_three_bots(server: ThreadServer, variant: str) -> None:
    rules = RuleSet.create(variant=variant, hands=2)
    code = create_table(server.base, rules.to_dict(), timer_seconds=None)
    me = Client(server.base, code)
    me.join(1, "Ann")
    me.send(type="fill_bots", level="random")
    me.expect("ack")
    me.send(type="start")
    me.expect("ack")
    final = play_until_finished([me], rules)
    seats = final["table"]["seats"]
    assert [s["kind"] for s in seats] == ["bot", "human", "bot", "bot"]
    assert final["table"]["match"]["finished"]
    assert len(final["table"]["match"]["history"]) == 2
    check_records(server, code, 2)
    me.close()


def test_four_players(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer_seconds=None)
    clients = [Client(server.base, code) for _ in range(4)]
    for seat, client in enumerate(clients):
        client.join(seat, f"p{seat}")
    clients[2].send(type="start")
    clients[2].expect("ack")
    final = play_until_finished(clients, rules)
    assert all(s["kind"] == "human" for s in final["table"]["seats"])
    assert not any(s["auto"] for s in final["table"]["seats"])
    check_records(server, code, 1)
    for client in clients:
        client.close()
