"""The browser's ``applyPatch`` (static/js/patch.js) makes of a view and a change what the
server's :func:`baofen.wire.patch.apply` makes: the same changes, found by
:func:`baofen.wire.patch.diff`, applied on both sides."""

from __future__ import annotations

import copy
import random
from typing import Any

from playwright.sync_api import Browser

from baofen.wire.patch import apply, diff

from ..server.harness import ThreadServer
from .ui import Person


def views(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """A view and a next one: a match's step, its finished hands, tricks, the 记牌器, a seat's
    hand and the last action changed at random, or the observation gone or new."""
    history = [{"number": n, "deltas": [n, -n, n, -n]} for n in range(rng.randint(0, 3))]
    old = {
        "type": "state", "you": 0, "view": 5, "last": None,
        "table": {"code": "t", "version": 9, "seats": [{"seat": 0, "name": "Ann"}],
                  "match": {"step": 3, "history": history, "scores": [0, 0, 0, 0]}},
        "observation": {
            "hand": ["SA", "H2", "C3"], "to_act": 1, "result": None,
            "tricks": [{"leader": n} for n in range(rng.randint(0, 3))],
            "counter": {"SA": 1, "SK": 2, "H2": 0},
        },
    }
    new = copy.deepcopy(old)
    new["view"] = 6
    table, observation = new["table"], new["observation"]
    table["version"] += 1
    table["match"]["step"] += rng.randint(0, 1)
    if rng.random() < 0.3:
        table["match"]["history"] = [*history, {"number": 9, "deltas": [1, 1, -1, -1]}]
    if rng.random() < 0.2:
        table["match"] = {"step": 0}  # other fields: sent whole
    observation["hand"] = observation["hand"][rng.randint(0, 2):]
    observation["tricks"].extend({"leader": 7} for _ in range(rng.randint(0, 2)))
    observation["counter"]["SK"] = rng.randint(0, 2)
    if rng.random() < 0.3:
        observation["result"] = {"declarer": 1, "made": rng.random() < 0.5}
    new["last"] = rng.choice([None, {"seat": 1, "play": "SA"}])
    if rng.random() < 0.1:
        new["observation"] = None
    return old, new


def test_the_browser_applies_a_change_as_the_server_does(
    chromium: Browser, web_server: ThreadServer
) -> None:
    rng = random.Random(27)
    cases = []
    for _ in range(60):
        old, new = views(rng)
        change = {"type": "patch", "view": new["view"], "since": old["view"], **diff(old, new)}
        assert apply(old, change) == new
        cases.append((old, change, new))
    assert any("table.match.step" in change.get("set", {}) for _, change, _ in cases)
    person = Person(chromium, web_server.base)
    person.page.goto(web_server.base + "/")
    made = person.page.evaluate(
        """cases => import('/static/js/patch.js').then(m => cases.map(([old, change]) => {
             const before = JSON.stringify(old);
             const next = m.applyPatch(old, change);
             return [next, JSON.stringify(old) === before];
           }))""",
        [[old, change] for old, change, _ in cases],
    )
    person.close()
    for (_, change, new), (next_view, unchanged) in zip(cases, made, strict=True):
        assert next_view == new, change
        assert unchanged, change  # the view before is left as it was
