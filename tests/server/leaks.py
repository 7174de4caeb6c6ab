"""What a seat may see: every card written in a message, the server's truth rebuilt from a
finished hand's record, and a whole match checked message by message (:func:`check_no_leak`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx

from baofen import Hand, RuleSet
from baofen.wire.observation import ObservationView
from baofen.wire.tricks import TrickViews

from .harness import Client, create_table, play_until_finished

CARD = re.compile(r"^(?:[SHCD][2-9TJQKA]|BJ|LJ)$")


def card_strings(value: Any) -> Iterator[str]:
    """Every card written anywhere in a JSON value."""
    if isinstance(value, str):
        yield from (token for token in value.split() if CARD.match(token))
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)


def truth_at(record: dict[str, Any], step: int) -> Hand:
    """The server's hand after ``step`` actions of a finished hand's record."""
    return Hand.from_record(record).redeal(step)


def entitled(hand: Hand, seat: int | None) -> set[str]:
    """Cards ``seat`` may see: its own, every played or failed-throw card, and the kitty and
    bury when it is the declarer."""
    cards = set(map(str, hand.hand_of(seat))) if seat is not None else set()
    for trick in hand.tricks:
        cards |= {str(c) for _, played in trick.plays for c in played}
        cards |= {str(c) for c in trick.attempted or ()}
    cards |= {str(c) for _, played in hand.current_trick for c in played}
    observation = hand.observation(None)
    cards |= {str(c) for c in observation.current_attempt or ()}
    if seat is not None and seat == hand.declarer:
        cards |= {str(c) for c in hand.kitty} | {str(c) for c in hand.buried or ()}
    return cards


def check_no_leak(owner: str, base: str, variant: str) -> None:
    """Four players and a spectator connected to ``base`` play a match at a table created on
    ``owner`` (the same server, or another node of a cluster); no message shows a card it
    should not."""
    rules = RuleSet.create(variant=variant, hands=2)
    code = create_table(owner, rules.to_dict(), timer=None)
    players = [Client(base, code) for _ in range(4)]
    for seat, client in enumerate(players):
        client.join(seat, f"p{seat}")
    spectator = Client(base, code)
    spectator.send(type="watch")
    players[0].send(type="start")
    play_until_finished([*players, spectator], rules)
    records = httpx.get(f"{base}/api/tables/{code}/records").json()
    assert len(records) == 2

    checked = 0
    for client in [*players, spectator]:
        seat = client.seat
        for message in client.received:
            assert message["type"] != "state" or message["you"] == seat
            if message["type"] != "state" or message["observation"] is None:
                assert not list(card_strings(message)), message
                continue
            match = message["table"]["match"]
            truth = truth_at(records[match["hand_number"] - 1], match["step"])
            observation = message["observation"]
            assert observation == ObservationView.of(
                truth.observation(seat), TrickViews()
            ).model_dump(mode="json")
            own = sorted(map(str, truth.hand_of(seat))) if seat is not None else []
            assert sorted(observation["hand"]) == own
            if seat is None or seat != truth.declarer:
                assert observation["kitty"] is None and observation["buried"] is None
            allowed = entitled(truth, seat)
            shown = set(card_strings(message))
            assert shown <= allowed, (seat, shown - allowed)
            checked += 1
    # every client saw the state after every action
    assert checked >= 5 * sum(len(record["actions"]) for record in records)
