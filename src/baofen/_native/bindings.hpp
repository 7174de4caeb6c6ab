// The Python binding of the native core, split by concern as OpenSpiel splits its pybind files:
// each bind_ function registers its part into the one module, baofen._native._core
// (module.cpp calls them in order: a type is registered before the signatures that name it).
// Refused actions raise ValueError with the engine's reason code.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "engine.hpp"
#include "rule_player.hpp"

namespace py = pybind11;

// Cards cross as Python lists of ints, as a std::vector<int> would.
namespace pybind11::detail {
template <>
struct type_caster<baofen::Cards> : list_caster<baofen::Cards, int> {};
template <>
struct type_caster<baofen::Bids> : list_caster<baofen::Bids, int> {};
}  // namespace pybind11::detail

namespace baofen {

// _core.Hand: a Hand that owns its rules, so Python can keep it alone.
struct PyHand {
    std::shared_ptr<const Rules> rules;
    Hand hand;
    PyHand(std::shared_ptr<const Rules> rules, const Cards& deal, int first)
        : rules(std::move(rules)), hand(*this->rules, deal, first) {}
    PyHand(std::shared_ptr<const Rules> rules, Hand hand)
        : rules(std::move(rules)), hand(std::move(hand)) {}
    PyHand(const PyHand& other) : rules(other.rules), hand(other.hand) {}
};

constexpr const char* SUIT_LETTERS = "SHCD";

int suit_index(const std::string& trump);  // a suit's letter (either case); Illegal otherwise
void write_result(const Result& result, int32_t* row);  // a result row (tables.hpp)
// The action log as int16: bid [ACTION_BID, seat, value], declare [ACTION_DECLARE, seat, trump,
// 8 cards], play [ACTION_PLAY, seat, n, n attempted cards].
std::string encode_log(const Hand& hand);
// One native player a seat from Python: None the random player, a RuleWeights the rule player.
std::array<SeatPlayer, 4> players_of(const py::sequence& seats);

void bind_engine(py::module_& m);       // bind_engine.cpp: Rules, Hand, deals_from_seeds
void bind_rule_player(py::module_& m);  // bind_rule_player.cpp: RuleWeights, its Hand methods
void bind_worlds(py::module_& m);       // bind_worlds.cpp: Replay, Sampler
void bind_batch(py::module_& m);        // bind_batch.cpp: play-outs of many hands a call
void bind_env(py::module_& m);          // env.cpp: the research env's steps
void bind_labels(py::module_& m);       // labels.cpp: the learned evaluator's labels

}  // namespace baofen
