// The random player (baofen/bots/random_bot.py with shared.compose_follow and RandomChooser)
// and its generator.
#include <algorithm>
#include <map>

#include "engine.hpp"

namespace baofen {

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
            const Bids values = hand.legal_bids();
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
