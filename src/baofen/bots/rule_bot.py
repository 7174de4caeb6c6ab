"""The rule bot: a heuristic player for 包分 and 包红五 that decides from its observation only.

**Bidding (叫分).** The 25 cards are evaluated for each possible trump suit by a linear model of
the points a declarer captures (:func:`hand_features`, :data:`BID_MODELS`; fitted on rule-bot
self-play by ``bench/calibrate_bids.py``). The bot bids the lowest legal value while its expected
result at that value clears a margin, else passes (so it passes weak hands, and raises only as far
as its hand carries).

**Kitty (扣底定主).** For each trump suit it chooses the best eight cards to bury — making voids
in short plain suits, keeping aces, pairs and tractors; 包分 kitty points only decide 全击/半击, so
weak point cards may go; 包红五 kitty points go with the last trick (保底/抓底), so point cards are
kept unless the hand controls trumps — and names the suit whose evaluation is best.

**Play.** Every candidate play is scored by one estimate: the chance that the declarer's side
takes the trick (from the cards not yet seen and the voids shown, :class:`Knowledge`) times the
points at stake, minus the future value of the cards spent (high cards, trumps, broken pairs), plus
game terms — the red five's ±20 and 保底 in 包红五, 王分 in 包分. Leads are units or throws that are
safe given the unseen cards (a failed throw costs a penalty); the declarer gets a bonus for drawing
trumps, defenders a malus for leading them. Follows consider every card that would take the lead
of a single, each matching pair or tractor, ruffs, the cheapest legal follow and a point-feeding
one: so the bot wins cheaply when points are at stake, feeds points to a defender partner who
holds the trick, and otherwise discards low and keeps its pairs. Legal follows are built with the
engine's structure rules (:func:`~baofen.bots.shared.compose_follow`) and every play is checked
with the engine's rule checks before it is returned.

Weights (:class:`RuleWeights`) were tuned by duplicate self-play, and can be set as options:
``make_bot("rule", plain_top=2.0)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, cast

from ..actions import Action, Bid, Declare, Play
from ..cards import POINTS, SAME_COLOUR, SUITS, Card, card_of
from ..observation import Observation
from ..order import TRUMP, Order, order_for
from ..ruleset import RuleSet
from ..scoring import RED_FIVE, levels_for
from ..tricks import LeadShape, TrickJudge
from ..units import pair_kinds, runs_of_pairs
from .shared import (
    CostChooser,
    Knowledge,
    TrickTally,
    compose_follow,
    eight_of_a_kind,
    matching_play,
)


@dataclass(frozen=True)
class RuleWeights:
    """Tunable constants of the rule bot (points-equivalents unless said otherwise)."""

    trump_base: float = 3.5
    """Future value of the lowest trump (it can still ruff)."""
    trump_top: float = 8.0
    """Extra future value of a trump nothing unseen beats."""
    plain_top: float = 1.5
    """Future value of a plain card nothing unseen beats (a sure winner)."""
    pair_break: float = 4.0
    """Cost of breaking a pair (包分, where pairs are owed); halved in 包红五."""
    keep_declarer: float = 0.4
    """Chance the declarer later captures a low point card it keeps (a sure winner: + 0.6)."""
    keep_defender: float = 0.55
    """Chance a low point card a defender keeps is later captured by the declarer (a sure
    winner: − 0.35)."""
    later_points: float = 2.0
    """Points each player yet to play adds to the trick."""
    rescue: float = 0.25
    """Chance a defender partner playing after the declarer rescues a lost lead."""
    draw_trumps: float = 6.0
    """Declarer's bonus for leading trumps while defenders hold some (调主)."""
    defender_trump_lead: float = 4.0
    """Defender's malus for leading trumps that are not sure winners."""
    wangfen: float = 25.0
    """包分: value of a trump-suit point card while the declarer has captured none (倒扣王分)."""
    realize: float = 1.0
    """Share of a card's future value recovered when it wins the trick it is led to."""
    bid_margin: float = 0.0
    """Expected hand score a bid must clear (包分 points, 包红五 levels)."""


# -- hand evaluation (bidding and kitty) ------------------------------------------------------

FEATURES = ("n_trump", "power", "trump_pairs", "side_top", "short", "points")
"""Names of :func:`hand_features`, in order."""

BID_MODELS: dict[str, tuple[tuple[float, ...], float]] = {
    # (intercept, *coefficients of FEATURES), residual standard deviation: fitted by
    # bench/calibrate_bids.py (4000 forced-declarer hands of rule-bot self-play per game).
    "baofen": ((-80.873, 5.035, 5.169, 12.509, 3.251, 17.082, 0.252), 76.5),
    "hongwu": ((-20.974, 2.967, 1.710, 4.675, 2.729, 7.242, 0.200), 33.1),
}
"""Linear models of the declarer's points from :func:`hand_features`, per game."""


@cache
def _trump_weights(variant: str, trump: str) -> dict[int, float]:
    """How much each trump card is worth to a hand's evaluation (tiers of §3)."""
    order = order_for(variant, trump)
    weights: dict[int, float] = {}
    tops = {53: 3.0, 52: 2.5}
    if variant == "hongwu":
        tops = {RED_FIVE: 4.0, 53: 3.0, 52: 2.5, card_of(trump, 3): 2.2,
                card_of(SAME_COLOUR[trump], 3): 2.0}
    for kind in order.kinds_by_group[TRUMP]:
        if kind in tops:
            weights[kind] = tops[kind]
        elif kind < 52 and kind % 13 == 0:
            weights[kind] = 1.8 if kind // 13 == SUITS.index(trump) else 1.5
        else:
            rank = kind % 13 + 2
            weights[kind] = {14: 1.3, 13: 1.0, 12: 0.8}.get(rank, 0.6)
    return weights


def hand_features(variant: str, cards: Sequence[Card], trump: str) -> tuple[float, ...]:
    """Evaluation features of ``cards`` if ``trump`` were trump (names in :data:`FEATURES`)."""
    weights = _trump_weights(variant, trump)
    group = order_for(variant, trump).group
    counts = [0] * 54
    for card in cards:
        counts[card] += 1
    n_trump = 0
    power = 0.0
    pairs = 0
    suit_len = [0, 0, 0, 0]
    side_top = 0.0
    points = 0
    for kind in range(54):
        count = counts[kind]
        if not count:
            continue
        points += POINTS[kind] * count
        g = group[kind]
        if g == TRUMP:
            n_trump += count
            power += weights[kind] * count
            pairs += count == 2
        else:
            suit_len[g] += count
            rank = kind % 13 + 2
            if rank == 14:
                side_top += count
            elif rank == 13 and counts[kind + 1]:
                side_top += 0.5 * count
    trump_index = SUITS.index(trump)
    short = sum(1 for s in range(4) if s != trump_index and suit_len[s] <= 2)
    return (n_trump, power, pairs, side_top, short, points)


def expected_points(variant: str, features: Sequence[float]) -> float:
    """The model's expected declarer points (包分 S + target; 包红五 P) for ``features``."""
    coefficients, _ = BID_MODELS[variant]
    return coefficients[0] + sum(c * x for c, x in zip(coefficients[1:], features, strict=True))


def best_trump(variant: str, cards: Sequence[Card]) -> tuple[str, float]:
    """The trump suit that evaluates best for ``cards``, and its expected points."""
    return max(
        ((suit, expected_points(variant, hand_features(variant, cards, suit))) for suit in SUITS),
        key=lambda item: item[1],
    )


def expected_result(rules: RuleSet, points: float, bid: int) -> float:
    """Expected declarer result at ``bid`` when it expects ``points`` (包分 S, 包红五 L)."""
    if rules.variant == "baofen":
        return points - bid
    _, sd = BID_MODELS["hongwu"]
    # Average the level function over a normal spread of the points (a few quadrature nodes).
    nodes = (-2.0, -1.0, 0.0, 1.0, 2.0)
    mass = [math.exp(-x * x / 2) for x in nodes]
    total = sum(mass)
    return sum(
        m * levels_for(round(points + x * sd), bid, rules.points_per_level)
        for x, m in zip(nodes, mass, strict=True)
    ) / total


# -- the bot ----------------------------------------------------------------------------------


class RuleBot:
    """Heuristic player (see the module docstring); deterministic: ``seed`` is accepted for a
    uniform bot interface and not used. Other keywords set :class:`RuleWeights` fields."""

    def __init__(self, seed: int | None = None, **weights: Any) -> None:
        del seed
        known = {f.name for f in fields(RuleWeights)}
        unknown = set(weights) - known
        if unknown:
            raise ValueError(f"unknown rule bot option(s): {', '.join(sorted(unknown))}")
        self.weights = RuleWeights(**{k: float(v) for k, v in weights.items()})
        self.tally = TrickTally()

    def act(self, observation: Observation) -> Action:
        """The bot's action for the observing seat."""
        phase = observation.phase
        if phase == "playing":
            return Play.of(self.play(observation))
        if phase == "bidding":
            return Bid(self.bid(observation))
        if phase == "kitty":
            return self.declare(observation)
        raise ValueError(f"nothing to do in the {phase} phase")

    # -- bidding ------------------------------------------------------------------------------

    def bid(self, obs: Observation) -> int | None:
        """The lowest legal bid whose expected result clears the margin, or ``None`` (pass)."""
        legal = [v for v in obs.legal_bids() if v is not None]
        if not legal:
            return None
        rules = obs.rules
        _, points = best_trump(rules.variant, obs.hand)
        value = legal[0]
        margin = self.weights.bid_margin
        if expected_result(rules, points, value) > margin:
            return value
        return None

    # -- kitty --------------------------------------------------------------------------------

    def declare(self, obs: Observation) -> Declare:
        """Name the trump suit and bury eight cards (see the module docstring)."""
        variant = obs.rules.variant
        cards = obs.hand
        best: tuple[float, str, list[Card]] | None = None
        for suit in SUITS:
            bury, cost = choose_bury(variant, cards, suit)
            kept = list(cards)
            for card in bury:
                kept.remove(card)
            value = expected_points(variant, hand_features(variant, kept, suit)) - cost
            if best is None or value > best[0]:
                best = (value, suit, bury)
        assert best is not None
        return Declare(best[1], best[2])

    # -- play ---------------------------------------------------------------------------------

    def play(self, obs: Observation) -> tuple[Card, ...]:
        """The best-scored legal play."""
        return self.play_candidates(obs, 1)[0]

    def play_candidates(self, obs: Observation, limit: int = 64) -> list[tuple[Card, ...]]:
        """Up to ``limit`` distinct legal plays worth considering, best-scored first (never
        empty)."""
        table = _Table(obs, self.weights, self.tally)
        scored = table.lead_candidates() if obs.lead_shape is None else table.follow_candidates()
        scored.sort(key=lambda item: (-item[0], item[1]))
        out: list[tuple[Card, ...]] = []
        seen: set[tuple[Card, ...]] = set()
        for _, cards in scored:
            key = tuple(sorted(cards))
            if key in seen:
                continue
            seen.add(key)
            if table.is_legal(cards):
                out.append(cards)
                if len(out) >= limit:
                    break
        if not out:
            out.append(table.fallback())
        return out


def choose_bury(variant: str, cards: Sequence[Card], trump: str) -> tuple[list[Card], float]:
    """Eight cards to bury from ``cards`` with ``trump`` as trump, and their cost.

    Tries voiding every set of short plain suits that fits in eight cards, fills the rest with
    the cheapest cards, and keeps the cheapest result (voids earn a bonus).
    """
    order = order_for(variant, trump)
    group = order.group
    hongwu = variant == "hongwu"
    counts = [0] * 54
    for card in cards:
        counts[card] += 1
    by_suit: list[list[Card]] = [[], [], [], [], []]
    for card in cards:
        by_suit[group[card]].append(card)
    n_trump = len(by_suit[TRUMP])
    cost = [0.0] * 54
    for kind in range(54):
        if not counts[kind]:
            continue
        g = group[kind]
        if g == TRUMP:
            cost[kind] = 20.0 + order.strength[kind] - 100
            continue
        rank = kind % 13 + 2
        value = {14: 8.0, 13: 3.0, 12: 1.5, 11: 1.0}.get(rank, 0.3 + 0.05 * rank)
        if rank == 13 and counts[kind + 1]:
            value = 5.0
        points = POINTS[kind]
        # 包分 kitty points count for no one; 包红五 kitty points swing with the last trick.
        value += points * (0.7 if hongwu and n_trump < 14 else 0.4)
        if counts[kind] == 2:
            value += 2.0 + 0.5 * rank / 14
        cost[kind] = value
    plain = [s for s in range(4) if by_suit[s]]
    void_bonus = 5.0 if n_trump >= 8 else 2.0
    best: tuple[float, list[Card]] | None = None
    for mask in range(1 << len(plain)):
        voided = [plain[i] for i in range(len(plain)) if mask >> i & 1]
        bury = [c for s in voided for c in by_suit[s]]
        if len(bury) > 8:
            continue
        rest = [c for c in cards if group[c] not in voided]
        rest.sort(key=lambda c: (cost[c], c))
        bury += rest[:8 - len(bury)]
        total = sum(cost[c] for c in bury) - void_bonus * len(voided)
        if best is None or total < best[0]:
            best = (total, bury)
    assert best is not None
    return best[1], best[0]


class _Table:
    """One play decision: the observation, what can be inferred, and the scoring of plays."""

    def __init__(self, obs: Observation, weights: RuleWeights, tally: TrickTally) -> None:
        self.obs = obs
        self.w = weights
        know = self.know = Knowledge(obs, tally)
        judge = obs.judge
        assert judge is not None and obs.seat is not None
        self.judge: TrickJudge = judge
        self.order: Order = judge.order
        self.group = judge.group
        self.strength = judge.strength
        self.seat = obs.seat
        self.declarer = obs.declarer
        self.is_declarer = obs.seat == obs.declarer
        self.sign = 1.0 if self.is_declarer else -1.0
        self.hongwu = obs.rules.variant == "hongwu"
        self.by_group = obs.by_group
        counts = [0] * 54
        for card in obs.hand:
            counts[card] += 1
        self.counts = counts
        self.value = self._card_values(know)
        self.wangfen_open = (
            not self.hongwu and not know.trump_points_won[obs.declarer or 0]
        )

    def is_legal(self, cards: Sequence[Card]) -> bool:
        """True when this seat may play ``cards`` now (the engine's rule check)."""
        shape = self.obs.lead_shape
        suited = None if shape is None else self.by_group[shape.group]
        return self.judge.play_error(shape, self.counts, suited, cards) is None

    # -- values -------------------------------------------------------------------------------

    def _card_values(self, know: Knowledge) -> list[float]:
        """Future value of each kind held: what it is worth to keep it for a later trick."""
        w = self.w
        above = know.above
        group = self.group
        strength = self.strength
        value = [0.0] * 54
        top = self.top = [0.0] * 54
        for kind, count in enumerate(self.counts):
            if not count:
                continue
            higher = above[kind]
            top[kind] = 1.0 / (1.0 + higher) ** 1.5
            if group[kind] == TRUMP:
                value[kind] = w.trump_base + w.trump_top / (1.0 + higher / 2.0)
            else:
                value[kind] = w.plain_top * top[kind] + 0.02 * strength[kind]
        return value

    def _is_trump_point(self, card: Card) -> bool:
        return self.group[card] == TRUMP and POINTS[card] > 0 and card < 52 and card % 13 != 0

    def spend_cost(self, cards: Sequence[Card]) -> float:
        """Future value given up by playing ``cards``, broken pairs included."""
        value = self.value
        cost = 0.0
        counts = self.counts
        pair_break = self.w.pair_break * (0.5 if self.hongwu else 1.0)
        for card in cards:
            cost += value[card]
        if len(cards) == 1:
            card = cards[0]
            if counts[card] == 2:
                cost += pair_break * (1.0 + value[card] / 4.0)
            return cost
        played: dict[Card, int] = {}
        for card in cards:
            played[card] = played.get(card, 0) + 1
        for card, n in played.items():
            if n == 1 and counts[card] == 2:
                cost += pair_break * (1.0 + value[card] / 4.0)
        return cost

    def point_value(self, cards: Sequence[Card], owner: int, p_declarer: float) -> float:
        """Expected declarer points from ``cards`` of ``owner`` going into a trick the declarer
        takes with chance ``p_declarer``: card points, red fives (包红五), 王分 (包分)."""
        points = 0.0
        for card in cards:
            pts = POINTS[card]
            if not pts:
                continue
            points += pts * p_declarer
            if self.hongwu:
                if card == RED_FIVE:
                    red = self.obs.rules.red5_capture_points
                    if owner == self.declarer:
                        points -= red * (1.0 - p_declarer)
                    else:
                        points += red * p_declarer
            elif self.wangfen_open and self._is_trump_point(card):
                points += self.w.wangfen * p_declarer
        return points

    # -- probabilities ------------------------------------------------------------------------

    def holds_chance(self, winner: int, shape: LeadShape, best: Sequence[Card],
                     later: Sequence[int]) -> float:
        """Chance that ``winner``'s side keeps the trick against the seats in ``later``."""
        know = self.know
        p = 1.0
        for seat in later:
            if not know.same_side(seat, winner):
                p *= 1.0 - know.beat_chance(seat, shape, best)
        return p

    def later_seats(self) -> list[int]:
        """Seats to play after this one in the current trick."""
        done = len(self.obs.current_trick) + 1
        return [(self.seat + i) % 4 for i in range(1, 5 - done)]

    def _kitty_stake(self) -> float:
        """包红五 last trick: declarer points at stake on the kitty (保底/抓底)."""
        obs = self.obs
        if obs.buried is not None:
            return sum(POINTS[c] for c in obs.buried)
        know = self.know
        return know.unseen_points * 8 / max(know.hidden_total, 8)

    def trick_value(self, p_side: float, winner_side_declarer: bool, cards: Sequence[Card],
                    table: Sequence[tuple[int, Sequence[Card]]], later: int) -> float:
        """Value to this seat of playing ``cards`` into the trick (given the table so far)."""
        p_decl = p_side if winner_side_declarer else 1.0 - p_side
        w = self.w
        expected = self.point_value(cards, self.seat, p_decl)
        for owner, played in table:
            expected += self.point_value(played, owner, p_decl)
        expected += p_decl * w.later_points * later
        if self.hongwu and self.know.sizes[self.seat] == len(cards):
            kitty = self._kitty_stake()
            multiplier = self.obs.rules.kitty_multiplier_trump
            expected += p_decl * kitty - (1.0 - p_decl) * kitty * multiplier
        keep_loss = 0.0
        for card in cards:
            if POINTS[card]:
                keep_loss += self.point_value((card,), self.seat, self.keep_chance(card))
        return self.sign * (expected - keep_loss)

    def keep_chance(self, card: Card) -> float:
        """Chance the declarer captures ``card`` if this seat keeps it for later."""
        top = self.top[card]
        if self.is_declarer:
            return self.w.keep_declarer + 0.6 * top
        return self.w.keep_defender - 0.35 * top

    # -- following ----------------------------------------------------------------------------

    def follow_candidates(self) -> list[tuple[float, tuple[Card, ...]]]:
        """Scored follows: every single, matching units, ruffs, the cheapest and the feeding one."""
        obs = self.obs
        shape = obs.lead_shape
        assert shape is not None
        judge = self.judge
        by_group = self.by_group
        g = shape.group
        suited = by_group[g]
        options: list[list[Card]] = []
        discard_cost = [self.value[k] + 0.6 * POINTS[k] for k in range(54)]
        feed_cost = [self.value[k] - 0.6 * POINTS[k] for k in range(54)]
        options.append(compose_follow(judge, shape, by_group, CostChooser(discard_cost)))
        options.append(compose_follow(judge, shape, by_group, CostChooser(feed_cost)))
        later = self.later_seats()
        plays = [cards for _, cards in obs.current_trick]
        if shape.size == 1:
            # Losing cards are covered by the cheapest and the feeding follow; try every winner.
            top = self.strength[plays[judge.best(shape, plays)][0]]
            group = self.group
            strength = self.strength
            options += [
                [c] for c in sorted(set(suited or obs.hand))
                if (group[c] == g or group[c] == TRUMP) and strength[c] > top
            ]
        elif not shape.is_throw and not shape.eight:
            source = suited if len(suited) >= shape.size else (
                by_group[TRUMP] if not suited and g != TRUMP else ())
            options += self._unit_plays(shape, source)
        if not suited and g != TRUMP and by_group[TRUMP] and shape.size > 1:
            strong = [-float(self.strength[k]) for k in range(54)]
            for chooser in (CostChooser(discard_cost), CostChooser(strong, reverse_runs=False)):
                play = matching_play(judge, shape, by_group[TRUMP], chooser)
                if play is not None:
                    options.append(play)
        scored = []
        for option in options:
            cards = tuple(option)
            index = judge.best(shape, [*plays, cards])
            winner = self.seat if index == len(plays) else obs.current_trick[index][0]
            best: Sequence[Card] = cards if index == len(plays) else plays[index]
            p_side = self.holds_chance(winner, shape, best, later)
            value = self.trick_value(
                p_side, winner == self.declarer, cards, obs.current_trick, len(later)
            )
            scored.append((value - self.spend_cost(cards), cards))
        return scored

    def _unit_plays(self, shape: LeadShape, source: Sequence[Card]) -> list[list[Card]]:
        """Plays made of one unit of ``source`` shaped like a one-unit lead (a pair or tractor)."""
        pairs = cast(list[Card], pair_kinds(source))
        if not pairs:
            return []
        if not shape.tractors:
            return [[k, k] for k in pairs] if shape.size == 2 else []
        length = shape.tractors[0]
        if shape.size != 2 * length:
            return []
        plays = []
        for run in cast(list[list[Card]], runs_of_pairs(self.order, pairs)):
            for start in range(len(run) - length + 1):
                plays.append([k for k in run[start:start + length] for _ in (0, 1)])
        return plays

    # -- leading ------------------------------------------------------------------------------

    def lead_candidates(self) -> list[tuple[float, tuple[Card, ...]]]:
        """Scored leads: units of every group held, safe throws, eight of a kind."""
        judge = self.judge
        know = self.know
        options: list[list[Card]] = []
        for g in range(5):
            cards = self.by_group[g]
            if not cards:
                continue
            sure: list[tuple[tuple[Card, ...], int]] = []
            singles: list[Card] = []
            for unit in judge.units(cards):
                unit_cards = unit.cards
                is_sure = know.unit_is_sure(unit_cards, unit.pairs)
                if is_sure:
                    sure.append((unit_cards, unit.pairs))
                if unit.pairs:
                    options.append(list(unit_cards))
                    singles.append(unit_cards[-1])  # the lowest card of a pair alone
                    if unit.pairs > 2:
                        options.append(list(unit_cards[-4:]))
                elif is_sure:
                    options.append(list(unit_cards))
                else:
                    singles.append(unit_cards[0])
            # Singles: the strongest and the two cheapest (sure winners are in already).
            if singles:
                cost = self.value
                singles.sort(key=lambda c: (cost[c] + 0.6 * POINTS[c], c))
                chosen = {*singles[:2], max(singles, key=lambda c: (self.strength[c], -c))}
                options += [[c] for c in sorted(chosen)]
            if len(sure) > 1:
                throw = [c for unit, _ in sure for c in unit]
                if know.throw_is_safe(throw, sure, self.hongwu):
                    options.append(throw)
        scored = [(self._lead_value(option), tuple(option)) for option in options]
        eight = eight_of_a_kind(judge, self.by_group)
        if eight is not None:
            scored.append((1000.0, tuple(eight)))
        return scored

    def _lead_value(self, cards: list[Card]) -> float:
        judge = self.judge
        know = self.know
        w = self.w
        shape = judge.shape(cards)
        others = [(self.seat + i) % 4 for i in (1, 2, 3)]
        p_side = self.holds_chance(self.seat, shape, cards, others)
        if not self.is_declarer and p_side < 1.0:
            declarer = self.declarer
            assert declarer is not None
            after = [s for s in others[others.index(declarer) + 1:]]
            if after:
                p_side += (1.0 - p_side) * w.rescue
        value = self.trick_value(p_side, self.is_declarer, cards, (), 3)
        value -= self.spend_cost(cards) * (1.0 - w.realize * p_side)
        g = shape.group
        if g == TRUMP:
            unseen_trumps = know.unseen_in_group[TRUMP]
            if self.is_declarer:
                if unseen_trumps and len(self.by_group[TRUMP]) * 2 >= unseen_trumps:
                    value += w.draw_trumps * (0.5 + 0.5 * p_side) * min(3, unseen_trumps) / 3
            elif p_side < 0.9:
                value -= w.defender_trump_lead
        return value

    def fallback(self) -> tuple[Card, ...]:
        """A legal play built without scoring (the cheapest), should every candidate fail."""
        obs = self.obs
        cost = [self.value[k] + 0.6 * POINTS[k] for k in range(54)]
        chooser = CostChooser(cost)
        shape = obs.lead_shape
        if shape is None:
            for g in range(5):
                if self.by_group[g]:
                    return (chooser.one(self.by_group[g]),)
        assert shape is not None
        return tuple(compose_follow(self.judge, shape, self.by_group, chooser))
