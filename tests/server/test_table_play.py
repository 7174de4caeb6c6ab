"""What a table tells a player as the hand goes: the trick's winner so far and the 记牌器 agree
with the engine over whole hands; a failed throw shows at once who stopped it, with which cards,
and its penalty; between hands the table waits for 继续 (ready)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import httpx
import pytest

from baofen import Card, RuleSet
from baofen.bots import make_bot
from baofen.wire.observation import ObservationView
from baofen.wire.tricks import TrickViews

from .harness import (
    Client,
    Seated,
    ThreadServer,
    create_table,
    finished,
    start_with_bots,
    to_act,
)
from .leaks import truth_at


def check_winning(observation: dict[str, Any], rules: RuleSet) -> None:
    """``winning`` is the seat of the play the engine's trick judge ranks first."""
    plays = observation["current_trick"]
    if not plays:
        assert observation["winning"] is None
        return
    if observation["current_attempt"] is not None and len(plays) == 1:
        # a failed throw's forced play leads alone: it wins so far
        assert observation["winning"] == plays[0][0]
        return
    index = rules.trick_winner([[Card(c) for c in cards] for _, cards in plays],
                               observation["trump"])
    assert observation["winning"] == plays[index][0]


def check_counter(observation: dict[str, Any]) -> None:
    """Each kind's unseen copies: two, less this seat's hand, every played card and what this
    seat buried; over all kinds, the cards of the other hands and of a kitty it did not bury."""
    counter = observation["counter"]
    seen = Counter(observation["hand"])
    for trick in observation["tricks"]:
        seen.update(card for _, cards in trick["plays"] for card in cards)
    seen.update(card for _, cards in observation["current_trick"] for card in cards)
    seen.update(observation["buried"] or ())
    assert len(counter) == 54
    assert all(counter[card] == 2 - seen[card] for card in counter)
    seat = observation["seat"]
    others = sum(n for s, n in enumerate(observation["hand_sizes"]) if s != seat)
    kitty_unseen = 0 if observation["buried"] is not None or observation["phase"] == "kitty" else 8
    if observation["phase"] == "kitty" and observation["declarer"] != seat:
        kitty_unseen = 0  # the declarer holds the kitty: it is in their hand size
    assert sum(counter.values()) == others + kitty_unseen


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_winning_and_counter_agree_with_the_engine_over_whole_hands(
    server: ThreadServer, variant: str
) -> None:
    rules = RuleSet.create(variant=variant, hands=3)
    me, _ = start_with_bots(server.base, rules, seat=2)
    player = Seated(me, rules, seed=5)
    tricks_seen = 0

    def check(state: dict[str, Any]) -> bool:
        nonlocal tricks_seen
        observation = state["observation"]
        if observation is not None:
            check_winning(observation, rules)
            check_counter(observation)
            tricks = observation["tricks"]
            if observation["phase"] == "playing":
                assert observation["trick_number"] == len(tricks) + 1
            assert observation["trick_points"] == sum(
                Card(c).points for _, cards in observation["current_trick"] for c in cards
            )
            tricks_seen += len(tricks) if observation["phase"] == "done" else 0
        return bool(state["table"]["status"] == "finished")

    player.poll(0.05)  # the first state may have come before the start's ack: act on it
    player.until(check)
    assert tricks_seen >= 3 * 6  # whole hands were checked


def test_counter_is_left_out_when_the_table_turns_it_off(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None, card_counter=False)
    me = Client(server.base, code)
    me.join(0, "Ann")
    me.send(type="fill_bots")
    me.send(type="start")
    state = me.expect("state")
    while state["observation"] is None:
        state = me.expect("state")
    assert state["observation"]["counter"] is None


def wait_for(client: Client, done: Any, limit: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        message = client.recv()
        if message["type"] == "state" and done(message):
            return message
    raise AssertionError("no such state")


def hand_done(state: dict[str, Any]) -> bool:
    return bool(state["observation"] and state["observation"]["phase"] == "done")


def test_one_player_takes_all_the_time_they_want_between_hands(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=2)
    code = create_table(server.base, rules.to_dict(), timer=None, ready_seconds=0.3)
    me = Client(server.base, code)
    me.join(0, "Ann")
    me.send(type="fill_bots")
    me.send(type="start")
    done = Seated(me, rules, presses_ready=False).until(hand_done)
    time.sleep(1.0)  # three times the ready timer: nothing moves while the result shows
    me.drain(0.05)
    state = me.state
    assert state is not None and hand_done(state)
    assert state["table"]["match"]["hand_number"] == done["table"]["match"]["hand_number"] == 1
    assert not any(seat["auto"] for seat in state["table"]["seats"])
    assert state["table"]["deadline"] is None
    me.send(type="ready", id="go")
    dealt = wait_for(me, lambda s: s["table"]["match"]["hand_number"] == 2)
    assert dealt["observation"]["phase"] == "bidding" and dealt["table"]["ready"] == []


def test_ready_out_of_place_is_refused(server: ThreadServer) -> None:
    me, _ = start_with_bots(server.base, RuleSet.baofen(hands=1))
    me.send(type="ready", id="r")
    error = me.expect("error")
    assert error["code"] == "not_between_hands" and error["id"] == "r"


def test_several_players_wait_for_each_other_so_long(server: ThreadServer) -> None:
    rules = RuleSet.baofen(hands=2)
    code = create_table(server.base, rules.to_dict(), timer=None, ready_seconds=0.5)
    ann, bob = Client(server.base, code), Client(server.base, code)
    ann.join(0, "Ann")
    bob.join(2, "Bob")
    ann.send(type="fill_bots")
    ann.send(type="start")
    players = [Seated(ann, rules, 1, presses_ready=False), Seated(bob, rules, 2, False)]
    while not (bob.state and hand_done(bob.state)):  # both play the first hand
        for player in players:
            player.poll(0.02)
    assert bob.state["table"]["deadline"] is not None
    ann.send(type="ready")  # Ann presses 继续, Bob never does
    start = time.monotonic()
    dealt = wait_for(bob, lambda s: s["table"]["match"]["hand_number"] == 2)
    assert time.monotonic() - start > 0.2  # Bob had his time
    assert not any(seat["auto"] for seat in dealt["table"]["seats"])  # made ready, not 托管
    httpx.get(f"{server.base}/health").raise_for_status()


def test_quickplay_seats_the_player_at_south_with_the_match_started(server: ThreadServer) -> None:
    answer = httpx.post(f"{server.base}/api/quickplay",
                        json={"variant": "hongwu", "level": "random", "name": ""})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["seat"] == 0 and body["name"].startswith("玩家") and body["link"].endswith(
        f"/t/{body['code']}")
    me = Client(server.base, body["code"])
    me.send(type="reclaim", token=body["token"])
    assert me.expect("joined")["seat"] == 0
    state = wait_for(me, lambda s: s["observation"] is not None)
    table = state["table"]
    assert table["status"] == "playing" and table["rules"]["variant"] == "hongwu"
    assert table["settings"]["private"] and table["settings"]["bot_level"] == "random"
    assert [seat["kind"] for seat in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert len(state["observation"]["hand"]) == 25
    assert to_act(state) is not None


def test_quickplay_refuses_an_unknown_game(server: ThreadServer) -> None:
    answer = httpx.post(f"{server.base}/api/quickplay", json={"variant": "poker"})
    assert answer.status_code == 422


def throwing(client: Client, rules: RuleSet, seed: int) -> Seated:
    """A seated player who leads throws (甩牌) whenever it can."""
    player = Seated(client, rules, seed=seed)
    player.player.bot = make_bot("random", seed=seed, throw_rate=1.0, pass_rate=0.2)
    return player


def test_a_failed_throw_shows_its_cards_and_penalty_at_once_and_no_hidden_card(
    server: ThreadServer,
) -> None:
    """A failed throw's cards and penalty show at once; who stopped it, with which cards of a
    hand, does not: a person sees what the computers' Observation holds (docs/rules.md §2)."""
    rules = RuleSet.baofen(hands=1)
    code = create_table(server.base, rules.to_dict(), timer=None)
    clients = [Client(server.base, code) for _ in range(4)]
    for seat, client in enumerate(clients):
        client.join(seat, f"p{seat}")
    clients[0].send(type="start")
    players = [throwing(client, rules, seed) for seed, client in enumerate(clients)]
    while not all(c.state is not None and finished(c.state) for c in clients):
        for player in players:
            player.poll(0.01)
    record = httpx.get(f"{server.base}/api/tables/{code}/records").json()[0]

    current = finished_tricks = 0
    for message in clients[1].received:
        if message["type"] != "state" or message["observation"] is None:
            continue
        observation = message["observation"]
        truth = truth_at(record, message["table"]["match"]["step"])
        expected = ObservationView.of(
            truth.observation(1), TrickViews()
        ).model_dump(mode="json")
        assert observation == expected
        attempt = observation["current_attempt"]
        if attempt is not None:
            assert "current_stopper" not in observation
            assert observation["current_penalty"] == 3 * len(attempt)
            current += 1
        else:
            assert observation["current_penalty"] == 0
        for trick in observation["tricks"]:
            assert "stopper" not in trick
            finished_tricks += trick["attempted"] is not None
    assert current > 0 and finished_tricks > 0  # failed throws were seen, in and after the trick
