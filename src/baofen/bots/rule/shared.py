"""Helpers shared by the computer players.

- :class:`Knowledge`: what one seat can infer from its :class:`~baofen.Observation` — the cards it
  has not seen (held by others, or buried), the suit groups each seat has shown void in, and the
  point tallies of the hand so far. Nothing here reads hidden state.
- :func:`compose_follow`: a legal follow built to a preference (rules.md §7): the owed tractors and
  pairs first, then singles, each choice made by a :class:`Chooser` (random for the random bot,
  cheapest-first for the rule bot). :func:`matching_play` builds a play of the lead's format from
  given cards (a ruff, §8.2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Protocol, cast

from ...cards import KINDS, LITTLE_JOKER, POINTS, SUITS, Card, card_of
from ...observation import Observation
from ...order import TRUMP, Order
from ...tricks import LeadShape, Trick, TrickJudge
from ...units import pack_tractors, pair_kinds, runs_of_pairs


class Chooser(Protocol):
    """The choices :func:`compose_follow` delegates: which card, cards, pairs and runs to take."""

    def one(self, options: Sequence[Card]) -> Card:
        """One card of ``options``."""
        ...

    def some(self, cards: Sequence[Card], k: int) -> list[Card]:
        """``k`` cards of ``cards`` (a card listed twice may be taken twice)."""
        ...

    def pairs(self, kinds: Sequence[Card], k: int) -> list[Card]:
        """``k`` pair kinds of ``kinds``."""
        ...

    def runs(self, runs: list[list[Card]]) -> list[list[Card]]:
        """Runs of pairs in order of preference."""
        ...

    def place(self, lengths: Sequence[int], size: int) -> list[int]:
        """Where to cut sub-runs of ``lengths`` pairs from one run of ``size`` pairs: their
        start offsets, in the order given (disjoint; they fit, ``sum(lengths) <= size``)."""
        ...


def compose_follow(
    judge: TrickJudge, shape: LeadShape, by_group: Sequence[Sequence[Card]], chooser: Chooser
) -> list[Card]:
    """A legal follow to a lead of ``shape`` from a hand held as ``by_group``, owed tractors
    and pairs first (§7), every choice left to ``chooser``."""
    g = shape.group
    n = shape.size
    suited = by_group[g]
    if n == 1:
        return [chooser.one(suited or [c for cards in by_group for c in cards])]
    if len(suited) <= n:
        others = [c for i, cards in enumerate(by_group) if i != g for c in cards]
        return [*suited, *chooser.some(others, n - len(suited))]
    tractors, owed_pairs = judge.owed_structure(shape, suited)
    if not owed_pairs:
        return chooser.some(suited, n)
    return _structured(judge.order, tractors, owed_pairs, suited, n, chooser)


def matching_play(
    judge: TrickJudge, shape: LeadShape, cards: Sequence[Card], chooser: Chooser
) -> list[Card] | None:
    """A play of ``shape.size`` of ``cards`` that matches the lead's format (§8.2), or ``None``."""
    if len(cards) < shape.size:
        return None
    if not shape.pairs:
        return chooser.some(cards, shape.size)
    play = _structured(judge.order, list(shape.tractors), shape.pairs, cards, shape.size, chooser)
    return play if judge.matches(shape, play) else None


def _structured(
    order: Order,
    tractors: Sequence[int],
    owed_pairs: int,
    cards: Sequence[Card],
    n: int,
    chooser: Chooser,
) -> list[Card]:
    chosen: list[Card] = []
    pool = list(cards)
    runs = chooser.runs(cast(list[list[Card]], runs_of_pairs(order, pair_kinds(cards))))
    hosted: dict[int, list[int]] = {}
    for length, index, _ in pack_tractors(tractors, [len(r) for r in runs]):
        hosted.setdefault(index, []).append(length)
    for index, lengths in hosted.items():
        run = runs[index]
        for length, offset in zip(lengths, chooser.place(lengths, len(run)), strict=True):
            for kind in run[offset:offset + length]:
                chosen += [kind, kind]
                pool.remove(kind)
                pool.remove(kind)
    have = len(pair_kinds(chosen))
    if have < owed_pairs:
        spare = cast(list[Card], pair_kinds(pool))
        for kind in chooser.pairs(spare, min(owed_pairs - have, len(spare))):
            chosen += [kind, kind]
            pool.remove(kind)
            pool.remove(kind)
    chosen += chooser.some(pool, n - len(chosen))
    return chosen


class RandomChooser:
    """Takes cards, pairs and runs uniformly at random."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def one(self, options: Sequence[Card]) -> Card:
        """A random card."""
        return options[int(self.rng.random() * len(options))]

    def some(self, cards: Sequence[Card], k: int) -> list[Card]:
        """``k`` random cards."""
        return self.rng.sample(cards, k)

    def pairs(self, kinds: Sequence[Card], k: int) -> list[Card]:
        """``k`` random pairs."""
        return self.rng.sample(kinds, k)

    def runs(self, runs: list[list[Card]]) -> list[list[Card]]:
        """The runs shuffled."""
        self.rng.shuffle(runs)
        return runs

    def place(self, lengths: Sequence[int], size: int) -> list[int]:
        """Sub-runs in a random order with random gaps: any way to cut them can come out."""
        rng = self.rng
        order = list(range(len(lengths)))
        rng.shuffle(order)
        # Stars and bars: the free pairs fall into the len(lengths) + 1 gaps around the cuts.
        free = size - sum(lengths)
        bars = sorted(rng.sample(range(free + len(order)), len(order)))
        offsets = [0] * len(lengths)
        position = previous = 0
        for bar, item in zip(bars, order, strict=True):
            position += bar - previous
            offsets[item] = position
            position += lengths[item]
            previous = bar + 1
        return offsets


class CostChooser:
    """Takes the cheapest cards by a per-kind cost; a pair costs its two cards."""

    __slots__ = ("cost", "reverse_runs")

    def __init__(self, cost: Sequence[float], reverse_runs: bool = True) -> None:
        self.cost = cost
        self.reverse_runs = reverse_runs
        """Take tractors from the weak end of a run (cheap) rather than the strong end."""

    def one(self, options: Sequence[Card]) -> Card:
        """The cheapest card."""
        cost = self.cost
        return min(options, key=lambda c: (cost[c], c))

    def some(self, cards: Sequence[Card], k: int) -> list[Card]:
        """The ``k`` cheapest cards."""
        if k <= 0:
            return []
        cost = self.cost
        return sorted(cards, key=lambda c: (cost[c], c))[:k]

    def pairs(self, kinds: Sequence[Card], k: int) -> list[Card]:
        """The ``k`` cheapest pairs."""
        cost = self.cost
        return sorted(kinds, key=lambda c: (cost[c], c))[:k]

    def runs(self, runs: list[list[Card]]) -> list[list[Card]]:
        """Cheapest runs first (by their cheapest pair)."""
        cost = self.cost
        ordered = sorted(runs, key=lambda r: (min(cost[c] for c in r), r[0]))
        return [r[::-1] for r in ordered] if self.reverse_runs else ordered

    def place(self, lengths: Sequence[int], size: int) -> list[int]:
        """Packed from the front of the run (its cheap end when runs are reversed)."""
        offsets = []
        position = 0
        for length in lengths:
            offsets.append(position)
            position += length
        return offsets


class TrickTally:
    """Played cards, shown voids and 王分 taken, after each finished trick, kept across decisions.

    Public information only. A bot keeps one tally and hands it every observation; states are
    stored per number of finished tricks and reused while the tricks are the same objects (a
    finished :class:`~baofen.Trick` belongs to one history), so a hand played on — or the many
    continuations a search explores from one position — costs one step per new trick.
    """

    __slots__ = ("states",)

    def __init__(self) -> None:
        self.states: list[tuple[object, list[int], list[int], list[int]]] = [
            (None, [0] * KINDS, [0] * 4, [0] * 4)
        ]
        """``(trick, played counts, void masks, trump-suit point cards won per seat)`` after
        0, 1, 2 … finished tricks."""

    def after(
        self, judge: TrickJudge, tricks: Sequence[Trick]
    ) -> tuple[list[int], list[int], list[int]]:
        """Played counts per kind, void masks per seat and trump-suit point cards each seat has
        won, after ``tricks`` (shared lists: not to be changed)."""
        states = self.states
        n = len(tricks)
        known = min(n, len(states) - 1)
        while known and states[known][0] is not tricks[known - 1]:
            known -= 1
        if known < len(states) - 1:
            del states[known + 1:]
        _, played, voids, won = states[known]
        trump_points = _trump_points(judge.order.trump)
        for index in range(known, n):
            trick = tricks[index]
            played = list(played)
            voids = list(voids)
            tally_plays(judge, trick.plays, played, voids)
            taken = sum(1 for _, cards in trick.plays for c in cards if c in trump_points)
            if taken:
                won = list(won)
                won[trick.winner] += taken
            states.append((trick, played, voids, won))
        return played, voids, won


@cache
def _trump_points(trump: str | None) -> frozenset[int]:
    """The trump suit's point cards (王分 in 包分): its 5, 10 and K."""
    if trump is None:
        return frozenset()
    return frozenset(card_of(trump, rank) for rank in (5, 10, 13))


@cache
def strength_tiers(order: Order) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each group, its kinds in tiers of equal strength, strongest tier first."""
    tiers = []
    for g in range(5):
        rows: list[list[int]] = []
        previous = -1
        for kind in order.kinds_by_group[g]:
            if order.strength[kind] != previous:
                rows.append([])
                previous = order.strength[kind]
            rows[-1].append(kind)
        tiers.append(tuple(tuple(row) for row in rows))
    return tuple(tiers)


def tally_plays(
    judge: TrickJudge,
    plays: Sequence[tuple[int, Sequence[Card]]],
    played: list[int],
    voids: list[int],
) -> None:
    """Add the cards of one trick's ``plays`` to ``played`` and the voids they show to ``voids``."""
    if not plays:
        return
    group = judge.group
    lead = plays[0][1]
    n = len(lead)
    g = TRUMP if n == 8 and judge.is_eight_of_a_kind(lead) else group[lead[0]]
    for card in lead:
        played[card] += 1
    for seat, cards in plays[1:]:
        inside = 0
        for card in cards:
            played[card] += 1
            if group[card] == g:
                inside += 1
        if inside < n:
            voids[seat] |= 1 << g


class Knowledge:
    """What the observing seat can infer from its observation (never from hidden state).

    ``unseen[k]``: copies of kind ``k`` the seat has not seen — held by the other seats, or
    buried (the declarer knows its own bury). ``voids[s]``: bit mask of the groups seat ``s`` has
    shown void in (a follow with fewer cards of the led group than the lead, §7). ``above[k]``
    and ``above_pairs[k]``: unseen cards, and unseen pairs, of ``k``'s group stronger than ``k``.
    """

    __slots__ = (
        "above",
        "above_pairs",
        "declarer",
        "group",
        "hidden_total",
        "judge",
        "obs",
        "order",
        "pairs_in_group",
        "seat",
        "sizes",
        "strength",
        "trump_points_won",
        "unseen",
        "unseen_in_group",
        "unseen_points",
        "voids",
    )

    def __init__(self, obs: Observation, tally: TrickTally | None = None) -> None:
        assert obs.seat is not None and obs.judge is not None
        self.obs = obs
        self.seat = obs.seat
        self.declarer = obs.declarer
        judge = obs.judge
        self.judge = judge
        order = self.order = judge.order
        self.group = judge.group
        self.strength = judge.strength
        played, voids, won = (tally or TrickTally()).after(judge, obs.tricks)
        self.trump_points_won = won
        voids = list(voids)
        unseen = [2 - n for n in played]
        if obs.current_trick:
            extra = [0] * KINDS
            tally_plays(judge, obs.current_trick, extra, voids)
            for kind, n in enumerate(extra):
                if n:
                    unseen[kind] -= n
        for card in obs.hand:
            unseen[card] -= 1
        if obs.buried is not None:
            for card in obs.buried:
                unseen[card] -= 1
        self.unseen = unseen
        self.voids = voids
        in_group = [0] * 5
        pairs_in_group = [0] * 5
        above = [0] * KINDS
        above_pairs = [0] * KINDS
        points = 0
        for g, tiers in enumerate(strength_tiers(order)):
            total = pairs = 0
            for tier in tiers:
                add = add_pairs = 0
                for kind in tier:
                    above[kind] = total
                    above_pairs[kind] = pairs
                    count = unseen[kind]
                    if count:
                        add += count
                        add_pairs += count == 2
                        points += POINTS[kind] * count
                total += add
                pairs += add_pairs
            in_group[g] = total
            pairs_in_group[g] = pairs
        self.above = above
        self.above_pairs = above_pairs
        self.unseen_in_group = in_group
        self.pairs_in_group = pairs_in_group
        self.unseen_points = points
        self.sizes = obs.hand_sizes
        self.hidden_total = sum(in_group)
        """Cards the seat cannot see: the other hands, plus the bury unless it is the declarer."""

    # -- safety of leads ------------------------------------------------------------------------

    def unit_is_sure(self, cards: Sequence[Card], pairs: int) -> bool:
        """True when no unseen cards could beat the unit ``cards`` (with ``pairs`` pairs, 0 for a
        single) in its own group: a sure winner unless ruffed."""
        top = cards[0]
        if not pairs:
            return self.above[top] == 0
        if pairs == 1:
            return self.above_pairs[top] == 0
        top_strength = self.strength[top]
        return self.higher_unseen_tractors(self.group[top], pairs, top_strength) == 0

    def throw_is_safe(self, cards: Sequence[Card], units: Sequence[tuple[Sequence[Card], int]],
                      hongwu: bool) -> bool:
        """True when the throw ``cards`` (its ``units``, each ``(cards, pairs)``) cannot fail
        whoever holds the unseen cards (§6)."""
        if hongwu:
            strength = self.strength
            weakest = min(strength[c] for c in cards)
            unseen = self.unseen
            return not any(
                unseen[k] and strength[k] >= weakest
                for k in self.order.kinds_by_group[self.group[cards[0]]]
            )
        return all(self.unit_is_sure(unit, pairs) for unit, pairs in units)

    # -- teams --------------------------------------------------------------------------------

    def same_side(self, a: int, b: int) -> bool:
        """True when seats ``a`` and ``b`` play on one side (the three defenders are a team)."""
        return a == b or (a != self.declarer and b != self.declarer)

    # -- unseen cards -------------------------------------------------------------------------

    def higher_unseen_tractors(self, g: int, length: int, strength: int) -> int:
        """Unseen runs of ``length`` pairs in group ``g`` topped above ``strength``."""
        unseen = self.unseen
        st = self.strength
        pairs = [k for k in self.order.kinds_by_group[g] if unseen[k] == 2 and st[k] > strength]
        runs = runs_of_pairs(self.order, pairs)
        return sum(max(0, len(r) - length + 1) for r in runs)

    def share(self, seat: int) -> float:
        """Rough chance that one given unseen card is in ``seat``'s hand."""
        total = self.hidden_total
        return self.sizes[seat] / total if total else 0.0

    def void_chance(self, seat: int, g: int) -> float:
        """Chance that ``seat`` holds no card of group ``g``."""
        if self.voids[seat] >> g & 1 or not self.sizes[seat]:
            return 1.0
        return (1.0 - self.share(seat)) ** self.unseen_in_group[g]

    def holds_chance(self, seat: int, count: int) -> float:
        """Chance that ``seat`` holds at least one of ``count`` given unseen cards."""
        if count <= 0:
            return 0.0
        return 1.0 - (1.0 - self.share(seat)) ** count

    def beat_chance(self, seat: int, shape: LeadShape, best: Sequence[Card]) -> float:
        """Rough chance that ``seat``, yet to play, can beat ``best`` (the trick's best play so
        far, led as ``shape``): in suit with a higher unit, or by ruffing (§8)."""
        if not self.sizes[seat] or shape.eight:
            return 0.0
        g = shape.group
        strength = self.strength
        ruffed = g != TRUMP and self.group[best[0]] == TRUMP
        trump_void = self.voids[seat] >> TRUMP & 1
        void_g = self.void_chance(seat, g)
        share = self.share(seat)
        if shape.is_throw:
            if g == TRUMP or trump_void:
                return 0.0
            return void_g * (0.5 if self.unseen_in_group[TRUMP] >= shape.size else 0.0)
        if shape.tractors:
            length = shape.tractors[0]
            top = self.judge.key(shape, best)
            higher_in = 0 if ruffed else self.higher_unseen_tractors(g, length, top)
            p_in = 1.0 - (1.0 - share ** (2 * length)) ** higher_in
            trump_units = self.higher_unseen_tractors(TRUMP, length, top if ruffed else 0)
            p_trump = 1.0 - (1.0 - share ** (2 * length)) ** trump_units
        elif shape.pairs:
            top_kind = max(pair_kinds(best), key=strength.__getitem__)
            higher_in = 0 if ruffed else self.above_pairs[top_kind]
            p_in = 1.0 - (1.0 - share * share) ** higher_in
            trump_pairs = self.above_pairs[top_kind] if ruffed else self.pairs_in_group[TRUMP]
            p_trump = 1.0 - (1.0 - share * share) ** trump_pairs
        else:
            top_kind = best[0]
            higher_in = 0 if ruffed else self.above[top_kind]
            p_in = self.holds_chance(seat, higher_in)
            p_trump = self.holds_chance(
                seat, self.above[top_kind] if ruffed else self.unseen_in_group[TRUMP]
            )
        if g == TRUMP:
            return (1.0 - void_g) * p_in
        if trump_void:
            p_trump = 0.0
        return (1.0 - void_g) * p_in + void_g * p_trump


def eight_of_a_kind(judge: TrickJudge, by_group: Sequence[Sequence[Card]]) -> list[Card] | None:
    """Some eight of a kind held (八张, 包分), if any: it needs a trump-suit pair of a rank
    other than 2, and that rank paired in every other suit."""
    if not judge.eight_enabled:
        return None
    trumps = by_group[TRUMP]
    group = judge.group
    for kind in sorted(set(trumps)):
        if kind < LITTLE_JOKER and kind % 13 and trumps.count(kind) == 2:
            eight = [card_of(suit, 2 + kind % 13) for suit in SUITS]
            if all(by_group[group[c]].count(c) == 2 for c in eight):
                return [c for c in eight for _ in (0, 1)]
    return None
