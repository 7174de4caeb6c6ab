// A search's sampled worlds on the native core (baofen/bots/determinize.py, native_worlds.py):
// the holdings drawn as Determinizer.sample draws them, from the same Python random stream, and
// the observed actions replayed on each world with their likelihood, many worlds a call from
// Python.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "pyrandom.hpp"
#include "rule_player.hpp"

namespace baofen {

// An action as Hand.actions() lists it: type (an ACTION_ code), seat, value (the bid
// or NONE for a pass; the trump's suit index) and cards (the bury; the cards played).
struct Choice {
    int type, seat, value;
    Cards cards;
};

// The rule player's action for the seat to act, not applied.
Choice rule_choice(const Hand& hand, const RuleWeights& weights);

// A sampler's observed actions, replayed on each world it draws: every action applied as
// observed (the declarer's with the world's bury) and every play checked against the observed
// one; when weighed, each action of a seat other than `me` multiplies the likelihood by 1 where
// the rule player would have taken it, else by its kind's mismatch factor (play, bid, declare),
// in the actions' order.
struct Replay {
    std::vector<Choice> actions;
    std::vector<Cards> expected;  // each observed play's cards, sorted
    int me, declarer;
    RuleWeights weights;
    std::array<double, 3> mismatch;

    // The likelihood after `hand`'s replay, or nothing where the world does not replay as
    // observed (the engine refuses an action, or the rule player finds none to weigh).
    std::optional<double> run(Hand& hand, const Cards& bury, bool weigh, double likelihood) const;
};

constexpr int HOLDERS = 5;  // the four seats, then the buried kitty (a defender's sampler)
constexpr int KITTY_HOLDER = 4;

using Counts = std::array<int, KINDS>;

// Determinizer.sample and .draw for native worlds (see determinize.py for the method): the
// unseen cards dealt to the holders, the most constrained kinds first, each to a holder drawn by
// weight and room, with a chain of moves where every holder that may take a card is full; then
// the world's deal, and its replay.
struct Sampler {
    std::vector<int> holders;  // in the sampler's order
    std::array<int, HOLDERS> room{};
    std::array<Counts, HOLDERS> cap{}, need{};
    std::array<std::array<double, KINDS>, HOLDERS> weight{};
    Counts unseen{};
    std::vector<int> kinds;  // the order cards are dealt in
    // The deal a world stands for: the observing seat's hand before play (`mine`), each other
    // seat's drawn cards followed by those it `played`, the kitty and the bury (drawn, for a
    // defender: the kitty holder's cards).
    std::shared_ptr<const Rules> rules;
    int first = 0, me = 0;
    Cards mine;
    std::array<Cards, 4> played;
    Cards kitty, bury;
    Replay replay;

    // Each holder's cards as counts, or nothing where no deal meets the constraints.
    std::optional<std::array<Counts, HOLDERS>> sample(PythonRandom& rng, int tries = 3) const;
    // A world and its likelihood (1 unless `weigh`) from up to `tries` samples, or nothing.
    std::optional<std::pair<Hand, double>> draw(PythonRandom& rng, int tries, bool weigh) const;

  private:
    bool shift(PythonRandom& rng, int kind, std::array<Counts, HOLDERS>& held,
               std::array<int, HOLDERS>& room) const;
};

}  // namespace baofen
