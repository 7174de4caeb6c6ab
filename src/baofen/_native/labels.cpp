// Perfect-information labels for the learned evaluator (baofen/env/labels.py).
//
// label_hands deals each hand (108 card bytes and a first seat, as player_hands takes them) and
// plays it to the end with the rule player in every seat. At a play decision with a choice,
// kept with probability `keep`, every candidate — the rule player's best `limit` distinct plays
// (its own choice first) and, for a follow, every other legal follow while there are at most
// `wide` in all — is played on a copy of the TRUE deal and on to the end by rule players; the
// candidate's label is the deciding seat's result (HandResult.deltas: 包分 points, 包红五
// levels). What the seat sees is written in a compact record (see STATE_FIELDS and the card
// planes below) that baofen/env/evaluator.py turns into its trump-canonical features; the
// Python side writes the same record from an Observation (tests/test_evaluator.py compares).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bindings.hpp"

namespace baofen {

namespace {

// int32 fields of a decision: the hand's index in the call, the seat, the declarer, the trump
// suit, the trick's leader, tricks finished, the declarer's captured card points, the target,
// the lead's group (-1: leading), the candidates' count and first row, the voids shown
// (bit masks by group) by each seat, the cards each seat holds.
constexpr int STATE_FIELDS = 19;
// uint8 planes of 54 counts a decision: the seat's cards, every card played so far (the
// current trick's too), the current trick's cards of the seats 1, 2, 3 after the seat (0 when
// not played yet), the buried cards (the declarer's own only).
constexpr int PLANES = 6;
// int32 fields of a candidate: the deciding seat's result, the declarer's card points.
constexpr int CANDIDATE_FIELDS = 2;

Cards sorted_cards(Cards cards) {
    std::sort(cards.begin(), cards.end());
    return cards;
}

struct Labels {
    std::vector<int32_t> states;
    std::vector<uint8_t> planes;
    std::vector<uint8_t> cards;  // 54 counts a candidate
    std::vector<int32_t> values;
    std::vector<int32_t> ranks;  // the candidate's rank in the rule player's list (-1: wide)
};

void write_decision(const Hand& hand, int index, int first_row, int options, Labels& out) {
    const int seat = hand.to_act();
    const Shape* shape = hand.lead_shape();
    const int32_t head[] = {index, seat, hand.declarer(), hand.trump(), hand.leader(),
                            static_cast<int32_t>(hand.winners().size()), hand.captured(),
                            hand.target(), shape ? shape->group : -1, options, first_row};
    out.states.insert(out.states.end(), std::begin(head), std::end(head));
    for (int s = 0; s < 4; ++s) out.states.push_back(hand.voids()[s]);
    for (int s = 0; s < 4; ++s) out.states.push_back(hand.sizes()[s]);
    const size_t at = out.planes.size();
    out.planes.resize(at + PLANES * KINDS, 0);
    uint8_t* p = &out.planes[at];
    for (int k = 0; k < KINDS; ++k) {
        p[k] = hand.counts(seat)[k];
        p[KINDS + k] = hand.played_counts()[k];
    }
    const auto& plays = hand.trick_plays();
    for (size_t i = 0; i < plays.size(); ++i) {
        const int who = (hand.leader() + static_cast<int>(i)) % 4;
        const int rel = (who - seat + 4) % 4;
        if (rel == 0) continue;
        for (int c : plays[i]) ++p[(1 + rel) * KINDS + c];
    }
    if (seat == hand.declarer())
        for (int c : hand.buried()) ++p[5 * KINDS + c];
}

}  // namespace

// The candidates of the seat to act: the rule player's best `limit`, then other legal follows
// while there are at most `wide` in all (0: none).
std::vector<Cards> label_candidates(const Hand& hand, const RuleWeights& weights, size_t limit,
                                    size_t wide, std::vector<int>& ranks) {
    const View view = view_of(hand);
    std::vector<Cards> out = rule_plays(view, weights, limit);
    ranks.clear();
    for (size_t i = 0; i < out.size(); ++i) ranks.push_back(static_cast<int>(i));
    if (wide > out.size() && hand.lead_shape() != nullptr) {
        std::vector<Cards> legal;
        try {
            legal = hand.legal_plays(wide * 4);
        } catch (const Illegal&) {
            legal.clear();
        }
        std::vector<Cards> seen;
        for (const Cards& c : out) seen.push_back(sorted_cards(c));
        for (const Cards& play : legal) {
            if (out.size() >= wide) break;
            const Cards key = sorted_cards(play);
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
            seen.push_back(key);
            out.push_back(play);
            ranks.push_back(-1);
        }
    }
    return out;
}

void bind_labels(py::module_& m) {
    m.attr("LABEL_STATE_FIELDS") = STATE_FIELDS;
    m.attr("LABEL_PLANES") = PLANES;
    m.def(
        "label_hands",
        [](std::shared_ptr<Rules> rules, py::bytes deals, py::bytes firsts,
           const RuleWeights& weights, size_t limit, size_t wide, double keep, uint64_t seed) {
            const std::string deal_bytes = deals, first_bytes = firsts;
            const size_t n = first_bytes.size();
            if (deal_bytes.size() != n * DEAL_SIZE)
                throw py::value_error("deals must hold 108 cards for each first seat");
            Labels out;
            {
                py::gil_scoped_release free;
                const std::array<SeatPlayer, 4> players{
                    SeatPlayer{true, weights}, SeatPlayer{true, weights},
                    SeatPlayer{true, weights}, SeatPlayer{true, weights}};
                Rng rng(seed * 0x9E3779B97F4A7C15ULL + 1);
                RandomPlayer unused(seed);
                Cards deal(DEAL_SIZE);
                std::vector<int> ranks;
                for (size_t i = 0; i < n; ++i) {
                    for (int j = 0; j < DEAL_SIZE; ++j)
                        deal[j] = static_cast<uint8_t>(deal_bytes[i * DEAL_SIZE + j]);
                    Hand hand(*rules, deal, static_cast<uint8_t>(first_bytes[i]));
                    while (hand.phase() != DONE) {
                        if (hand.phase() != PLAYING) {
                            rule_act(hand, weights);
                            continue;
                        }
                        const int seat = hand.to_act();
                        const std::vector<Cards> options =
                            label_candidates(hand, weights, limit, wide, ranks);
                        if (options.size() > 1 && rng.random() < keep) {
                            write_decision(hand, static_cast<int>(i),
                                           static_cast<int>(out.ranks.size()),
                                           static_cast<int>(options.size()), out);
                            for (size_t c = 0; c < options.size(); ++c) {
                                Hand copy = hand;
                                copy.play(seat, options[c]);
                                play_out(copy, players, unused);
                                out.values.push_back(copy.result().deltas[seat]);
                                out.values.push_back(copy.result().declarer_points);
                                out.ranks.push_back(ranks[c]);
                                const size_t at = out.cards.size();
                                out.cards.resize(at + KINDS, 0);
                                for (int card : options[c]) ++out.cards[at + card];
                            }
                        }
                        hand.play(seat, options[0]);
                    }
                }
            }
            auto as_bytes = [](const auto& v) {
                return py::bytes(reinterpret_cast<const char*>(v.data()),
                                 v.size() * sizeof(v[0]));
            };
            return py::make_tuple(as_bytes(out.states), as_bytes(out.planes),
                                  as_bytes(out.cards), as_bytes(out.values),
                                  as_bytes(out.ranks));
        },
        py::arg("rules"), py::arg("deals"), py::arg("firsts"), py::arg("weights"),
        py::arg("limit") = 12, py::arg("wide") = 0, py::arg("keep") = 1.0, py::arg("seed") = 0,
        "Rule-player hands with perfect-information labels of the candidates of their play "
        "decisions (labels.cpp): bytes of int32 states, uint8 planes, uint8 candidate cards, "
        "int32 values (result for the seat, declarer's points), int32 rule ranks.");
}

}  // namespace baofen
