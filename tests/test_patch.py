"""A view's changes (baofen.wire.patch): applying the change from one view to the next gives the
next view, whatever changed; finished tricks and the 记牌器 go as what was added or changed."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baofen.wire.patch import apply, diff


def view(tricks: int = 2, counter: int = 3, hand: tuple[str, ...] = ("SA", "H2")) -> dict[str, Any]:
    return {
        "type": "state", "you": 0, "view": 7, "last": None,
        "table": {"code": "t", "version": 10, "seats": [{"seat": 0, "name": "Ann"}],
                  "rules": {"variant": "baofen"}},
        "observation": {
            "phase": "playing", "hand": list(hand), "to_act": 1,
            "tricks": [{"leader": n, "plays": [[n, ["S3"]]]} for n in range(tricks)],
            "counter": {"SA": counter, "SK": 2}, "result": None,
        },
    }


def test_a_new_trick_goes_alone_and_the_rest_is_not_sent_again() -> None:
    old, new = view(tricks=2), view(tricks=3, counter=1, hand=("H2",))
    new["view"] = 8
    change = diff(old, new)
    assert change["tricks"] == [new["observation"]["tricks"][2]]
    assert change["counter"] == {"SA": 1}
    assert change["set"] == {"observation.hand": ["H2"]}
    assert apply(old, {"view": 8, **change}) == new


def test_a_new_hand_replaces_the_tricks_and_a_view_may_lose_its_observation() -> None:
    old, new = view(tricks=5), view(tricks=0)
    assert diff(old, new) == {"set": {"observation.tricks": []}}
    assert apply(old, diff(old, new)) == new
    gone = {**view(), "observation": None, "you": None}
    assert diff(old, gone) == {"set": {"observation": None, "you": None}}
    assert apply(old, diff(old, gone)) == gone
    assert apply(gone, diff(gone, old)) == old


def test_an_object_that_kept_its_fields_goes_field_by_field() -> None:
    old, new = view(), view()
    history = [{"number": 1, "deltas": [5, 5, -5, -5]}]
    old["table"]["match"] = {"step": 3, "history": history}
    new["table"]["match"] = {"step": 4, "history": history}
    change = diff(old, new)
    assert change == {"set": {"table.match.step": 4}}  # the finished hands not sent again
    assert apply(old, change) == new
    assert old["table"]["match"]["step"] == 3
    new["table"]["match"] = {"step": 0}  # other fields: replaced whole
    assert diff(old, new) == {"set": {"table.match": {"step": 0}}}
    assert apply(old, diff(old, new)) == new


def test_applying_leaves_the_view_before_as_it_was() -> None:
    old = view()
    kept = copy.deepcopy(old)
    apply(old, diff(old, view(tricks=3, counter=0)))
    assert old == kept


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=8,
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # timing is not the point
@given(
    st.dictionaries(st.sampled_from(["phase", "hand", "to_act", "result", "bids"]), json_values),
    st.dictionaries(st.sampled_from(["version", "seats", "match", "deadline"]),
                    json_values | st.fixed_dictionaries({"step": json_values,
                                                         "history": json_values})),
    st.integers(0, 4), st.integers(0, 4), st.dictionaries(st.sampled_from(["SA", "SK"]),
                                                            st.integers(0, 2)),
)
def test_any_change_is_applied_exactly(observation: dict[str, Any], table: dict[str, Any],
                                       had: int, has: int, counter: dict[str, int]) -> None:
    old, new = view(tricks=had), view(tricks=has)
    old["table"]["match"] = new["table"]["match"] = {"step": had, "history": [had]}
    new["observation"].update(observation)
    new["observation"]["counter"].update(counter)
    new["table"].update(table)
    assert apply(old, diff(old, new)) == new
