"""Information leaks: no message to any seat shows a card it is not entitled to see.

Every state message of a whole match, to each of four players and a spectator, is checked
against the server-side truth, rebuilt from the finished hands' records: a seat sees its own
hand exactly, the kitty and the bury only as declarer, and otherwise only played cards.
"""

from __future__ import annotations

import httpx
import pytest

from baofen import RuleSet

from .harness import Client, ThreadServer, create_table
from .leaks import card_strings, check_no_leak


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_no_message_shows_a_card_it_should_not(server: ThreadServer, variant: str) -> None:
    check_no_leak(server.base, server.base, variant)


def test_rest_shows_no_card_during_a_hand(server: ThreadServer) -> None:
    rules = RuleSet.baofen()
    code = create_table(server.base, rules.to_dict(), timer=None)
    me = Client(server.base, code)
    me.join(0)
    me.send(type="fill_bots")
    me.send(type="start")
    state = me.expect("state")
    while not (state["observation"] and state["observation"]["phase"] == "playing"
               and state["observation"]["to_act"] == 0):
        if state["observation"] and state["observation"]["to_act"] == 0:
            me.send(type="bid", value=95)  # declare, so as to hold the kitty
            state = me.expect("state")
            hand = state["observation"]["hand"]
            me.send(type="declare", trump="H", bury=hand[-8:])
        state = me.expect("state")
    for path in ("", "/hands", "/records"):
        body = httpx.get(f"{server.base}/api/tables/{code}{path}").json()
        assert not list(card_strings(body)), path
    listing = httpx.get(f"{server.base}/api/tables").json()
    assert [t["code"] for t in listing] == [code]
    assert not list(card_strings(listing))
