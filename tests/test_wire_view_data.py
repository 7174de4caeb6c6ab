"""The server's views built directly (``ObservationView.data``) are exactly the protocol
model's JSON: the model takes them as they are and gives back the same data (no field
missing, renamed or of another type), for every seat and a spectator at every step of whole
hands of both games, failed throws and results included."""

from __future__ import annotations

import pytest

from baofen import Hand, RuleSet
from baofen.bots import make_bot
from baofen.wire.observation import ObservationView
from baofen.wire.tricks import TrickViews


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_the_direct_view_is_the_models(variant: str) -> None:
    compared = 0
    for seed in range(4):
        hand = Hand(RuleSet.create(variant=variant), seed=seed)
        bots = [make_bot("random", seed=seed * 4 + seat) for seat in range(4)]
        views = TrickViews()
        while True:
            for seat in (0, 1, 2, 3, None):
                seen = hand.observation(seat)
                for counter in (True, False):
                    expected = ObservationView.of(seen, views, counter).model_dump(mode="json")
                    assert ObservationView.data(seen, views, counter) == expected
                    compared += 1
            if hand.phase == "done":
                break
            hand.apply(hand.to_act, bots[hand.to_act].act(hand.observation(hand.to_act)))
    assert compared > 1000
