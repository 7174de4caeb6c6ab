// The rule player: a port of baofen/bots/rule_bot.py (bid, declare, play), rule_play.py
// (PlayDecision), evaluation.py (hand features, bury) and shared.py (Knowledge, compose_follow,
// CostChooser, matching_play, eight_of_a_kind). Every float is computed as the Python code
// computes it, operation by operation, so that scores and their ties come out the same.
#include "rule_player.hpp"

#include <algorithm>
#include <bitset>
#include <cmath>

namespace baofen {

namespace {

constexpr int RED_FIVE = 1 * 13 + 5 - 2;

bool neumaier_sum = false;

// A card's points by kind, looked up: the rule player asks for them in every estimate.
constexpr std::array<int, KINDS> point_table() {
    std::array<int, KINDS> points{};
    for (int kind = 0; kind < LITTLE_JOKER; ++kind) {
        const int rank = 2 + kind % 13;
        points[kind] = rank == 5 ? 5 : (rank == 10 || rank == 13) ? 10 : 0;
    }
    return points;
}

constexpr std::array<int, KINDS> POINTS = point_table();

int card_points(int kind) { return POINTS[kind]; }

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

// pow(1.0 + h, 1.5) for every count h of unseen cards: the same pow calls, made once.
struct TopPowers {
    std::array<double, 2 * KINDS + 1> table{};
    TopPowers() {
        for (int h = 0; h <= 2 * KINDS; ++h) table[h] = std::pow(1.0 + h, 1.5);
    }
};

double top_power(int higher) {
    static const TopPowers powers;
    if (higher < 0 || higher > 2 * KINDS) return std::pow(1.0 + higher, 1.5);
    return powers.table[higher];
}

void remove_one(Cards& cards, int card) {
    cards.erase(std::find(cards.begin(), cards.end(), card));
}

Cards doubled(Cards::const_iterator begin, Cards::const_iterator end) {
    Cards out;
    for (auto it = begin; it != end; ++it) out.insert(out.end(), {*it, *it});
    return out;
}

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
        points += card_points(kind) * count;
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
        const int points = card_points(kind);
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

// -- shared.py: CostChooser and the follows built with it ---------------------------------------

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

// shared._structured with a CostChooser.
Cards structured(const Order& order, const Cards& tractors, int owed_pairs, const Cards& cards,
                 int n, const CostChooser& chooser) {
    Cards chosen, pool = cards;
    const std::vector<Cards> runs = chooser.runs(runs_of_pairs(order, pair_kinds(cards)));
    Cards sizes;
    for (const Cards& run : runs) sizes.push_back(static_cast<int>(run.size()));
    std::vector<std::pair<int, Cards>> hosted;  // run index -> lengths, in insertion order
    for (const Placement& p : pack_tractors(tractors, sizes)) {
        auto it = std::find_if(hosted.begin(), hosted.end(),
                               [&](const auto& h) { return h.first == p.run; });
        if (it == hosted.end()) hosted.push_back({p.run, {p.length}});
        else it->second.push_back(p.length);
    }
    for (const auto& [index, lengths] : hosted) {
        const Cards& run = runs[index];
        int offset = 0;  // CostChooser.place: packed from the front
        for (int length : lengths) {
            for (int j = offset; j < offset + length; ++j) {
                const int kind = run[j];
                chosen.insert(chosen.end(), {kind, kind});
                remove_one(pool, kind);
                remove_one(pool, kind);
            }
            offset += length;
        }
    }
    const int have = static_cast<int>(pair_kinds(chosen).size());
    if (have < owed_pairs) {
        const Cards spare = pair_kinds(pool);
        const int k = std::min(owed_pairs - have, static_cast<int>(spare.size()));
        for (int kind : chooser.some(spare, k)) {  // CostChooser.pairs sorts as some does
            chosen.insert(chosen.end(), {kind, kind});
            remove_one(pool, kind);
            remove_one(pool, kind);
        }
    }
    const Cards rest = chooser.some(pool, n - static_cast<int>(chosen.size()));
    chosen.insert(chosen.end(), rest.begin(), rest.end());
    return chosen;
}

// shared.compose_follow.
Cards compose_follow(const Judge& judge, const Shape& shape, const std::array<Cards, 5>& by_group,
                     const CostChooser& chooser) {
    const int g = shape.group, n = shape.size;
    const Cards& suited = by_group[g];
    if (n == 1) {
        if (!suited.empty()) return {chooser.one(suited)};
        Cards all;
        for (const Cards& cards : by_group) all.insert(all.end(), cards.begin(), cards.end());
        return {chooser.one(all)};
    }
    if (static_cast<int>(suited.size()) <= n) {
        Cards others;
        for (int i = 0; i < 5; ++i)
            if (i != g) others.insert(others.end(), by_group[i].begin(), by_group[i].end());
        Cards play = suited;
        const Cards rest = chooser.some(others, n - static_cast<int>(suited.size()));
        play.insert(play.end(), rest.begin(), rest.end());
        return play;
    }
    Cards tractors;
    int owed = 0;
    judge.owed_structure(shape, suited, tractors, owed);
    if (!owed) return chooser.some(suited, n);
    return structured(judge.order, tractors, owed, suited, n, chooser);
}

// shared.matching_play: false when none matches.
bool matching_play(const Judge& judge, const Shape& shape, const Cards& cards,
                   const CostChooser& chooser, Cards& out) {
    if (static_cast<int>(cards.size()) < shape.size) return false;
    if (!shape.pairs) {
        out = chooser.some(cards, shape.size);
        return true;
    }
    out = structured(judge.order, shape.tractors, shape.pairs, cards, shape.size, chooser);
    return judge.matches(shape, out);
}

// -- shared.Knowledge --------------------------------------------------------------------------

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
                        unseen_points += card_points(kind) * count;
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

// -- rule_play.PlayDecision --------------------------------------------------------------------

using Scored = std::vector<std::pair<double, Cards>>;

class Decision {
public:
    Decision(const View& view, const RuleWeights& weights)
        : v(view), w(weights), order(order_for(view.rules->hongwu, view.trump)),
          judge(*view.rules, order), know(view, order, judge) {
        const auto& strength = order.strength;
        seat = v.seat;
        is_declarer = seat == v.declarer;
        sign = is_declarer ? 1.0 : -1.0;
        hongwu = v.rules->hongwu;
        for (int g = 0; g < 5; ++g)
            for (int kind : order.kinds_by_group[g])
                for (int n = 0; n < v.counts[kind]; ++n) by_group[g].push_back(kind);
        for (int kind = 0; kind < KINDS; ++kind) {
            if (!v.counts[kind]) continue;
            const int higher = know.above[kind];
            top[kind] = 1.0 / top_power(higher);
            if (order.group[kind] == TRUMP)
                value[kind] = w.trump_base + w.trump_top / (1.0 + higher / 2.0);
            else
                value[kind] = w.plain_top * top[kind] + 0.02 * strength[kind];
        }
        wangfen_open = !hongwu && !v.won[v.declarer == NONE ? 0 : v.declarer];
        if (!v.trick.empty()) shape = judge.shape(v.trick[0].second);
    }

    bool is_legal(const Cards& cards) const {
        if (cards.empty()) return false;
        std::array<int, KINDS> need{};
        for (int c : cards)
            if (++need[c] > v.counts[c]) return false;
        if (v.trick.empty()) return judge.lead_ok(cards);
        if (static_cast<int>(cards.size()) != shape.size) return false;
        return judge.follow_error(shape, by_group[shape.group], cards) == nullptr;
    }

    Scored candidates() { return v.trick.empty() ? lead_candidates() : follow_candidates(); }

private:
    const View& v;
    const RuleWeights& w;
    const Order& order;
    const Judge judge;
    const Knowledge know;
    int seat;
    bool is_declarer, hongwu, wangfen_open;
    double sign;
    std::array<Cards, 5> by_group;
    std::array<double, KINDS> value{}, top{};
    Shape shape;

    bool is_trump_point(int card) const {
        return order.group[card] == TRUMP && card_points(card) > 0 && card < LITTLE_JOKER &&
               card % 13 != 0;
    }

    double spend_cost(const Cards& cards) const {
        double cost = 0.0;
        const double pair_break = w.pair_break * (hongwu ? 0.5 : 1.0);
        for (int c : cards) cost += value[c];
        if (cards.size() == 1) {
            const int card = cards[0];
            if (v.counts[card] == 2) cost += pair_break * (1.0 + value[card] / 4.0);
            return cost;
        }
        for (size_t i = 0; i < cards.size(); ++i) {  // each kind at its first occurrence
            const int card = cards[i];
            if (std::find(cards.begin(), cards.begin() + i, card) != cards.begin() + i) continue;
            const auto n = std::count(cards.begin() + i, cards.end(), card);
            if (n == 1 && v.counts[card] == 2) cost += pair_break * (1.0 + value[card] / 4.0);
        }
        return cost;
    }

    double point_value(const Cards& cards, int owner, double p_declarer) const {
        double points = 0.0;
        for (int card : cards) add_points(points, card, owner, p_declarer);
        return points;
    }

    void add_points(double& points, int card, int owner, double p_declarer) const {
        const int pts = card_points(card);
        if (!pts) return;
        points += pts * p_declarer;
        if (hongwu) {
            if (card == RED_FIVE) {
                const int red = v.rules->red5;
                if (owner == v.declarer) points -= red * (1.0 - p_declarer);
                else points += red * p_declarer;
            }
        } else if (wangfen_open && is_trump_point(card)) {
            points += w.wangfen * p_declarer;
        }
    }

    double holds_chance(int winner, const Shape& lead, const Cards& best,
                        const Cards& later) const {
        double p = 1.0;
        for (int s : later)
            if (!know.same_side(s, winner)) p *= 1.0 - know.beat_chance(s, lead, best);
        return p;
    }

    Cards later_seats() const {
        const int done = static_cast<int>(v.trick.size()) + 1;
        Cards seats;
        for (int i = 1; i < 5 - done; ++i) seats.push_back((seat + i) % 4);
        return seats;
    }

    double kitty_stake() const {
        if (v.has_buried) {
            int points = 0;
            for (int c : v.buried) points += card_points(c);
            return points;
        }
        return static_cast<double>(know.unseen_points * 8) / std::max(know.hidden_total, 8);
    }

    double trick_value(double p_side, bool winner_side_declarer, const Cards& cards,
                       const std::vector<std::pair<int, Cards>>& table, int later) const {
        const double p_decl = winner_side_declarer ? p_side : 1.0 - p_side;
        double expected = point_value(cards, seat, p_decl);
        for (const auto& [owner, played] : table) expected += point_value(played, owner, p_decl);
        expected += p_decl * w.later_points * later;
        if (hongwu && v.sizes[seat] == static_cast<int>(cards.size())) {
            const double kitty = kitty_stake();
            const int multiplier = v.rules->kitty_mult_trump;
            expected += p_decl * kitty - (1.0 - p_decl) * kitty * multiplier;
        }
        double keep_loss = 0.0;
        for (int card : cards)
            if (card_points(card)) {
                double points = 0.0;  // point_value((card,), ...)
                add_points(points, card, seat, keep_chance(card));
                keep_loss += points;
            }
        return sign * (expected - keep_loss);
    }

    double keep_chance(int card) const {
        if (is_declarer) return w.keep_declarer + 0.6 * top[card];
        return w.keep_defender - 0.35 * top[card];
    }

    // -- following --

    Scored follow_candidates() {
        const int g = shape.group;
        const Cards& suited = by_group[g];
        std::vector<Cards> options;
        std::array<double, KINDS> discard_cost, feed_cost, strong;
        for (int k = 0; k < KINDS; ++k) {
            discard_cost[k] = value[k] + 0.6 * card_points(k);
            feed_cost[k] = value[k] - 0.6 * card_points(k);
            strong[k] = -static_cast<double>(order.strength[k]);
        }
        const CostChooser discard{discard_cost.data(), true}, feed{feed_cost.data(), true};
        options.push_back(compose_follow(judge, shape, by_group, discard));
        options.push_back(compose_follow(judge, shape, by_group, feed));
        const Cards later = later_seats();
        std::vector<Cards> plays;
        for (const auto& [who, cards] : v.trick) plays.push_back(cards);
        if (shape.size == 1) {
            const int top_strength = order.strength[plays[judge.best(shape, plays)][0]];
            std::array<bool, KINDS> source{};
            if (!suited.empty())
                for (int c : suited) source[c] = true;
            else
                for (int k = 0; k < KINDS; ++k) source[k] = v.counts[k] > 0;
            for (int c = 0; c < KINDS; ++c)
                if (source[c] && (order.group[c] == g || order.group[c] == TRUMP) &&
                    order.strength[c] > top_strength)
                    options.push_back({c});
        } else if (!shape.is_throw() && !shape.eight) {
            static const Cards none;
            const Cards& source = static_cast<int>(suited.size()) >= shape.size ? suited
                                  : suited.empty() && g != TRUMP              ? by_group[TRUMP]
                                                                              : none;
            unit_plays(source, options);
        }
        if (suited.empty() && g != TRUMP && !by_group[TRUMP].empty() && shape.size > 1) {
            for (const CostChooser& chooser : {discard, CostChooser{strong.data(), false}}) {
                Cards play;
                if (matching_play(judge, shape, by_group[TRUMP], chooser, play))
                    options.push_back(play);
            }
        }
        Scored scored;
        const size_t n = plays.size();
        plays.emplace_back();
        for (Cards& option : options) {
            plays[n] = option;
            const size_t index = judge.best(shape, plays);
            const int winner = index == n ? seat : v.trick[index].first;
            const Cards& best = index == n ? option : plays[index];
            const double p_side = holds_chance(winner, shape, best, later);
            const double val = trick_value(p_side, winner == v.declarer, option, v.trick,
                                           static_cast<int>(later.size()));
            scored.emplace_back(val - spend_cost(option), std::move(option));
        }
        return scored;
    }

    void unit_plays(const Cards& source, std::vector<Cards>& plays) const {
        const Cards pairs = pair_kinds(source);
        if (pairs.empty()) return;
        if (shape.tractors.empty()) {
            if (shape.size == 2)
                for (int k : pairs) plays.push_back({k, k});
            return;
        }
        const int length = shape.tractors[0];
        if (shape.size != 2 * length) return;
        for (const Cards& run : runs_of_pairs(order, pairs))
            for (int start = 0; start + length <= static_cast<int>(run.size()); ++start)
                plays.push_back(doubled(run.begin() + start, run.begin() + start + length));
    }

    // -- leading --

    Scored lead_candidates() {
        std::vector<Cards> options;
        for (int g = 0; g < 5; ++g) {
            const Cards& cards = by_group[g];
            if (cards.empty()) continue;
            std::vector<std::pair<Cards, int>> sure;
            Cards singles;
            // TrickJudge.units: the runs of pairs, then the unpaired cards.
            const Cards pairs = pair_kinds(cards);
            std::vector<std::pair<Cards, int>> units;
            for (const Cards& run : runs_of_pairs(order, pairs))
                units.emplace_back(doubled(run.begin(), run.end()), static_cast<int>(run.size()));
            for (int c : cards)
                if (std::find(pairs.begin(), pairs.end(), c) == pairs.end())
                    units.push_back({{c}, 0});
            for (const auto& [unit_cards, unit_pairs] : units) {
                const bool is_sure = know.unit_is_sure(unit_cards, unit_pairs);
                if (is_sure) sure.emplace_back(unit_cards, unit_pairs);
                if (unit_pairs) {
                    options.push_back(unit_cards);
                    singles.push_back(unit_cards.back());
                    if (unit_pairs > 2) options.emplace_back(unit_cards.end() - 4, unit_cards.end());
                } else if (is_sure) {
                    options.push_back(unit_cards);
                } else {
                    singles.push_back(unit_cards[0]);
                }
            }
            if (!singles.empty()) {
                std::stable_sort(singles.begin(), singles.end(), [&](int a, int b) {
                    const double ca = value[a] + 0.6 * card_points(a);
                    const double cb = value[b] + 0.6 * card_points(b);
                    return ca != cb ? ca < cb : a < b;
                });
                int strongest = singles[0];
                for (int c : singles) {
                    const int s = order.strength[c], t = order.strength[strongest];
                    if (s > t || (s == t && c < strongest)) strongest = c;
                }
                Cards chosen(singles.begin(), singles.begin() + std::min<size_t>(2, singles.size()));
                chosen.push_back(strongest);
                std::sort(chosen.begin(), chosen.end());
                chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
                for (int c : chosen) options.push_back({c});
            }
            if (sure.size() > 1) {
                Cards thrown;
                for (const auto& [unit, p] : sure) thrown.insert(thrown.end(), unit.begin(), unit.end());
                if (know.throw_is_safe(thrown, sure, hongwu)) options.push_back(thrown);
            }
        }
        Scored scored;
        for (Cards& option : options) {
            const double val = lead_value(option);
            scored.emplace_back(val, std::move(option));
        }
        Cards eight;
        if (eight_of_a_kind(eight)) scored.emplace_back(1000.0, eight);
        return scored;
    }

    bool eight_of_a_kind(Cards& out) const {
        if (!judge.eight_enabled) return false;
        for (int kind = 0; kind < LITTLE_JOKER; ++kind) {
            if (order.group[kind] != TRUMP || v.counts[kind] != 2 || kind % 13 == 0) continue;
            bool all = true;
            for (int s = 0; s < 4; ++s) all = all && v.counts[s * 13 + kind % 13] == 2;
            if (all) {
                out.clear();
                for (int s = 0; s < 4; ++s) out.insert(out.end(), {s * 13 + kind % 13, s * 13 + kind % 13});
                return true;
            }
        }
        return false;
    }

    double lead_value(const Cards& cards) const {
        const Shape lead = judge.shape(cards);
        const Cards others = {(seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4};
        double p_side = holds_chance(seat, lead, cards, others);
        if (!is_declarer && p_side < 1.0) {
            const auto at = std::find(others.begin(), others.end(), v.declarer);
            if (at != others.end() && at + 1 != others.end()) p_side += (1.0 - p_side) * w.rescue;
        }
        double val = trick_value(p_side, is_declarer, cards, {}, 3);
        val -= spend_cost(cards) * (1.0 - w.realize * p_side);
        if (lead.group == TRUMP) {
            const int unseen_trumps = know.in_group[TRUMP];
            if (is_declarer) {
                if (unseen_trumps && static_cast<int>(by_group[TRUMP].size()) * 2 >= unseen_trumps)
                    val += w.draw_trumps * (0.5 + 0.5 * p_side) * std::min(3, unseen_trumps) / 3;
            } else if (p_side < 0.9) {
                val -= w.defender_trump_lead;
            }
        }
        return val;
    }
};

}  // namespace

void set_python_sum(bool neumaier) { neumaier_sum = neumaier; }

View view_of(const Hand& hand) {
    View v;
    v.rules = &hand.rules();
    v.phase = hand.phase();
    v.seat = hand.to_act();
    v.declarer = hand.declarer();
    v.trump = hand.trump();
    const auto& counts = hand.counts(v.seat);
    for (int k = 0; k < KINDS; ++k) v.counts[k] = counts[k];
    if (v.phase == BIDDING) {
        v.bids = hand.legal_bids();
        return v;
    }
    for (int k = 0; k < KINDS; ++k) v.played[k] = hand.played_counts()[k];
    v.voids = hand.voids();
    v.won = hand.trump_points_won();
    v.sizes = hand.sizes();
    if (v.phase == PLAYING && v.seat == v.declarer) {
        v.has_buried = true;
        v.buried = hand.buried();
    }
    const auto& plays = hand.trick_plays();
    for (size_t i = 0; i < plays.size(); ++i)
        v.trick.emplace_back((hand.leader() + static_cast<int>(i)) % 4, plays[i]);
    return v;
}

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

std::vector<Cards> rule_plays(const View& v, const RuleWeights& weights, size_t limit) {
    Decision decision(v, weights);
    Scored scored = decision.candidates();
    std::vector<size_t> order(scored.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    // Python's stable sort by (-score, cards): candidates with equal keys are the same play.
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (scored[a].first != scored[b].first) return scored[a].first > scored[b].first;
        return scored[a].second < scored[b].second;
    });
    std::vector<Cards> out, seen;
    for (size_t i : order) {
        Cards key = scored[i].second;
        std::sort(key.begin(), key.end());
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(std::move(key));
        if (decision.is_legal(scored[i].second)) {
            out.push_back(scored[i].second);
            if (out.size() >= limit) break;
        }
    }
    if (out.empty()) throw std::logic_error("the rule player found no legal play");
    return out;
}

void rule_act(Hand& hand, const RuleWeights& weights) {
    const View v = view_of(hand);
    switch (v.phase) {
        case BIDDING:
            hand.bid(v.seat, rule_bid(v, weights));
            return;
        case KITTY: {
            const auto [trump, bury] = rule_declare(v);
            hand.declare(v.seat, trump, bury);
            return;
        }
        case PLAYING:
            hand.play(v.seat, rule_plays(v, weights, 1)[0]);
            return;
        case DONE:
            throw Illegal("nothing to do: the hand is done");
    }
}

void play_out(Hand& hand, const std::array<SeatPlayer, 4>& players, RandomPlayer& random) {
    while (hand.phase() != DONE) {
        const SeatPlayer& player = players[hand.to_act()];
        if (player.rule) rule_act(hand, player.weights);
        else random.act(hand);
    }
}

}  // namespace baofen
