// The deal of a seed, as the Python engine makes it (baofen/deal.py, Hand(rules, seed=...)):
// random.Random(seed) is CPython's MT19937 seeded by init_by_array with the seed's 32-bit words;
// 108 random() draws are the sort keys of the pack's positions (a stable sort); each seat takes
// 25 positions of the sorted list and the kitty the last 8, each in increasing position, which is
// display order; in 包红五 the first bidder is then randrange(4). The same deals bit for bit, so
// that native batches need no Python to deal (dealing was four fifths of a native random hand).
#include <algorithm>
#include <array>

#include "engine.hpp"
#include "pyrandom.hpp"

namespace baofen {

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
