// The worlds' binding: _core.Replay (a search's observed actions, replayed on each world it
// draws) and _core.Sampler (a Determinizer's worlds drawn natively): see worlds.hpp.
#include <algorithm>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "worlds.hpp"

namespace baofen {

void bind_worlds(py::module_& m) {
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
}

}  // namespace baofen
