"""The open-table list on a real server: what a visitor can do at each table (join a free seat,
or watch), tables with a free seat first; private tables never listed."""

from __future__ import annotations

import httpx

from baofen import RuleSet

from .harness import Client, ThreadServer, create_table


def test_the_open_tables_say_what_a_visitor_can_do(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1).to_dict()
    waiting = create_table(server.base, rules, timer=None)
    ann = Client(server.base, waiting)
    ann.join(0, "Ann")
    playing = create_table(server.base, rules, timer=None)
    bo = Client(server.base, playing)
    bo.join(1, "Bo")
    bo.send(type="fill_bots")
    bo.send(type="start")
    bo.expect("ack")
    quick = httpx.post(f"{server.base}/api/quickplay", json={"name": "Cy"})
    assert quick.status_code == 201
    listed = httpx.get(f"{server.base}/api/tables").json()
    assert [entry["code"] for entry in listed] == [waiting, playing]  # a free seat first
    first, second = listed
    assert (first["stage"], first["free_seats"], first["host_name"]) == (
        "waiting",
        [1, 2, 3],
        "Ann",
    )
    assert (second["stage"], second["free_seats"], second["host_name"]) == ("playing", [], "Bo")
    for entry in listed:
        assert 0 < entry["created"] <= entry["active"]
    assert quick.json()["code"] not in {entry["code"] for entry in listed}  # 和电脑玩: private
