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


def rebuilt_is_whole(client: Client) -> None:
    """The view ``client`` rebuilt from what it was sent is the one the server sends whole."""
    client.drain(0.3)
    rebuilt = client.state
    assert rebuilt is not None
    whole = client.snapshot()
    rebuilt = {**rebuilt, "table": {**rebuilt["table"], "deadline": None}}
    del rebuilt["view"]
    assert rebuilt == whole


def test_a_player_who_leaves_while_watched_gets_the_spectators_view(
    server: ThreadServer,
) -> None:
    """The spectators' last view and the leaving player's share their number: a patch of it
    would leave the player showing their seat and hand (views must match their audience)."""
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    players = [Client(server.base, code) for _ in range(4)]
    for seat, client in enumerate(players):
        client.join(seat, f"p{seat}")
    spectator = Client(server.base, code)
    spectator.send(type="watch")
    spectator.expect("state")
    players[0].send(type="start")
    for client in [*players, spectator]:
        client.expect("state")  # the deal
    players[1].send(type="leave", id=1)
    players[1].expect("ack")  # after the views the leaving sent
    rebuilt_is_whole(players[1])
    assert players[1].state is not None and players[1].state["you"] is None
    for client in [*players, spectator]:
        client.close()


def test_a_spectator_who_takes_back_a_seat_gets_that_seats_view(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    players = [Client(server.base, code) for _ in range(4)]
    tokens = [client.join(seat, f"p{seat}")["token"] for seat, client in enumerate(players)]
    players[0].send(type="start")
    for client in players:
        client.expect("state")  # the deal
    players[2].close()
    back = Client(server.base, code)
    back.send(type="watch")
    back.expect("state")
    back.drain(0.3)
    back.send(type="reclaim", token=tokens[2])
    back.expect("joined")
    rebuilt_is_whole(back)
    assert back.state is not None and back.state["you"] == 2 and back.state["observation"]["hand"]
    for client in [players[0], players[1], players[3], back]:
        client.close()
