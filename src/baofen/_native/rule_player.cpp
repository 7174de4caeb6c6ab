// The rule player: a port of baofen/bots/rule_bot.py (bid, declare, play), rule_play.py
// (PlayDecision), evaluation.py (hand features, bury) and shared.py (Knowledge, compose_follow,
// CostChooser, matching_play, eight_of_a_kind). Every float is computed as the Python code
// computes it, operation by operation, so that scores and their ties come out the same.
//
// Its files: this one (the view of a seat, the play decision's setup and ranking, acting and
// playing out), rule_bidding.cpp (bid and declaration), rule_knowledge.hpp (what a seat infers),
// rule_decision.hpp (the play decision), rule_lead.cpp and rule_follow.cpp (leads and follows).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rule_decision.hpp"

namespace baofen {

namespace rule_detail {

namespace {

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

}  // namespace

Decision::Decision(const View& view, const RuleWeights& weights)
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

bool Decision::is_legal(const Cards& cards) const {
    if (cards.empty()) return false;
    std::array<int, KINDS> need{};
    for (int c : cards)
        if (++need[c] > v.counts[c]) return false;
    if (v.trick.empty()) return judge.lead_ok(cards);
    if (static_cast<int>(cards.size()) != shape.size) return false;
    return judge.follow_error(shape, by_group[shape.group], cards) == nullptr;
}

}  // namespace rule_detail

using rule_detail::Decision;
using rule_detail::Scored;

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
    if (hand.phase() == DONE) throw Illegal("nothing to do: the hand is done");
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
