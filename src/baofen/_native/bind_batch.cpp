// The batches' binding: play-outs of many hands a call, by random players or a native player a
// seat, answered in int32 result rows (tables.hpp) with, when asked, each hand's action log and
// trick winners. The GIL is released while they play.
#include <string>
#include <vector>

#include "bindings.hpp"

namespace baofen {

namespace {

// The random player of the i-th hand of a batch played from `seed`.
RandomPlayer random_player(uint64_t seed, size_t i) {
    return RandomPlayer(seed * 0x9E3779B97F4A7C15ULL + i);
}

py::bytes as_bytes(const std::vector<int32_t>& rows) {
    return py::bytes(reinterpret_cast<const char*>(rows.data()), rows.size() * sizeof(int32_t));
}

// Plays out `count` deals (108 cards each, then a first seat each) with a player a seat into
// `rows`, and each hand's action log and trick winners when `logs` hold room for them.
void play_deals(const Rules& rules, const uint8_t* cards, const uint8_t* firsts, size_t count,
                const std::array<SeatPlayer, 4>& players, uint64_t seed, int32_t* rows,
                std::string* logs, std::string* winners) {
    Cards deal(DEAL_SIZE);
    for (size_t i = 0; i < count; ++i) {
        std::copy(cards + i * DEAL_SIZE, cards + (i + 1) * DEAL_SIZE, deal.begin());
        Hand hand(rules, deal, firsts[i]);
        RandomPlayer random = random_player(seed, i);
        play_out(hand, players, random);
        write_result(hand.result(), rows + i * RESULT_FIELDS);
        if (logs) {
            logs[i] = encode_log(hand);
            winners[i].assign(hand.winners().begin(), hand.winners().end());
        }
    }
}

// Deal each hand (108 card bytes, a first-seat byte) and play it out with a player a seat;
// (int32 results, logs or None, trick winners or None).
py::tuple deal_and_play(const Rules& rules, const py::bytes& deals, const py::bytes& firsts,
                        const std::array<SeatPlayer, 4>& players, uint64_t seed, bool logs) {
    const std::string deal_bytes = deals, first_bytes = firsts;
    const size_t n = first_bytes.size();
    if (deal_bytes.size() != n * DEAL_SIZE)
        throw py::value_error("deals must hold 108 cards for each first seat");
    std::vector<int32_t> results(n * RESULT_FIELDS);
    std::vector<std::string> encoded(logs ? n : 0), winners(logs ? n : 0);
    {
        py::gil_scoped_release free;
        play_deals(rules, reinterpret_cast<const uint8_t*>(deal_bytes.data()),
                   reinterpret_cast<const uint8_t*>(first_bytes.data()), n, players, seed,
                   results.data(), logs ? encoded.data() : nullptr,
                   logs ? winners.data() : nullptr);
    }
    const py::bytes table = as_bytes(results);
    if (!logs) return py::make_tuple(table, py::none(), py::none());
    py::list log_list, winner_list;
    for (size_t i = 0; i < n; ++i) {
        log_list.append(py::bytes(encoded[i]));
        winner_list.append(py::bytes(winners[i]));
    }
    return py::make_tuple(table, log_list, winner_list);
}

std::array<SeatPlayer, 4> random_players() {
    std::array<SeatPlayer, 4> random;
    for (SeatPlayer& p : random) p.rule = false;
    return random;
}

// Copies of `hands` played to the end with a player a seat: int32 results.
py::bytes play_copies(const std::vector<PyHand*>& hands, const std::array<SeatPlayer, 4>& players,
                      uint64_t seed) {
    std::vector<Hand> copies;
    copies.reserve(hands.size());
    for (const PyHand* h : hands) copies.push_back(h->hand);
    std::vector<int32_t> results(hands.size() * RESULT_FIELDS);
    {
        py::gil_scoped_release free;
        for (size_t i = 0; i < copies.size(); ++i) {
            RandomPlayer random = random_player(seed, i);
            play_out(copies[i], players, random);
            write_result(copies[i].result(), &results[i * RESULT_FIELDS]);
        }
    }
    return as_bytes(results);
}

}  // namespace

void bind_batch(py::module_& m) {
    m.def("random_hands",
          [](std::shared_ptr<Rules> rules, py::bytes deals, py::bytes firsts, uint64_t seed,
             bool logs) { return deal_and_play(*rules, deals, firsts, random_players(), seed, logs); },
          py::arg("rules"), py::arg("deals"), py::arg("firsts"), py::arg("seed"),
          py::arg("logs") = false,
          "Deal each hand (108 card bytes, a first-seat byte) and play it out with random players; "
          "returns (int32 results, logs or None, trick winners or None).");

    m.def("seeded_random_hands",
          [](std::shared_ptr<Rules> rules, py::bytes pack, const std::vector<uint64_t>& seeds,
             uint64_t seed) {
              const std::string pack_bytes = pack;
              if (pack_bytes.size() != DEAL_SIZE) throw py::value_error("a pack has 108 cards");
              const size_t n = seeds.size();
              std::vector<uint8_t> cards(n * DEAL_SIZE), firsts(n);
              std::vector<int32_t> results(n * RESULT_FIELDS);
              {
                  py::gil_scoped_release free;
                  deals_from_seeds(reinterpret_cast<const uint8_t*>(pack_bytes.data()),
                                   rules->hongwu, seeds.data(), n, cards.data(), firsts.data());
                  play_deals(*rules, cards.data(), firsts.data(), n, random_players(), seed,
                             results.data(), nullptr, nullptr);
              }
              return as_bytes(results);
          },
          py::arg("rules"), py::arg("pack"), py::arg("seeds"), py::arg("seed"),
          "random_hands(rules, *deals_from_seeds(pack, <包红五>, seeds), seed)'s int32 results, "
          "dealt and played in one call.");

    m.def("play_out_many",
          [](const std::vector<PyHand*>& hands, uint64_t seed) {
              return play_copies(hands, random_players(), seed);
          },
          py::arg("hands"), py::arg("seed"),
          "Play copies of the hands to the end with random players (the hands are unchanged); "
          "int32 results.");

    m.def("player_hands",
          [](std::shared_ptr<Rules> rules, py::bytes deals, py::bytes firsts,
             const py::sequence& seats, uint64_t seed, bool logs) {
              return deal_and_play(*rules, deals, firsts, players_of(seats), seed, logs);
          },
          py::arg("rules"), py::arg("deals"), py::arg("firsts"), py::arg("players"),
          py::arg("seed") = 0, py::arg("logs") = false,
          "As random_hands, with a native player a seat (None: random; RuleWeights: rule).");

    m.def("play_out_players",
          [](const std::vector<PyHand*>& hands, const py::sequence& seats, uint64_t seed) {
              return play_copies(hands, players_of(seats), seed);
          },
          py::arg("hands"), py::arg("players"), py::arg("seed") = 0,
          "Play copies of the hands to the end with a native player a seat; int32 results.");

    m.def("play_out_candidates",
          [](const std::vector<PyHand*>& worlds, const std::vector<Cards>& candidates,
             const py::sequence& seats, uint64_t seed) {
              const auto players = players_of(seats);
              const size_t n = worlds.size() * candidates.size();
              std::vector<int32_t> results(n * RESULT_FIELDS);
              std::vector<Hand> copies;
              copies.reserve(worlds.size());
              for (const PyHand* h : worlds) copies.push_back(h->hand);
              {
                  py::gil_scoped_release free;
                  for (size_t w = 0; w < copies.size(); ++w)
                      for (size_t c = 0; c < candidates.size(); ++c) {
                          const size_t i = w * candidates.size() + c;
                          Hand hand = copies[w];
                          hand.play(hand.to_act(), candidates[c]);
                          RandomPlayer random = random_player(seed, i);
                          play_out(hand, players, random);
                          write_result(hand.result(), &results[i * RESULT_FIELDS]);
                      }
              }
              return as_bytes(results);
          },
          py::arg("worlds"), py::arg("candidates"), py::arg("players"), py::arg("seed") = 0,
          "Each world (a hand in play) with each candidate play of its seat to act, played to "
          "the end with a native player a seat; int32 results, world-major "
          "(row w * len(candidates) + c).");
}

}  // namespace baofen
