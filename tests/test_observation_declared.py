"""What a seat sees is declared once (the audience of each Observation field), and the engine's
redaction, the wire view and the env encoding are made from it or checked against it."""

from __future__ import annotations

import pytest

from baofen import Declare, Hand, RuleSet
from baofen.bots import make_bot
from baofen.observation import AUDIENCE
from baofen.setting import Variant
from baofen.wire.observation import ENGINE_FIELDS, ObservationView
from baofen.wire.tricks import TrickView

_KNOWN = {"bidding": (), "kitty": ("kitty",), "playing": ("kitty", "buried"), "done": ()}
"""The declarer-only fields that hold a value in each phase (before the end)."""

SEEN_BY_A_SEAT = {name for name, audience in AUDIENCE.items() if audience != "context"}


def test_every_field_names_who_may_see_it() -> None:
    assert set(AUDIENCE.values()) == {"context", "public", "own", "declarer"}
    assert AUDIENCE["by_group"] == "own"
    assert {name for name, audience in AUDIENCE.items() if audience == "declarer"} == {
        "kitty", "buried", "actions"
    }


def test_the_wire_carries_every_field_by_name() -> None:
    assert set(ENGINE_FIELDS) == set(AUDIENCE)
    carried = {name for name in ENGINE_FIELDS.values() if name is not None}
    assert carried <= set(ObservationView.model_fields)


def test_the_encoding_reads_every_field_a_seat_sees_or_says_why_not() -> None:
    # The env's encoding is the research extra's (numpy); the rest of this module is the engine's.
    pytest.importorskip("numpy", reason="the env's encoding needs the research extra")
    from baofen.env.encoding import NOT_ENCODED, PIECES

    reads = {name for piece in PIECES for name in piece.reads}
    assert reads <= set(AUDIENCE)
    assert reads | set(NOT_ENCODED) == SEEN_BY_A_SEAT
    assert not reads & set(NOT_ENCODED)


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_the_redaction_follows_the_audiences(variant: Variant) -> None:
    hand = Hand(RuleSet(variant=variant), seed=11)
    bots = [make_bot("rule") for _ in range(4)]
    for seat in hand.turns():
        views = [hand.observation(s) for s in (0, 1, 2, 3, None)]
        declarer = hand.declarer
        for s, view in zip((0, 1, 2, 3, None), views, strict=True):
            entitled = s is not None and s == declarer
            for name, audience in AUDIENCE.items():
                value = getattr(view, name)
                if audience == "public":
                    assert value == getattr(views[0], name), name
                elif audience == "own":
                    assert value == (tuple(hand._held[s]) if s is not None else ()), name
                elif audience == "declarer" and name != "actions":
                    assert (value is not None) == (entitled and name in _KNOWN[hand.phase]), name
            declared = [action for _, action in view.actions if isinstance(action, Declare)]
            for action in declared:
                assert len(action.bury) == (8 if entitled else 0), "the bury is the declarer's"
        hand.apply(seat, bots[seat].act(views[seat]))


DERIVED = {
    "counter": "the copies of each card not seen: the deal's copies less the own hand and every "
               "card played (Observation.played_cards)",
    "current_penalty": "the penalty of the throw in current_attempt (public), by the rules",
    "legal_bids": "the bids the rules allow after the public bids",
    "trick_number": "how many tricks are finished, plus one",
    "trick_points": "the points of the cards on the table (public)",
    "winning": "the seat whose play beats the trick so far, by the judge (public cards)",
}
"""The wire fields a seat's view adds to the engine's Observation, each worked out from what the
Observation holds: people at a table see no more than the computer players decide from."""


def test_a_seat_sees_on_the_wire_only_what_its_observation_holds() -> None:
    carried = {name for name in ENGINE_FIELDS.values() if name is not None}
    assert set(ObservationView.model_fields) - carried == set(DERIVED)
    # A failed throw's stopper is in another player's hand: neither people nor computers see it
    # (docs/rules.md §2, "Reading: the stopper of a failed throw").
    assert not any("stopper" in name for name in ObservationView.model_fields)
    assert not any("stopper" in name for name in TrickView.model_fields)
    assert not any("stopper" in name for name in AUDIENCE)
