// The rule player's bid and declaration (baofen/bots/rule_bot.py, evaluation.py): a hand's
// expected points under each trump from its features, the expected result of a bid, and the
// bury that costs least. Every float is computed as the Python code computes it, sums included
// (Python's sum(), see set_python_sum).
#include <algorithm>
#include <cmath>
#include <utility>

#include "rule_player.hpp"

namespace baofen {

namespace {

bool neumaier_sum = false;

// Python's built-in sum() of floats started at the int 0.
struct PySum {
    double total = 0.0, c = 0.0;
    bool any = false;
    void add(double x) {
        if (!any || !neumaier_sum) {  // 0 + x, then plain addition (3.11)
            total = any ? total + x : x;
            any = true;
            return;
        }
        const double t = total + x;  // Neumaier (3.12+, Python/bltinmodule.c)
        if (std::fabs(total) >= std::fabs(x)) c += (total - t) + x;
        else c += (x - t) + total;
        total = t;
    }
    double value() const { return c != 0.0 && std::isfinite(c) ? total + c : total; }
};

// -- evaluation.py -----------------------------------------------------------------------------

constexpr double BID_MODELS[2][7] = {
    {-80.873, 5.035, 5.169, 12.509, 3.251, 17.082, 0.252},
    {-20.974, 2.967, 1.710, 4.675, 2.729, 7.242, 0.200},
};
constexpr double HONGWU_SD = 33.1;

// evaluation._trump_weights for both games and every trump suit.
struct TrumpWeights {
    std::array<std::array<double, KINDS>, 8> table{};
    TrumpWeights() {
        for (int variant = 0; variant < 2; ++variant)
            for (int trump = 0; trump < 4; ++trump) {
                const Order& order = order_for(variant == 1, trump);
                auto& weights = table[variant * 4 + trump];
                for (int kind : order.kinds_by_group[TRUMP]) {
                    double w;
                    if (kind == BIG_JOKER) w = 3.0;
                    else if (kind == LITTLE_JOKER) w = 2.5;
                    else if (variant == 1 && kind == RED_FIVE) w = 4.0;
                    else if (variant == 1 && kind == trump * 13 + 1) w = 2.2;
                    else if (variant == 1 && kind == (trump ^ 2) * 13 + 1) w = 2.0;
                    else if (kind % 13 == 0) w = kind / 13 == trump ? 1.8 : 1.5;
                    else {
                        const int rank = kind % 13 + 2;
                        w = rank == 14 ? 1.3 : rank == 13 ? 1.0 : rank == 12 ? 0.8 : 0.6;
                    }
                    weights[kind] = w;
                }
            }
    }
};

const std::array<double, KINDS>& trump_weights(bool hongwu, int trump) {
    static const TrumpWeights weights;
    return weights.table[(hongwu ? 4 : 0) + trump];
}

// evaluation.hand_features, then expected_points.
double expected_points(bool hongwu, const std::array<int, KINDS>& counts, int trump) {
    const auto& weights = trump_weights(hongwu, trump);
    const Order& order = order_for(hongwu, trump);
    int n_trump = 0, pairs = 0, points = 0;
    double power = 0.0, side_top = 0.0;
    int suit_len[4] = {0, 0, 0, 0};
    for (int kind = 0; kind < KINDS; ++kind) {
        const int count = counts[kind];
        if (!count) continue;
        points += POINTS[kind] * count;
        const int g = order.group[kind];
        if (g == TRUMP) {
            n_trump += count;
            power += weights[kind] * count;
            pairs += count == 2;
        } else {
            suit_len[g] += count;
            const int rank = kind % 13 + 2;
            if (rank == 14) side_top += count;
            else if (rank == 13 && counts[kind + 1]) side_top += 0.5 * count;
        }
    }
    int short_suits = 0;
    for (int s = 0; s < 4; ++s) short_suits += s != trump && suit_len[s] <= 2;
    const double features[6] = {double(n_trump), power, double(pairs), side_top,
                                double(short_suits), double(points)};
    const double* c = BID_MODELS[hongwu ? 1 : 0];
    PySum sum;
    for (int i = 0; i < 6; ++i) sum.add(c[i + 1] * features[i]);
    return c[0] + sum.value();
}

int levels_for(long points, int bid, int step) {
    if (points >= bid) return static_cast<int>(1 + (points - bid + step - 1) / step);
    return static_cast<int>(-(1 + (bid - points + step - 1) / step));
}

// evaluation.expected_result.
double expected_result(const Rules& rules, double points, int bid) {
    if (!rules.hongwu) return points - bid;
    static const double nodes[5] = {-2.0, -1.0, 0.0, 1.0, 2.0};
    double mass[5];
    PySum total;
    for (int i = 0; i < 5; ++i) {
        mass[i] = std::exp(-nodes[i] * nodes[i] / 2);
        total.add(mass[i]);
    }
    PySum sum;
    for (int i = 0; i < 5; ++i) {
        // round() rounds half to even, as nearbyint does in the default rounding mode.
        const long rounded = static_cast<long>(std::nearbyint(points + nodes[i] * HONGWU_SD));
        sum.add(mass[i] * levels_for(rounded, bid, rules.points_per_level));
    }
    return sum.value() / total.value();
}

// evaluation.choose_bury: the bury and its cost.
std::pair<Cards, double> choose_bury(bool hongwu, const std::array<int, KINDS>& counts,
                                     int trump) {
    const Order& order = order_for(hongwu, trump);
    const auto& group = order.group;
    std::array<Cards, 5> by_suit;  // each plain suit strongest first, as the hand lists them
    for (int g = 0; g < 5; ++g)
        for (int kind : order.kinds_by_group[g])
            for (int n = 0; n < counts[kind]; ++n) by_suit[g].push_back(kind);
    const int n_trump = static_cast<int>(by_suit[TRUMP].size());
    std::array<double, KINDS> cost{};
    for (int kind = 0; kind < KINDS; ++kind) {
        if (!counts[kind]) continue;
        if (group[kind] == TRUMP) {
            cost[kind] = 20.0 + order.strength[kind] - 100;
            continue;
        }
        const int rank = kind % 13 + 2;
        double value = rank == 14   ? 8.0
                       : rank == 13 ? 3.0
                       : rank == 12 ? 1.5
                       : rank == 11 ? 1.0
                                    : 0.3 + 0.05 * rank;
        if (rank == 13 && counts[kind + 1]) value = 5.0;
        const int points = POINTS[kind];
        value += points * (hongwu && n_trump < 14 ? 0.7 : 0.4);
        if (counts[kind] == 2) value += 2.0 + 0.5 * rank / 14;
        cost[kind] = value;
    }
    auto cheaper = [&](int a, int b) { return cost[a] != cost[b] ? cost[a] < cost[b] : a < b; };
    Cards plain;
    for (int s = 0; s < 4; ++s)
        if (!by_suit[s].empty()) plain.push_back(s);
    const double void_bonus = n_trump >= 8 ? 5.0 : 2.0;
    bool found = false;
    double best_total = 0.0;
    Cards best;
    const int options = 1 << plain.size();
    for (int mask = 0; mask < options; ++mask) {
        Cards bury;
        int voided_groups = 0, voided = 0;
        for (size_t i = 0; i < plain.size(); ++i)
            if (mask >> i & 1) {
                voided_groups |= 1 << plain[i];
                ++voided;
                bury.insert(bury.end(), by_suit[plain[i]].begin(), by_suit[plain[i]].end());
            }
        if (bury.size() > KITTY_SIZE) continue;
        Cards rest;
        for (int kind = 0; kind < KINDS; ++kind)
            if (!(voided_groups >> group[kind] & 1))
                for (int n = 0; n < counts[kind]; ++n) rest.push_back(kind);
        std::sort(rest.begin(), rest.end(), cheaper);  // equal keys: the same kind
        rest.resize(KITTY_SIZE - bury.size());
        bury.insert(bury.end(), rest.begin(), rest.end());
        PySum sum;
        for (int c : bury) sum.add(cost[c]);
        const double total = sum.value() - void_bonus * voided;
        if (!found || total < best_total) {
            found = true;
            best_total = total;
            best = std::move(bury);
        }
    }
    return {best, best_total};
}

}  // namespace

void set_python_sum(bool neumaier) { neumaier_sum = neumaier; }

int rule_bid(const View& v, const RuleWeights& weights) {
    if (v.bids.empty()) return NONE;
    const bool hongwu = v.rules->hongwu;
    double points = 0.0;
    for (int suit = 0; suit < 4; ++suit) {  // evaluation.best_trump: the first best suit
        const double p = expected_points(hongwu, v.counts, suit);
        if (suit == 0 || p > points) points = p;
    }
    const int value = v.bids[0];
    return expected_result(*v.rules, points, value) > weights.bid_margin ? value : NONE;
}

std::pair<int, Cards> rule_declare(const View& v) {
    const bool hongwu = v.rules->hongwu;
    int best_suit = NONE;
    double best_value = 0.0;
    Cards best_bury;
    for (int suit = 0; suit < 4; ++suit) {
        auto [bury, cost] = choose_bury(hongwu, v.counts, suit);
        std::array<int, KINDS> kept = v.counts;
        for (int c : bury) --kept[c];
        const double value = expected_points(hongwu, kept, suit) - cost;
        if (best_suit == NONE || value > best_value) {
            best_suit = suit;
            best_value = value;
            best_bury = std::move(bury);
        }
    }
    return {best_suit, best_bury};
}

}  // namespace baofen
