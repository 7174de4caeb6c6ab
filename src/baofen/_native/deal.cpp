// The deal of a seed, as the Python engine makes it (baofen/deal.py, Hand(rules, seed=...)):
// random.Random(seed) is CPython's MT19937 seeded by init_by_array with the seed's 32-bit words;
// 108 random() draws are the sort keys of the pack's positions (a stable sort); each seat takes
// 25 positions of the sorted list and the kitty the last 8, each in increasing position, which is
// display order; in 包红五 the first bidder is then randrange(4). The same deals bit for bit, so
// that native batches need no Python to deal.
#include <algorithm>
#include <array>

#include "engine.hpp"
#include "pyrandom.hpp"

namespace baofen {

namespace {

using State = PythonRandom::State;
constexpr int N = PythonRandom::N;
constexpr size_t LANES = PythonRandom::LANES;

// init_genrand(19650218), where every init_by_array starts.
const State& seed_base() {
    static const State base = [] {
        State mt{};
        mt[0] = 19650218U;
        for (int i = 1; i < N; ++i)
            mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
        return mt;
    }();
    return base;
}

// The 108 sort keys in increasing order: spread by their top 7 bits (about one key a bucket),
// then an insertion sort puts the few keys that share a bucket in order.
void sort_keys(std::array<uint64_t, DEAL_SIZE>& keys) {
    constexpr int SHIFT = 53, BUCKETS = 128;  // keys are below 2**60
    std::array<uint8_t, BUCKETS + 1> start{};
    for (uint64_t key : keys) ++start[(key >> SHIFT) + 1];
    for (int b = 0; b < BUCKETS; ++b) start[b + 1] += start[b];
    std::array<uint64_t, DEAL_SIZE> spread;
    for (uint64_t key : keys) spread[start[key >> SHIFT]++] = key;
    for (int i = 1; i < DEAL_SIZE; ++i) {
        const uint64_t key = spread[i];
        int j = i;
        for (; j > 0 && spread[j - 1] > key; --j) spread[j] = spread[j - 1];
        spread[j] = key;
    }
    keys = spread;
}

}  // namespace

std::array<State, LANES> PythonRandom::seeded(const uint64_t* seeds, size_t count) {
    // init_by_array (_randommodule.c) for every lane at once: mt[i][lane].
    using Lanes = std::array<uint32_t, LANES>;
    std::array<Lanes, N> mt;
    const State& base = seed_base();
    for (int i = 0; i < N; ++i) mt[i].fill(base[i]);
    // A key is the seed's 32-bit words, one word for seeds below 2**32; step t adds key[j] + j,
    // j = t mod the key's length.
    std::array<Lanes, 2> add{};
    for (size_t l = 0; l < count; ++l) {
        const auto low = static_cast<uint32_t>(seeds[l]), high = static_cast<uint32_t>(seeds[l] >> 32);
        add[0][l] = low;
        add[1][l] = high ? high + 1U : low;
    }
    int i = 1;
    for (int t = 0; t < N; ++t) {  // max(N, key length) steps
        const Lanes& plus = add[t & 1];
        for (size_t l = 0; l < LANES; ++l)
            mt[i][l] = (mt[i][l] ^ ((mt[i - 1][l] ^ (mt[i - 1][l] >> 30)) * 1664525U)) + plus[l];
        if (++i >= N) {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    for (int t = N - 1; t; --t) {
        for (size_t l = 0; l < LANES; ++l)
            mt[i][l] = (mt[i][l] ^ ((mt[i - 1][l] ^ (mt[i - 1][l] >> 30)) * 1566083941U)) -
                       static_cast<uint32_t>(i);
        if (++i >= N) {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    std::array<State, LANES> out;
    for (size_t l = 0; l < LANES; ++l) {
        for (int k = 1; k < N; ++k) out[l][k] = mt[k][l];
        out[l][0] = 0x80000000U;
    }
    return out;
}

void deals_from_seeds(const uint8_t* pack, bool draw_first, const uint64_t* seeds, size_t count,
                      uint8_t* cards, uint8_t* firsts) {
    constexpr size_t LANES = PythonRandom::LANES;
    for (size_t done = 0; done < count; done += LANES) {
        const size_t lanes = std::min(LANES, count - done);
        const auto states = PythonRandom::seeded(seeds + done, lanes);
        for (size_t l = 0; l < lanes; ++l) {
            PythonRandom rng(states[l]);
            // random() is a 53-bit integer over 2**53, so the integers sort as the keys do; the
            // position in the low 7 bits breaks ties as Python's stable sort does.
            std::array<uint64_t, DEAL_SIZE> keys;
            for (int p = 0; p < DEAL_SIZE; ++p)
                keys[p] = rng.random_bits() << 7 | static_cast<uint64_t>(p);
            sort_keys(keys);
            // Each seat takes 25 sorted places, the kitty the last 8; each in increasing position.
            std::array<uint8_t, DEAL_SIZE> owner;
            for (int i = 0; i < DEAL_SIZE; ++i)
                owner[keys[i] & 127] = static_cast<uint8_t>(i / HAND_SIZE);
            std::array<int, 5> next{0, HAND_SIZE, 2 * HAND_SIZE, 3 * HAND_SIZE, 4 * HAND_SIZE};
            uint8_t* deal = cards + (done + l) * DEAL_SIZE;
            for (int p = 0; p < DEAL_SIZE; ++p) deal[next[owner[p]]++] = pack[p];
            firsts[done + l] = draw_first ? static_cast<uint8_t>(rng.below(4)) : 0;
        }
    }
}

}  // namespace baofen
