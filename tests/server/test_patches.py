"""After the first whole view a connection gets only what changed: the
patches rebuild exactly the views the server would send whole, for players and spectators,
in a fraction of the bytes."""

from __future__ import annotations

import json

from baofen import RuleSet

from .harness import Client, ThreadServer, create_table, play_until_finished


def whole_size(state: dict[str, object]) -> int:
    return len(json.dumps(state, ensure_ascii=False, separators=(",", ":")))


def test_patches_rebuild_every_view_in_a_fraction_of_the_bytes(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    players = [Client(server.base, code) for _ in range(4)]
    for seat, client in enumerate(players):
        client.join(seat, f"p{seat}")
    spectator = Client(server.base, code)
    spectator.send(type="watch")
    spectator.expect("state")
    players[0].send(type="start")
    play_until_finished([*players, spectator], rules)
    for client in [*players, spectator]:
        rebuilt = client.state
        assert rebuilt is not None and client.patches > 50
        client.send(type="sync")  # the whole view, as the server makes it now
        whole = client.expect("state")
        for state in (rebuilt, whole):  # the clock's fields, and the views' numbers
            state["table"] = {**state["table"], "active": None, "deadline": None}
            state["view"] = None
        assert rebuilt == whole
        states = [m for m in client.received if m["type"] == "state"]
        sent = client.sizes["patch"] + client.sizes["state"] - whole_size(whole) - 20
        would_be = sum(whole_size(state) for state in states[:-1])
        print(f"seat {client.seat}: {sent:,} characters sent, {would_be:,} as whole views")
        assert sent < would_be / 4, (sent, would_be)
    for client in [*players, spectator]:
        client.close()
