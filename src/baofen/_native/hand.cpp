// One hand as a state machine (a port of baofen/hand.py and scoring.py) and the random player
// (baofen/bots/random_bot.py with shared.compose_follow and RandomChooser).
#include <algorithm>
#include <map>

#include "engine.hpp"

namespace baofen {

namespace {

constexpr int RED_FIVE = 1 * 13 + 5 - 2;

int points_of(int kind) {
    if (kind >= LITTLE_JOKER) return 0;
    const int rank = 2 + kind % 13;
    return rank == 5 ? 5 : (rank == 10 || rank == 13) ? 10 : 0;
}

void remove_one(Cards& cards, int card) {
    cards.erase(std::find(cards.begin(), cards.end(), card));
}

}  // namespace

Rng::Rng(uint64_t seed) {
    for (uint64_t& word : s) {  // splitmix64 fills the state
        uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        word = z ^ (z >> 31);
    }
}

uint64_t Rng::next() {
    const auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
    const uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

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

Cards Hand::legal_bids() const {
    Cards values;
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
            points += points_of(card);
            red_fives += card == RED_FIVE;
            // 王分: the trump suit's 5, 10 and K captured by the declarer (包分 §11.1).
            if (declarer_won && card < LITTLE_JOKER && card / 13 == trump_ && points_of(card))
                wangfen_ += points_of(card);
        }
        for (int card : plays_[i])  // shared.TrickTally: the trump suit's 5, 10 and K won
            won_[winner] += card < LITTLE_JOKER && card / 13 == trump_ && points_of(card);
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
    for (int card : buried_) kitty_points += points_of(card);
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
            result.kind = kitty_points ? 1 : 0;
            score = kitty_points ? r.half_sweep : r.full_sweep;
        } else if (!captured_) {
            result.kind = 2;
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
    result_.kind = 3;
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

// -- the random player (baofen/bots/random_bot.py) ------------------------------------------

namespace {

Cards sample(Rng& rng, Cards cards, int k) {  // k distinct positions of `cards`
    for (int i = 0; i < k; ++i) std::swap(cards[i], cards[i + rng.below(cards.size() - i)]);
    cards.resize(k);
    return cards;
}

template <class T>
void shuffle(Rng& rng, T& items) {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.below(i)]);
}

// RandomChooser.place: sub-runs in a random order with random gaps (stars and bars).
Cards place(Rng& rng, const Cards& lengths, int size) {
    const int k = static_cast<int>(lengths.size());
    Cards order(k);
    for (int i = 0; i < k; ++i) order[i] = i;
    shuffle(rng, order);
    int free = size;
    for (int length : lengths) free -= length;
    Cards positions(free + k);
    for (int i = 0; i < free + k; ++i) positions[i] = i;
    Cards bars = sample(rng, positions, k);
    std::sort(bars.begin(), bars.end());
    Cards offsets(k, 0);
    int position = 0, previous = 0;
    for (int i = 0; i < k; ++i) {
        position += bars[i] - previous;
        offsets[order[i]] = position;
        position += lengths[order[i]];
        previous = bars[i] + 1;
    }
    return offsets;
}

// shared._structured with a RandomChooser: owed tractors, then owed pairs, then any cards.
Cards structured(Rng& rng, const Order& order, const Cards& tractors, int owed_pairs,
                 const Cards& cards, int n) {
    Cards chosen, pool = cards;
    std::vector<Cards> runs = runs_of_pairs(order, pair_kinds(cards));
    shuffle(rng, runs);
    Cards sizes;
    for (const Cards& run : runs) sizes.push_back(static_cast<int>(run.size()));
    std::map<int, Cards> hosted;
    std::vector<int> hosts;
    for (const Placement& p : pack_tractors(tractors, sizes)) {
        if (!hosted.count(p.run)) hosts.push_back(p.run);
        hosted[p.run].push_back(p.length);
    }
    for (int index : hosts) {
        const Cards& lengths = hosted[index];
        const Cards offsets = place(rng, lengths, static_cast<int>(runs[index].size()));
        for (size_t i = 0; i < lengths.size(); ++i)
            for (int j = offsets[i]; j < offsets[i] + lengths[i]; ++j) {
                const int kind = runs[index][j];
                chosen.insert(chosen.end(), {kind, kind});
                remove_one(pool, kind);
                remove_one(pool, kind);
            }
    }
    const int have = static_cast<int>(pair_kinds(chosen).size());
    if (have < owed_pairs) {
        const Cards spare = pair_kinds(pool);
        const int k = std::min(owed_pairs - have, static_cast<int>(spare.size()));
        for (int kind : sample(rng, spare, k)) {
            chosen.insert(chosen.end(), {kind, kind});
            remove_one(pool, kind);
            remove_one(pool, kind);
        }
    }
    const Cards rest = sample(rng, pool, n - static_cast<int>(chosen.size()));
    chosen.insert(chosen.end(), rest.begin(), rest.end());
    return chosen;
}

Cards random_lead(Rng& rng, const Hand& hand, double throw_rate) {
    const int seat = hand.to_act();
    const Order& order = hand.order();
    const Judge judge(hand.rules(), order);
    int groups[5], held_groups = 0;
    for (int g = 0; g < 5; ++g)
        if (hand.group_count(seat, g)) groups[held_groups++] = g;
    const int g = groups[rng.below(held_groups)];
    if (judge.eight_enabled && hand.size_of(seat) >= 8) {
        // shared.eight_of_a_kind: some rank held eight times (the random bot leads it half the time).
        for (int kind : order.kinds_by_group[TRUMP]) {
            if (kind >= LITTLE_JOKER || kind % 13 == 0 || hand.count_of(seat, kind) != 2) continue;
            Cards eight;
            for (int s = 0; s < 4; ++s) eight.insert(eight.end(), {s * 13 + kind % 13, s * 13 + kind % 13});
            bool held = true;
            for (int c : eight) held = held && hand.count_of(seat, c) == 2;
            if (held) {
                if (rng.random() < 0.5) return eight;
                break;
            }
        }
    }
    const int size = hand.group_count(seat, g);
    if (size > 1 && rng.random() < throw_rate) {
        const int most = rng.random() < 0.2 ? size : std::min(4, size);
        return sample(rng, hand.held(seat, g), 2 + rng.below(most - 1));
    }
    const int card = hand.nth_of_group(seat, g, rng.below(size));
    if (hand.count_of(seat, card) < 2 || rng.random() < 0.5) return {card};
    const Cards cards = hand.held(seat, g);
    if (rng.random() < 0.5)
        for (const Cards& run : runs_of_pairs(order, pair_kinds(cards))) {
            const auto found = std::find(run.begin(), run.end(), card);
            if (found == run.end() || run.size() < 2) continue;
            const int at = static_cast<int>(found - run.begin()), last = static_cast<int>(run.size()) - 1;
            int start = at, end = at;
            while (start == end) {
                start = rng.below(at + 1);
                end = at + rng.below(last - at + 1);
            }
            Cards unit;
            for (int i = start; i <= end; ++i) unit.insert(unit.end(), {run[i], run[i]});
            return unit;
        }
    return {card, card};
}

// shared.compose_follow with a RandomChooser.
Cards random_follow(Rng& rng, const Hand& hand) {
    const int seat = hand.to_act();
    const Shape& shape = *hand.lead_shape();
    const int n = shape.size, h = hand.group_count(seat, shape.group);
    if (n == 1) {
        if (h) return {hand.nth_of_group(seat, shape.group, rng.below(h))};
        const Cards options = hand.hand_cards(seat);
        return {options[rng.below(options.size())]};
    }
    const Cards suited = hand.held(seat, shape.group);
    if (h <= n) {
        Cards others;
        for (int g = 0; g < 5; ++g)
            if (g != shape.group) {
                const Cards part = hand.held(seat, g);
                others.insert(others.end(), part.begin(), part.end());
            }
        Cards play = suited;
        const Cards rest = sample(rng, others, n - h);
        play.insert(play.end(), rest.begin(), rest.end());
        return play;
    }
    const Judge judge(hand.rules(), hand.order());
    Cards tractors;
    int owed = 0;
    judge.owed_structure(shape, suited, tractors, owed);
    if (!owed) return sample(rng, suited, n);
    return structured(rng, hand.order(), tractors, owed, suited, n);
}

}  // namespace

void RandomPlayer::act(Hand& hand) {
    const int seat = hand.to_act();
    switch (hand.phase()) {
        case BIDDING: {
            const Cards values = hand.legal_bids();
            if (values.empty() || rng.random() < pass_rate) hand.bid(seat, NONE);
            else hand.bid(seat, values[rng.below(values.size())]);
            return;
        }
        case KITTY:
            hand.declare(seat, rng.below(4), sample(rng, hand.hand_cards(seat), KITTY_SIZE));
            return;
        case PLAYING:
            hand.play(seat, hand.lead_shape() ? random_follow(rng, hand)
                                              : random_lead(rng, hand, throw_rate));
            return;
        case DONE:
            throw Illegal("nothing to do: the hand is done");
    }
}

void play_out(Hand& hand, RandomPlayer& player) {
    while (hand.phase() != DONE) player.act(hand);
}

}  // namespace baofen
