// The deal of a seed, as the Python engine makes it (baofen/deal.py, Hand(rules, seed=...)):
// random.Random(seed) is CPython's MT19937 seeded by init_by_array with the seed's 32-bit words;
// 108 random() draws are the sort keys of the pack's positions (a stable sort); each seat takes
// 25 positions of the sorted list and the kitty the last 8, each in increasing position, which is
// display order; in 包红五 the first bidder is then randrange(4). The same deals bit for bit, so
// that native batches need no Python to deal (dealing was four fifths of a native random hand).
#include <algorithm>
#include <array>

#include "engine.hpp"

namespace baofen {

namespace {

class PythonRandom {
  public:
    explicit PythonRandom(uint64_t seed) {
        std::array<uint32_t, 2> key{static_cast<uint32_t>(seed),
                                    static_cast<uint32_t>(seed >> 32)};
        init_by_array(key.data(), key[1] ? 2 : 1);
    }

    // random.random() times 2**53: the 53 bits it is made of, from two draws.
    uint64_t random_bits() {
        const uint64_t a = next() >> 5, b = next() >> 6;
        return a << 26 | b;
    }

    // random.randrange(n) for 0 < n <= 2**32: _randbelow_with_getrandbits.
    uint32_t below(uint32_t n) {
        int bits = 0;
        for (uint64_t v = n; v; v >>= 1) ++bits;
        uint32_t r;
        do r = next() >> (32 - bits); while (r >= n);
        return r;
    }

  private:
    static constexpr int N = 624, M = 397;
    std::array<uint32_t, N> mt{};
    int index = N + 1;

    void init_genrand(uint32_t s) {
        mt[0] = s;
        for (int i = 1; i < N; ++i)
            mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
        index = N;
    }

    void init_by_array(const uint32_t* key, int length) {
        init_genrand(19650218U);
        int i = 1, j = 0;
        for (int k = std::max(N, length); k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] +
                    static_cast<uint32_t>(j);
            ++i;
            ++j;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
            if (j >= length) j = 0;
        }
        for (int k = N - 1; k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) -
                    static_cast<uint32_t>(i);
            ++i;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
        }
        mt[0] = 0x80000000U;
    }

    static uint32_t mix(uint32_t upper, uint32_t lower, uint32_t far) {
        const uint32_t y = (upper & 0x80000000U) | (lower & 0x7fffffffU);
        return far ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }

    void twist() {
        int k = 0;
        for (; k < N - M; ++k) mt[k] = mix(mt[k], mt[k + 1], mt[k + M]);
        for (; k < N - 1; ++k) mt[k] = mix(mt[k], mt[k + 1], mt[k + M - N]);
        mt[N - 1] = mix(mt[N - 1], mt[0], mt[M - 1]);
        index = 0;
    }

    uint32_t next() {
        if (index >= N) twist();
        uint32_t y = mt[index++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        return y;
    }
};

}  // namespace

uint8_t deal_from_seed(const uint8_t* pack, bool draw_first, uint64_t seed, uint8_t* cards) {
    PythonRandom rng(seed);
    // random() is a 53-bit integer over 2**53, so the integers sort as the keys do; the position
    // in the low 7 bits breaks ties as Python's stable sort does.
    std::array<uint64_t, DEAL_SIZE> keys;
    for (int p = 0; p < DEAL_SIZE; ++p) keys[p] = rng.random_bits() << 7 | static_cast<uint64_t>(p);
    std::sort(keys.begin(), keys.end());
    // Each seat takes 25 sorted places, the kitty the last 8; each part in increasing position.
    std::array<uint8_t, DEAL_SIZE> owner;
    for (int i = 0; i < DEAL_SIZE; ++i) owner[keys[i] & 127] = static_cast<uint8_t>(i / HAND_SIZE);
    std::array<int, 5> next{0, HAND_SIZE, 2 * HAND_SIZE, 3 * HAND_SIZE, 4 * HAND_SIZE};
    for (int p = 0; p < DEAL_SIZE; ++p) cards[next[owner[p]]++] = pack[p];
    return draw_first ? static_cast<uint8_t>(rng.below(4)) : 0;
}

}  // namespace baofen
