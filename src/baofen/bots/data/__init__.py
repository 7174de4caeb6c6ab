"""The bots' fitted tables, shipped as JSON files beside this module and read once at import.

``holdings.json`` is the search's prior on who holds which card
(:data:`baofen.bots.search.holdings.HOLDING_WEIGHTS`), ``bid_models.json`` the rule bot's bidding
models (:data:`baofen.bots.rule.evaluation.BID_MODELS`). The calibrations under
``bench/calibration/`` write them; the code never holds a copy, so a new fit is a data change,
not a code change.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

__all__ = ["load_table"]


def load_table(name: str) -> Any:
    """The ``table`` of the data file ``name`` (``"holdings"``, ``"bid_models"``)."""
    text = files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)["table"]
