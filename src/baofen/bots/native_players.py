"""The native players: the rule player (the same choices as :class:`baofen.bots.RuleBot`) and
the random player, deciding one action or playing many hands to the end in one call.

A seat's player is ``"rule"`` (the rule player with the default :class:`RuleWeights`), a
:class:`RuleWeights` (the rule player with those weights, as ``make_bot("rule", **weights)``),
or ``"random"`` (the native random player, as :func:`baofen._native.batch.random_hands` plays).
The rule player is deterministic; the random seats of one hand share one generator, seeded from
``player_seed`` and the hand's index in the call. Deals come from the Python engine, as in
:mod:`baofen._native.batch`, so a native hand and a Python one on a seed are the same deal.

- :class:`NativeRulePlayer`: the rule player deciding on an observation natively.
- :func:`rule_action`: the native rule player's action for a Python hand's seat to act.
- :func:`player_hands` / :func:`player_table`: hands dealt from seeds (or fresh Python hands)
  played to the end by a native player a seat, with their actions (hand records) or results only.
- :func:`play_out_with`: native hands in any state played to the end.
- :func:`play_out_candidates`: many worlds × candidate plays of the seat to act, each played to
  the end — what a search needs, in one call.
- :func:`play_out_actions`: the same for bids and declarations (the contract and kitty searches):
  each world × action applied to a copy, all played to the end in one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from .._native import core
from .._native.batch import (
    ACTION_BID,
    ACTION_DECLARE,
    PlayedHand,
    native_hand,
    native_rules,
    pack_deals,
    played_hands,
    results_of,
    seeded_deals,
)
from ..actions import Action, Bid, Declare, Play
from ..cards import CARDS, KINDS, SUITS, Card
from ..hand import Hand
from ..observation import Observation
from ..ruleset import RuleSet
from ..scoring import HandResult
from .rule.play import RuleWeights
from .rule.player import RulePlayer
from .rule.shared import tally_plays

if TYPE_CHECKING:
    from .._native import _core

__all__ = [
    "NativeRulePlayer",
    "Player",
    "RuleWeights",
    "native_players",
    "native_weights",
    "play_out_actions",
    "play_out_candidates",
    "play_out_with",
    "player_hands",
    "player_table",
    "rule_action",
]

Player: TypeAlias = Literal["rule", "random"] | RuleWeights
"""A seat's native player: the rule player (default weights, or the weights given) or random."""

@cache
def native_weights(weights: RuleWeights = RuleWeights()) -> _core.RuleWeights:  # noqa: B008
    """The native form of rule-player weights (made once per weights)."""
    weights_type: type[_core.RuleWeights] = core().RuleWeights
    return weights_type(asdict(weights))


class NativeRulePlayer(RulePlayer):
    """The rule player whose decisions the native core makes (``_core.rule_decide``): the same
    choices as :class:`~baofen.bots.rule.player.RulePlayer` (tests/test_native_rule.py), which
    still decides for an observation of no seat."""

    def __init__(self, weights: RuleWeights = RuleWeights()) -> None:  # noqa: B008
        super().__init__(weights)
        self.native = native_weights(weights)
        """The weights in the native core's form."""

    def first_bid(self, obs: Observation, legal: list[int]) -> int | None:
        """As :meth:`RulePlayer.first_bid`, decided natively."""
        if obs.seat is None:
            return super().first_bid(obs, legal)
        value: int | None = self.decide(obs, legal, 1)
        return value

    def declare(self, obs: Observation) -> Declare:
        """As :meth:`RulePlayer.declare`, decided natively."""
        if obs.seat is None:
            return super().declare(obs)
        trump, bury = self.decide(obs, [], 1)
        return Declare(trump, bury)

    def play_candidates(self, obs: Observation, limit: int = 64) -> list[tuple[Card, ...]]:
        """As :meth:`RulePlayer.play_candidates`, found natively."""
        if obs.seat is None:
            return super().play_candidates(obs, limit)
        plays = self.decide(obs, [], limit)
        return [tuple(CARDS[c] for c in play) for play in plays]

    def decide(self, obs: Observation, bids: list[int], limit: int) -> Any:
        """The native rule player's decision on ``obs``: a bid among ``bids``, a trump and bury,
        or up to ``limit`` plays, as the phase asks."""
        judge = obs.judge
        played: list[int] = [0] * KINDS
        voids: list[int] = [0] * 4
        won: list[int] = voids
        if judge is not None:
            done, shown, won = self.tally.after(judge, obs.tricks)
            played = list(done)
            voids = list(shown)
            tally_plays(judge, obs.current_trick, played, voids)
        return core().rule_decide(
            native_rules(obs.rules), self.native, obs.phase, obs.seat, obs.declarer, obs.trump,
            obs.hand, played, voids, won, obs.hand_sizes, obs.buried, obs.current_trick, bids,
            limit,
        )


def native_players(players: Player | Sequence[Player]) -> list[_core.RuleWeights | None]:
    """Four seats' players as the native calls take them (``None``: random); one player given
    alone plays every seat."""
    seats: Sequence[Player] = [players] * 4 if isinstance(players, (str, RuleWeights)) else players
    if len(seats) != 4:
        raise ValueError(f"players: one a seat, four in all (got {len(seats)})")
    out: list[_core.RuleWeights | None] = []
    for player in seats:
        if player == "random":
            out.append(None)
        elif player == "rule":
            out.append(native_weights())
        elif isinstance(player, RuleWeights):
            out.append(native_weights(player))
        else:
            raise ValueError(f"a native player is 'rule', 'random' or RuleWeights: {player!r}")
    return out


def _action(entry: tuple[int, int, int, list[int]]) -> Action:
    kind, _, value, cards = entry
    if kind == ACTION_BID:
        return Bid(None if value < 0 else value)
    if kind == ACTION_DECLARE:
        return Declare(SUITS[value], tuple(CARDS[c] for c in cards))
    return Play.of(tuple(CARDS[c] for c in cards))


def rule_action(hand: Hand, weights: RuleWeights = RuleWeights()) -> Action:  # noqa: B008
    """The native rule player's action for the seat to act in the Python ``hand`` (the same
    as ``RuleBot(**asdict(weights)).act(hand.observation(seat))``); ``hand`` is unchanged."""
    if hand.to_act is None:
        raise ValueError("nothing to do: the hand is done")
    return _action(native_hand(hand).rule_action(native_weights(weights)))


def player_table(
    rules: RuleSet, seeds: Sequence[int], players: Player | Sequence[Player] = "rule",
    player_seed: int = 0,
) -> bytes:
    """The hands dealt from ``seeds`` played to the end by native ``players`` in one call: their
    result table (:func:`~baofen._native.batch.results_of`, ``failed_throws_of``)."""
    cards, firsts = seeded_deals(rules, seeds)
    table: bytes
    table, _, _ = core().player_hands(
        native_rules(rules), cards, firsts, native_players(players), player_seed
    )
    return table


def player_hands(
    hands: Sequence[Hand], players: Player | Sequence[Player] = "rule", player_seed: int = 0
) -> list[PlayedHand]:
    """The deals of fresh Python ``hands`` (of one rule set, nothing played yet) played to the
    end by native ``players`` in one call, with every hand's actions (for records and replays);
    the hands are unchanged."""
    if not hands:
        return []
    rules = hands[0].rules
    cards, firsts = pack_deals((hand.deal, hand.first) for hand in hands)
    table, logs, winners = core().player_hands(
        native_rules(rules), cards, firsts, native_players(players), player_seed, True
    )
    return played_hands(hands, table, logs, winners)


def play_out_with(
    rules: RuleSet, hands: Sequence[_core.Hand], players: Player | Sequence[Player] = "rule",
    player_seed: int = 0,
) -> list[HandResult]:
    """Copies of native ``hands`` of ``rules`` (any phase) played to the end by native
    ``players`` in one call; the hands themselves are unchanged."""
    return results_of(
        rules, core().play_out_players(hands, native_players(players), player_seed)
    )


def play_out_candidates(
    rules: RuleSet,
    worlds: Sequence[_core.Hand | Hand],
    candidates: Sequence[Sequence[int]],
    players: Player | Sequence[Player] = "rule",
    player_seed: int = 0,
) -> list[list[HandResult]]:
    """For each world (a hand in play: native, or Python and converted) and each candidate play
    of its seat to act, the result of playing that candidate and then on to the end with native
    ``players``; one call for them all. ``out[w][c]`` is world ``w`` with candidate ``c``.
    A candidate that is not legal in a world raises ``ValueError``."""
    natives = [native_hand(w) if isinstance(w, Hand) else w for w in worlds]
    table = core().play_out_candidates(
        natives, [[int(c) for c in cards] for cards in candidates], native_players(players),
        player_seed,
    )
    results = results_of(rules, table)
    width = len(candidates)
    return [results[w * width : (w + 1) * width] for w in range(len(natives))]


def play_out_actions(
    rules: RuleSet,
    worlds: Sequence[_core.Hand | Hand],
    actions: Sequence[Action],
    players: Player | Sequence[Player] = "rule",
    player_seed: int = 0,
) -> list[list[HandResult]]:
    """For each world (native or Python, converted) and each action (a :class:`Bid` or a
    :class:`Declare`; a :class:`Play` too) of its seat to act, the result of taking that action
    and playing on to the end with native ``players``: ``out[w][a]``, the play-outs in one call.
    An action that is not legal in a world raises ``ValueError``."""
    copies: list[_core.Hand] = []
    for world in worlds:
        native = native_hand(world) if isinstance(world, Hand) else world
        seat = native.to_act
        if seat is None:
            raise ValueError("the hand is done: no action to take")
        for action in actions:
            copy = native.copy()
            if isinstance(action, Bid):
                copy.bid(seat, action.value)
            elif isinstance(action, Declare):
                copy.declare(seat, action.trump, action.bury)
            elif isinstance(action, Play):
                copy.play(seat, action.cards)
            else:
                raise ValueError(f"not an action: {action!r}")
            copies.append(copy)
    results = play_out_with(rules, copies, players, player_seed)
    width = len(actions)
    return [results[w * width : (w + 1) * width] for w in range(len(worlds))]
