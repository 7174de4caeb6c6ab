// The tables the native core shares with the Python engine. Rendered from their Python
// definitions (baofen/_native/tables.py) by `python -m baofen._native.tables`: do not edit.
#pragma once

#include <array>

namespace baofen {

// Cards are kinds 0-53 (suit * 13 + rank - 2; the little and the big joker last).
constexpr int KINDS = 54;
constexpr int LITTLE_JOKER = 52;
constexpr int BIG_JOKER = 53;
constexpr int RED_FIVE = 16;
constexpr int HAND_SIZE = 25;
constexpr int KITTY_SIZE = 8;
constexpr int DEAL_SIZE = 4 * HAND_SIZE + KITTY_SIZE;
constexpr int MAX_BIDS = 301;  // the most bid values a valid rule set offers

// The points of each kind.
constexpr std::array<int, KINDS> POINTS = {
    0, 0, 0, 5, 0, 0, 0, 0, 10, 0, 0, 10, 0, 0, 0, 0, 5, 0,
    0, 0, 0, 10, 0, 0, 10, 0, 0, 0, 0, 5, 0, 0, 0, 0, 10, 0,
    0, 10, 0, 0, 0, 0, 5, 0, 0, 0, 0, 10, 0, 0, 10, 0, 0, 0};

// The codes of an action in a native action log.
constexpr int ACTION_BID = 0;
constexpr int ACTION_DECLARE = 1;
constexpr int ACTION_PLAY = 2;

// A result's kind (-1: none).
constexpr int KIND_FULL_SWEEP = 0;
constexpr int KIND_HALF_SWEEP = 1;
constexpr int KIND_SHUTOUT = 2;
constexpr int KIND_NO_BID = 3;

// A native result row: int32 columns from these indexes.
constexpr int RESULT_DECLARER = 0;
constexpr int RESULT_TARGET = 1;
constexpr int RESULT_DECLARER_POINTS = 2;
constexpr int RESULT_MADE = 3;
constexpr int RESULT_KIND = 4;
constexpr int RESULT_SCORE = 5;
constexpr int RESULT_LEVELS = 6;
constexpr int RESULT_HAS_SCORE = 7;
constexpr int RESULT_HAS_LEVELS = 8;
constexpr int RESULT_DELTAS = 9;
constexpr int RESULT_BREAKDOWN = 13;
constexpr int RESULT_FAILED_THROWS = 18;
constexpr int RESULT_FIELDS = 19;
// The breakdown columns by variant:
// baofen: captured, wangfen, wangfen_adjustment, penalties, kitty_points
// hongwu: captured, red_fives, kitty_points, kitty, penalties

}  // namespace baofen
