// baofen._native._core: the Python binding of the native core (pybind11).
//
// Two ways in: a Hand that Python drives action by action (legal plays as card lists, apply,
// the rule player's choice, play on with the random player), and batches (random_hands,
// play_out_many; player_hands, play_out_players, play_out_candidates with a native player per
// seat) that cross into native code once for many hands and answer in flat int32 buffers
// (baofen/_native/batch.py and players.py read them). Refused actions raise ValueError with the
// engine's reason code.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <optional>
#include <tuple>
#include <vector>

#include "engine.hpp"
#include "rule_player.hpp"
#include "worlds.hpp"

namespace py = pybind11;

namespace baofen {
void bind_env(py::module_& m);  // env.cpp: the research env's steps
void bind_labels(py::module_& m);  // labels.cpp: the learned evaluator's labels
}  // namespace baofen

// Cards cross as Python lists of ints, as a std::vector<int> would.
namespace pybind11::detail {
template <>
struct type_caster<baofen::Cards> : list_caster<baofen::Cards, int> {};
}  // namespace pybind11::detail
using namespace baofen;

namespace {

constexpr int RESULT_FIELDS = 19;
constexpr const char* SUIT_LETTERS = "SHCD";
constexpr const char* PHASES[] = {"bidding", "kitty", "playing", "done"};

template <class T>
T field(const py::dict& rules, const char* name) {
    if (!rules.contains(name)) throw py::value_error(std::string("rule set lacks ") + name);
    return rules[name].cast<T>();
}

// A Rules from RuleSet.to_dict().
Rules rules_of(const py::dict& d) {
    Rules r;
    r.hongwu = field<std::string>(d, "variant") == "hongwu";
    r.bid_min = field<int>(d, "bid_min");
    if (r.hongwu) {
        const int step = field<int>(d, "bid_step"), high = field<int>(d, "bid_max");
        for (int v = r.bid_min; v <= high; v += step) r.grid.push_back(v);
    } else {
        r.grid = field<std::vector<int>>(d, "bid_values");
    }
    if (r.grid.empty()) throw py::value_error("the rule set offers no bid");
    r.structure = field<bool>(d, "must_follow_structure");
    r.eight = field<bool>(d, "eight_of_a_kind");
    r.throw_penalty = field<int>(d, "throw_penalty_per_card");
    r.direct = field<std::string>(d, "no_bid_mode") == "direct";
    r.direct_penalty = field<int>(d, "direct_penalty");
    r.pot_caller_stake = field<int>(d, "pot_caller_stake");
    r.pot_other_stake = field<int>(d, "pot_other_stake");
    r.wangfen_all_bonus = field<int>(d, "wangfen_all_bonus");
    r.wangfen_none_penalty = field<int>(d, "wangfen_none_penalty");
    r.full_sweep = field<int>(d, "full_sweep_score");
    r.half_sweep = field<int>(d, "half_sweep_score");
    r.shutout = field<int>(d, "shutout_score");
    r.zero_sum = field<std::string>(d, "settlement") == "zero_sum";
    r.red5 = field<int>(d, "red5_capture_points");
    r.kitty_mult_trump = field<int>(d, "kitty_multiplier_trump");
    r.kitty_mult_plain = field<int>(d, "kitty_multiplier_plain");
    r.points_per_level = field<int>(d, "points_per_level");
    return r;
}

void write_result(const Result& r, int32_t* out) {
    const int32_t head[] = {r.declarer, r.target, r.declarer_points, r.made, r.kind, r.score,
                            r.levels, r.has_score, r.has_levels};
    std::copy(std::begin(head), std::end(head), out);
    std::copy(r.deltas.begin(), r.deltas.end(), out + 9);
    std::copy(r.breakdown.begin(), r.breakdown.end(), out + 13);
    out[18] = r.failed_throws;
}

// The action log as int16: bid [0, seat, value], declare [1, seat, trump, 8 cards],
// play [2, seat, n, n attempted cards].
std::string encode_log(const Hand& hand) {
    std::vector<int16_t> words;
    for (const Action& a : hand.actions()) {
        words.push_back(static_cast<int16_t>(a.type));
        words.push_back(static_cast<int16_t>(a.seat));
        if (a.type == Action::BID) words.push_back(static_cast<int16_t>(a.value));
        else if (a.type == Action::DECLARE) words.push_back(static_cast<int16_t>(a.value));
        else words.push_back(static_cast<int16_t>(a.cards.size()));
        for (int c : a.cards) words.push_back(static_cast<int16_t>(c));
    }
    return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 2);
}

int suit_index(const std::string& trump) {
    if (trump.size() == 1)
        for (int s = 0; s < 4; ++s)
            if (trump[0] == SUIT_LETTERS[s] || trump[0] == SUIT_LETTERS[s] + 32) return s;
    throw Illegal("bad_trump");
}

// A Hand that owns its rules, so Python can keep it alone.
struct PyHand {
    std::shared_ptr<const Rules> rules;
    Hand hand;
    PyHand(std::shared_ptr<const Rules> rules, const Cards& deal, int first)
        : rules(std::move(rules)), hand(*this->rules, deal, first) {}
    PyHand(std::shared_ptr<const Rules> rules, Hand hand) : rules(std::move(rules)), hand(std::move(hand)) {}
    PyHand(const PyHand& other) : rules(other.rules), hand(other.hand) {}
};

py::object optional_seat(int seat) {
    if (seat == NONE) return py::none();
    return py::int_(seat);
}

py::tuple result_tuple(const Hand& hand) {
    int32_t row[RESULT_FIELDS];
    write_result(hand.result(), row);
    py::tuple out(RESULT_FIELDS);
    for (int i = 0; i < RESULT_FIELDS; ++i) out[i] = row[i];
    return out;
}

constexpr const char* WEIGHT_NAMES[] = {
    "trump_base", "trump_top", "plain_top", "pair_break", "keep_declarer", "keep_defender",
    "later_points", "rescue", "draw_trumps", "defender_trump_lead", "wangfen", "realize",
    "bid_margin"};

double* weight_field(RuleWeights& w, size_t i) {
    double* fields[] = {&w.trump_base,    &w.trump_top,     &w.plain_top,    &w.pair_break,
                        &w.keep_declarer, &w.keep_defender, &w.later_points, &w.rescue,
                        &w.draw_trumps,   &w.defender_trump_lead, &w.wangfen, &w.realize,
                        &w.bid_margin};
    return fields[i];
}

// RuleWeights from a dict of RuleWeights fields (the others at their defaults).
RuleWeights weights_of(const py::dict& d) {
    RuleWeights w;
    size_t known = 0;
    for (size_t i = 0; i < std::size(WEIGHT_NAMES); ++i)
        if (d.contains(WEIGHT_NAMES[i])) {
            *weight_field(w, i) = d[WEIGHT_NAMES[i]].cast<double>();
            ++known;
        }
    if (known != d.size()) throw py::value_error("unknown rule player weight");
    return w;
}

// One player a seat: None is the random player, a RuleWeights the rule player.
std::array<SeatPlayer, 4> players_of(const py::sequence& seats) {
    if (seats.size() != 4) throw py::value_error("players: one a seat, four in all");
    std::array<SeatPlayer, 4> players;
    for (size_t i = 0; i < 4; ++i) {
        const py::object p = seats[i];
        players[i].rule = !p.is_none();
        if (players[i].rule) players[i].weights = p.cast<RuleWeights>();
    }
    return players;
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
        Cards deal(DEAL_SIZE);
        for (size_t i = 0; i < n; ++i) {
            for (int j = 0; j < DEAL_SIZE; ++j)
                deal[j] = static_cast<uint8_t>(deal_bytes[i * DEAL_SIZE + j]);
            Hand hand(rules, deal, static_cast<uint8_t>(first_bytes[i]));
            RandomPlayer random(seed * 0x9E3779B97F4A7C15ULL + i);
            play_out(hand, players, random);
            write_result(hand.result(), &results[i * RESULT_FIELDS]);
            if (logs) {
                encoded[i] = encode_log(hand);
                winners[i].assign(hand.winners().begin(), hand.winners().end());
            }
        }
    }
    py::bytes table(reinterpret_cast<const char*>(results.data()), results.size() * 4);
    if (!logs) return py::make_tuple(table, py::none(), py::none());
    py::list log_list, winner_list;
    for (size_t i = 0; i < n; ++i) {
        log_list.append(py::bytes(encoded[i]));
        winner_list.append(py::bytes(winners[i]));
    }
    return py::make_tuple(table, log_list, winner_list);
}

py::tuple rule_action(const Hand& hand, const RuleWeights& weights) {
    const Choice c = rule_choice(hand, weights);
    return py::make_tuple(c.type, c.seat, c.value, c.cards);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "The native core of baofen: hands, the random player and batched play-outs.";
    m.attr("RESULT_FIELDS") = RESULT_FIELDS;
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Illegal& error) {
            PyErr_SetString(PyExc_ValueError, error.what());
        }
    });

    {
        const py::tuple version = py::module_::import("sys").attr("version_info");
        set_python_sum(version[0].cast<int>() * 100 + version[1].cast<int>() >= 312);
    }

    bind_env(m);
    bind_labels(m);

    py::class_<RuleWeights>(m, "RuleWeights")
        .def(py::init([](const py::dict& d) { return weights_of(d); }),
             py::arg("weights") = py::dict(),
             "The rule player's weights: a dict of RuleWeights fields, the rest at defaults.")
        .def("as_dict", [](RuleWeights& w) {
            py::dict out;
            for (size_t i = 0; i < std::size(WEIGHT_NAMES); ++i)
                out[WEIGHT_NAMES[i]] = *weight_field(w, i);
            return out;
        });

    py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules")
        .def(py::init([](const py::dict& d) { return std::make_shared<Rules>(rules_of(d)); }),
             py::arg("rules"));

    py::class_<PyHand>(m, "Hand")
        .def(py::init([](std::shared_ptr<Rules> rules, const Cards& deal, int first) {
                 return PyHand(rules, deal, first);
             }),
             py::arg("rules"), py::arg("deal"), py::arg("first"))
        .def_property_readonly("phase", [](const PyHand& h) { return PHASES[h.hand.phase()]; })
        .def_property_readonly("to_act", [](const PyHand& h) { return optional_seat(h.hand.to_act()); })
        .def_property_readonly("first", [](const PyHand& h) { return h.hand.first(); })
        .def_property_readonly("declarer", [](const PyHand& h) { return optional_seat(h.hand.declarer()); })
        .def_property_readonly("trump", [](const PyHand& h) -> py::object {
            const int t = h.hand.trump();
            if (t == NONE) return py::none();
            return py::str(std::string(1, SUIT_LETTERS[t]));
        })
        .def_property_readonly("deal", [](const PyHand& h) { return h.hand.deal(); })
        .def("hand_of", [](const PyHand& h, int seat) {
            if (seat < 0 || seat > 3) throw Illegal("a seat is 0-3");
            return h.hand.hand_cards(seat);
        })
        .def("legal_bids", [](const PyHand& h) {
            py::list out;
            if (h.hand.phase() != BIDDING) return out;
            out.append(py::none());
            for (int v : h.hand.legal_bids()) out.append(v);
            return out;
        })
        .def("bid", [](PyHand& h, int seat, std::optional<int> value) {
            h.hand.bid(seat, value ? *value : NONE);
        })
        .def("declare", [](PyHand& h, int seat, const std::string& trump, const Cards& bury) {
            h.hand.declare(seat, suit_index(trump), bury);
        })
        .def("play", [](PyHand& h, int seat, const Cards& cards) { return h.hand.play(seat, cards); },
             "Play cards; returns what was played (a failed throw plays its failing unit).")
        .def("play_error", [](const PyHand& h, int seat, const Cards& cards) -> py::object {
            const char* error = h.hand.play_error(seat, cards);
            if (!error) return py::none();
            return py::str(error);
        })
        .def("is_legal", [](const PyHand& h, int seat, const Cards& cards) {
            return h.hand.play_error(seat, cards) == nullptr;
        })
        .def("legal_plays", [](const PyHand& h, size_t limit) { return h.hand.legal_plays(limit); },
             py::arg("limit") = 100000,
             "Leads: every single, pair, tractor and eight of a kind (any throw of one group is "
             "legal too); follows: every legal play. ValueError past `limit`.")
        .def("actions", [](const PyHand& h) {
            py::list out;
            for (const Action& a : h.hand.actions())
                out.append(py::make_tuple(static_cast<int>(a.type), a.seat, a.value, a.cards));
            return out;
        })
        .def("log", [](const PyHand& h) { return py::bytes(encode_log(h.hand)); })
        .def("winners", [](const PyHand& h) { return h.hand.winners(); })
        .def("result", [](const PyHand& h) -> py::object {
            if (h.hand.phase() != DONE) return py::none();
            return result_tuple(h.hand);
        })
        .def("copy", [](const PyHand& h) { return PyHand(h); })
        .def("play_out", [](PyHand& h, uint64_t seed) {
            RandomPlayer player(seed);
            play_out(h.hand, player);
        }, py::arg("seed"), "Play to the end with the native random player.")
        .def("rule_action", [](const PyHand& h, const RuleWeights& w) { return rule_action(h.hand, w); },
             py::arg("weights"),
             "The rule player's action for the seat to act, as actions() lists it (not applied): "
             "(0, seat, bid or -1, []), (1, seat, trump index, bury) or (2, seat, 0, cards).")
        .def("rule_plays", [](const PyHand& h, const RuleWeights& w, size_t limit) {
                 if (h.hand.phase() != PLAYING) throw Illegal("wrong_phase: not playing");
                 return rule_plays(view_of(h.hand), w, limit);
             },
             py::arg("weights"), py::arg("limit") = 64,
             "Up to `limit` distinct legal plays, the rule player's best-scored first.")
        .def("rule_act", [](PyHand& h, const RuleWeights& w) { rule_act(h.hand, w); },
             py::arg("weights"), "Take the rule player's action for the seat to act.")
        .def("play_out_with", [](PyHand& h, const py::sequence& seats, uint64_t seed) {
                 const auto players = players_of(seats);
                 RandomPlayer random(seed);
                 play_out(h.hand, players, random);
             },
             py::arg("players"), py::arg("seed") = 0,
             "Play to the end with a native player a seat (None: random; RuleWeights: rule).");

    py::class_<Replay>(m, "Replay")
        .def(py::init([](const std::vector<std::tuple<int, int, int, Cards>>& actions,
                         const std::vector<Cards>& expected, int me, int declarer,
                         const RuleWeights& weights, const std::array<double, 3>& mismatch) {
                 Replay r{{}, {}, me, declarer, weights, mismatch};
                 for (const auto& [type, seat, value, cards] : actions) {
                     if (type < 0 || type > 2 || seat < 0 || seat > 3)
                         throw py::value_error("an action is (type 0-2, seat 0-3, value, cards)");
                     r.actions.push_back({type, seat, value, cards});
                 }
                 for (Cards cards : expected) {
                     std::sort(cards.begin(), cards.end());
                     r.expected.push_back(cards);
                 }
                 return r;
             }),
             py::arg("actions"), py::arg("expected"), py::arg("me"), py::arg("declarer"),
             py::arg("weights"), py::arg("mismatch"),
             "Observed actions (type 0 bid: value or -1 for a pass; 1 declare: the trump's suit "
             "index and the bury; 2 play: the cards), each observed play's cards, the observing "
             "seat, the declarer (-1: none yet), the rule player's weights and the mismatch "
             "factors of a play, a bid and a declaration.")
        .def("run", [](const Replay& r, PyHand& h, const Cards& bury, bool weigh, double likelihood) {
                 return r.run(h.hand, bury, weigh, likelihood);
             },
             py::arg("hand"), py::arg("bury"), py::arg("weigh"), py::arg("likelihood"),
             "Replay the actions on `hand` (the declarer burying `bury`): the likelihood, "
             "multiplied by the mismatch factors when `weigh`, or None where the world does not "
             "replay as observed.");

    py::class_<Sampler>(m, "Sampler")
        .def(py::init([](std::shared_ptr<Rules> rules, int first, int me,
                         const std::vector<int>& holders, const std::vector<int>& room,
                         const std::vector<Counts>& cap, const std::vector<Counts>& need,
                         const std::vector<std::array<double, KINDS>>& weight,
                         const Counts& unseen, const std::vector<int>& kinds, const Cards& mine,
                         const std::vector<Cards>& played, const Cards& kitty, const Cards& bury,
                         const Replay& replay) {
                 if (first < 0 || first > 3 || me < 0 || me > 3 || played.size() != 4)
                     throw py::value_error("first and me are seats 0-3; played is a seat's each");
                 if (room.size() != HOLDERS || cap.size() != HOLDERS || need.size() != HOLDERS ||
                     weight.size() != HOLDERS)
                     throw py::value_error("room, cap, need and weight hold one row a holder (0-4)");
                 Sampler s;
                 for (int h : holders) {
                     if (h < 0 || h >= HOLDERS) throw py::value_error("a holder is 0-4");
                     s.holders.push_back(h);
                 }
                 for (int h = 0; h < HOLDERS; ++h) {
                     s.room[h] = room[h];
                     s.cap[h] = cap[h];
                     s.need[h] = need[h];
                     s.weight[h] = weight[h];
                 }
                 for (int k : kinds) {
                     if (k < 0 || k >= KINDS) throw py::value_error("a kind is 0-53");
                     s.kinds.push_back(k);
                 }
                 s.unseen = unseen;
                 s.rules = rules;
                 s.first = first;
                 s.me = me;
                 s.mine = mine;
                 std::copy(played.begin(), played.end(), s.played.begin());
                 s.kitty = kitty;
                 s.bury = bury;
                 s.replay = replay;
                 return s;
             }),
             py::arg("rules"), py::arg("first"), py::arg("me"), py::arg("holders"),
             py::arg("room"), py::arg("cap"), py::arg("need"), py::arg("weight"),
             py::arg("unseen"), py::arg("kinds"), py::arg("mine"), py::arg("played"),
             py::arg("kitty"), py::arg("bury"), py::arg("replay"),
             "A Determinizer's holdings (by holder 0-4, the kitty 4) and deal: see worlds.hpp.")
        .def("draw", [](const Sampler& s, const std::vector<uint32_t>& state, size_t count,
                        int tries, bool weigh, size_t attempts) {
                 PythonRandom rng(state);
                 py::list worlds;
                 for (size_t made = 0; worlds.size() < count && (!attempts || made < attempts);
                      ++made) {
                     auto world = s.draw(rng, tries, weigh);
                     if (!world && !attempts) break;
                     if (!world || (attempts && !(world->second > 0.0))) continue;
                     worlds.append(py::make_tuple(PyHand(s.rules, std::move(world->first)),
                                                  world->second));
                 }
                 return py::make_tuple(worlds, rng.state());
             },
             py::arg("state"), py::arg("count"), py::arg("tries"), py::arg("weigh"),
             py::arg("attempts") = 0,
             "Up to `count` worlds with their likelihoods from a random.Random state "
             "(getstate()'s 625 words), stopping at the first not found; with `attempts`, from "
             "up to that many draws, passing over those that find none or weigh 0. (worlds, "
             "the state after).");

    m.def("deals_from_seeds",
          [](py::bytes pack, bool draw_first, const std::vector<uint64_t>& seeds) {
              const std::string pack_bytes = pack;
              if (pack_bytes.size() != DEAL_SIZE) throw py::value_error("a pack has 108 cards");
              std::string cards(seeds.size() * DEAL_SIZE, '\0'), firsts(seeds.size(), '\0');
              {
                  py::gil_scoped_release free;
                  const auto* from = reinterpret_cast<const uint8_t*>(pack_bytes.data());
                  auto* to = reinterpret_cast<uint8_t*>(cards.data());
                  for (size_t i = 0; i < seeds.size(); ++i)
                      firsts[i] = static_cast<char>(
                          deal_from_seed(from, draw_first, seeds[i], to + i * DEAL_SIZE));
              }
              return py::make_tuple(py::bytes(cards), py::bytes(firsts));
          },
          py::arg("pack"), py::arg("draw_first"), py::arg("seeds"),
          "The deals of Hand(rules, seed=s) for each seed's absolute value (below 2**64), as "
          "random_hands takes them: (108 card bytes a hand, a first-seat byte a hand).");

    m.def("random_hands",
          [](std::shared_ptr<Rules> rules, py::bytes deals, py::bytes firsts, uint64_t seed,
             bool logs) {
              std::array<SeatPlayer, 4> random;
              for (SeatPlayer& p : random) p.rule = false;
              return deal_and_play(*rules, deals, firsts, random, seed, logs);
          },
          py::arg("rules"), py::arg("deals"), py::arg("firsts"), py::arg("seed"),
          py::arg("logs") = false,
          "Deal each hand (108 card bytes, a first-seat byte) and play it out with random players; "
          "returns (int32 results, logs or None, trick winners or None).");

    m.def("play_out_many",
          [](const std::vector<PyHand*>& hands, uint64_t seed) {
              std::vector<Hand> copies;
              copies.reserve(hands.size());
              for (const PyHand* h : hands) copies.push_back(h->hand);
              std::vector<int32_t> results(hands.size() * RESULT_FIELDS);
              {
                  py::gil_scoped_release free;
                  for (size_t i = 0; i < copies.size(); ++i) {
                      RandomPlayer player(seed * 0x9E3779B97F4A7C15ULL + i);
                      play_out(copies[i], player);
                      write_result(copies[i].result(), &results[i * RESULT_FIELDS]);
                  }
              }
              return py::bytes(reinterpret_cast<const char*>(results.data()), results.size() * 4);
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
              const auto players = players_of(seats);
              std::vector<Hand> copies;
              copies.reserve(hands.size());
              for (const PyHand* h : hands) copies.push_back(h->hand);
              std::vector<int32_t> results(hands.size() * RESULT_FIELDS);
              {
                  py::gil_scoped_release free;
                  for (size_t i = 0; i < copies.size(); ++i) {
                      RandomPlayer random(seed * 0x9E3779B97F4A7C15ULL + i);
                      play_out(copies[i], players, random);
                      write_result(copies[i].result(), &results[i * RESULT_FIELDS]);
                  }
              }
              return py::bytes(reinterpret_cast<const char*>(results.data()), results.size() * 4);
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
                          RandomPlayer random(seed * 0x9E3779B97F4A7C15ULL + i);
                          play_out(hand, players, random);
                          write_result(hand.result(), &results[i * RESULT_FIELDS]);
                      }
              }
              return py::bytes(reinterpret_cast<const char*>(results.data()), results.size() * 4);
          },
          py::arg("worlds"), py::arg("candidates"), py::arg("players"), py::arg("seed") = 0,
          "Each world (a hand in play) with each candidate play of its seat to act, played to "
          "the end with a native player a seat; int32 results, world-major "
          "(row w * len(candidates) + c).");

    m.def("rule_decide",
          [](std::shared_ptr<Rules> rules, const RuleWeights& weights, const std::string& phase,
             int seat, std::optional<int> declarer, std::optional<std::string> trump,
             const Cards& hand, const Cards& played, const std::array<int, 4>& voids,
             const std::array<int, 4>& won, const std::array<int, 4>& sizes,
             std::optional<Cards> buried, const std::vector<std::pair<int, Cards>>& trick,
             const Cards& bids, size_t limit) -> py::object {
              View v;
              v.rules = rules.get();
              if (seat < 0 || seat > 3) throw Illegal("a seat is 0-3");
              v.seat = seat;
              v.declarer = declarer ? *declarer : NONE;
              v.trump = trump ? suit_index(*trump) : NONE;
              auto kind = [](int c) {
                  if (c < 0 || c >= KINDS) throw Illegal("not_a_card");
                  return c;
              };
              for (int c : hand)
                  if (++v.counts[kind(c)] > 2) throw Illegal("a kind is held at most twice");
              if (played.size() != KINDS) throw Illegal("played: a count for each of 54 kinds");
              for (int k = 0; k < KINDS; ++k) v.played[k] = played[k];
              v.voids = voids;
              v.won = won;
              v.sizes = sizes;
              if (buried) {
                  v.has_buried = true;
                  for (int c : *buried) v.buried.push_back(kind(c));
              }
              for (const auto& [who, cards] : trick) {
                  for (int c : cards) kind(c);
                  v.trick.emplace_back(who, cards);
              }
              v.bids = bids;
              if (phase == "bidding") {
                  v.phase = BIDDING;
                  const int value = rule_bid(v, weights);
                  return value == NONE ? py::object(py::none()) : py::object(py::int_(value));
              }
              if (phase == "kitty") {
                  v.phase = KITTY;
                  const auto [suit, bury] = rule_declare(v);
                  return py::make_tuple(std::string(1, SUIT_LETTERS[suit]), bury);
              }
              if (phase != "playing") throw Illegal("wrong_phase: nothing to decide");
              if (v.trump == NONE || v.declarer == NONE) throw Illegal("playing needs a trump and a declarer");
              v.phase = PLAYING;
              return py::cast(rule_plays(v, weights, limit));
          },
          py::arg("rules"), py::arg("weights"), py::arg("phase"), py::arg("seat"),
          py::arg("declarer"), py::arg("trump"), py::arg("hand"), py::arg("played"),
          py::arg("voids"), py::arg("won"), py::arg("sizes"), py::arg("buried"),
          py::arg("trick"), py::arg("bids"), py::arg("limit") = 1,
          "The rule player's decision from one seat's observation: bidding, the bid (None "
          "passes; `bids` the legal values); kitty, (trump, bury); playing, up to `limit` "
          "distinct legal plays, best-scored first. `played` counts each kind played (the "
          "current trick's too), `voids` the groups each seat has shown void in (bit masks, the "
          "current trick's too), `won` the trump suit's point cards each seat has won.");
}
