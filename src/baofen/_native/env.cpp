// The research env's steps on a native hand (baofen.env.aec.BaofenEnv where the native core
// runs): the composer (env/actions.py Composer), the action mask (env/selection.py addable and
// the COMMIT check) and the encoding (env/encoding.py, the pieces of PIECES in order, seats
// relative to the observer, the finished tricks tallied once). The Python env stays the
// reference: tests/test_env_native.py compares every observation, mask and step with it.
#include <pybind11/numpy.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "bindings.hpp"

namespace baofen {

namespace {

// env/actions.py: the indexes of the discrete action space.
constexpr int COMMIT = KINDS, TRUMP_BASE = KINDS + 1, PASS = TRUMP_BASE + 4, BID_BASE = PASS + 1;

struct Play {
    int seat;
    Cards cards;
};

using Table = std::array<std::array<float, KINDS>, 4>;

// encoding._reveal: the cards failed throws showed that each seat still holds, after one
// trick's plays and its failed throw (if any).
void reveal(Table& revealed, const std::vector<Play>& plays, bool failed, const Cards& attempt) {
    for (const Play& p : plays)
        for (int card : p.cards)
            if (revealed[p.seat][card] != 0.0f) revealed[p.seat][card] -= 1.0f;
    if (!failed || plays.empty()) return;
    std::array<float, KINDS> kept{};
    for (int card : attempt) kept[card] += 1.0f;
    for (int card : plays[0].cards) kept[card] -= 1.0f;
    auto& row = revealed[plays[0].seat];
    for (int k = 0; k < KINDS; ++k) row[k] = std::max(row[k], kept[k]);
}

class EnvCore {
public:
    EnvCore(std::shared_ptr<Rules> rules, const std::vector<int>& deal, int first)
        : rules_(std::move(rules)), hand_(*rules_, Cards(deal.begin(), deal.end()), first) {
        v_ = static_cast<int>(rules_->grid.size());
        size_ = 54 + 54 + 6 + 4 * (2 + v_) + v_ + 4 + 4 + 4 + 216 + 216 + 4 + 5 + 216 + 20 + 54 +
                54 + 4 + 4 + 3;
    }

    int size() const { return size_; }
    int actions() const { return BID_BASE + v_; }
    const Hand& hand() const { return hand_; }
    const Cards& selected() const { return selected_; }
    int named() const { return named_; }

    // Composer.allowed as a mask (ones at the legal steps), for `seat`.
    void mask(int seat, int8_t* out) const {
        const Hand& h = hand_;
        if (seat != h.to_act() || h.phase() == DONE) return;
        if (h.phase() == BIDDING) {
            out[PASS] = 1;
            const Bids legal = h.legal_bids();  // a suffix of the grid
            for (int i = v_ - static_cast<int>(legal.size()); i < v_; ++i) out[BID_BASE + i] = 1;
            return;
        }
        std::array<int, KINDS> chosen{};
        for (int card : selected_) ++chosen[card];
        if (h.phase() == KITTY) {
            if (named_ == NONE) {
                for (int i = TRUMP_BASE; i < PASS; ++i) out[i] = 1;
                return;
            }
            for (int k = 0; k < KINDS; ++k) out[k] = h.count_of(seat, k) > chosen[k];
            return;
        }
        if (h.lead_shape() == nullptr) lead_additions(seat, chosen, out);
        else follow_additions(seat, chosen, out);
        if (!selected_.empty() && h.play_error(seat, selected_) == nullptr) out[COMMIT] = 1;
    }

    // Encoder.encode of `seat`'s observation, with the pending decision when it is to act.
    void encode(int me, float* out) const {
        const Hand& h = hand_;
        const bool acting = me == h.to_act();
        const auto rel = [me](int seat) { return (seat - me + 4) % 4; };
        float* o = out;
        for (int k = 0; k < KINDS; ++k) o[k] = h.count_of(me, k);  // hand
        o += KINDS;
        if (acting)
            for (int card : selected_) o[card] += 1.0f;  // selection
        o += KINDS;
        int phase = 5;  // phase: bidding, trump, bury, lead, follow, done
        if (h.phase() == BIDDING) phase = 0;
        else if (h.phase() == KITTY) phase = acting && named_ != NONE ? 2 : 1;
        else if (h.phase() == PLAYING) phase = h.lead_shape() == nullptr ? 3 : 4;
        o[phase] = 1.0f;
        o += 6;
        constexpr int UNSPOKEN = -2;  // bids: per seat, unspoken, passed or the last value
        int spoken[4] = {UNSPOKEN, UNSPOKEN, UNSPOKEN, UNSPOKEN};
        for (const Action& a : h.actions())
            if (a.type == Action::BID) spoken[a.seat] = a.value;
        const std::vector<int>& grid = rules_->grid;
        const auto grid_index = [&grid](int value) {
            return static_cast<int>(std::find(grid.begin(), grid.end(), value) - grid.begin());
        };
        for (int s = 0; s < 4; ++s) {
            float* row = o + rel(s) * (2 + v_);
            if (spoken[s] == UNSPOKEN) row[0] = 1.0f;
            else if (spoken[s] == NONE) row[1] = 1.0f;
            else row[2 + grid_index(spoken[s])] = 1.0f;
        }
        o += 4 * (2 + v_);
        if (h.declarer() != NONE) {  // target
            const int i = grid_index(h.target());
            if (i < v_) o[i] = 1.0f;
        }
        o += v_;
        o[rel(h.first())] = 1.0f;  // first
        o += 4;
        if (h.declarer() != NONE) o[rel(h.declarer())] = 1.0f;  // declarer
        o += 4;
        const int trump = h.trump() != NONE ? h.trump() : acting ? named_ : NONE;
        if (trump != NONE) o[trump] = 1.0f;  // trump
        o += 4;
        for (int s = 0; s < 4; ++s)  // played
            std::copy(played_[s].begin(), played_[s].end(), o + rel(s) * KINDS);
        for (const Play& p : trick_)
            for (int card : p.cards) o[rel(p.seat) * KINDS + card] += 1.0f;
        o += 4 * KINDS;
        for (const Play& p : trick_)  // trick
            for (int card : p.cards) o[rel(p.seat) * KINDS + card] += 1.0f;
        o += 4 * KINDS;
        if (!trick_.empty()) o[rel(trick_[0].seat)] = 1.0f;  // leader
        o += 4;
        if (const Shape* shape = h.lead_shape()) o[shape->group] = 1.0f;  // lead_group
        o += 5;
        Table revealed = revealed_;  // revealed
        reveal(revealed, trick_, failed_, attempt_);
        for (int s = 0; s < 4; ++s)
            std::copy(revealed[s].begin(), revealed[s].end(), o + rel(s) * KINDS);
        o += 4 * KINDS;
        for (int s = 0; s < 4; ++s)  // voids
            for (int g = 0; g <= TRUMP; ++g)
                if (h.voids()[s] >> g & 1) o[rel(s) * 5 + g] = 1.0f;
        o += 20;
        const bool entitled = me == h.declarer();
        if (entitled)  // kitty
            for (int i = 4 * HAND_SIZE; i < DEAL_SIZE; ++i) o[h.deal()[i]] += 1.0f;
        o += KINDS;
        if (entitled)  // buried
            for (int card : h.buried()) o[card] += 1.0f;
        o += KINDS;
        for (int s = 0; s < 4; ++s) o[rel(s)] = static_cast<float>(h.size_of(s) / 25.0);
        o += 4;
        for (int s = 0; s < 4; ++s)
            o[rel(s)] = static_cast<float>(std::min(2.0, h.penalties()[s] / 100.0));
        o += 4;
        int seen = points_;
        for (const Play& p : trick_)
            for (int card : p.cards) seen += POINTS[card];
        o[0] = static_cast<float>(std::min(2.0, std::max(0.0, h.captured() / 100.0)));
        o[1] = static_cast<float>(seen / 100.0);
        o[2] = static_cast<float>(static_cast<double>(h.winners().size()) / 25.0);
    }

    // Composer.push and Hand.apply: -1 when the step is not allowed (nothing changes), 1 when
    // it completed a decision, else 0.
    int step(int seat, int index) {
        if (index < 0 || index >= actions()) return -1;
        std::vector<int8_t> allowed(actions());
        mask(seat, allowed.data());
        if (!allowed[index]) return -1;
        Hand& h = hand_;
        if (h.phase() == BIDDING) {
            h.bid(seat, index == PASS ? NONE : rules_->grid[index - BID_BASE]);
            return 1;
        }
        if (h.phase() == KITTY) {
            if (named_ == NONE) {
                named_ = index - TRUMP_BASE;
                return 0;
            }
            selected_.push_back(index);
            if (static_cast<int>(selected_.size()) < KITTY_SIZE) return 0;
            const Cards bury = selected_;
            const int trump = named_;
            clear();
            h.declare(seat, trump, bury);
            return 1;
        }
        if (index != COMMIT) {
            selected_.push_back(index);
            return 0;
        }
        const Cards cards = selected_;
        clear();
        const size_t tricks = h.winners().size();
        const bool lead = trick_.empty();
        Cards played = h.play(seat, cards);
        if (lead) {
            failed_ = played.size() != cards.size();
            attempt_ = cards;
        }
        trick_.push_back({seat, std::move(played)});
        if (h.winners().size() != tricks) {  // the trick closed: into the tallies
            for (const Play& p : trick_)
                for (int card : p.cards) {
                    played_[p.seat][card] += 1.0f;
                    points_ += POINTS[card];
                }
            reveal(revealed_, trick_, failed_, attempt_);
            trick_.clear();
            failed_ = false;
        }
        return 1;
    }

private:
    std::shared_ptr<Rules> rules_;
    Hand hand_;
    int v_ = 0, size_ = 0;
    Cards selected_;
    int named_ = NONE;
    // The finished tricks' tallies by absolute seat, and the trick in progress.
    Table played_{}, revealed_{};
    int points_ = 0;
    std::vector<Play> trick_;
    bool failed_ = false;
    Cards attempt_;

    void clear() {
        selected_.clear();
        named_ = NONE;
    }

    // selection._lead_additions.
    void lead_additions(int seat, const std::array<int, KINDS>& chosen, int8_t* out) const {
        const Hand& h = hand_;
        const auto& group = h.order().group;
        if (selected_.empty()) {
            for (int k = 0; k < KINDS; ++k) out[k] = h.count_of(seat, k) > chosen[k];
            return;
        }
        const int led = group[selected_[0]];
        bool one_group = true;
        for (int card : selected_) one_group = one_group && group[card] == led;
        if (one_group)
            for (int k = 0; k < KINDS; ++k)
                if (h.count_of(seat, k) > chosen[k] && group[k] == led) out[k] = 1;
        if (rules_->hongwu || !rules_->eight) return;
        for (int rank = 1; rank < 13; ++rank) {  // _eights_held
            bool whole = true;
            for (int suit = 0; suit < 4; ++suit) whole = whole && h.count_of(seat, suit * 13 + rank) == 2;
            if (!whole) continue;
            bool of_rank = true;
            for (int card : selected_) of_rank = of_rank && card < LITTLE_JOKER && card % 13 == rank;
            if (!of_rank) continue;
            for (int k = 0; k < LITTLE_JOKER; ++k)
                if (k % 13 == rank && h.count_of(seat, k) > chosen[k]) out[k] = 1;
        }
    }

    // selection._follow_additions.
    void follow_additions(int seat, std::array<int, KINDS>& chosen, int8_t* out) const {
        const Hand& h = hand_;
        const Shape& shape = *h.lead_shape();
        const int n = shape.size, size = static_cast<int>(selected_.size());
        if (size >= n) return;
        const int g = shape.group;
        const auto& group = h.order().group;
        const int held = h.group_count(seat, g);
        int outside = 0;
        for (int card : selected_) outside += group[card] != g;
        if (held < n) {
            for (int k = 0; k < KINDS; ++k)
                if (h.count_of(seat, k) > chosen[k] && (group[k] == g || outside < n - held)) out[k] = 1;
            return;
        }
        const Cards suited = h.held(seat, g);
        Cards tractors;
        int owed_pairs = 0;
        Judge(*rules_, h.order()).owed_structure(shape, suited, tractors, owed_pairs);
        if (!owed_pairs) {
            for (int k = 0; k < KINDS; ++k)
                if (h.count_of(seat, k) > chosen[k] && group[k] == g) out[k] = 1;
            return;
        }
        const Cards pairs = pair_kinds(suited);
        std::vector<uint64_t> placements;
        place(h.order().seq, tractors, pairs, 0, 0, placements);
        for (int k = 0; k < KINDS; ++k) {
            if (!(h.count_of(seat, k) > chosen[k] && group[k] == g)) continue;
            ++chosen[k];
            out[k] = fits(placements, pairs, owed_pairs, chosen, size + 1, n);
            --chosen[k];
        }
    }

    // selection._placements: every set of held pair kinds made of disjoint chains of the
    // lengths `tractors` (bit masks of kinds).
    static void place(const std::array<int, KINDS>& seq, const Cards& tractors, const Cards& pairs,
                      size_t index, uint64_t used, std::vector<uint64_t>& out) {
        if (index == tractors.size()) {
            if (std::find(out.begin(), out.end(), used) == out.end()) out.push_back(used);
            return;
        }
        for (int start : pairs)
            if (!(used >> start & 1))
                grow(seq, tractors, pairs, index, used, uint64_t{1} << start, start, 1, out);
    }

    static void grow(const std::array<int, KINDS>& seq, const Cards& tractors, const Cards& pairs,
                     size_t index, uint64_t used, uint64_t chain, int last, int length,
                     std::vector<uint64_t>& out) {
        if (length == tractors[index]) {
            place(seq, tractors, pairs, index + 1, used | chain, out);
            return;
        }
        const int after = seq[last] + 1;
        for (int kind : pairs)
            if (!((used | chain) >> kind & 1) && seq[kind] == after)
                grow(seq, tractors, pairs, index, used, chain | uint64_t{1} << kind, kind,
                     length + 1, out);
    }

    // selection._fits.
    static bool fits(const std::vector<uint64_t>& placements, const Cards& pairs, int owed_pairs,
                     const std::array<int, KINDS>& chosen, int size, int n) {
        for (uint64_t placed : placements) {
            int cost = size, count = 0;
            Cards extra;
            for (int k : pairs) {
                if (placed >> k & 1) {
                    cost += 2 - chosen[k];
                    ++count;
                } else {
                    extra.push_back(2 - chosen[k]);
                }
            }
            std::sort(extra.begin(), extra.end());
            const int take = std::min(static_cast<int>(extra.size()), std::max(0, owed_pairs - count));
            for (int i = 0; i < take; ++i) cost += extra[i];
            if (cost <= n) return true;
        }
        return false;
    }
};

}  // namespace

void bind_env(py::module_& m) {
    // The pieces written, in order (aec.py uses the native env only while PIECES names these).
    m.attr("ENV_PIECES") = py::make_tuple(
        "hand", "selection", "phase", "bids", "target", "first", "declarer", "trump", "played",
        "trick", "leader", "lead_group", "revealed", "voids", "kitty", "buried", "sizes",
        "penalties", "points");
    py::class_<EnvCore>(m, "EnvCore")
        .def(py::init<std::shared_ptr<Rules>, const std::vector<int>&, int>(), py::arg("rules"),
             py::arg("deal"), py::arg("first"))
        .def_property_readonly("size", &EnvCore::size)
        .def_property_readonly("actions", &EnvCore::actions)
        .def_property_readonly("to_act", [](const EnvCore& e) { return e.hand().to_act(); })
        .def_property_readonly("selected", [](const EnvCore& e) {
            const Cards& s = e.selected();
            return std::vector<int>(s.begin(), s.end());
        })
        .def("observe", [](const EnvCore& e, int seat) {
            if (seat < 0 || seat > 3) throw Illegal("a seat is 0-3");
            py::array_t<float> vector(e.size());
            py::array_t<int8_t> mask(e.actions());
            float* v = vector.mutable_data();
            int8_t* a = mask.mutable_data();
            std::fill(v, v + e.size(), 0.0f);
            std::fill(a, a + e.actions(), int8_t{0});
            e.encode(seat, v);
            e.mask(seat, a);
            py::dict out;
            out["observation"] = std::move(vector);
            out["action_mask"] = std::move(mask);
            return out;
        }, py::arg("seat"))
        // One step: the seat to act next (4 once the hand is over), or -1 when it is refused.
        .def("step", [](EnvCore& e, int seat, int index) {
            if (seat < 0 || seat > 3) throw Illegal("a seat is 0-3");
            if (e.step(seat, index) < 0) return -1;
            return e.hand().phase() == DONE ? 4 : e.hand().to_act();
        }, py::arg("seat"), py::arg("index"))
        .def("deltas", [](const EnvCore& e) -> py::object {
            if (e.hand().phase() != DONE) return py::none();
            const auto& d = e.hand().result().deltas;
            return py::make_tuple(d[0], d[1], d[2], d[3]);
        });
}

}  // namespace baofen
