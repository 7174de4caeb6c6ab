"""Leads, throws, following and trick winners (rules.md §5–8), for one rule set and trump.

:class:`TrickJudge` is pure: it looks only at the card lists it is given. The hand state machine
asks it whether a play is legal, whether a throw fails, and who wins a trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from .cards import CARDS, KINDS, Card
from .errors import Reason
from .order import TRUMP, Order
from .units import all_tractors_fit, best_tractor_match, pair_kinds, runs_of_pairs

# How a follow relates to the lead (§8.1).
IN_SUIT, RUFF, DISCARD = 0, 1, 2


class LeadShape(NamedTuple):
    """What followers must answer: the lead's group, size and structure (§7)."""

    group: int
    size: int
    tractors: tuple[int, ...]
    """Tractor lengths, longest first."""
    pairs: int
    """Pairs including those inside tractors."""
    units: int
    eight: bool
    """An eight-of-a-kind lead (八张, 包分)."""

    @property
    def is_throw(self) -> bool:
        """A lead of two or more units (甩牌)."""
        return self.units > 1 and not self.eight


class Trick(NamedTuple):
    """A finished trick (一轮): who led, each ``(seat, cards)`` in play order, the winner and
    its card points.

    ``attempted`` holds every card of a failed throw (甩错牌, shown to everyone) when the lead
    was one, and ``penalty`` its penalty; the lead in ``plays`` is what was actually played.
    """

    leader: int
    plays: tuple[tuple[int, tuple[Card, ...]], ...]
    winner: int
    points: int
    attempted: tuple[Card, ...] | None = None
    penalty: int = 0

    def cards_of(self, seat: int) -> tuple[Card, ...] | None:
        """What ``seat`` played to this trick (``None`` if it is not among the plays)."""
        for who, cards in self.plays:
            if who == seat:
                return cards
        return None


class Unit(NamedTuple):
    """One unit of a decomposed lead: a single, a pair (one run of length 1) or a tractor."""

    cards: tuple[Card, ...]
    """The unit's cards, strongest first."""
    pairs: int
    """0 for a single, else the number of pairs (1 for a pair)."""
    top: int
    """Strength of its strongest card."""


class PlayRules(Protocol):
    """The settings that decide leads and follows: a :class:`~baofen.ruleset.RuleSet` is one."""

    @property
    def variant(self) -> str:
        """``"baofen"`` or ``"hongwu"``."""

    @property
    def must_follow_structure(self) -> bool:
        """Followers owe pairs and tractors."""

    @property
    def eight_of_a_kind(self) -> bool:
        """包分: eight cards of a rank lead as trump (八张)."""


class TrickJudge:
    """Rule checks for one rule set and trump suit."""

    __slots__ = ("eight_enabled", "group", "hongwu", "order", "strength", "structure")

    def __init__(self, rules: PlayRules, order: Order) -> None:
        self.order = order
        self.group = order.group
        self.strength = order.strength
        self.hongwu = rules.variant == "hongwu"
        self.structure = rules.must_follow_structure
        self.eight_enabled = rules.variant == "baofen" and rules.eight_of_a_kind

    def _identity(self) -> tuple[Order, bool, bool, bool]:
        return (self.order, self.hongwu, self.structure, self.eight_enabled)

    def __eq__(self, other: object) -> bool:
        # Judges built alike judge alike: a replayed hand's observations equal the original's.
        if not isinstance(other, TrickJudge):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    # -- leads --------------------------------------------------------------------------------

    def is_eight_of_a_kind(self, cards: Sequence[Card]) -> bool:
        """True for the eight cards of one rank other than 2, when the game allows it (§4)."""
        if not self.eight_enabled or len(cards) != 8:
            return False
        first = cards[0]
        if first >= 52 or first % 13 == 0:
            return False
        rank = first % 13
        suits = [0, 0, 0, 0]
        for card in cards:
            if card >= 52 or card % 13 != rank:
                return False
            suits[card // 13] += 1
        return suits == [2, 2, 2, 2]

    def lead_error(self, cards: Sequence[Card]) -> Reason | None:
        """Why ``cards`` cannot be led, or ``None`` (any unit or throw of one group, §5)."""
        if not cards:
            return Reason("empty_lead")
        group = self.group
        first = group[cards[0]]
        for card in cards:
            if group[card] != first:
                if self.is_eight_of_a_kind(cards):
                    return None
                return Reason("mixed_lead")
        return None

    def shape(self, cards: Sequence[Card]) -> LeadShape:
        """The :class:`LeadShape` of a legal lead."""
        if len(cards) == 1:
            return _SINGLE_SHAPES[self.group[cards[0]]]
        if self.is_eight_of_a_kind(cards):
            return LeadShape(TRUMP, 8, (), 4, 4, True)
        pairs = pair_kinds(cards)
        runs = runs_of_pairs(self.order, pairs)
        tractors = tuple(sorted((len(r) for r in runs if len(r) > 1), reverse=True))
        units = len(runs) + len(cards) - 2 * len(pairs)
        return LeadShape(self.group[cards[0]], len(cards), tractors, len(pairs), units, False)

    def units(self, cards: Sequence[Card]) -> list[Unit]:
        """Canonical decomposition of cards of one group into units (§4)."""
        strength = self.strength
        pairs = pair_kinds(cards)
        paired = set(pairs)
        units = [
            Unit(tuple(k for k in run for _ in (0, 1)), len(run), strength[run[0]])
            for run in runs_of_pairs(self.order, pairs)
        ]
        units += [Unit((c,), 0, strength[c]) for c in cards if c not in paired]
        return units

    def failed_throw(
        self, cards: Sequence[Card], others: Sequence[Sequence[Card]]
    ) -> tuple[Card, ...] | None:
        """For a throw, the cards actually played when it fails (§6), or ``None`` when good.

        ``others`` are the other three players' cards of the throw's suit group.
        """
        if self.hongwu:
            return self._failed_throw_hongwu(cards, others)
        strength = self.strength
        order = self.order
        failing: list[Unit] = []
        beaters = [_Beaters(order, strength, held) for held in others if held]
        for unit in self.units(cards):
            if any(b.beats(unit) for b in beaters):
                failing.append(unit)
        if not failing:
            return None
        worst = min(failing, key=lambda u: (len(u.cards), u.top, u.cards[0]))
        return worst.cards

    def _failed_throw_hongwu(
        self, cards: Sequence[Card], others: Sequence[Sequence[Card]]
    ) -> tuple[Card, ...] | None:
        strength = self.strength
        # Between equal strengths the first suit S H C D, which is the smaller kind number.
        lowest = min(cards, key=lambda c: (strength[c], c))
        weakest = strength[lowest]
        for held in others:
            if held and max(strength[c] for c in held) >= weakest:
                return (lowest,)
        return None

    def stopper(self, unit: Sequence[Card], held: Sequence[Card]) -> tuple[Card, ...] | None:
        """The weakest cards of ``held`` that make ``unit`` fail as part of a throw, or ``None``
        when ``held`` has none: 包分 a higher single, pair or tractor of as many pairs (§6.1),
        包红五 a card at least as high as ``unit`` (§6.2). ``unit`` is what a failed throw
        played (:meth:`failed_throw`); the answer is what its reveal shows beat it."""
        strength = self.strength
        group = self.group[unit[0]]
        top = max(strength[c] for c in unit)
        suited = [c for c in held if self.group[c] == group]
        candidates: list[tuple[Card, ...]]
        if self.hongwu:
            candidates = [(c,) for c in suited if strength[c] >= top]
        elif len(unit) == 1:
            candidates = [(c,) for c in suited if strength[c] > top]
        else:
            n = len(unit) // 2
            candidates = [
                tuple(k for k in run[i:i + n] for _ in (0, 1))
                for run in runs_of_pairs(self.order, pair_kinds(suited))
                for i in range(len(run) - n + 1)
                if strength[run[i]] > top
            ]
        return min(candidates, key=lambda cards: (strength[cards[0]], cards[0]), default=None)

    def play_error(
        self,
        shape: LeadShape | None,
        counts: Sequence[int],
        suited: Sequence[Card] | None,
        cards: Sequence[int],
    ) -> Reason | None:
        """Why ``cards`` may not be played now, or ``None`` (§5, §7).

        ``shape`` is the current lead's shape, ``None`` when leading; ``counts`` are the
        player's cards as counts per kind, ``suited`` its cards of the led group (when
        following).
        """
        if not cards:
            return Reason("empty_play")
        need: dict[int, int] = {}
        for card in cards:
            if type(card) is not Card and (
                not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < KINDS
            ):
                return Reason("not_a_card", card=repr(card))
            n = need.get(card, 0) + 1
            if n > counts[card]:
                return Reason("not_held_twice" if n > 1 else "not_held", card=str(CARDS[card]))
            need[card] = n
        played = [CARDS[c] for c in cards]
        if shape is None:
            return self.lead_error(played)
        if len(played) != shape.size:
            return Reason("wrong_count", size=shape.size)
        assert suited is not None
        return self.follow_error(shape, suited, played)

    # -- following ----------------------------------------------------------------------------

    def follow_error(
        self, shape: LeadShape, suited: Sequence[Card], play: Sequence[Card]
    ) -> Reason | None:
        """Why ``play`` is not a legal follow (§7), or ``None``.

        ``suited`` are the follower's cards of the led group; ``play`` must already be known to
        be ``shape.size`` cards the follower holds.
        """
        group = self.group
        g = shape.group
        n = shape.size
        h = len(suited)
        if n == 1:
            if h and group[play[0]] != g:
                return Reason("follow_suit", group=_group_name(g))
            return None
        played_in_group = [c for c in play if group[c] == g]
        m = len(played_in_group)
        if h >= n:
            if m != n:
                return Reason("follow_cards", size=n, group=_group_name(g))
        elif m != h:
            return Reason("follow_all", held=h, group=_group_name(g))
        tractors, owed_pairs = self.owed_structure(shape, suited)
        if not owed_pairs:
            return None
        played_pairs = pair_kinds(played_in_group)
        if tractors:
            runs = [len(r) for r in runs_of_pairs(self.order, played_pairs)]
            if best_tractor_match(shape.tractors, runs) != tractors:
                return Reason("follow_tractor")
        if len(played_pairs) < owed_pairs:
            return Reason("follow_pairs", pairs=owed_pairs)
        return None

    def owed_structure(
        self, shape: LeadShape, suited: Sequence[Card]
    ) -> tuple[list[int], int]:
        """What a follower holding ``suited`` (cards of the led group) owes: the matched lead
        tractor lengths and the number of pairs (§7); nothing when it must play them all."""
        if not self.structure or not shape.pairs or len(suited) <= shape.size:
            return [], 0
        held_pairs = pair_kinds(suited)
        if not held_pairs:
            return [], 0
        runs = [len(r) for r in runs_of_pairs(self.order, held_pairs)]
        return best_tractor_match(shape.tractors, runs), min(shape.pairs, len(held_pairs))

    # -- winning ------------------------------------------------------------------------------

    def kind_of_follow(self, shape: LeadShape, play: Sequence[Card]) -> int:
        """``IN_SUIT``, ``RUFF`` or ``DISCARD`` (§8.1)."""
        group = self.group
        g = shape.group
        if all(group[c] == g for c in play):
            return IN_SUIT
        if g != TRUMP and all(group[c] == TRUMP for c in play):
            return RUFF
        return DISCARD

    def matches(self, shape: LeadShape, play: Sequence[Card]) -> bool:
        """True when ``play`` has the lead's format: its tractors, then its pairs (§8.2)."""
        if not shape.pairs:
            return True
        pairs = pair_kinds(play)
        if len(pairs) < shape.pairs:
            return False
        if not shape.tractors:
            return True
        runs = [len(r) for r in runs_of_pairs(self.order, pairs)]
        return all_tractors_fit(shape.tractors, runs)

    def key(self, shape: LeadShape, play: Sequence[Card]) -> int:
        """Strength of a matching play's primary unit (§8.3); trumps exceed every plain card."""
        strength = self.strength
        if shape.tractors:
            length = shape.tractors[0]
            runs = runs_of_pairs(self.order, pair_kinds(play))
            return max(strength[r[0]] for r in runs if len(r) >= length)
        if shape.pairs:
            return max(strength[k] for k in pair_kinds(play))
        return max(strength[c] for c in play)

    def winner(self, plays: Sequence[Sequence[Card]]) -> int:
        """Index of the winning play; a lead of several units counts as a good throw.

        Checks that the lead is a lead and every play has its size; use :meth:`best` when the
        plays are known to be legal.
        """
        lead = plays[0]
        error = self.lead_error(lead)
        if error:
            raise ValueError(f"bad lead {list(lead)}: {error}")
        shape = self.shape(lead)
        for index, play in enumerate(plays):
            if len(play) != shape.size:
                raise ValueError(f"play {index} has {len(play)} card(s); the lead has {shape.size}")
        return self.best(shape, plays)

    def best(self, shape: LeadShape, plays: Sequence[Sequence[Card]]) -> int:
        """Index of the winning play among legal ``plays`` (lead first) of a lead of ``shape``."""
        if shape.eight:
            return 0
        group = self.group
        strength = self.strength
        g = shape.group
        if shape.size == 1:
            best, best_key = 0, strength[plays[0][0]]
            for index in range(1, len(plays)):
                card = plays[index][0]
                grp = group[card]
                # Two comparisons, not ``grp in (g, TRUMP)``: no tuple on this hot path.
                if (grp == g or grp == TRUMP) and strength[card] > best_key:  # noqa: SIM109
                    best, best_key = index, strength[card]
            return best
        throw = shape.is_throw
        best, best_key = 0, self.key(shape, plays[0])
        for index in range(1, len(plays)):
            play = plays[index]
            kind = self.kind_of_follow(shape, play)
            if kind == DISCARD or (kind == IN_SUIT and throw):
                continue
            if not self.matches(shape, play):
                continue
            key = self.key(shape, play)
            if key > best_key:
                best, best_key = index, key
        return best


_SINGLE_SHAPES = tuple(LeadShape(g, 1, (), 0, 1, False) for g in range(5))


class _Beaters:
    """One opponent's holding in a group, ready to answer 'can you beat this unit?' (§6.1)."""

    __slots__ = ("pair_top", "runs", "single_top")

    def __init__(self, order: Order, strength: Sequence[int], held: Sequence[Card]) -> None:
        self.single_top = max(strength[c] for c in held)
        pairs = pair_kinds(held)
        self.pair_top = max((strength[k] for k in pairs), default=-1)
        self.runs = [(len(r), strength[r[0]]) for r in runs_of_pairs(order, pairs) if len(r) > 1]

    def beats(self, unit: Unit) -> bool:
        if unit.pairs == 0:
            return self.single_top > unit.top
        if unit.pairs == 1:
            return self.pair_top > unit.top
        return any(length >= unit.pairs and top > unit.top for length, top in self.runs)


def _group_name(group: int) -> str:
    return "trump" if group == TRUMP else "SHCD"[group]
