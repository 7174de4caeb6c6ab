// What the rule player's seat knows and infers (baofen/bots/shared.py Knowledge, CostChooser):
// the unseen cards above each card, the chances that a seat is void in a group or beats a play,
// and the choice of the cheapest cards by a cost. Shared by the rule player's files.
#pragma once

#include <algorithm>
#include <bitset>
#include <cmath>
#include <utility>
#include <vector>

#include "rule_player.hpp"

namespace baofen::rule_detail {

// Each kind of [begin, end) twice: the pairs of a run.
inline Cards doubled(Cards::const_iterator begin, Cards::const_iterator end) {
    Cards out;
    for (auto it = begin; it != end; ++it) out.insert(out.end(), {*it, *it});
    return out;
}

// shared.CostChooser.
struct CostChooser {
    const double* cost;
    bool reverse_runs = true;
    bool less(int a, int b) const { return cost[a] != cost[b] ? cost[a] < cost[b] : a < b; }
    int one(const Cards& options) const {
        int best = options[0];
        for (int c : options)
            if (less(c, best)) best = c;
        return best;
    }
    Cards some(Cards cards, int k) const {
        if (k <= 0) return {};
        std::sort(cards.begin(), cards.end(), [&](int a, int b) { return less(a, b); });
        cards.resize(std::min<size_t>(k, cards.size()));
        return cards;
    }
    std::vector<Cards> runs(std::vector<Cards> runs) const {
        std::vector<std::pair<double, size_t>> keys;
        for (size_t i = 0; i < runs.size(); ++i) {
            double low = cost[runs[i][0]];
            for (int c : runs[i]) low = std::min(low, cost[c]);
            keys.emplace_back(low, i);
        }
        std::stable_sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) {
            if (a.first != b.first) return a.first < b.first;
            return runs[a.second][0] < runs[b.second][0];
        });
        std::vector<Cards> out;
        for (const auto& key : keys) {
            out.push_back(runs[key.second]);
            if (reverse_runs) std::reverse(out.back().begin(), out.back().end());
        }
        return out;
    }
};

// shared.Knowledge.
struct Knowledge {
    const View& v;
    const Order& order;
    const Judge& judge;
    std::array<int, KINDS> unseen{}, above{}, above_pairs{};
    std::array<int, 5> in_group{}, pairs_in_group{};
    int unseen_points = 0, hidden_total = 0;
    // Memos of pow(1.0 - share(seat), n), the same value each call; a bit a memo that is set
    // (clearing bits, not a whole table, on every decision: most memos are never asked for).
    mutable std::array<std::array<double, 2 * KINDS + 1>, 4> miss;
    mutable std::array<std::bitset<2 * KINDS + 1>, 4> known{};

    Knowledge(const View& view, const Order& order, const Judge& judge)
        : v(view), order(order), judge(judge) {
        for (int k = 0; k < KINDS; ++k) unseen[k] = 2 - v.played[k] - v.counts[k];
        if (v.has_buried)
            for (int c : v.buried) --unseen[c];
        for (int g = 0; g < 5; ++g) {
            const Cards& kinds = order.kinds_by_group[g];
            int total = 0, pairs = 0;
            for (size_t i = 0; i < kinds.size();) {
                const int tier = order.strength[kinds[i]];
                int add = 0, add_pairs = 0;
                for (; i < kinds.size() && order.strength[kinds[i]] == tier; ++i) {
                    const int kind = kinds[i];
                    above[kind] = total;
                    above_pairs[kind] = pairs;
                    const int count = unseen[kind];
                    if (count) {
                        add += count;
                        add_pairs += count == 2;
                        unseen_points += POINTS[kind] * count;
                    }
                }
                total += add;
                pairs += add_pairs;
            }
            in_group[g] = total;
            pairs_in_group[g] = pairs;
            hidden_total += total;
        }
    }

    double miss_power(int seat, int n) const {  // pow(1.0 - share(seat), n)
        if (n < 0 || n > 2 * KINDS) return std::pow(1.0 - share(seat), n);
        double& memo = miss[seat][n];
        if (!known[seat][n]) {
            memo = std::pow(1.0 - share(seat), n);
            known[seat][n] = true;
        }
        return memo;
    }

    bool unit_is_sure(const Cards& cards, int pairs) const {
        const int top = cards[0];
        if (!pairs) return above[top] == 0;
        if (pairs == 1) return above_pairs[top] == 0;
        return higher_unseen_tractors(order.group[top], pairs, order.strength[top]) == 0;
    }

    bool throw_is_safe(const Cards& cards, const std::vector<std::pair<Cards, int>>& units,
                       bool hongwu) const {
        if (hongwu) {
            int weakest = order.strength[cards[0]];
            for (int c : cards) weakest = std::min(weakest, order.strength[c]);
            for (int k : order.kinds_by_group[order.group[cards[0]]])
                if (unseen[k] && order.strength[k] >= weakest) return false;
            return true;
        }
        for (const auto& [unit, pairs] : units)
            if (!unit_is_sure(unit, pairs)) return false;
        return true;
    }

    bool same_side(int a, int b) const {
        return a == b || (a != v.declarer && b != v.declarer);
    }

    int higher_unseen_tractors(int g, int length, int strength) const {
        Cards pairs;
        for (int k : order.kinds_by_group[g])
            if (unseen[k] == 2 && order.strength[k] > strength) pairs.push_back(k);
        int count = 0;
        for (const Cards& run : runs_of_pairs(order, pairs))
            count += std::max(0, static_cast<int>(run.size()) - length + 1);
        return count;
    }

    double share(int seat) const {
        return hidden_total ? static_cast<double>(v.sizes[seat]) / hidden_total : 0.0;
    }

    double void_chance(int seat, int g) const {
        if ((v.voids[seat] >> g & 1) || !v.sizes[seat]) return 1.0;
        return miss_power(seat, in_group[g]);
    }

    double holds_chance(int seat, int count) const {
        if (count <= 0) return 0.0;
        return 1.0 - miss_power(seat, count);
    }

    double beat_chance(int seat, const Shape& shape, const Cards& best) const {
        if (!v.sizes[seat] || shape.eight) return 0.0;
        const int g = shape.group;
        const auto& strength = order.strength;
        const bool ruffed = g != TRUMP && order.group[best[0]] == TRUMP;
        const bool trump_void = v.voids[seat] >> TRUMP & 1;
        const double void_g = void_chance(seat, g);
        const double s = share(seat);
        if (shape.is_throw()) {
            if (g == TRUMP || trump_void) return 0.0;
            return void_g * (in_group[TRUMP] >= shape.size ? 0.5 : 0.0);
        }
        double p_in, p_trump;
        if (!shape.tractors.empty()) {
            const int length = shape.tractors[0];
            const int top = judge.key(shape, best);
            const int higher_in = ruffed ? 0 : higher_unseen_tractors(g, length, top);
            p_in = 1.0 - std::pow(1.0 - std::pow(s, 2 * length), higher_in);
            const int trump_units = higher_unseen_tractors(TRUMP, length, ruffed ? top : 0);
            p_trump = 1.0 - std::pow(1.0 - std::pow(s, 2 * length), trump_units);
        } else if (shape.pairs) {
            const Cards pairs = pair_kinds(best);
            int top_kind = pairs[0];
            for (int k : pairs)
                if (strength[k] > strength[top_kind]) top_kind = k;
            const int higher_in = ruffed ? 0 : above_pairs[top_kind];
            p_in = 1.0 - std::pow(1.0 - s * s, higher_in);
            const int trump_pairs = ruffed ? above_pairs[top_kind] : pairs_in_group[TRUMP];
            p_trump = 1.0 - std::pow(1.0 - s * s, trump_pairs);
        } else {
            const int top_kind = best[0];
            const int higher_in = ruffed ? 0 : above[top_kind];
            p_in = holds_chance(seat, higher_in);
            p_trump = holds_chance(seat, ruffed ? above[top_kind] : in_group[TRUMP]);
        }
        if (g == TRUMP) return (1.0 - void_g) * p_in;
        if (trump_void) p_trump = 0.0;
        return (1.0 - void_g) * p_in + void_g * p_trump;
    }
};

}  // namespace baofen::rule_detail
