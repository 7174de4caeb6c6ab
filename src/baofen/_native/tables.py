"""The tables the native core shares with the Python engine, each written once, here or in the
engine: the card kinds and their points, the red five, the deal's sizes, the codes of a native
action log and the layout of a native result row.

The C++ core reads them from ``tables.hpp``, a header rendered from these definitions by
:func:`header`: ``python -m baofen._native.tables`` writes it, and
``tests/test_native_tables.py`` fails while the committed header differs from what this module
renders, so a table changed in Python cannot drift from the C++ one.
"""

from __future__ import annotations

import sys
from itertools import accumulate
from pathlib import Path
from typing import Final

from ..cards import BIG_JOKER, KINDS, LITTLE_JOKER, POINTS, card_of
from ..deal import HAND_SIZE, KITTY_SIZE
from ..scoring import ResultKind

RED_FIVE: Final = int(card_of("H", 5))
"""The red five (红五, ♥5): 包红五's top trump and its capture points."""

MAX_BIDS: Final = 301
"""The most bid values a valid rule set offers (包红五 from 0 to 300 by 1; 包分 offers at most 40):
the room of the native core's list of legal bids."""

ACTION_BID: Final = 0
"""A native action log's code of a bid (its value, -1 for a pass)."""
ACTION_DECLARE: Final = 1
"""A native action log's code of a declaration (the trump's suit index and the bury)."""
ACTION_PLAY: Final = 2
"""A native action log's code of a play (the cards played)."""

RESULT_KINDS: Final[tuple[ResultKind, ...]] = ("full_sweep", "half_sweep", "shutout", "no_bid")
"""The kinds of a result row's ``kind`` column by number (-1: none)."""

RESULT_LAYOUT: Final[tuple[tuple[str, int], ...]] = (
    ("declarer", 1),  # -1 without one
    ("target", 1),
    ("declarer_points", 1),
    ("made", 1),
    ("kind", 1),  # RESULT_KINDS' index, -1 for none
    ("score", 1),
    ("levels", 1),
    ("has_score", 1),
    ("has_levels", 1),
    ("deltas", 4),  # by seat
    ("breakdown", 5),  # in the order of BREAKDOWN
    ("failed_throws", 1),
)
"""A native result row: its int32 columns, each with its width, in order."""

RESULT_AT: Final = dict(
    zip((name for name, _ in RESULT_LAYOUT),
        accumulate((width for _, width in RESULT_LAYOUT), initial=0), strict=False)
)
"""Each column of a result row → its first index."""

RESULT_FIELDS: Final = sum(width for _, width in RESULT_LAYOUT)
"""The int32 values of a result row."""

BREAKDOWN: Final = {
    "baofen": ("captured", "wangfen", "wangfen_adjustment", "penalties", "kitty_points"),
    "hongwu": ("captured", "red_fives", "kitty_points", "kitty", "penalties"),
}
"""The ``breakdown`` columns of a result row by variant: ``HandResult.breakdown``'s keys."""

HEADER: Final = Path(__file__).with_name("tables.hpp")


def _ints(values: tuple[int, ...], per_line: int = 18) -> str:
    lines = (", ".join(map(str, values[i : i + per_line]))
             for i in range(0, len(values), per_line))
    return ",\n    ".join(lines)


def header() -> str:
    """The text of ``tables.hpp``."""
    result_offsets = "\n".join(
        f"constexpr int RESULT_{name.upper()} = {RESULT_AT[name]};" for name, _ in RESULT_LAYOUT
    )
    kinds = "\n".join(f"constexpr int KIND_{kind.upper()} = {i};"
                      for i, kind in enumerate(RESULT_KINDS))
    breakdowns = "\n".join(
        f"// {variant}: {', '.join(names)}" for variant, names in BREAKDOWN.items()
    )
    return f"""\
// The tables the native core shares with the Python engine. Rendered from their Python
// definitions (baofen/_native/tables.py) by `python -m baofen._native.tables`: do not edit.
#pragma once

#include <array>

namespace baofen {{

// Cards are kinds 0-53 (suit * 13 + rank - 2; the little and the big joker last).
constexpr int KINDS = {KINDS};
constexpr int LITTLE_JOKER = {LITTLE_JOKER};
constexpr int BIG_JOKER = {BIG_JOKER};
constexpr int RED_FIVE = {RED_FIVE};
constexpr int HAND_SIZE = {HAND_SIZE};
constexpr int KITTY_SIZE = {KITTY_SIZE};
constexpr int DEAL_SIZE = 4 * HAND_SIZE + KITTY_SIZE;
constexpr int MAX_BIDS = {MAX_BIDS};  // the most bid values a valid rule set offers

// The points of each kind.
constexpr std::array<int, KINDS> POINTS = {{
    {_ints(POINTS)}}};

// The codes of an action in a native action log.
constexpr int ACTION_BID = {ACTION_BID};
constexpr int ACTION_DECLARE = {ACTION_DECLARE};
constexpr int ACTION_PLAY = {ACTION_PLAY};

// A result's kind (-1: none).
{kinds}

// A native result row: int32 columns from these indexes.
{result_offsets}
constexpr int RESULT_FIELDS = {RESULT_FIELDS};
// The breakdown columns by variant:
{breakdowns}

}}  // namespace baofen
"""


def main() -> None:
    """Write ``tables.hpp`` (``--check``: exit 1 where it is not current instead)."""
    text = header()
    if "--check" in sys.argv[1:]:
        sys.exit(0 if HEADER.read_text(encoding="utf-8") == text else 1)
    HEADER.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
