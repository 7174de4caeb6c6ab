"""The bots' fitted tables are read from their data files (baofen/bots/data/), with the values
the bots were tuned and measured with: a new fit shows as a change of these digests."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from baofen.bots.data import load_table
from baofen.bots.rule.evaluation import BID_MODELS
from baofen.bots.search.holdings import HOLDING_WEIGHTS

DIGESTS = {
    "holdings": "97c878998ef292ffa17512ded678d1321d8ddc758a689aefd4c1f5dad1e16f14",
    "bid_models": "f5c01e9adaebb0cf1b19c0910feb385b5fc1ffd408df2a86b7112cd0ebd7be50",
}
"""sha256 of each table as sorted JSON (tuples as lists), as fitted."""


def digest(table: Any) -> str:
    return hashlib.sha256(json.dumps(table, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize(("name", "table"), [("holdings", HOLDING_WEIGHTS),
                                             ("bid_models", BID_MODELS)])
def test_tables_hold_the_fitted_values(name: str, table: Any) -> None:
    assert digest(table) == DIGESTS[name]


def test_a_few_values_read_as_fitted() -> None:
    assert BID_MODELS["baofen"] == ((-80.873, 5.035, 5.169, 12.509, 3.251, 17.082, 0.252), 76.5)
    assert BID_MODELS["hongwu"][1] == 33.1
    assert HOLDING_WEIGHTS["baofen"]["kitty"]["p3"] == 50.0
    assert HOLDING_WEIGHTS["hongwu"]["forced"]["p4"] == 0.0212
    assert set(HOLDING_WEIGHTS["hongwu"]) == {"bidder", "declarer", "forced", "kitty"}


def test_the_bid_models_are_the_files_models() -> None:
    models = load_table("bid_models")
    read = {v: (tuple(m["coefficients"]), m["residual_sd"]) for v, m in models.items()}
    assert read == BID_MODELS
