"""A differential fuzz of the native core's bindings against the Python engine, the reference.

Hands of random rule sets (the comparison profiles of tests/native.py and random house rules) are
played on a Python :class:`~baofen.Hand` and its native twin in lockstep, action by action, with
random and illegal inputs thrown at both on the way: rule dictionaries with bad fields, deals of
the wrong size or with foreign cards, bids off the grid or by the wrong seat, declarations with
a bad trump or bury, card lists of every size with cards not held or out of range. Both engines
must refuse the same inputs (a ``ValueError`` or ``TypeError``, the state unchanged) and accept
the others with the same outcome: the same phase, seat to act, holdings, trick winners, legal
bids and plays, and result. On the way the native rule player (``rule_action``, ``rule_plays``,
``rule_act``, ``rule_decide`` with well-formed and misshapen observations), the sampler's worlds
(``Sampler``/``Replay``, against the Python sampler) and the batch play-outs are driven too.

It is meant for the sanitizer build of the core (tests/sanitized.py runs it there, where any
memory error or undefined behaviour ends the process), but runs on whatever core is loaded::

    python3 -m tests.native_fuzz --seed 1 --hands 200 --seconds 60

A failure names the seed and hand; each hand draws from a generator of its own, so
``--first N --hands 1`` replays hand ``N`` alone.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from baofen import Hand, RuleSet
from baofen import _native as native
from baofen._native import batch
from baofen.bots.engine import native as native_engine
from baofen.bots.engine import python as python_engine
from baofen.bots.native_players import NativeRulePlayer, native_weights
from baofen.bots.rule.play import RuleWeights
from baofen.cards import SUITS

from .native import PROFILES

REFUSED = (ValueError, TypeError)
"""How either engine refuses an input (pybind11 refuses what it cannot convert with TypeError)."""
JUNK_VALUES: tuple[Any, ...] = (-1, 0, 1, 7, 2**31 - 1, 2**31, 2**63, -(2**63) - 1, 1.5, "x", None)
"""Values put in a rule set's fields, and bids."""
JUNK_CARDS = (-1, 54, 107, 108, 255, 2**31 - 1, 2**40)
"""Card numbers no deal holds (cards are 0–53, two of each)."""


def refused(call: Callable[[], Any]) -> tuple[bool, Any]:
    """``(True, error)`` where ``call`` refuses its input, else ``(False, what it returns)``."""
    try:
        return False, call()
    except REFUSED as error:
        return True, error


def alike(what: str, python: Callable[[], Any], twin: Callable[[], Any]) -> tuple[Any, Any]:
    """Both calls, refused or accepted alike; their results (None where refused)."""
    p_refused, p_out = refused(python)
    n_refused, n_out = refused(twin)
    assert p_refused == n_refused, (
        f"{what}: Python {'refuses' if p_refused else 'accepts'} ({p_out!r}), "
        f"native {'refuses' if n_refused else 'accepts'} ({n_out!r})"
    )
    return (None, None) if p_refused else (p_out, n_out)


class Fuzz:
    """One hand of the fuzz: a Python hand, its native twin and the generator that drives them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.core = native.core()
        self.rules = self.rule_set()
        self.weights = RuleWeights() if rng.random() < 0.7 else RuleWeights(
            bid_margin=rng.uniform(-20, 20), plain_top=rng.uniform(0, 3))
        self.native_weights = native_weights(self.weights)
        self.hand = Hand(self.rules, seed=rng.getrandbits(rng.choice([8, 32, 64])))
        self.deal = [c for part in self.hand.deal for c in part]
        self.bad_deals()
        self.twin = self.core.Hand(batch.native_rules(self.rules), self.deal, self.hand.first)

    # -- the rule set and the deal ------------------------------------------------------------

    def rule_set(self) -> RuleSet:
        """A comparison profile or random house rules, after bad rule dictionaries are refused
        alike by :meth:`RuleSet.from_dict` and ``_core.Rules``."""
        rng = self.rng
        rules = rng.choice(list(PROFILES.values()))
        if rng.random() < 0.3:
            rules = RuleSet.hongwu(bid_step=rng.choice([1, 5, 10]), bid_min=rng.choice([0, 80]),
                                   must_follow_structure=rng.random() < 0.5)
        elif rng.random() < 0.2:
            rules = RuleSet.baofen(no_bid_mode=rng.choice(["pot", "direct"]),
                                   throw_penalty_per_card=rng.choice([0, 3, 50]))
        data = rules.to_dict()
        for _ in range(3):
            bad = dict(data)
            bad[rng.choice(sorted(bad))] = rng.choice(JUNK_VALUES)
            if rng.random() < 0.2:
                del bad[rng.choice(sorted(bad))]
            alike(f"rules {bad}", lambda b=bad: RuleSet.from_dict(b),
                  lambda b=bad: self.core.Rules(b))
        return rules

    def bad_deals(self) -> None:
        """Deals with a card replaced, one too few or too many, or a bad first seat: refused by
        the native hand as by the Python one."""
        rng = self.rng
        native_rules = batch.native_rules(self.rules)
        for _ in range(2):
            deal, first = list(self.deal), self.hand.first
            change = rng.randrange(4)
            if change == 0:
                deal[rng.randrange(len(deal))] = rng.choice([*JUNK_CARDS, rng.choice(deal)])
            elif change == 1:
                deal = deal[: rng.choice([0, 107])]
            elif change == 2:
                deal.append(rng.choice(deal))
            else:
                first = rng.choice([-1, 4, 2**40])
            hands = [deal[i * 25 : i * 25 + 25] for i in range(4)]

            def python(h: list[list[int]] = hands, d: list[int] = deal, f: int = first) -> Hand:
                return Hand(self.rules, first=f, hands=h, kitty=d[100:])

            alike(f"deal change {change}", python,
                  lambda d=deal, f=first: self.core.Hand(native_rules, d, f))

    # -- the state both engines show ----------------------------------------------------------

    def check_state(self) -> None:
        hand, twin = self.hand, self.twin
        assert twin.phase == hand.phase and twin.to_act == hand.to_act, (twin.phase, hand.phase)
        assert twin.declarer == hand.declarer and twin.trump == hand.trump
        for seat in range(4):
            assert sorted(twin.hand_of(seat)) == sorted(hand.hand_of(seat)), seat
        assert twin.winners() == [t.winner for t in hand.tricks]
        assert len(twin.actions()) == len(hand.actions)

    def wrong_seats(self, seat: int) -> list[int]:
        return [s for s in (*range(4), -1, 4, 2**40) if s != seat]

    # -- a hand -------------------------------------------------------------------------------

    def run(self) -> None:
        hand = self.hand
        while hand.phase != "done":
            self.check_state()
            seat = hand.to_act
            assert seat is not None
            self.rule_player(seat)
            self.junk_plays(seat)
            if hand.phase == "bidding":
                self.bidding(seat)
            elif hand.phase == "kitty":
                self.kitty(seat)
            else:
                self.playing(seat)
        self.check_state()
        self.finished()

    def apply_rule_action(self, seat: int) -> None:
        """The native rule player's action, applied to both hands (the Python one checks it)."""
        kind, who, value, cards = self.twin.rule_action(self.native_weights)
        assert who == seat
        if kind == batch.ACTION_BID:
            self.hand.bid(seat, None if value < 0 else value)
            self.twin.bid(seat, None if value < 0 else value)
        elif kind == batch.ACTION_DECLARE:
            self.hand.declare(seat, SUITS[value], cards)
            self.twin.declare(seat, SUITS[value], cards)
        else:
            outcome = self.hand.play(seat, cards)
            assert sorted(self.twin.play(seat, cards)) == sorted(outcome.played)

    def bidding(self, seat: int) -> None:
        rng, hand, twin = self.rng, self.hand, self.twin
        legal = hand.legal_bids(seat)
        assert twin.legal_bids() == legal
        grid = self.rules.bid_grid()
        tries: list[Any] = [*JUNK_VALUES, -5, True, grid[0] - 1, grid[-1] + 1, rng.choice(grid)]
        before = len(hand.actions)
        for value in rng.sample(tries, 5):
            alike(f"bid {value!r}", lambda v=value: hand.bid(seat, v),
                  lambda v=value: twin.bid(seat, v))
            if len(hand.actions) > before:  # a legal bid among them, made by both
                return
        for other in rng.sample(self.wrong_seats(seat), 2):
            alike(f"bid by seat {other}", lambda o=other: hand.bid(o, legal[-1]),
                  lambda o=other: twin.bid(o, legal[-1]))
        self.check_state()
        if rng.random() < 0.3:
            self.apply_rule_action(seat)
            return
        value = None if rng.random() < 0.5 else rng.choice(legal)
        hand.bid(seat, value)
        twin.bid(seat, value)

    def kitty(self, seat: int) -> None:
        rng, hand, twin = self.rng, self.hand, self.twin
        held = hand.hand_of(seat)
        others = [c for c in range(54) if held.count(c) < 2]
        bad_buries: list[list[int]] = [
            rng.sample(held, 7), rng.sample(held, 9), [],
            [*rng.sample(held, 7), rng.choice(others)],
            [*rng.sample(held, 7), rng.choice(JUNK_CARDS)],
            [held[0]] * 8,
        ]
        for trump, bury in [(rng.choice("SHCD"), b) for b in bad_buries] + [
            (t, rng.sample(held, 8)) for t in ("X", "", "SS", "♠", "s")
        ]:
            alike(f"declare {trump!r} {bury}", lambda t=trump, b=bury: hand.declare(seat, t, b),
                  lambda t=trump, b=bury: twin.declare(seat, t, b))
            if hand.phase != "kitty":  # "s" was accepted: lowercase names the suit too
                return
        other = rng.choice(self.wrong_seats(seat))
        bury = rng.sample(held, 8)
        alike(f"declare by seat {other}", lambda: hand.declare(other, "S", bury),
              lambda: twin.declare(other, "S", bury))
        self.check_state()
        if rng.random() < 0.4:
            self.apply_rule_action(seat)
            return
        trump = rng.choice("SHCDshcd")
        hand.declare(seat, trump, bury)
        twin.declare(seat, trump, bury)

    def junk_plays(self, seat: int) -> None:
        """Card lists that are wrong in any phase: refused alike, nothing changed."""
        rng, hand, twin = self.rng, self.hand, self.twin
        held = hand.hand_of(seat)
        lists: list[list[int]] = [[], [rng.choice(JUNK_CARDS)],
                                  [rng.choice(held), rng.choice(JUNK_CARDS)] if held else [0]]
        lists.append([c for c in range(54) if c not in held][:rng.randint(1, 4)])
        for cards in lists:
            for who in (seat, rng.choice(self.wrong_seats(seat))):
                assert hand.is_legal(who, cards) is False
                no, legal = refused(lambda c=cards, w=who: twin.is_legal(w, c))
                assert no or legal is False, (cards, who)
                alike(f"play {cards} by {who}", lambda c=cards, w=who: hand.play(w, c),
                      lambda c=cards, w=who: twin.play(w, c))
        self.check_state()

    def candidates(self, seat: int) -> list[list[int]]:
        """Card lists worth asking about: random ones of the lead's size and others, a card held
        twice more than held, and for a lead random sets of one group (throws)."""
        rng, hand = self.rng, self.hand
        held = hand.hand_of(seat)
        shape = hand.lead_shape
        size = shape.size if shape is not None else rng.randint(1, 4)
        sizes = (size, size, size + 1, max(size - 1, 1))
        out = [rng.sample(held, min(n, len(held))) for n in sizes]
        out.append([held[0]] * 3)
        if shape is None:
            by_group = [g for g in hand.observation(seat).by_group if len(g) > 1]
            if by_group:
                group = list(rng.choice(by_group))
                out.append(rng.sample(group, rng.randint(2, len(group))))
        return out

    def playing(self, seat: int) -> None:
        rng, hand, twin = self.rng, self.hand, self.twin
        options = self.candidates(seat)
        for cards in options:
            legal = hand.is_legal(seat, cards)
            assert twin.is_legal(seat, cards) == legal, cards
            assert (twin.play_error(seat, cards) is None) == legal, cards
            if not legal:
                alike(f"play {cards}", lambda c=cards: hand.play(seat, c),
                      lambda c=cards: twin.play(seat, c))
        plays = twin.legal_plays()
        assert plays and all(hand.is_legal(seat, p) for p in plays)
        limited = rng.randint(0, 3)
        if len(plays) > limited:
            alike("legal_plays past its limit", lambda: (_ for _ in ()).throw(ValueError()),
                  lambda: twin.legal_plays(limited))
        self.check_state()
        pick = rng.random()
        if pick < 0.3:
            self.apply_rule_action(seat)
            return
        throws = [c for c in options if len(c) > 1 and hand.lead_shape is None
                  and hand.is_legal(seat, c)]
        cards = rng.choice(throws) if throws and pick < 0.5 else rng.choice(plays)
        outcome = hand.play(seat, cards)
        assert sorted(twin.play(seat, cards)) == sorted(outcome.played)

    # -- the rule player, the sampler, the batches -------------------------------------------

    def rule_player(self, seat: int) -> None:
        """The native rule player on the twin and on the Python hand's observation: one choice,
        its candidates legal; then ``rule_decide`` with one argument spoiled."""
        rng, hand, twin = self.rng, self.hand, self.twin
        if rng.random() < 0.5:
            return
        chosen = twin.rule_action(self.native_weights)
        copy = twin.copy()
        copy.rule_act(self.native_weights)
        assert copy.actions()[-1] == chosen and twin.actions() == copy.actions()[:-1]
        obs = hand.observation(seat)
        player = NativeRulePlayer(self.weights)
        if hand.phase == "playing":
            plays = twin.rule_plays(self.native_weights, rng.randint(1, 8))
            assert all(hand.is_legal(seat, p) for p in plays) and plays[0] == chosen[3]
            assert [list(p) for p in player.play_candidates(obs, len(plays))] == plays
            if rng.random() < 0.15:
                self.sampler(seat)
        self.spoiled_decisions(obs)

    def spoiled_decisions(self, obs: Any) -> None:
        """``rule_decide`` on the observation with arguments made wrong: an answer, a refusal or
        a ``RuntimeError`` (no legal play in a spoiled hand), never a crash (the sanitizer build
        checks every read)."""
        rng = self.rng
        trick = [(s, list(c)) for s, c in obs.current_trick]
        args: list[Any] = [
            batch.native_rules(obs.rules), self.native_weights, obs.phase, obs.seat,
            obs.declarer, obs.trump, list(obs.hand), [0] * 54, [0] * 4, [0] * 4,
            list(obs.hand_sizes), None if obs.buried is None else list(obs.buried), trick,
            [v for v in self.hand.legal_bids(obs.seat) if v is not None], 4,
        ]
        spoilers: list[tuple[int, Any]] = [
            (2, rng.choice(["done", "", "PLAYING"])), (3, rng.choice([-1, 4, 2**40])),
            (4, rng.choice([-2, 4, 9])), (5, rng.choice(["X", "", "SS"])),
            (6, rng.choice([[], [rng.choice(JUNK_CARDS)], [0] * 60])),
            (7, rng.choice([[0] * 53, [-9] * 54, [3] * 54])), (8, [0] * 3), (9, [-5, 0, 0, 99]),
            (10, rng.choice([[0, 0, 0, 0], [-1, 25, 25, 25], [200, 25, 25, 25]])),
            (11, rng.choice([[], [rng.choice(JUNK_CARDS)] * 8, [0] * 20])),
            (12, rng.choice([[(0, [])], [(0, [1, 2]), (1, [3])], [(9, [1])], [(0, [1])] * 4,
                             [(0, [rng.choice(JUNK_CARDS)])]])),
            (13, rng.choice([[-1], [2**31 - 1], list(range(400))])), (14, rng.choice([0, 2**62])),
        ]
        for index, value in rng.sample(spoilers, 3):
            spoiled = list(args)
            spoiled[index] = value
            with contextlib.suppress(*REFUSED, RuntimeError):
                self.core.rule_decide(*spoiled)

    def sampler(self, seat: int) -> None:
        """The sampler's worlds, natively (``Sampler``, ``Replay``) and in Python: the same."""
        obs = self.hand.observation(seat)
        natively, in_python = native_engine().worlds(obs), python_engine().worlds(obs)
        seed = self.rng.getrandbits(32)
        a = natively.draw(random.Random(seed))
        b = in_python.draw(random.Random(seed))
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a[0] == b[0] and a[2] == b[2]
            world: Any = a[1]
            assert world.deal == [c for part in b[1].deal for c in part]
        rng = random.Random(seed)
        worlds = natively.weighted_worlds(rng, 3, attempts=6)
        if worlds:
            hands: Any = [w for w, _ in worlds]
            plays = self.twin.rule_plays(self.native_weights, 3)
            results = self.core.play_out_candidates(hands, plays, [self.native_weights] * 4, 1)
            assert len(results) == len(worlds) * len(plays) * 4 * self.core.RESULT_FIELDS

    def finished(self) -> None:
        """The result alike, and every action on a finished hand refused."""
        hand, twin, w = self.hand, self.twin, self.native_weights
        result = twin.result()
        assert result is not None and hand.result is not None
        assert tuple(result[9:13]) == hand.result.deltas
        assert result[2] == hand.result.declarer_points
        assert batch.result_of(self.rules, result) == hand.result
        for name, call in (("rule_act", lambda: twin.rule_act(w)),
                           ("rule_action", lambda: twin.rule_action(w)),
                           ("rule_plays", lambda: twin.rule_plays(w, 4))):
            assert refused(call)[0], name
        assert twin.legal_bids() == [] and twin.to_act is None
        refused(lambda: twin.legal_plays())
        alike("bid when done", lambda: hand.bid(0, None), lambda: twin.bid(0, None))
        alike("declare when done", lambda: hand.declare(0, "S", self.deal[:8]),
              lambda: twin.declare(0, "S", self.deal[:8]))
        alike("play when done", lambda: hand.play(0, [self.deal[0]]),
              lambda: twin.play(0, [self.deal[0]]))
        copy = twin.copy()
        copy.play_out(1)
        assert copy.result() == result
        assert self.core.play_out_many([twin], 2) is not None


def batches(rng: random.Random) -> None:
    """Random hands and rule-player hands played natively in batches replay in the Python engine
    to the same results."""
    from baofen.bots.native_players import player_hands

    rules = rng.choice(list(PROFILES.values()))
    seeds = [rng.getrandbits(40) for _ in range(4)]
    players: Sequence[Any] = [RuleWeights(), "random", "rule", "random"]
    for played in [*batch.random_hands(rules, seeds, rng.getrandbits(16)),
                   *player_hands([Hand(rules, seed=s) for s in seeds], players,
                                 player_seed=rng.getrandbits(16))]:
        replayed = Hand(rules, seed=played.seed)
        for seat, action in played.actions:
            replayed.apply(seat, action)
        assert replayed.result == played.result
        assert [t.winner for t in replayed.tricks] == list(played.winners)


def fuzz(seed: int, first: int, hands: int, seconds: float) -> int:
    """Hands ``first`` to ``first + hands - 1`` of ``seed``, as many as ``seconds`` allow: the
    number played."""
    deadline = time.monotonic() + seconds
    played = 0
    for number in range(first, first + hands):
        if time.monotonic() > deadline:
            break
        rng = random.Random(f"{seed}:{number}")
        try:
            Fuzz(rng).run()
            if number % 10 == 0:
                batches(rng)
        except BaseException:
            print(f"native fuzz: hand {number} of seed {seed} failed", file=sys.stderr)
            raise
        played += 1
    return played


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="the first hand's number")
    parser.add_argument("--hands", type=int, default=1000, help="at most this many hands")
    parser.add_argument("--seconds", type=float, default=60.0, help="no hand begun after this")
    args = parser.parse_args(argv)
    started = time.monotonic()
    played = fuzz(args.seed, args.first, args.hands, args.seconds)
    core = native.core().__file__
    print(f"native fuzz: {played} hands of seed {args.seed} agree "
          f"({time.monotonic() - started:.1f} s, core {core})")


if __name__ == "__main__":
    main()
