// One hand as a state machine (a port of baofen/hand.py and scoring.py) and its legal plays.
#include <algorithm>

#include "engine.hpp"

namespace baofen {

// -- the hand (baofen/hand.py) ---------------------------------------------------------------

Hand::Hand(const Rules& rules, const Cards& deal, int first)
    : rules_(&rules), deal_(deal), first_(first), to_act_(first) {
    if (deal.size() != DEAL_SIZE) throw Illegal("a deal is 108 cards: four hands, then the kitty");
    if (first < 0 || first > 3) throw Illegal("first must be a seat 0-3");
    std::array<int, KINDS> total{};
    for (int i = 0; i < DEAL_SIZE; ++i) {
        const int card = deal[i];
        if (card < 0 || card >= KINDS) throw Illegal("not a card kind (0-53)");
        if (++total[card] > 2) throw Illegal("a deal holds every card kind exactly twice");
        if (i < 4 * HAND_SIZE) ++counts_[i / HAND_SIZE][card];
    }
}

Bids Hand::legal_bids() const {
    Bids values;
    if (phase_ != BIDDING) return values;
    for (int v : rules_->grid)
        if (v > high_value_) values.push_back(v);
    return values;
}

void Hand::bid(int seat, int value) {
    if (phase_ != BIDDING) throw Illegal("wrong_phase: not bidding");
    if (seat != to_act_) throw Illegal("not_your_turn");
    const std::vector<int>& grid = rules_->grid;
    if (value != NONE) {
        if (std::find(grid.begin(), grid.end(), value) == grid.end())
            throw Illegal("bid_not_offered");
        if (high_seat_ != NONE && value <= high_value_) throw Illegal("bid_too_low");
    }
    actions_.push_back({Action::BID, seat, value, {}});
    if (value == NONE) {
        passed_[seat] = true;
        if (first_passer_ == NONE) first_passer_ = seat;
    } else {
        high_seat_ = seat;
        high_value_ = value;
    }
    if (high_seat_ != NONE) {
        bool others_passed = true;
        for (int s = 0; s < 4; ++s) others_passed = others_passed && (s == high_seat_ || passed_[s]);
        if (value == grid.back() || others_passed) return start_kitty(high_seat_, high_value_);
    } else if (passed_[0] && passed_[1] && passed_[2] && passed_[3]) {
        if (rules_->hongwu) return start_kitty(first_passer_, rules_->bid_min);
        return finish_no_bid();
    }
    int next = (seat + 1) % 4;
    while (passed_[next]) next = (next + 1) % 4;
    to_act_ = next;
}

void Hand::start_kitty(int declarer, int target) {
    declarer_ = declarer;
    target_ = target;
    for (int i = 4 * HAND_SIZE; i < DEAL_SIZE; ++i) ++counts_[declarer][deal_[i]];
    sizes_[declarer] += KITTY_SIZE;
    phase_ = KITTY;
    to_act_ = declarer;
}

void Hand::declare(int seat, int trump, const Cards& bury) {
    if (phase_ != KITTY) throw Illegal("wrong_phase: not the kitty");
    if (seat != to_act_) throw Illegal("not_your_turn");
    if (trump < 0 || trump > 3) throw Illegal("bad_trump");
    if (bury.size() != KITTY_SIZE) throw Illegal("bury_count: bury exactly 8 cards");
    std::array<int, KINDS> need{};
    for (int card : bury) {
        if (card < 0 || card >= KINDS) throw Illegal("not_a_card");
        if (++need[card] > counts_[seat][card]) throw Illegal("bury_not_held");
    }
    for (int card : bury) --counts_[seat][card];
    sizes_[seat] -= KITTY_SIZE;
    actions_.push_back({Action::DECLARE, seat, trump, bury});
    trump_ = trump;
    buried_ = bury;
    order_ = &order_for(rules_->hongwu, trump);
    for (int s = 0; s < 4; ++s)
        for (int kind = 0; kind < KINDS; ++kind) group_counts_[s][order_->group[kind]] += counts_[s][kind];
    phase_ = PLAYING;
    leader_ = to_act_ = seat;
}

Cards Hand::held(int seat, int group) const {
    Cards cards;
    for (int kind : order_->kinds_by_group[group])
        for (int n = counts_[seat][kind]; n > 0; --n) cards.push_back(kind);
    return cards;
}

int Hand::nth_of_group(int seat, int group, int n) const {
    for (int kind : order_->kinds_by_group[group]) {
        n -= counts_[seat][kind];
        if (n < 0) return kind;
    }
    throw Illegal("no such card");
}

void Hand::take(int seat, const Cards& played) {
    int inside = 0;
    for (int card : played) {
        --counts_[seat][card];
        --group_counts_[seat][order_->group[card]];
        ++played_[card];
        inside += !plays_.empty() && order_->group[card] == shape_.group;
    }
    sizes_[seat] -= static_cast<int>(played.size());
    // shared.tally_plays: a follow with fewer cards of the led group than the lead shows a void.
    if (!plays_.empty() && inside < shape_.size) voids_[seat] |= 1 << shape_.group;
}

Cards Hand::hand_cards(int seat) const {
    Cards cards;
    if (!order_) {
        for (int kind = 0; kind < KINDS; ++kind)
            for (int n = counts_[seat][kind]; n > 0; --n) cards.push_back(kind);
        return cards;
    }
    for (int g : {TRUMP, 0, 1, 2, 3}) {
        const Cards part = held(seat, g);
        cards.insert(cards.end(), part.begin(), part.end());
    }
    return cards;
}

const char* Hand::play_error(int seat, const Cards& cards) const {
    if (phase_ != PLAYING) return "wrong_phase";
    if (seat != to_act_) return "not_your_turn";
    if (cards.empty()) return "empty_play";
    std::array<int, KINDS> need{};
    for (int card : cards) {
        if (card < 0 || card >= KINDS) return "not_a_card";
        if (++need[card] > counts_[seat][card]) return "not_held";
    }
    const Judge judge(*rules_, *order_);
    if (plays_.empty()) return judge.lead_ok(cards) ? nullptr : "mixed_lead";
    if (static_cast<int>(cards.size()) != shape_.size) return "wrong_count";
    return judge.follow_error(shape_, held(seat, shape_.group), cards);
}

Cards Hand::play(int seat, const Cards& cards) {
    if (cards.size() == 1 && phase_ == PLAYING && seat == to_act_ && (plays_.empty() || shape_.size == 1)) {
        // The common case, one card led or following a single (as hand.py's fast path).
        const int card = cards[0];
        if (card < 0 || card >= KINDS || !counts_[seat][card]) throw Illegal("not_held");
        const int g = order_->group[card];
        if (!plays_.empty() && g != shape_.group && group_counts_[seat][shape_.group])
            throw Illegal("follow_suit");
        if (plays_.empty()) {
            shape_ = Shape();
            shape_.group = g;
            shape_.size = shape_.units = 1;
        }
        actions_.push_back({Action::PLAY, seat, 0, cards});
        take(seat, cards);
        plays_.push_back(cards);
        if (plays_.size() == 4) close_trick();
        else to_act_ = (seat + 1) % 4;
        return cards;
    }
    if (const char* error = play_error(seat, cards)) throw Illegal(error);
    const Judge judge(*rules_, *order_);
    Cards played = cards;
    if (plays_.empty()) {
        shape_ = judge.shape(cards);
        if (shape_.is_throw()) {
            std::vector<Cards> others;
            for (int s = 0; s < 4; ++s)
                if (s != seat) others.push_back(held(s, shape_.group));
            Cards failing;
            if (judge.failed_throw(cards, others, failing)) {
                played = failing;
                ++result_.failed_throws;
                penalties_[seat] += rules_->throw_penalty * static_cast<int>(cards.size());
                shape_ = judge.shape(played);
            }
        }
    }
    actions_.push_back({Action::PLAY, seat, 0, cards});
    take(seat, played);
    plays_.push_back(played);
    if (plays_.size() == 4) close_trick();
    else to_act_ = (seat + 1) % 4;
    return played;
}

void Hand::close_trick() {
    const Judge judge(*rules_, *order_);
    const int index = judge.best(shape_, plays_);
    const int winner = (leader_ + index) % 4;
    const bool declarer_won = winner == declarer_;
    int points = 0;
    for (int i = 0; i < 4; ++i) {
        const int seat = (leader_ + i) % 4;
        int red_fives = 0;
        for (int card : plays_[i]) {
            points += POINTS[card];
            red_fives += card == RED_FIVE;
            // 王分: the trump suit's 5, 10 and K captured by the declarer (包分 §11.1).
            if (declarer_won && card < LITTLE_JOKER && card / 13 == trump_ && POINTS[card])
                wangfen_ += POINTS[card];
        }
        for (int card : plays_[i])  // shared.TrickTally: the trump suit's 5, 10 and K won
            won_[winner] += card < LITTLE_JOKER && card / 13 == trump_ && POINTS[card];
        if (red_fives && (seat == declarer_) != declarer_won)
            red_fives_ += (declarer_won ? 1 : -1) * rules_->red5 * red_fives;
    }
    if (declarer_won) captured_ += points;
    last_trump_won_ = true;
    for (int card : plays_[index]) last_trump_won_ = last_trump_won_ && order_->group[card] == TRUMP;
    winners_.push_back(winner);
    plays_.clear();
    leader_ = to_act_ = winner;
    if (!sizes_[winner]) score();
}

void Hand::score() {
    const Rules& r = *rules_;
    int kitty_points = 0;
    for (int card : buried_) kitty_points += POINTS[card];
    int adjustment = 0;  // failed-throw penalties: the declarer's subtract, defenders' add
    for (int s = 0; s < 4; ++s) adjustment += s == declarer_ ? -penalties_[s] : penalties_[s];
    Result& result = result_;
    result.declarer = declarer_;
    result.target = target_;
    if (!r.hongwu) {  // scoring.score_baofen
        const int bonus = wangfen_ == 50 ? r.wangfen_all_bonus
                          : wangfen_ == 0 ? -r.wangfen_none_penalty : 0;
        const int points = captured_ + adjustment + bonus;
        const int escaped = 200 - kitty_points - captured_;
        int score;
        if (captured_ && !escaped) {
            result.kind = kitty_points ? KIND_HALF_SWEEP : KIND_FULL_SWEEP;
            score = kitty_points ? r.half_sweep : r.full_sweep;
        } else if (!captured_) {
            result.kind = KIND_SHUTOUT;
            score = r.shutout;
        } else {
            score = points - target_;
        }
        result.declarer_points = points;
        result.made = score >= 0;
        result.score = score;
        result.has_score = true;
        result.deltas.fill(-score);
        result.deltas[declarer_] = r.zero_sum ? 3 * score : score;
        result.breakdown = {captured_, wangfen_, bonus, adjustment, kitty_points};
    } else {  // scoring.score_hongwu
        const int multiplier = last_trump_won_ ? r.kitty_mult_trump : r.kitty_mult_plain;
        const int kitty = winners_.back() == declarer_ ? kitty_points : -kitty_points * multiplier;
        const int points = captured_ + red_fives_ + kitty + adjustment;
        const int step = r.points_per_level;
        const int levels = points >= target_ ? 1 + (points - target_ + step - 1) / step
                                             : -(1 + (target_ - points + step - 1) / step);
        result.declarer_points = points;
        result.made = levels > 0;
        result.levels = levels;
        result.has_levels = true;
        result.deltas.fill(-levels);
        result.deltas[declarer_] = 3 * levels;
        result.breakdown = {captured_, red_fives_, kitty_points, kitty, adjustment};
    }
    phase_ = DONE;
    to_act_ = NONE;
}

void Hand::finish_no_bid() {  // scoring.no_bid_result
    const Rules& r = *rules_;
    result_.kind = KIND_NO_BID;
    if (r.direct) {
        result_.deltas.fill(r.direct_penalty);
        result_.deltas[first_] = -r.direct_penalty;
    } else {
        result_.deltas.fill(-r.pot_other_stake);
        result_.deltas[first_] = -r.pot_caller_stake;
    }
    phase_ = DONE;
    to_act_ = NONE;
}

// -- legal plays -------------------------------------------------------------------------------

namespace {

// Every multiset of `size` cards from `kinds` (distinct, with `counts`), each given to `visit`.
template <class Visit>
bool multisets(const Cards& kinds, const Cards& counts, size_t at, int size, Cards& chosen,
               Visit& visit) {
    if (!size) return visit(chosen);
    if (at == kinds.size()) return true;
    for (int n = std::min(size, counts[at]); n >= 0; --n) {
        for (int i = 0; i < n; ++i) chosen.push_back(kinds[at]);
        const bool go_on = multisets(kinds, counts, at + 1, size - n, chosen, visit);
        chosen.resize(chosen.size() - n);
        if (!go_on) return false;
    }
    return true;
}

}  // namespace

std::vector<Cards> Hand::legal_plays(size_t limit) const {
    std::vector<Cards> out;
    if (phase_ != PLAYING) return out;
    const int seat = to_act_;
    const Judge judge(*rules_, *order_);
    auto add = [&](const Cards& play) {
        if (out.size() >= limit) throw Illegal("more legal plays than the limit");
        out.push_back(play);
    };
    if (plays_.empty()) {  // every single, pair and tractor of every group; each eight
        for (int g = 0; g < 5; ++g) {
            Cards paired;
            for (int kind : order_->kinds_by_group[g]) {
                if (counts_[seat][kind]) add({kind});
                if (counts_[seat][kind] == 2) paired.push_back(kind);
            }
            // A tractor is a path of paired kinds one chain position apart; 包红五's other 2s
            // share a position, so the trump 2 pair starts one with each of them.
            std::vector<Cards> paths;
            for (int kind : paired) paths.push_back({kind});
            while (!paths.empty()) {
                std::vector<Cards> longer;
                for (const Cards& path : paths) {
                    Cards unit;
                    for (int k : path) unit.insert(unit.end(), {k, k});
                    add(unit);  // a pair, then each tractor
                    for (int kind : paired)
                        if (order_->seq[kind] == order_->seq[path.back()] + 1) {
                            longer.push_back(path);
                            longer.back().push_back(kind);
                        }
                }
                paths.swap(longer);
            }
        }
        for (int rank = 1; rank < 13 && judge.eight_enabled; ++rank) {
            Cards eight;
            for (int s = 0; s < 4; ++s) eight.insert(eight.end(), {s * 13 + rank, s * 13 + rank});
            if (!play_error(seat, eight)) add(eight);
        }
        return out;
    }
    const Cards suited = held(seat, shape_.group);
    const int n = shape_.size, h = static_cast<int>(suited.size());
    Cards kinds, counts, chosen, base;
    for (int kind = 0; kind < KINDS; ++kind) {
        const int c = counts_[seat][kind];
        const bool in_group = order_->group[kind] == shape_.group;
        if (!c) continue;
        if (h < n && in_group) {
            for (int i = 0; i < c; ++i) base.push_back(kind);  // all of the led group go
        } else if (h >= n ? in_group : true) {
            kinds.push_back(kind);
            counts.push_back(c);
        }
    }
    auto visit = [&](const Cards& rest) {
        Cards play = base;
        play.insert(play.end(), rest.begin(), rest.end());
        if (!judge.follow_error(shape_, suited, play)) add(play);
        return true;
    };
    multisets(kinds, counts, 0, h < n ? n - h : n, chosen, visit);
    return out;
}

}  // namespace baofen
