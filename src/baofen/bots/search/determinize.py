"""Determinization: full hands consistent with one seat's observation, for search.

A :class:`Determinizer` reads an :class:`~baofen.Observation` — never the real hand — and deals
the cards that seat has not seen to the other seats (and, for a defender, to the buried kitty)
so that everything observed stays true:

- hand sizes; the cards played; the seat's own hand (and, for the declarer, its kitty and bury);
- voids shown by follows (§7 suit rule);
- 包分 structure: a follower who played fewer pairs than the lead had held no pair it did not
  play (§7), so it holds no pair of that group now, nor the twin of a card of that group it
  played then or later;
- good throws: no other seat could beat any unit (§6), so none holds a higher single (or, in
  包分, a higher pair; in 包红五, any card as high as the throw's lowest);
- failed throws: the thrower kept the cards it did not play (shown to everyone);
- who holds what, on average (:data:`~baofen.bots.search.holdings.HOLDING_WEIGHTS`): the declarer is
  dealt trumps and plain aces, kings and tens more readily (it bid on them and buried its low
  cards), the bury low plain cards, a defender who bid more of the top trumps.

Each world is then checked by replaying the observed actions on an explicit deal built from it
(:meth:`Determinizer.world`): the replay must be legal and give the same tricks (a throw must
fail or succeed as it did). Worlds that do not replay are drawn again.

Inference (:meth:`Determinizer.weighted_world`): a world also gets a likelihood, how likely the
other seats would have acted as observed had they held that world's cards, under the rule bot's
policy softened by a mismatch factor per action (:data:`MISMATCH`): a seat that passed with a
hand the policy would bid on, a declarer naming a suit its world hand would not, a follower
throwing points on a trick it would have won — each makes the world less likely. ``sharpness``
raises every factor to a power (0: no inference; larger: the policy trusted more). The policy's
``bid_margin`` is the margin its bids clear: 0 reads the others' bids as the rule bot's; the
search levels' bold margin (:data:`~baofen.bots.search.bot.BOLD_MARGINS`) reads them as the bold
bids of 困难 and 大师, which bid on weaker hands.

The worlds here are Python hands; the native core's sampler
(:class:`~baofen.bots.search.native_worlds.NativeSampler`) draws the same worlds as native hands.
Which one a search gets is the engine's choice (:meth:`baofen.bots.engine.Engine.worlds`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ...actions import Action, Bid, Declare, Play
from ...cards import CARDS, KINDS, Card
from ...errors import IllegalAction
from ...hand import Hand
from ...observation import Observation
from ...tricks import TrickJudge
from ...units import pair_kinds
from ..rule.shared import tally_plays
from .holdings import HOLDING_WEIGHTS, KITTY, categories, holder_class, start_of_hand


class Policy(Protocol):
    """What the likelihood asks of the other seats' policy: the rule player's choices."""

    def bid(self, obs: Observation) -> int | None: ...
    def declare(self, obs: Observation) -> Declare: ...
    def play(self, obs: Observation) -> tuple[Card, ...]: ...


class World(Protocol):
    """A full deal at the observed position, as a search plays it out: a :class:`Hand`, or the
    native core's hand (:class:`~baofen.bots.search.native_worlds.NativeSampler`'s worlds). Only the
    engine that drew a world plays it out (:meth:`baofen.bots.engine.Engine.play_out`)."""

    @property
    def to_act(self) -> int | None: ...

    def copy(self) -> World: ...


MISMATCH = {"bid": 0.4, "declare": 0.6, "play": 0.8}
"""Likelihood factor of an observed action the rule bot's policy would not have chosen in a world,
by kind (1 when it would have): bids tell most about a hand, single plays least (a human — or a
search bot — often plays otherwise). Mild on purpose: a hand has dozens of observed plays, and
sharp factors would leave one world carrying all the weight."""


def gather(draw: Callable[[], tuple[World, float] | None], count: int,
           attempts: int | None = None) -> list[tuple[World, float]]:
    """Up to ``count`` weighted worlds from ``draw``, stopping at the first not found; with
    ``attempts``, from up to that many draws, passing over those that find none or weigh 0
    (late in a hand the constraints are tight, and one failed draw must not end a review)."""
    out: list[tuple[World, float]] = []
    for _ in range(count if attempts is None else attempts):
        if len(out) == count:
            break
        world = draw()
        if world is None and attempts is None:
            break
        if world is not None and (attempts is None or world[1] > 0.0):
            out.append(world)
    return out


class Determinizer:
    """Samples worlds (full deals, Python hands) consistent with ``observation``, weighed by how
    likely ``policy`` (the rule player, its ``bid_margin`` the others' bids are read with) would
    have acted as the other seats did, the mismatch factors raised to ``sharpness`` (see the
    module docstring). The engine makes one (:meth:`baofen.bots.engine.Engine.worlds`)."""

    def __init__(self, observation: Observation, policy: Policy, sharpness: float = 1.0) -> None:
        obs = observation
        self.mismatch = {kind: factor ** sharpness for kind, factor in MISMATCH.items()}
        if obs.seat is None or obs.judge is None or obs.phase != "playing":
            raise ValueError("determinization needs a seat's observation during play")
        assert obs.declarer is not None
        self.obs = obs
        self.policy = policy
        self.me = obs.seat
        self.strength = obs.judge.strength
        holders = [s for s in range(4) if s != self.me]
        room = {s: obs.hand_sizes[s] for s in holders}
        if obs.buried is None:
            holders.append(KITTY)
            room[KITTY] = 8
        self.holders = holders
        self.room = room
        history = _history(obs)
        played_after = _played_after(history)
        self.cap, self.need = self._constraints(history, played_after)
        self.played = [rows[0] if rows else [0] * KINDS for rows in played_after]
        """How many of each kind each seat has played this hand."""
        self.unseen = _unseen(obs, history)
        if sum(self.unseen) != sum(room.values()):
            raise ValueError("observation is inconsistent: unseen cards do not fill the hands")
        table = HOLDING_WEIGHTS.get(obs.rules.variant, {})
        category = categories(obs.rules.variant, obs.trump)
        self.weight = {h: [table.get(holder_class(obs, h), {}).get(category[kind], 1.0)
                           for kind in range(KINDS)] for h in holders}
        self._order_kinds()

    def _constraints(self, history: list[Sequence[tuple[int, tuple[Card, ...]]]],
                     played_after: list[list[list[int]]],
                     ) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
        """The most (``cap``) and the fewest (``need``) copies of each kind each holder may hold
        now, from what the tricks showed: voids, pairs not played to a pair lead (包分), good
        and failed throws."""
        obs = self.obs
        judge = obs.judge
        assert judge is not None
        me = self.me
        group = judge.group
        kinds_by_group = judge.order.kinds_by_group
        cap = {h: [2] * KINDS for h in self.holders}
        need = {h: [0] * KINDS for h in self.holders}
        no_pairs_from: dict[tuple[int, int], int] = {}
        structure = obs.rules.must_follow_structure
        hongwu = obs.rules.variant == "hongwu"
        for t, plays in enumerate(history):
            leader, lead = plays[0]
            shape = judge.shape(lead)
            g = shape.group
            voids = [0, 0, 0, 0]
            tally_plays(judge, plays, [0] * KINDS, voids)
            for seat, cards in plays[1:]:
                if seat == me:
                    continue
                if voids[seat] >> g & 1:
                    for card in kinds_by_group[g]:
                        cap[seat][card] = 0
                elif structure and shape.pairs:
                    inside = [c for c in cards if group[c] == g]
                    if len(pair_kinds(inside)) < shape.pairs:
                        no_pairs_from.setdefault((seat, g), t)
            attempted = obs.tricks[t].attempted if t < len(obs.tricks) else obs.current_attempt
            if attempted is not None and leader != me:
                kept = [0] * KINDS
                for card in attempted:
                    kept[card] += 1
                for card in lead:
                    kept[card] -= 1
                later = played_after[leader][t + 1] if t + 1 < len(history) else [0] * KINDS
                for kind in range(KINDS):
                    need[leader][kind] = max(need[leader][kind], kept[kind] - later[kind])
            elif shape.is_throw:
                self._good_throw(judge, lead, leader, t, played_after, cap, hongwu)
        for (seat, g), t in no_pairs_from.items():
            # No pair was left out of that follow: a kind held twice then was played twice.
            later = played_after[seat][t]
            for card in kinds_by_group[g]:
                cap[seat][card] = min(cap[seat][card], max(0, 1 - later[card]))
        return cap, need

    def _order_kinds(self) -> None:
        """Deal the most constrained kinds first: those fewest holders may take."""
        strength = self.strength
        self.kinds = sorted(
            (k for k in range(KINDS) if self.unseen[k]),
            key=lambda k: (sum(1 for h in self.holders if self.cap[h][k]), -strength[k]),
        )

    def tell(self, holder: int, cards: Sequence[Card]) -> None:
        """Deal ``holder`` exactly ``cards`` in every world from now on (a partial reference is
        told them)."""
        counts = [0] * KINDS
        for card in cards:
            counts[card] += 1
        self.cap[holder] = list(counts)
        self.need[holder] = counts
        self._order_kinds()

    def _good_throw(
        self,
        judge: TrickJudge,
        lead: Sequence[Card],
        leader: int,
        t: int,
        played_after: list[list[list[int]]],
        cap: dict[int, list[int]],
        hongwu: bool,
    ) -> None:
        """No other seat could beat a unit of the good throw ``lead`` at trick ``t``."""
        group = judge.group
        strength = judge.strength
        g = group[lead[0]]
        kinds = judge.order.kinds_by_group[g]
        for seat in range(4):
            if seat in (leader, self.me) or seat not in cap:
                continue
            if hongwu:
                weakest = min(strength[c] for c in lead)
                for kind in kinds:
                    if strength[kind] >= weakest:
                        cap[seat][kind] = 0
                continue
            from_now = played_after[seat][t]
            for unit in judge.units(lead):
                if unit.pairs == 0:
                    for kind in kinds:
                        if strength[kind] > unit.top:
                            cap[seat][kind] = 0
                elif unit.pairs == 1:
                    for kind in kinds:
                        if strength[kind] > unit.top:
                            cap[seat][kind] = min(cap[seat][kind], max(0, 1 - from_now[kind]))

    def sample(self, rng: random.Random, tries: int = 3) -> dict[int, list[Card]] | None:
        """Unseen cards dealt to the holders (seats, and :data:`KITTY` for a defender), or
        ``None`` when no deal meets the constraints.

        Cards go one by one, the most constrained kinds first, each to a holder drawn by weight
        and room; when every holder that may take a card is full, cards are shifted along a
        chain of holders to one with room (an augmenting path), so a deal is found whenever one
        exists.
        """
        holders = self.holders
        cap = self.cap
        need = self.need
        weight = self.weight
        for _ in range(tries):
            room = dict(self.room)
            held = {h: [0] * KINDS for h in holders}
            left = list(self.unseen)
            for h in holders:
                for kind, n in enumerate(need[h]):
                    if n:
                        take = min(n, left[kind])
                        held[h][kind] += take
                        left[kind] -= take
                        room[h] -= take
            if any(r < 0 for r in room.values()):
                return None
            ok = True
            for kind in self.kinds:
                for _ in range(left[kind]):
                    options = []
                    total = 0.0
                    for h in holders:
                        if room[h] and held[h][kind] < cap[h][kind]:
                            w = weight[h][kind] * room[h]
                            options.append((h, w))
                            total += w
                    if options:
                        pick = rng.random() * total
                        chosen = options[-1][0]
                        for h, w in options:
                            pick -= w
                            if pick <= 0:
                                chosen = h
                                break
                        held[chosen][kind] += 1
                        room[chosen] -= 1
                    elif not self._shift(rng, kind, held, room):
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                return {h: [CARDS[k] for k in range(KINDS) for _ in range(held[h][k])]
                        for h in holders}
        return None

    def _shift(self, rng: random.Random, kind: int, held: dict[int, list[int]],
               room: dict[int, int]) -> bool:
        """Place one ``kind`` card by moving cards along a chain of full holders to one with
        room (breadth first over the holders); False when no chain exists."""
        holders = self.holders
        cap = self.cap
        need = self.need
        start = [h for h in holders if held[h][kind] < cap[h][kind]]
        rng.shuffle(start)
        parent: dict[int, tuple[int, int] | None] = {h: None for h in start}
        queue = list(start)
        while queue:
            source = queue.pop(0)
            movable = [k for k in range(KINDS) if held[source][k] > need[source][k]]
            rng.shuffle(movable)
            for moved in movable:
                for target in holders:
                    if target in parent or held[target][moved] >= cap[target][moved]:
                        continue
                    parent[target] = (source, moved)
                    if room[target]:
                        node: int = target
                        step = parent[node]
                        while step is not None:
                            previous, card = step
                            held[previous][card] -= 1
                            held[node][card] += 1
                            node = previous
                            step = parent[node]
                        held[node][kind] += 1
                        room[target] -= 1
                        return True
                    queue.append(target)
        return False

    def world(self, rng: random.Random, tries: int = 20) -> World | None:
        """A full deal at the observed position, or ``None`` if none was found."""
        drawn = self.draw(rng, tries, weigh=False)
        return None if drawn is None else drawn[1]

    def weighted_world(self, rng: random.Random, tries: int = 20) -> tuple[World, float] | None:
        """A world as :meth:`world` draws it, with its likelihood under the rule bot's policy for
        the other seats (see the module docstring), or ``None``."""
        drawn = self.draw(rng, tries)
        return None if drawn is None else (drawn[1], drawn[2])

    def weighted_worlds(self, rng: random.Random, count: int, tries: int = 20,
                        attempts: int | None = None) -> list[tuple[World, float]]:
        """Up to ``count`` worlds as :meth:`weighted_world` draws them one after another (see
        :func:`gather`)."""
        return gather(lambda: self.weighted_world(rng, tries), count, attempts)

    def draw(self, rng: random.Random, tries: int = 20, weigh: bool = True,
             ) -> tuple[dict[int, list[Card]], World, float] | None:
        """Holdings from :meth:`sample` that replay as observed (up to ``tries`` draws), with
        their world and likelihood (1 unless ``weigh``), or ``None``."""
        for _ in range(tries):
            dealt = self.sample(rng)
            if dealt is None:
                return None
            likelihood = [1.0]
            hand = self.replay(dealt, likelihood if weigh else None)
            if hand is not None:
                return dealt, hand, likelihood[0]
        return None

    def likely_world(self, dealt: dict[int, list[Card]]) -> tuple[World, float] | None:
        """The world built from ``dealt`` (holdings as :meth:`sample` gives them) with its
        likelihood, or ``None`` when it breaks a constraint or does not replay as observed."""
        for h in self.holders:
            held = [0] * KINDS
            for card in dealt[h]:
                held[card] += 1
            if len(dealt[h]) != self.room[h] or any(
                    n > cap or n < need
                    for n, cap, need in zip(held, self.cap[h], self.need[h], strict=True)):
                return None
        likelihood = [1.0]
        hand = self.replay(dealt, likelihood)
        return None if hand is None else (hand, likelihood[0])

    def move(self, rng: random.Random, dealt: dict[int, list[Card]], likelihood: float,
             steps: int) -> tuple[dict[int, list[Card]], float, World | None]:
        """``steps`` Metropolis steps from the world ``dealt`` (of ``likelihood``), towards
        worlds drawn in proportion to prior weight times likelihood: each step swaps two cards of
        two holders, picked uniformly by position (a symmetric proposal), and keeps the swap
        with the usual acceptance chance. Returns the holdings reached, their likelihood and their
        world (``None`` when no step was kept: the caller has it already)."""
        holders = self.holders
        cap = self.cap
        need = self.need
        weight = self.weight
        held = {h: [0] * KINDS for h in holders}
        current = {h: list(dealt[h]) for h in holders}
        for h in holders:
            for card in current[h]:
                held[h][card] += 1
        world: World | None = None
        for _ in range(steps):
            a, b = rng.sample(holders, 2)
            if not current[a] or not current[b]:
                continue
            i = rng.randrange(len(current[a]))
            j = rng.randrange(len(current[b]))
            x, y = current[a][i], current[b][j]
            if (x == y or held[a][x] <= need[a][x] or held[b][y] <= need[b][y]
                    or held[a][y] >= cap[a][y] or held[b][x] >= cap[b][x]):
                continue
            current[a][i], current[b][j] = y, x
            found = [1.0]
            hand = self.replay(current, found)
            prior = weight[a][y] * weight[b][x] / (weight[a][x] * weight[b][y])
            if hand is not None and rng.random() * likelihood < prior * found[0]:
                held[a][x] -= 1
                held[a][y] += 1
                held[b][y] -= 1
                held[b][x] += 1
                likelihood = found[0]
                world = hand
            else:
                current[a][i], current[b][j] = x, y
        return current, likelihood, world

    def _likelihood(self, hand: Hand, seat: int, action: Action) -> float:
        """The factor for ``seat`` taking ``action`` at ``hand``'s position (1 or a mismatch)."""
        policy = self.policy
        obs = hand.observation(seat)
        if isinstance(action, Play):
            chosen = policy.play(obs)
            return 1.0 if sorted(chosen) == sorted(action.cards) else self.mismatch["play"]
        if isinstance(action, Bid):
            return 1.0 if policy.bid(obs) == action.value else self.mismatch["bid"]
        if isinstance(action, Declare):
            return 1.0 if policy.declare(obs).trump == action.trump else self.mismatch["declare"]
        return 1.0

    def replay(self, dealt: dict[int, list[Card]],
               likelihood: list[float] | None = None) -> World | None:
        """The observed actions replayed on a deal built from ``dealt`` (``None`` when they do not
        replay the same); each other seat's action multiplies ``likelihood[0]`` when given."""
        obs = self.obs
        me = self.me
        declarer = obs.declarer
        current, kitty, bury = start_of_hand(obs, me, dealt)
        try:
            hand = Hand(obs.rules, hands=current, kitty=kitty, first=obs.first)
            for seat, action in obs.actions:
                if isinstance(action, Declare) and seat == declarer:
                    action = Declare(action.trump, bury)
                if likelihood is not None and seat != me:
                    likelihood[0] *= self._likelihood(hand, seat, action)
                hand.apply(seat, action)
        except (IllegalAction, ValueError):
            return None
        if [t.plays for t in hand.tricks] != [t.plays for t in obs.tricks]:
            return None
        if hand.current_trick != obs.current_trick:
            return None
        return hand


def _history(obs: Observation) -> list[Sequence[tuple[int, tuple[Card, ...]]]]:
    """The plays of every trick so far, the current one last."""
    history: list[Sequence[tuple[int, tuple[Card, ...]]]] = [t.plays for t in obs.tricks]
    if obs.current_trick:
        history.append(obs.current_trick)
    return history


def _played_after(history: list[Sequence[tuple[int, tuple[Card, ...]]]]) -> list[list[list[int]]]:
    """``out[s][t][k]``: the copies of kind ``k`` seat ``s`` played in tricks ``t``, ``t + 1``,
    … (suffix sums over the tricks)."""
    played_after: list[list[list[int]]] = [[] for _ in range(4)]
    for plays in history:
        for seat in range(4):
            played_after[seat].append([0] * KINDS)
        for seat, cards in plays:
            for card in cards:
                played_after[seat][-1][card] += 1
    for seat in range(4):
        rows = played_after[seat]
        for t in range(len(rows) - 2, -1, -1):
            rows[t] = [a + b for a, b in zip(rows[t], rows[t + 1], strict=True)]
    return played_after


def _unseen(obs: Observation, history: list[Sequence[tuple[int, tuple[Card, ...]]]]) -> list[int]:
    """The copies of each kind the observing seat has not seen: not in its hand, its bury, or
    played."""
    unseen = [2] * KINDS
    for card in obs.hand:
        unseen[card] -= 1
    for card in obs.buried or ():
        unseen[card] -= 1
    for plays in history:
        for _, cards in plays:
            for card in cards:
                unseen[card] -= 1
    return unseen
