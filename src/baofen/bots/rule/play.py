"""The rule bot's play (出牌): every candidate lead or follow scored by one estimate.

Every candidate play is scored by the chance that the declarer's side takes the trick (from the
cards not yet seen and the voids shown, :class:`~baofen.bots.rule.shared.Knowledge`) times the
points at stake, minus the future value of the cards spent (high cards, trumps, broken pairs), plus
game terms — the red five's ±20 and 保底 in 包红五, 王分 in 包分. Leads are units or throws that are
safe given the unseen cards (a failed throw costs a penalty); the declarer gets a bonus for
drawing trumps, defenders a malus for leading them. Follows consider every card that would take
the lead of a single, each matching pair or tractor, ruffs, the cheapest legal follow and a
point-feeding one: so the bot wins cheaply when points are at stake, feeds points to a defender
partner who holds the trick, and otherwise discards low and keeps its pairs. Legal follows are
built with the engine's structure rules (:func:`~baofen.bots.rule.shared.compose_follow`).

Weights (:class:`RuleWeights`) were tuned by duplicate self-play, and can be set as options:
``make_bot("rule", plain_top=2.0)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from ...cards import KINDS, LITTLE_JOKER, POINTS, Card
from ...observation import Observation
from ...order import TRUMP, Order
from ...scoring import RED_FIVE
from ...tricks import LeadShape, TrickJudge
from ...units import pair_kinds, runs_of_pairs
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



class PlayDecision:
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
        counts = [0] * KINDS
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
        value = [0.0] * KINDS
        top = self.top = [0.0] * KINDS
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
        return (
            self.group[card] == TRUMP and POINTS[card] > 0 and card < LITTLE_JOKER
            and card % 13 != 0
        )

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
        discard_cost = [self.value[k] + 0.6 * POINTS[k] for k in range(KINDS)]
        feed_cost = [self.value[k] - 0.6 * POINTS[k] for k in range(KINDS)]
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
            strong = [-float(self.strength[k]) for k in range(KINDS)]
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
