// The rule player's play decision (baofen/bots/rule_play.py PlayDecision): the candidate plays
// of the seat to act, each scored by what its trick is expected to bring and what it spends.
// Leads are composed and scored in rule_lead.cpp, follows in rule_follow.cpp; the valuation
// they share is here, inline, as it is called for every candidate.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "rule_knowledge.hpp"

namespace baofen::rule_detail {

using Scored = std::vector<std::pair<double, Cards>>;

class Decision {
public:
    Decision(const View& view, const RuleWeights& weights);
    // Whether the seat may play `cards` now.
    bool is_legal(const Cards& cards) const;
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
        return order.group[card] == TRUMP && POINTS[card] > 0 && card < LITTLE_JOKER &&
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
        const int pts = POINTS[card];
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
            for (int c : v.buried) points += POINTS[c];
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
            if (POINTS[card]) {
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

    // Following (rule_follow.cpp).
    Scored follow_candidates();
    void unit_plays(const Cards& source, std::vector<Cards>& plays) const;

    // Leading (rule_lead.cpp).
    Scored lead_candidates();
    bool eight_of_a_kind(Cards& out) const;
    double lead_value(const Cards& cards) const;
};

}  // namespace baofen::rule_detail
