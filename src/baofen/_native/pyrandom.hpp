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
    static constexpr int N = 624, M = 397;
    using State = std::array<uint32_t, N>;

    // random.Random(seed) for a seed's absolute value below 2**64.
    explicit PythonRandom(uint64_t seed) : PythonRandom(seeded(&seed, 1)[0]) {}

    // A generator just seeded (random.Random(seed)'s state before its first draw), as
    // seeded() makes it.
    explicit PythonRandom(const State& seeded) : mt(seeded), index(N) {}

    // The state random.Random(seed) starts from, for each of up to LANES seeds (each seed's
    // absolute value, below 2**64): init_by_array with the seed's 32-bit words. The seeds are
    // seeded side by side, word by word, because each seed's seeding is a chain of 1,247
    // dependent multiplications: side by side, the processor overlaps the chains.
    static constexpr size_t LANES = 8;
    static std::array<State, LANES> seeded(const uint64_t* seeds, size_t count);

    // getstate()'s 625 words: the 624 of the state, then the index.
    explicit PythonRandom(const std::vector<uint32_t>& state) {
        if (state.size() != N + 1 || state.back() > static_cast<uint32_t>(N))
            throw std::invalid_argument("a random state is 624 words and an index");
        std::copy(state.begin(), state.end() - 1, mt.begin());
        index = static_cast<int>(state.back());
    }

    std::vector<uint32_t> state() const {
        PythonRandom done = *this;
        done.twist_rest();
        std::vector<uint32_t> out(done.mt.begin(), done.mt.end());
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
    State mt{};
    int index = N + 1;
    // The words of the current generation already twisted (mt[0, twisted)): a deal draws 217
    // words or so of 624, so a generation's words are twisted as they are drawn.
    int twisted = N;

    static uint32_t mix(uint32_t upper, uint32_t lower, uint32_t far) {
        const uint32_t y = (upper & 0x80000000U) | (lower & 0x7fffffffU);
        return far ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }

    // Twists the next word while it needs only words of the last generation, then the rest
    // at once, in the order of _randommodule.c's genrand_uint32.
    void twist_next() {
        if (twisted < N - M) {
            mt[twisted] = mix(mt[twisted], mt[twisted + 1], mt[twisted + M]);
            ++twisted;
            return;
        }
        twist_rest();
    }

    void twist_rest() {
        int k = twisted;
        for (; k < N - M; ++k) mt[k] = mix(mt[k], mt[k + 1], mt[k + M]);
        for (; k < N - 1; ++k) mt[k] = mix(mt[k], mt[k + 1], mt[k + M - N]);
        if (k == N - 1) mt[N - 1] = mix(mt[N - 1], mt[0], mt[M - 1]);
        twisted = N;
    }

    uint32_t next() {
        if (index >= N) {
            index = 0;
            twisted = 0;
        }
        if (index == twisted) twist_next();
        uint32_t y = mt[index++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        return y;
    }
};

}  // namespace baofen
