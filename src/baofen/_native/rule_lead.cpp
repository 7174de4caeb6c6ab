// The rule player's leads (baofen/bots/rule_play.py PlayDecision, leading): each group's units
// and cheap singles, a throw of sure units where it is safe, and an eight of a kind; each scored
// as a trick the others may beat.
#include <algorithm>
#include <utility>
#include <vector>

#include "rule_decision.hpp"

namespace baofen::rule_detail {

Scored Decision::lead_candidates() {
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
                const double ca = value[a] + 0.6 * POINTS[a];
                const double cb = value[b] + 0.6 * POINTS[b];
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

bool Decision::eight_of_a_kind(Cards& out) const {
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

double Decision::lead_value(const Cards& cards) const {
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

}  // namespace baofen::rule_detail
