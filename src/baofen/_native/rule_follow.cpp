// The rule player's follows (baofen/bots/rule_play.py PlayDecision, following; shared.py
// compose_follow and matching_play): the cheapest legal follows by two costs, every single that
// may win, every pair or tractor of the led shape, and ruffs; each scored as a trick.
#include <algorithm>
#include <utility>
#include <vector>

#include "rule_decision.hpp"

namespace baofen::rule_detail {

namespace {

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

}  // namespace

Scored Decision::follow_candidates() {
    const int g = shape.group;
    const Cards& suited = by_group[g];
    std::vector<Cards> options;
    std::array<double, KINDS> discard_cost, feed_cost, strong;
    for (int k = 0; k < KINDS; ++k) {
        discard_cost[k] = value[k] + 0.6 * POINTS[k];
        feed_cost[k] = value[k] - 0.6 * POINTS[k];
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

void Decision::unit_plays(const Cards& source, std::vector<Cards>& plays) const {
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

}  // namespace baofen::rule_detail
