// The engine's binding: _core.Rules (a RuleSet's settings), _core.Hand driven action by action,
// and deals_from_seeds (the Python engine's deal of a seed).
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"

namespace baofen {

namespace {

constexpr const char* PHASES[] = {"bidding", "kitty", "playing", "done"};

template <class T>
T field(const py::dict& rules, const char* name) {
    if (!rules.contains(name)) throw py::value_error(std::string("rule set lacks ") + name);
    return rules[name].cast<T>();
}

// A Rules from RuleSet.to_dict(), validated as the Python engine validates it: RuleSet.from_dict
// raises ValueError naming each bad field. The bid grid is the RuleSet's.
Rules rules_of(const py::dict& given) {
    const py::object rule_set =
        py::module_::import("baofen.ruleset").attr("RuleSet").attr("from_dict")(given);
    const py::dict d = rule_set.attr("to_dict")();
    Rules r;
    r.hongwu = field<std::string>(d, "variant") == "hongwu";
    r.bid_min = field<int>(d, "bid_min");
    r.grid = rule_set.attr("bid_grid")().cast<std::vector<int>>();
    if (r.grid.empty() || r.grid.size() > static_cast<size_t>(MAX_BIDS))
        throw py::value_error("a rule set offers 1 to MAX_BIDS bid values");
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

}  // namespace

int suit_index(const std::string& trump) {
    if (trump.size() == 1)
        for (int s = 0; s < 4; ++s)
            if (trump[0] == SUIT_LETTERS[s] || trump[0] == SUIT_LETTERS[s] + 32) return s;
    throw Illegal("bad_trump");
}

void write_result(const Result& r, int32_t* row) {
    row[RESULT_DECLARER] = r.declarer;
    row[RESULT_TARGET] = r.target;
    row[RESULT_DECLARER_POINTS] = r.declarer_points;
    row[RESULT_MADE] = r.made;
    row[RESULT_KIND] = r.kind;
    row[RESULT_SCORE] = r.score;
    row[RESULT_LEVELS] = r.levels;
    row[RESULT_HAS_SCORE] = r.has_score;
    row[RESULT_HAS_LEVELS] = r.has_levels;
    std::copy(r.deltas.begin(), r.deltas.end(), row + RESULT_DELTAS);
    std::copy(r.breakdown.begin(), r.breakdown.end(), row + RESULT_BREAKDOWN);
    row[RESULT_FAILED_THROWS] = r.failed_throws;
}

std::string encode_log(const Hand& hand) {
    std::vector<int16_t> words;
    for (const Action& a : hand.actions()) {
        words.push_back(static_cast<int16_t>(a.type));
        words.push_back(static_cast<int16_t>(a.seat));
        if (a.type == Action::PLAY) words.push_back(static_cast<int16_t>(a.cards.size()));
        else words.push_back(static_cast<int16_t>(a.value));
        for (int c : a.cards) words.push_back(static_cast<int16_t>(c));
    }
    return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 2);
}

void bind_engine(py::module_& m) {
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
        .def("bid", [](PyHand& h, int seat, const py::object& value) {
            // None passes; a bid is a number, not True or -1 (as Hand.bid checks it).
            int bid = NONE;
            if (!value.is_none()) {
                if (PyBool_Check(value.ptr()) || !PyLong_Check(value.ptr()))
                    throw Illegal("a bid is a number or None (pass)");
                const long long number = PyLong_AsLongLong(value.ptr());
                if (number == -1 && PyErr_Occurred()) PyErr_Clear();  // beyond 64 bits
                if (number < 0 || number > std::numeric_limits<int>::max()) throw Illegal("bid_not_offered");
                bid = static_cast<int>(number);
            }
            h.hand.bid(seat, bid);
        }, py::arg("seat"), py::arg("value"))
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
        }, py::arg("seed"), "Play to the end with the native random player.");

    m.def("deals_from_seeds",
          [](py::bytes pack, bool draw_first, const std::vector<uint64_t>& seeds) {
              const std::string pack_bytes = pack;
              if (pack_bytes.size() != DEAL_SIZE) throw py::value_error("a pack has 108 cards");
              std::string cards(seeds.size() * DEAL_SIZE, '\0'), firsts(seeds.size(), '\0');
              {
                  py::gil_scoped_release free;
                  deals_from_seeds(reinterpret_cast<const uint8_t*>(pack_bytes.data()),
                                   draw_first, seeds.data(), seeds.size(),
                                   reinterpret_cast<uint8_t*>(cards.data()),
                                   reinterpret_cast<uint8_t*>(firsts.data()));
              }
              return py::make_tuple(py::bytes(cards), py::bytes(firsts));
          },
          py::arg("pack"), py::arg("draw_first"), py::arg("seeds"),
          "The deals of Hand(rules, seed=s) for each seed's absolute value (below 2**64), as "
          "random_hands takes them: (108 card bytes a hand, a first-seat byte a hand).");
}

}  // namespace baofen
