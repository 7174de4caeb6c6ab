// Card order, units and the rules of play: a port of baofen/order.py, units.py and tricks.py.
#include <algorithm>
#include <set>
#include <tuple>

#include "engine.hpp"

namespace baofen {

namespace {

constexpr int CHAIN_SPACING = 64;

int card_of(int suit, int rank) { return suit * 13 + rank - 2; }
int same_colour(int suit) { return suit ^ 2; }  // S↔C, H↔D (suit indexes 0 S, 1 H, 2 C, 3 D)

struct Layout {
    std::vector<Cards> trump_top_down;
    std::array<Cards, 4> plain_top_down;
    std::vector<std::vector<Cards>> chains;
};

std::vector<Cards> singles(const Cards& cards) {
    std::vector<Cards> out;
    for (int c : cards) out.push_back({c});
    return out;
}

// order._baofen_layout with a trump suit.
Layout baofen_layout(int trump) {
    Layout layout;
    Cards other_twos, trump_suit;
    for (int s = 0; s < 4; ++s)
        if (s != trump) other_twos.push_back(card_of(s, 2));
    for (int r = 14; r > 2; --r) trump_suit.push_back(card_of(trump, r));
    layout.trump_top_down = {{BIG_JOKER}, {LITTLE_JOKER}, {card_of(trump, 2)}, other_twos};
    for (int c : trump_suit) layout.trump_top_down.push_back({c});
    for (int s = 0; s < 4; ++s)
        if (s != trump)
            for (int r = 14; r > 2; --r) layout.plain_top_down[s].push_back(card_of(s, r));
    layout.chains.push_back({{BIG_JOKER}, {LITTLE_JOKER}});
    layout.chains.push_back(singles(trump_suit));
    for (int s = 0; s < 4; ++s)
        if (!layout.plain_top_down[s].empty())
            layout.chains.push_back(singles(layout.plain_top_down[s]));
    return layout;
}

// order._hongwu_layout with a trump suit.
Layout hongwu_layout(int trump) {
    Layout layout;
    const int red_five = card_of(1, 5);
    const int partner = same_colour(trump);
    const Cards counsellors = {card_of(trump, 3), card_of(partner, 3)};
    std::set<int> always = {red_five, counsellors[0], counsellors[1]};
    for (int s = 0; s < 4; ++s) always.insert(card_of(s, 2));
    Cards other_twos, trump_suit;
    for (int s = 0; s < 4; ++s)
        if (s != trump) other_twos.push_back(card_of(s, 2));
    for (int r = 14; r > 3; --r)
        if (!always.count(card_of(trump, r))) trump_suit.push_back(card_of(trump, r));
    layout.trump_top_down = {{red_five}, {BIG_JOKER}, {LITTLE_JOKER}, {counsellors[0]},
                             {counsellors[1]}, {card_of(trump, 2)}, other_twos};
    for (int c : trump_suit) layout.trump_top_down.push_back({c});
    for (int s = 0; s < 4; ++s)
        if (s != trump)
            for (int r = 14; r > 2; --r)
                if (!always.count(card_of(s, r))) layout.plain_top_down[s].push_back(card_of(s, r));
    layout.chains.push_back({{red_five}, {BIG_JOKER}, {LITTLE_JOKER}});
    layout.chains.push_back(singles(counsellors));
    layout.chains.push_back({{card_of(trump, 2)}, other_twos});
    layout.chains.push_back(singles(trump_suit));
    for (int s = 0; s < 4; ++s)
        if (!layout.plain_top_down[s].empty())
            layout.chains.push_back(singles(layout.plain_top_down[s]));
    return layout;
}

Order make_order(bool hongwu, int trump) {
    const Layout layout = hongwu ? hongwu_layout(trump) : baofen_layout(trump);
    Order order;
    const int levels = static_cast<int>(layout.trump_top_down.size());
    for (int level = 0; level < levels; ++level)
        for (int card : layout.trump_top_down[levels - 1 - level]) {
            order.group[card] = TRUMP;
            order.strength[card] = 100 + level;
        }
    for (int s = 0; s < 4; ++s) {
        const Cards& suit = layout.plain_top_down[s];
        const int n = static_cast<int>(suit.size());
        for (int level = 0; level < n; ++level) {
            order.group[suit[n - 1 - level]] = s;
            order.strength[suit[n - 1 - level]] = 2 + level;
        }
    }
    for (int k = 0; k < KINDS; ++k) order.seq[k] = -CHAIN_SPACING * (k + 1) * 3;
    for (size_t chain = 0; chain < layout.chains.size(); ++chain)
        for (size_t position = 0; position < layout.chains[chain].size(); ++position)
            for (int card : layout.chains[chain][position])
                order.seq[card] = CHAIN_SPACING * static_cast<int>(chain + 1) +
                                  static_cast<int>(position);
    for (int k = 0; k < KINDS; ++k) order.kinds_by_group[order.group[k]].push_back(k);
    for (Cards& kinds : order.kinds_by_group)
        std::sort(kinds.begin(), kinds.end(), [&](int a, int b) {
            return order.strength[a] != order.strength[b] ? order.strength[a] > order.strength[b]
                                                          : a < b;
        });
    return order;
}

struct Orders {
    std::array<Order, 8> table;
    Orders() {
        for (int variant = 0; variant < 2; ++variant)
            for (int trump = 0; trump < 4; ++trump)
                table[variant * 4 + trump] = make_order(variant == 1, trump);
    }
};

}  // namespace

const Order& order_for(bool hongwu, int trump) {
    static const Orders orders;
    if (trump < 0 || trump > 3) throw Illegal("trump must be one of S H C D");
    return orders.table[(hongwu ? 4 : 0) + trump];
}

// -- units (baofen/units.py) ----------------------------------------------------------------

Cards pair_kinds(const Cards& cards) {
    Cards pairs;
    uint64_t seen = 0;
    for (int card : cards) {
        const uint64_t bit = uint64_t{1} << card;
        if (seen & bit) pairs.push_back(card);
        else seen |= bit;
    }
    return pairs;
}

std::vector<Cards> runs_of_pairs(const Order& order, const Cards& pairs) {
    std::vector<Cards> runs;
    if (pairs.size() < 2) {
        if (!pairs.empty()) runs.push_back(pairs);
        return runs;
    }
    Cards remaining = pairs;
    std::stable_sort(remaining.begin(), remaining.end(),
                     [&](int a, int b) { return order.seq[a] < order.seq[b]; });
    while (!remaining.empty()) {
        Cards run = {remaining[0]}, rest;
        int last = order.seq[remaining[0]];
        for (size_t i = 1; i < remaining.size(); ++i) {
            const int position = order.seq[remaining[i]];
            if (position == last + 1) {
                run.push_back(remaining[i]);
                last = position;
            } else {
                rest.push_back(remaining[i]);
            }
        }
        runs.push_back(std::move(run));
        remaining.swap(rest);
    }
    return runs;
}

Cards run_lengths(const Order& order, const Cards& cards) {
    Cards lengths;
    for (const Cards& run : runs_of_pairs(order, pair_kinds(cards)))
        lengths.push_back(static_cast<int>(run.size()));
    return lengths;
}

namespace {

using Packed = std::pair<Cards, std::vector<Placement>>;

// units._pack: the best list of lead lengths placed in the runs (Python's list order).
Packed pack(const Cards& lead, size_t index, const Cards& runs, Cards& used) {
    if (index == lead.size()) return {};
    const int length = lead[index];
    Packed best = pack(lead, index + 1, runs, used);
    std::vector<int> tried;
    for (size_t slot = 0; slot < runs.size(); ++slot) {
        const int room = runs[slot] - used[slot];
        if (room >= length && std::find(tried.begin(), tried.end(), room) == tried.end()) {
            tried.push_back(room);
            const int offset = used[slot];
            used[slot] += length;
            Packed rest = pack(lead, index + 1, runs, used);
            used[slot] -= length;
            Cards candidate = {length};
            candidate.insert(candidate.end(), rest.first.begin(), rest.first.end());
            if (candidate > best.first) {
                rest.second.insert(rest.second.begin(),
                                   Placement{length, static_cast<int>(slot), offset});
                best = {std::move(candidate), std::move(rest.second)};
            }
        }
    }
    return best;
}

}  // namespace

std::vector<Placement> pack_tractors(const Cards& lead, const Cards& runs) {
    Cards used(runs.size(), 0);
    return pack(lead, 0, runs, used).second;
}

Cards best_tractor_match(const Cards& lead, const Cards& runs) {
    if (lead.empty()) return {};
    if (lead.size() == 1) {
        for (int r : runs)
            if (r >= lead[0]) return {lead[0]};
        return {};
    }
    Cards used(runs.size(), 0);
    return pack(lead, 0, runs, used).first;
}

// -- the rules of play (baofen/tricks.py TrickJudge) ------------------------------------------

bool Judge::is_eight_of_a_kind(const Cards& cards) const {
    if (!eight_enabled || cards.size() != 8) return false;
    const int first = cards[0];
    if (first >= LITTLE_JOKER || first % 13 == 0) return false;
    const int rank = first % 13;
    int suits[4] = {0, 0, 0, 0};
    for (int card : cards) {
        if (card >= LITTLE_JOKER || card % 13 != rank) return false;
        ++suits[card / 13];
    }
    return suits[0] == 2 && suits[1] == 2 && suits[2] == 2 && suits[3] == 2;
}

bool Judge::lead_ok(const Cards& cards) const {
    if (cards.empty()) return false;
    const int first = order.group[cards[0]];
    for (int card : cards)
        if (order.group[card] != first) return is_eight_of_a_kind(cards);
    return true;
}

Shape Judge::shape(const Cards& cards) const {
    Shape shape;
    shape.size = static_cast<int>(cards.size());
    if (cards.size() == 1) {
        shape.group = order.group[cards[0]];
        shape.units = 1;
        return shape;
    }
    if (is_eight_of_a_kind(cards)) {
        shape.group = TRUMP;
        shape.pairs = shape.units = 4;
        shape.eight = true;
        return shape;
    }
    const Cards pairs = pair_kinds(cards);
    const std::vector<Cards> runs = runs_of_pairs(order, pairs);
    for (const Cards& run : runs)
        if (run.size() > 1) shape.tractors.push_back(static_cast<int>(run.size()));
    std::sort(shape.tractors.rbegin(), shape.tractors.rend());
    shape.group = order.group[cards[0]];
    shape.pairs = static_cast<int>(pairs.size());
    shape.units = static_cast<int>(runs.size() + cards.size() - 2 * pairs.size());
    return shape;
}

namespace {

struct Unit {
    Cards cards;
    int pairs, top;
};

// One opponent's holding, ready to say whether it beats a unit (tricks._Beaters).
struct Beaters {
    int single_top = -1, pair_top = -1;
    std::vector<std::pair<int, int>> runs;  // (length, top strength) of its tractors
    Beaters(const Order& order, const Cards& held) {
        for (int c : held) single_top = std::max(single_top, order.strength[c]);
        const Cards pairs = pair_kinds(held);
        for (int k : pairs) pair_top = std::max(pair_top, order.strength[k]);
        for (const Cards& run : runs_of_pairs(order, pairs))
            if (run.size() > 1)
                runs.emplace_back(static_cast<int>(run.size()), order.strength[run[0]]);
    }
    bool beats(const Unit& unit) const {
        if (unit.pairs == 0) return single_top > unit.top;
        if (unit.pairs == 1) return pair_top > unit.top;
        for (const auto& [length, top] : runs)
            if (length >= unit.pairs && top > unit.top) return true;
        return false;
    }
};

}  // namespace

bool Judge::failed_throw(const Cards& cards, const std::vector<Cards>& others, Cards& out) const {
    const auto& strength = order.strength;
    if (hongwu) {
        int lowest = cards[0];
        for (int c : cards)
            if (strength[c] < strength[lowest] || (strength[c] == strength[lowest] && c < lowest))
                lowest = c;
        for (const Cards& held : others)
            for (int c : held)
                if (strength[c] >= strength[lowest]) {
                    out = {lowest};
                    return true;
                }
        return false;
    }
    const Cards pairs = pair_kinds(cards);
    std::vector<Unit> units;
    for (const Cards& run : runs_of_pairs(order, pairs)) {
        Unit unit{{}, static_cast<int>(run.size()), strength[run[0]]};
        for (int k : run) unit.cards.insert(unit.cards.end(), {k, k});
        units.push_back(std::move(unit));
    }
    for (int c : cards)
        if (std::find(pairs.begin(), pairs.end(), c) == pairs.end())
            units.push_back(Unit{{c}, 0, strength[c]});
    std::vector<Beaters> beaters;
    for (const Cards& held : others)
        if (!held.empty()) beaters.emplace_back(order, held);
    const Unit* worst = nullptr;
    for (const Unit& unit : units) {
        bool beaten = false;
        for (const Beaters& b : beaters) beaten = beaten || b.beats(unit);
        if (!beaten) continue;
        if (!worst || std::make_tuple(unit.cards.size(), unit.top, unit.cards[0]) <
                          std::make_tuple(worst->cards.size(), worst->top, worst->cards[0]))
            worst = &unit;
    }
    if (!worst) return false;
    out = worst->cards;
    return true;
}

void Judge::owed_structure(const Shape& shape, const Cards& suited, Cards& tractors,
                           int& pairs) const {
    tractors.clear();
    pairs = 0;
    if (!structure || !shape.pairs || static_cast<int>(suited.size()) <= shape.size) return;
    const Cards held_pairs = pair_kinds(suited);
    if (held_pairs.empty()) return;
    Cards runs;
    for (const Cards& run : runs_of_pairs(order, held_pairs))
        runs.push_back(static_cast<int>(run.size()));
    tractors = best_tractor_match(shape.tractors, runs);
    pairs = std::min(shape.pairs, static_cast<int>(held_pairs.size()));
}

const char* Judge::follow_error(const Shape& shape, const Cards& suited, const Cards& play) const {
    const int g = shape.group, n = shape.size, h = static_cast<int>(suited.size());
    if (n == 1) return h && order.group[play[0]] != g ? "follow_suit" : nullptr;
    Cards in_group;
    for (int c : play)
        if (order.group[c] == g) in_group.push_back(c);
    const int m = static_cast<int>(in_group.size());
    if (h >= n ? m != n : m != h) return h >= n ? "follow_cards" : "follow_all";
    Cards tractors;
    int owed = 0;
    owed_structure(shape, suited, tractors, owed);
    if (!owed) return nullptr;
    const Cards played_pairs = pair_kinds(in_group);
    if (!tractors.empty() &&
        best_tractor_match(shape.tractors, run_lengths(order, in_group)) != tractors)
        return "follow_tractor";
    if (static_cast<int>(played_pairs.size()) < owed) return "follow_pairs";
    return nullptr;
}

bool Judge::matches(const Shape& shape, const Cards& play) const {
    if (!shape.pairs) return true;
    if (static_cast<int>(pair_kinds(play).size()) < shape.pairs) return false;
    if (shape.tractors.empty()) return true;
    return best_tractor_match(shape.tractors, run_lengths(order, play)).size() ==
           shape.tractors.size();
}

int Judge::key(const Shape& shape, const Cards& play) const {
    const auto& strength = order.strength;
    int best = -1;
    if (!shape.tractors.empty()) {
        for (const Cards& run : runs_of_pairs(order, pair_kinds(play)))
            if (static_cast<int>(run.size()) >= shape.tractors[0])
                best = std::max(best, strength[run[0]]);
    } else if (shape.pairs) {
        for (int k : pair_kinds(play)) best = std::max(best, strength[k]);
    } else {
        for (int c : play) best = std::max(best, strength[c]);
    }
    return best;
}

int Judge::best(const Shape& shape, const std::vector<Cards>& plays) const {
    if (shape.eight) return 0;
    const int g = shape.group;
    int best = 0, best_key = key(shape, plays[0]);
    for (size_t index = 1; index < plays.size(); ++index) {
        const Cards& play = plays[index];
        bool in_suit = true, all_trump = true;
        for (int c : play) {
            in_suit = in_suit && order.group[c] == g;
            all_trump = all_trump && order.group[c] == TRUMP;
        }
        const bool ruff = !in_suit && g != TRUMP && all_trump;
        if (!in_suit && !ruff) continue;              // a discard never wins
        if (in_suit && shape.is_throw()) continue;    // a good throw is beaten only by a ruff
        if (shape.size > 1 && !matches(shape, play)) continue;
        const int k = key(shape, play);
        if (k > best_key) {
            best = static_cast<int>(index);
            best_key = k;
        }
    }
    return best;
}

}  // namespace baofen
