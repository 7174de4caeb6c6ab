// The rule player (baofen/bots/rule_bot.py, rule_play.py, evaluation.py, shared.py) in C++17.
//
// It makes exactly the Python rule bot's choices: the same candidates, scored with the same IEEE
// double operations in the same order, sorted by (-score, cards), the first legal one taken.
// Python's built-in sum() of floats is plain left-to-right addition up to 3.11 and Neumaier's
// compensated sum from 3.12 on: set_python_sum() tells the port which one to follow.
#pragma once

#include <utility>
#include <vector>

#include "engine.hpp"

namespace baofen {

// baofen.bots.rule_play.RuleWeights: every field's name and default, in the dataclass's order,
// written once (tests/test_native_tables.py compares them with the dataclass).
#define BAOFEN_RULE_WEIGHTS(FIELD)                                                              \
    FIELD(trump_base, 3.5) FIELD(trump_top, 8.0) FIELD(plain_top, 1.5) FIELD(pair_break, 4.0)  \
    FIELD(keep_declarer, 0.4) FIELD(keep_defender, 0.55) FIELD(later_points, 2.0)              \
    FIELD(rescue, 0.25) FIELD(draw_trumps, 6.0) FIELD(defender_trump_lead, 4.0)                 \
    FIELD(wangfen, 25.0) FIELD(realize, 1.0) FIELD(bid_margin, 0.0)

struct RuleWeights {
#define BAOFEN_WEIGHT_FIELD(name, value) double name = value;
    BAOFEN_RULE_WEIGHTS(BAOFEN_WEIGHT_FIELD)
#undef BAOFEN_WEIGHT_FIELD
};

// What the seat to act may know (an Observation as the rule bot reads it).
struct View {
    const Rules* rules = nullptr;
    Phase phase = BIDDING;
    int seat = NONE, declarer = NONE, trump = NONE;
    std::array<int, KINDS> counts{};  // the seat's cards
    std::array<int, KINDS> played{};  // copies played so far, the current trick's included
    std::array<int, 4> voids{}, won{}, sizes{};
    bool has_buried = false;  // the declarer knows its bury
    Cards buried;
    std::vector<std::pair<int, Cards>> trick;  // the current trick: (seat, cards played)
    Bids bids;                                 // bidding: the legal bid values (a pass aside)
};

View view_of(const Hand& hand);  // the view of the seat to act

// Decisions: a bid value (NONE passes); a trump suit and bury; plays best-scored first.
int rule_bid(const View& view, const RuleWeights& weights);
std::pair<int, Cards> rule_declare(const View& view);
std::vector<Cards> rule_plays(const View& view, const RuleWeights& weights, size_t limit);

// Python's sum() of floats: false plain (<= 3.11), true Neumaier (>= 3.12).
void set_python_sum(bool neumaier);

// A player of a seat in native play-outs: the rule player (with weights) or the random player.
struct SeatPlayer {
    bool rule = true;
    RuleWeights weights;
};

// Takes the rule player's action for the seat to act.
void rule_act(Hand& hand, const RuleWeights& weights);

// Plays to the end: each seat's player acts; the random seats share `random`.
void play_out(Hand& hand, const std::array<SeatPlayer, 4>& players, RandomPlayer& random);

}  // namespace baofen
