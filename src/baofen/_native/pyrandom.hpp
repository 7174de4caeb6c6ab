// CPython's random.Random (MT19937, _randommodule.c and random.py) in C++: seeded as
// random.Random(seed) is (the deal of a seed, deal.cpp), or taken from a generator's getstate()
// and given back for its setstate() (a search's sampled worlds, worlds.cpp); random(), randrange
// (_randbelow_with_getrandbits) and shuffle() draw exactly what Python's would.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace baofen {

class PythonRandom {
  public:
    explicit PythonRandom(uint64_t seed) {
        std::array<uint32_t, 2> key{static_cast<uint32_t>(seed),
                                    static_cast<uint32_t>(seed >> 32)};
        init_by_array(key.data(), key[1] ? 2 : 1);
    }

    // getstate()'s 625 words: the 624 of the state, then the index.
    explicit PythonRandom(const std::vector<uint32_t>& state) {
        if (state.size() != N + 1 || state.back() > static_cast<uint32_t>(N))
            throw std::invalid_argument("a random state is 624 words and an index");
        std::copy(state.begin(), state.end() - 1, mt.begin());
        index = static_cast<int>(state.back());
    }

    std::vector<uint32_t> state() const {
        std::vector<uint32_t> out(mt.begin(), mt.end());
        out.push_back(static_cast<uint32_t>(index));
        return out;
    }

    // random.random() times 2**53: the 53 bits it is made of, from two draws.
    uint64_t random_bits() {
        const uint64_t a = next() >> 5, b = next() >> 6;
        return a << 26 | b;
    }

    // random.random(): the same double.
    double random() { return static_cast<double>(random_bits()) * (1.0 / 9007199254740992.0); }

    // random.randrange(n) for 0 < n <= 2**32: _randbelow_with_getrandbits.
    uint32_t below(uint64_t n) {
        int bits = 0;
        for (uint64_t v = n; v; v >>= 1) ++bits;
        uint32_t r;
        do r = next() >> (32 - bits); while (r >= n);
        return r;
    }

    // random.shuffle(items).
    template <class T>
    void shuffle(std::vector<T>& items) {
        for (size_t i = items.size(); i-- > 1;) std::swap(items[i], items[below(i + 1)]);
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

}  // namespace baofen
