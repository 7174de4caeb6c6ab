// The rule player's binding: _core.RuleWeights, the rule player's methods of _core.Hand
// (its action, its ranked plays, acting, playing out with a native player a seat) and
// rule_decide (a decision from one seat's observation alone).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "worlds.hpp"

namespace baofen {

namespace {

struct WeightField {
    const char* name;
    double RuleWeights::*field;
};

constexpr WeightField WEIGHT_FIELDS[] = {
#define BAOFEN_WEIGHT_FIELD(name, value) {#name, &RuleWeights::name},
    BAOFEN_RULE_WEIGHTS(BAOFEN_WEIGHT_FIELD)
#undef BAOFEN_WEIGHT_FIELD
};

// RuleWeights from a dict of RuleWeights fields (the others at their defaults).
RuleWeights weights_of(const py::dict& d) {
    RuleWeights w;
    size_t known = 0;
    for (const WeightField& f : WEIGHT_FIELDS)
        if (d.contains(f.name)) {
            w.*f.field = d[f.name].cast<double>();
            ++known;
        }
    if (known != d.size()) throw py::value_error("unknown rule player weight");
    return w;
}

py::tuple rule_action(const Hand& hand, const RuleWeights& weights) {
    const Choice c = rule_choice(hand, weights);
    return py::make_tuple(c.type, c.seat, c.value, c.cards);
}

// The View of one seat's observation, as rule_decide receives it.
View view_from(const Rules& rules, int seat, std::optional<int> declarer,
               std::optional<std::string> trump, const Cards& hand, const Cards& played,
               const std::array<int, 4>& voids, const std::array<int, 4>& won,
               const std::array<int, 4>& sizes, const std::optional<Cards>& buried,
               const std::vector<std::pair<int, Cards>>& trick, const Bids& bids) {
    View v;
    v.rules = &rules;
    if (seat < 0 || seat > 3) throw Illegal("a seat is 0-3");
    v.seat = seat;
    if (declarer && (*declarer < 0 || *declarer > 3)) throw Illegal("a declarer is a seat 0-3");
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
    if (trick.size() > 3) throw Illegal("a trick holds at most three plays before the seat's");
    for (const auto& [who, cards] : trick) {
        if (who < 0 || who > 3) throw Illegal("a seat is 0-3");
        if (cards.empty() || cards.size() != trick[0].second.size())
            throw Illegal("each play of the trick holds as many cards as the lead, at least one");
        for (int c : cards) kind(c);
        v.trick.emplace_back(who, cards);
    }
    v.bids = bids;
    return v;
}

}  // namespace

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

void bind_rule_player(py::module_& m) {
    py::class_<RuleWeights>(m, "RuleWeights")
        .def(py::init([](const py::dict& d) { return weights_of(d); }),
             py::arg("weights") = py::dict(),
             "The rule player's weights: a dict of RuleWeights fields, the rest at defaults.")
        .def("as_dict", [](RuleWeights& w) {
            py::dict out;
            for (const WeightField& f : WEIGHT_FIELDS) out[f.name] = w.*f.field;
            return out;
        });

    auto hand = py::reinterpret_borrow<py::class_<PyHand>>(m.attr("Hand"));
    hand.def("rule_action", [](const PyHand& h, const RuleWeights& w) { return rule_action(h.hand, w); },
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

    m.def("rule_decide",
          [](std::shared_ptr<Rules> rules, const RuleWeights& weights, const std::string& phase,
             int seat, std::optional<int> declarer, std::optional<std::string> trump,
             const Cards& hand, const Cards& played, const std::array<int, 4>& voids,
             const std::array<int, 4>& won, const std::array<int, 4>& sizes,
             std::optional<Cards> buried, const std::vector<std::pair<int, Cards>>& trick,
             const Bids& bids, size_t limit) -> py::object {
              View v = view_from(*rules, seat, declarer, trump, hand, played, voids, won, sizes,
                                 buried, trick, bids);
              if (phase == "bidding") {
                  v.phase = BIDDING;
                  const int value = rule_bid(v, weights);
                  return value == NONE ? py::object(py::none()) : py::object(py::int_(value));
              }
              if (phase == "kitty") {
                  if (hand.size() < static_cast<size_t>(KITTY_SIZE))
                      throw Illegal("the declarer holds the cards it buries");
                  v.phase = KITTY;
                  const auto [suit, bury] = rule_declare(v);
                  return py::make_tuple(std::string(1, SUIT_LETTERS[suit]), bury);
              }
              if (phase != "playing") throw Illegal("wrong_phase: nothing to decide");
              if (v.trump == NONE || v.declarer == NONE)
                  throw Illegal("playing needs a trump and a declarer");
              if (hand.size() < (trick.empty() ? 1 : trick[0].second.size()))
                  throw Illegal("the seat holds fewer cards than it must play");
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

}  // namespace baofen
