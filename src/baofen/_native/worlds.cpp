// A search's sampled worlds on the native core: see worlds.hpp.
#include "worlds.hpp"

#include <algorithm>

namespace baofen {

Choice rule_choice(const Hand& hand, const RuleWeights& weights) {
    if (hand.phase() == DONE) throw Illegal("nothing to do: the hand is done");
    const View v = view_of(hand);
    if (v.phase == BIDDING) return {ACTION_BID, v.seat, rule_bid(v, weights), Cards{}};
    if (v.phase == KITTY) {
        const auto [trump, bury] = rule_declare(v);
        return {ACTION_DECLARE, v.seat, trump, bury};
    }
    return {ACTION_PLAY, v.seat, 0, rule_plays(v, weights, 1)[0]};
}

namespace {

Cards sorted_cards(Cards cards) {
    std::sort(cards.begin(), cards.end());
    return cards;
}

}  // namespace

std::optional<double> Replay::run(Hand& hand, const Cards& bury, bool weigh,
                                  double likelihood) const {
    size_t played = 0;
    try {
        for (const Choice& a : actions) {
            const bool other = weigh && a.seat != me;
            if (a.type == ACTION_PLAY) {
                if (other && sorted_cards(rule_choice(hand, weights).cards) != sorted_cards(a.cards))
                    likelihood *= mismatch[0];
                if (played >= expected.size() ||
                    sorted_cards(hand.play(a.seat, a.cards)) != expected[played])
                    return std::nullopt;
                ++played;
            } else if (a.type == ACTION_BID) {
                if (other) {
                    const int value = rule_choice(hand, weights).value;
                    if ((value < 0 ? NONE : value) != a.value) likelihood *= mismatch[1];
                }
                hand.bid(a.seat, a.value);
            } else {
                if (other && rule_choice(hand, weights).value != a.value) likelihood *= mismatch[2];
                hand.declare(a.seat, a.value, a.seat == declarer ? bury : a.cards);
            }
        }
    } catch (const std::exception&) {  // a refused action, or none the rule player finds
        return std::nullopt;
    }
    if (played != expected.size()) return std::nullopt;
    return likelihood;
}

std::optional<std::array<Counts, HOLDERS>> Sampler::sample(PythonRandom& rng, int tries) const {
    for (int attempt = 0; attempt < tries; ++attempt) {
        std::array<int, HOLDERS> space = room;
        std::array<Counts, HOLDERS> held{};
        Counts left = unseen;
        for (int h : holders)
            for (int kind = 0; kind < KINDS; ++kind)
                if (need[h][kind]) {
                    const int take = std::min(need[h][kind], left[kind]);
                    held[h][kind] += take;
                    left[kind] -= take;
                    space[h] -= take;
                }
        for (int h : holders)
            if (space[h] < 0) return std::nullopt;
        bool ok = true;
        for (int kind : kinds) {
            for (int copy = 0; copy < left[kind] && ok; ++copy) {
                int options[HOLDERS];
                double weights[HOLDERS];
                int n = 0;
                double total = 0.0;
                for (int h : holders)
                    if (space[h] && held[h][kind] < cap[h][kind]) {
                        const double w = weight[h][kind] * space[h];
                        options[n] = h;
                        weights[n++] = w;
                        total += w;
                    }
                if (n) {
                    double pick = rng.random() * total;
                    int chosen = options[n - 1];
                    for (int i = 0; i < n; ++i) {
                        pick -= weights[i];
                        if (pick <= 0) {
                            chosen = options[i];
                            break;
                        }
                    }
                    held[chosen][kind] += 1;
                    space[chosen] -= 1;
                } else if (!shift(rng, kind, held, space)) {
                    ok = false;
                }
            }
            if (!ok) break;
        }
        if (ok) return held;
    }
    return std::nullopt;
}

bool Sampler::shift(PythonRandom& rng, int kind, std::array<Counts, HOLDERS>& held,
                    std::array<int, HOLDERS>& space) const {
    std::vector<int> start;
    for (int h : holders)
        if (held[h][kind] < cap[h][kind]) start.push_back(h);
    rng.shuffle(start);
    std::array<bool, HOLDERS> reached{};
    std::array<int, HOLDERS> from{}, moved_card{};  // from: -1 for a chain's first holder
    for (int h : start) {
        reached[h] = true;
        from[h] = -1;
    }
    std::vector<int> queue(start);
    for (size_t head = 0; head < queue.size(); ++head) {
        const int source = queue[head];
        std::vector<int> movable;
        for (int k = 0; k < KINDS; ++k)
            if (held[source][k] > need[source][k]) movable.push_back(k);
        rng.shuffle(movable);
        for (int moved : movable)
            for (int target : holders) {
                if (reached[target] || held[target][moved] >= cap[target][moved]) continue;
                reached[target] = true;
                from[target] = source;
                moved_card[target] = moved;
                if (space[target]) {
                    int node = target;
                    while (from[node] != -1) {
                        const int previous = from[node], card = moved_card[node];
                        held[previous][card] -= 1;
                        held[node][card] += 1;
                        node = previous;
                    }
                    held[node][kind] += 1;
                    space[target] -= 1;
                    return true;
                }
                queue.push_back(target);
            }
    }
    return false;
}

std::optional<std::pair<Hand, double>> Sampler::draw(PythonRandom& rng, int tries, bool weigh) const {
    for (int attempt = 0; attempt < tries; ++attempt) {
        const auto held = sample(rng);
        if (!held) return std::nullopt;
        auto cards_of = [&](int h) {
            Cards out;
            for (int k = 0; k < KINDS; ++k)
                for (int c = 0; c < (*held)[h][k]; ++c) out.push_back(k);
            return out;
        };
        Cards deal;
        bool sized = true;
        for (int seat = 0; seat < 4; ++seat) {
            Cards hand = seat == me ? mine : cards_of(seat);
            if (seat != me)
                for (int card : played[seat]) hand.push_back(card);
            sized = sized && hand.size() == HAND_SIZE;
            for (int card : hand) deal.push_back(card);
        }
        const bool drawn_kitty =
            std::find(holders.begin(), holders.end(), KITTY_HOLDER) != holders.end();
        const Cards world_kitty = drawn_kitty ? cards_of(KITTY_HOLDER) : kitty;
        if (!sized || world_kitty.size() != KITTY_SIZE) continue;
        for (int card : world_kitty) deal.push_back(card);
        try {
            Hand world(*rules, deal, first);
            const auto likelihood = replay.run(world, drawn_kitty ? world_kitty : bury, weigh, 1.0);
            if (likelihood) return std::make_pair(std::move(world), *likelihood);
        } catch (const Illegal&) {
        }
    }
    return std::nullopt;
}

}  // namespace baofen
