"""Checks shared by the engine's and the bots' tests: an action is legal where it is taken, and
an observation shows a seat what it may know and nothing more."""

from __future__ import annotations

import dataclasses
import json

from baofen import Bid, Declare, Hand, Observation, Play
from baofen.wire.observation import ObservationView


def check_legal(hand: Hand, seat: int, action: object) -> None:
    """Fail unless ``action`` is legal for ``seat`` now (tried on a copy of the hand)."""
    observation = hand.observation(seat)
    if observation.phase == "bidding":
        assert isinstance(action, Bid)
        assert action.value in observation.legal_bids()
    elif observation.phase == "kitty":
        assert isinstance(action, Declare)
    else:
        assert isinstance(action, Play)
        assert observation.play_error(action.cards) is None, (action, observation.hand)
    hand.copy().apply(seat, action)


def check_observation(hand: Hand, seat: int | None) -> None:
    """Fail unless ``seat``'s observation (``None``: a spectator's) shows its own cards, the
    kitty and the bury only to the declarer, and is what its fields and its wire view say."""
    obs = hand.observation(seat)
    assert obs.seat == seat
    if seat is None:
        assert obs.hand == () and obs.by_group == ()
    else:
        assert list(obs.hand) == hand.hand_of(seat)
    entitled = seat is not None and seat == hand.declarer
    assert obs.kitty == (hand.kitty if entitled else None)
    assert obs.buried == (hand.buried if entitled else None)
    for _who, action in obs.actions:
        if isinstance(action, Declare) and not entitled:
            assert action.bury == ()
    # Every field is set, and the observation is what building it by keyword gives.
    values = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
    assert Observation(**values) == obs
    data = ObservationView.of(obs).model_dump(mode="json")
    json.dumps(data)
    assert data["hand"] == ([str(c) for c in hand.hand_of(seat)] if seat is not None else [])
    assert data["kitty"] == (None if not entitled else [str(c) for c in hand.kitty])
    assert "deal" not in data and "hands" not in data
