"""The discrete action space of the environment, and the composer that turns its steps into
engine actions (:class:`~baofen.Bid`, :class:`~baofen.Declare`, :class:`~baofen.Play`).

One decision of the game may take several steps. Indexes, for a rule set whose bid values are
``v_0 < v_1 < … < v_{V-1}`` (包分 85 90 95; 包红五 70 75 … 200):

============  ==========================================================================
index         meaning
============  ==========================================================================
0 … 53        add one card of that kind (:data:`baofen.CARDS` order: S2…SA, H2…HA, C2…CA,
              D2…DA, LJ, BJ) to the pending selection — a card to bury, or to play
54            ``COMMIT``: play the pending selection (lead or follow)
55 … 58       name the trump suit S, H, C, D (定主; the first step of the kitty decision)
59            ``PASS`` (不叫)
60 … 60+V−1   bid ``v_i`` (叫分)
============  ==========================================================================

- **Bidding**: one step, ``PASS`` or a bid value higher than the standing bid.
- **Kitty** (扣底定主): nine steps, the trump suit, then the eight cards to bury one by one (any of
  the 33 held); the eighth card completes the :class:`~baofen.Declare`.
- **Play**: card by card, then ``COMMIT``. A card is allowed when the selection with it is still
  part of some legal play (:mod:`baofen.env.selection`); ``COMMIT`` when the selection itself is
  legal. So every lead (units, throws — a throw that will fail included —, eight of a kind) and
  every legal follow can be composed, in any order of its cards, and nothing illegal can.
"""

from __future__ import annotations

from ..actions import Action, Bid, Declare, Play
from ..cards import CARDS, KINDS, SUITS
from ..errors import IllegalAction
from ..observation import Observation
from ..ruleset import RuleSet
from .selection import addable, counts_of

COMMIT = KINDS
"""Index of the commit step (play the pending selection)."""
TRUMP_BASE = COMMIT + 1
"""Index of naming the trump suit ``S``; ``H``, ``C``, ``D`` follow."""
PASS = TRUMP_BASE + len(SUITS)
"""Index of a pass in the bidding."""
BID_BASE = PASS + 1
"""Index of the lowest bid value; the others follow in increasing order."""
BURY_SIZE = 8


class ActionSpace:
    """The layout of the discrete actions for one rule set (see the module docstring)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.bid_values: tuple[int, ...] = tuple(rules.bid_grid())
        self.size = BID_BASE + len(self.bid_values)
        """Number of discrete actions."""

    def bid_index(self, value: int | None) -> int:
        """The index of a bid (``None``: the pass)."""
        if value is None:
            return PASS
        return BID_BASE + self.bid_values.index(value)

    def describe(self, index: int) -> str:
        """A readable name of an action index: ``"card SA"``, ``"commit"``, ``"trump H"``,
        ``"pass"``, ``"bid 90"``."""
        if 0 <= index < KINDS:
            return f"card {CARDS[index]}"
        if index == COMMIT:
            return "commit"
        if TRUMP_BASE <= index < PASS:
            return f"trump {SUITS[index - TRUMP_BASE]}"
        if index == PASS:
            return "pass"
        if BID_BASE <= index < self.size:
            return f"bid {self.bid_values[index - BID_BASE]}"
        raise ValueError(f"no action {index!r}: the actions are 0–{self.size - 1}")

    def steps_of(self, action: Action) -> list[int]:
        """The action indexes that compose an engine action, in order (cards as given)."""
        if isinstance(action, Bid):
            return [self.bid_index(action.value)]
        if isinstance(action, Declare):
            return [TRUMP_BASE + SUITS.index(action.trump), *map(int, action.bury)]
        return [*map(int, action.cards), COMMIT]


class Composer:
    """The pending part of the seat-to-act's decision, built step by step.

    :meth:`allowed` lists the legal steps now; :meth:`push` takes one, and returns the engine
    action once the decision is complete (then the composer is empty again).
    """

    __slots__ = ("_last", "selected", "space", "trump")

    def __init__(self, space: ActionSpace) -> None:
        self.space = space
        self.selected: list[int] = []
        """Cards picked so far (to bury, or to play)."""
        self.trump: str | None = None
        """The trump suit named, while the bury is being picked."""
        self._last: tuple[tuple[object, ...], list[int]] | None = None
        """The last answer of :meth:`allowed`, with what it was for (an env asks for the mask
        to observe, then again to check the step taken)."""

    def clear(self) -> None:
        """Forget the pending selection (a new hand, or the decision was applied)."""
        self.selected = []
        self.trump = None
        self._last = None

    def allowed(self, observation: Observation) -> list[int]:
        """The indexes of every legal step for the observing seat now (empty when it is not
        to act)."""
        # One seat's moment of a hand: its cards, the number of actions, the selection, the trump.
        key = (observation.seat, len(observation.actions), observation.by_group,
               tuple(self.selected), self.trump)
        last = self._last
        if last is not None and last[0] == key:
            return list(last[1])
        steps = self._allowed(observation)
        self._last = (key, steps)
        return list(steps)

    def _allowed(self, observation: Observation) -> list[int]:
        if not observation.is_my_turn:
            return []
        phase = observation.phase
        if phase == "bidding":
            return [self.space.bid_index(v) for v in observation.legal_bids()]
        if phase == "kitty":
            if self.trump is None:
                return list(range(TRUMP_BASE, PASS))
            chosen = counts_of(self.selected)
            held = counts_of(observation.hand)
            return [k for k in range(KINDS) if held[k] > chosen[k]]
        if phase == "playing":
            steps = addable(observation, self.selected)
            if self.selected and observation.is_legal(self.selected):
                steps.append(COMMIT)
            return steps
        return []

    def push(self, observation: Observation, index: int) -> Action | None:
        """Take step ``index``; the completed engine action, or ``None`` while the decision goes
        on. An illegal step raises :class:`~baofen.IllegalAction` and changes nothing."""
        if index not in self.allowed(observation):
            name = self.space.describe(index) if 0 <= index < self.space.size else repr(index)
            raise IllegalAction(f"action {index} ({name}) is not allowed now")
        phase = observation.phase
        if phase == "bidding":
            return Bid(None if index == PASS else self.space.bid_values[index - BID_BASE])
        if phase == "kitty" and self.trump is None:
            self.trump = SUITS[index - TRUMP_BASE]
            return None
        if index == COMMIT:
            play = Play(self.selected)
            self.clear()
            return play
        self.selected.append(index)
        if phase == "kitty" and len(self.selected) == BURY_SIZE:
            assert self.trump is not None
            declare = Declare(self.trump, self.selected)
            self.clear()
            return declare
        return None
