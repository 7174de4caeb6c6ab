// The native core: 包分 and 包红五 hands (rules.md §3–11) and a random player, in C++17.
//
// A port of the Python engine (src/baofen/order.py, units.py, tricks.py, hand.py, scoring.py),
// which stays the readable reference: every function here names the Python function it follows,
// and tests/test_native.py replays native hands through the Python engine. Cards are kinds
// 0–53 as in baofen.cards (tables.hpp); a seat holds counts per kind.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cards.hpp"
#include "tables.hpp"

namespace baofen {

constexpr int TRUMP = 4;  // the trump group; the plain suits are groups 0-3
constexpr int NONE = -1;

using Cards = InlineVector<int, DEAL_SIZE>;
using Bids = InlineVector<int, MAX_BIDS>;  // bid values, low to high

// Removes one copy of `card`, which `cards` holds.
inline void remove_one(Cards& cards, int card) {
    cards.erase(std::find(cards.begin(), cards.end(), card));
}

// An action the native engine refuses, with what was wrong (Python sees a ValueError).
struct Illegal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The settings of a RuleSet that the rules read (RuleSet.to_dict() field by field).
struct Rules {
    bool hongwu = false;
    std::vector<int> grid;  // RuleSet.bid_grid(): at most MAX_BIDS values
    int bid_min = 70;
    bool structure = true;  // must_follow_structure
    bool eight = true;      // 包分 and eight_of_a_kind
    int throw_penalty = 3;
    bool direct = false;    // no_bid_mode == "direct"
    int direct_penalty = 40, pot_caller_stake = 40, pot_other_stake = 20;
    int wangfen_all_bonus = 50, wangfen_none_penalty = 100;
    int full_sweep = 500, half_sweep = 250, shutout = -500;
    bool zero_sum = false;
    int red5 = 20, kitty_mult_trump = 2, kitty_mult_plain = 1, points_per_level = 10;
};

// baofen.order.Order for one game with a named trump suit.
struct Order {
    std::array<int, KINDS> group{}, strength{}, seq{};
    std::array<Cards, 5> kinds_by_group;  // strongest first; equal strengths S H C D
};
const Order& order_for(bool hongwu, int trump);

// baofen.tricks.LeadShape.
struct Shape {
    int group = 0, size = 0, pairs = 0, units = 0;
    Cards tractors;  // lengths, longest first
    bool eight = false;
    bool is_throw() const { return units > 1 && !eight; }
};

// baofen.scoring.HandResult; kind: NONE or a KIND_ of tables.hpp.
struct Result {
    int declarer = NONE, target = 0, declarer_points = 0, made = 0, kind = NONE;
    int score = 0, levels = 0;
    bool has_score = false, has_levels = false;
    std::array<int, 4> deltas{};
    std::array<int, 5> breakdown{};  // in the order of tables.hpp's breakdown columns
    int failed_throws = 0;
};

// One action as logged: bid (value NONE passes), declare (trump, bury) or play (attempted).
struct Action {
    enum Type { BID = ACTION_BID, DECLARE = ACTION_DECLARE, PLAY = ACTION_PLAY } type;
    int seat, value;  // bid value or trump suit index
    Cards cards;
};

enum Phase { BIDDING, KITTY, PLAYING, DONE };

// A small fast generator (xoshiro256**) for the native players.
struct Rng {
    uint64_t s[4];
    explicit Rng(uint64_t seed);
    uint64_t next();
    double random() { return (next() >> 11) * 0x1.0p-53; }
    int below(int n) { return static_cast<int>(random() * n); }
};

// baofen.hand.Hand as a state machine; every refused action throws Illegal, changing nothing.
class Hand {
public:
    Hand(const Rules& rules, const Cards& deal, int first);

    const Rules& rules() const { return *rules_; }
    Phase phase() const { return phase_; }
    int to_act() const { return to_act_; }
    int declarer() const { return declarer_; }
    int target() const { return target_; }
    int trump() const { return trump_; }
    int first() const { return first_; }
    const Cards& deal() const { return deal_; }
    const Result& result() const { return result_; }
    const std::vector<Action>& actions() const { return actions_; }
    const std::vector<int>& winners() const { return winners_; }
    const Cards& lead_cards() const { return plays_.empty() ? empty_ : plays_[0]; }
    int count_of(int seat, int kind) const { return counts_[seat][kind]; }
    int size_of(int seat) const { return sizes_[seat]; }
    int group_count(int seat, int group) const { return group_counts_[seat][group]; }
    int nth_of_group(int seat, int group, int n) const;  // the n-th card of held(seat, group)
    const Shape* lead_shape() const { return plays_.empty() ? nullptr : &shape_; }
    const Order& order() const { return *order_; }
    // Public knowledge, for the rule player (bots/shared.py TrickTally and Knowledge): the
    // copies of each kind played (the current trick's too), the groups each seat has shown
    // void in (bit masks), the trump suit's point cards each seat has won in finished tricks.
    const std::array<uint8_t, KINDS>& played_counts() const { return played_; }
    const std::array<int, 4>& voids() const { return voids_; }
    const std::array<int, 4>& trump_points_won() const { return won_; }
    const std::array<int, 4>& sizes() const { return sizes_; }
    const std::array<uint8_t, KINDS>& counts(int seat) const { return counts_[seat]; }
    const Cards& buried() const { return buried_; }
    int leader() const { return leader_; }
    const std::vector<Cards>& trick_plays() const { return plays_; }  // the current trick
    const std::array<int, 4>& penalties() const { return penalties_; }
    int captured() const { return captured_; }  // the declarer's card points from tricks

    Bids legal_bids() const;  // values above the highest bid (a pass is always legal)
    void bid(int seat, int value);
    void declare(int seat, int trump, const Cards& bury);
    Cards play(int seat, const Cards& cards);  // returns what was played (a failed throw's unit)
    const char* play_error(int seat, const Cards& cards) const;  // nullptr when legal
    Cards held(int seat, int group) const;     // display order, strongest first
    Cards hand_cards(int seat) const;          // every card, trumps first once trump is named
    std::vector<Cards> legal_plays(size_t limit) const;

private:
    const Rules* rules_;
    const Order* order_ = nullptr;
    Cards deal_;
    int first_;
    Phase phase_ = BIDDING;
    int to_act_;
    std::array<std::array<uint8_t, KINDS>, 4> counts_{};
    std::array<int, 4> sizes_{HAND_SIZE, HAND_SIZE, HAND_SIZE, HAND_SIZE};
    std::array<std::array<int, 5>, 4> group_counts_{};  // cards per group, once trump is named
    std::array<bool, 4> passed_{};
    int first_passer_ = NONE, high_seat_ = NONE, high_value_ = NONE;
    int declarer_ = NONE, target_ = 0, trump_ = NONE, leader_ = NONE;
    Cards buried_;
    std::vector<Cards> plays_;  // the current trick, in play order from the leader
    Shape shape_;
    std::array<int, 4> penalties_{};
    std::array<uint8_t, KINDS> played_{};
    std::array<int, 4> voids_{}, won_{};
    int captured_ = 0, wangfen_ = 0, red_fives_ = 0;
    bool last_trump_won_ = false;
    std::vector<int> winners_;
    std::vector<Action> actions_;
    Result result_;
    Cards empty_;

    void start_kitty(int declarer, int target);
    void take(int seat, const Cards& played);  // also counts the cards played and voids shown
    void close_trick();
    void score();
    void finish_no_bid();
};

// The rules of play (baofen.tricks.TrickJudge), for one rule set and order.
struct Judge {
    const Order& order;
    bool hongwu, structure, eight_enabled;
    Judge(const Rules& rules, const Order& order)
        : order(order), hongwu(rules.hongwu), structure(rules.structure),
          eight_enabled(!rules.hongwu && rules.eight) {}
    bool is_eight_of_a_kind(const Cards& cards) const;
    bool lead_ok(const Cards& cards) const;
    Shape shape(const Cards& cards) const;
    bool failed_throw(const Cards& cards, const std::vector<Cards>& others, Cards& out) const;
    const char* follow_error(const Shape& shape, const Cards& suited, const Cards& play) const;
    void owed_structure(const Shape& shape, const Cards& suited, Cards& tractors,
                        int& pairs) const;
    bool matches(const Shape& shape, const Cards& play) const;
    int key(const Shape& shape, const Cards& play) const;
    int best(const Shape& shape, const std::vector<Cards>& plays) const;
};

// baofen.units helpers.
Cards pair_kinds(const Cards& cards);
std::vector<Cards> runs_of_pairs(const Order& order, const Cards& pairs);
Cards run_lengths(const Order& order, const Cards& cards);  // of the cards' pairs
struct Placement { int length, run, offset; };
Cards best_tractor_match(const Cards& lead, const Cards& runs);
std::vector<Placement> pack_tractors(const Cards& lead, const Cards& runs);

// The random player (baofen.bots.random_bot.RandomBot with its default rates).
struct RandomPlayer {
    Rng rng;
    double throw_rate = 0.1, pass_rate = 0.5;
    explicit RandomPlayer(uint64_t seed) : rng(seed) {}
    void act(Hand& hand);  // takes one random legal action for the seat to act
};

void play_out(Hand& hand, RandomPlayer& player);

// The deals of Hand(rules, seed=seed) in the Python engine (deal.cpp) for `count` seeds (each
// seed's absolute value): 108 cards a deal (four hands, the kitty) from `pack` (the order's 108
// positions before trump is named) into `cards`, and each first bidder (randrange(4) when
// `draw_first`, 包红五's, else 0) into `firsts`.
void deals_from_seeds(const uint8_t* pack, bool draw_first, const uint64_t* seeds, size_t count,
                      uint8_t* cards, uint8_t* firsts);

}  // namespace baofen
