"""Play-outs on the native core, many hands a call, and what Python makes of them.

The deals come from the Python engine (a hand dealt from a seed is ``Hand(rules, seed=seed)``'s
deal), so native and Python hands on one seed are the same deal by construction. Results come
back as :class:`~baofen.HandResult`; :class:`PlayedHand` turns a native hand into a hand record
(``Hand.to_record()`` format) that the Python engine replays (``Hand.from_record``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ..actions import Action, Bid, Declare, Play
from ..cards import CARDS, SUITS, Card
from ..hand import Hand
from ..order import order_for
from ..record import build_record
from ..ruleset import RuleSet
from ..scoring import HandResult
from . import core
from .tables import (
    ACTION_BID,
    ACTION_DECLARE,
    ACTION_PLAY,
    BREAKDOWN,
    RESULT_AT,
    RESULT_FIELDS,
    RESULT_KINDS,
)

if TYPE_CHECKING:
    from . import _core

__all__ = [
    "ACTION_BID", "ACTION_DECLARE", "ACTION_PLAY", "RESULT_FIELDS", "PlayedHand", "actions_of",
    "column", "dealt", "failed_throws_of", "native_hand", "native_rules", "pack_deals", "play_out",
    "play_random", "played_hands", "random_hands", "random_table", "result_of", "results_of",
    "seeded_deals",
]

_DELTAS, _BREAKDOWN_AT = RESULT_AT["deltas"], RESULT_AT["breakdown"]


@cache
def native_rules(rules: RuleSet) -> _core.Rules:
    """The native form of a rule set (made once per rule set)."""
    rules_type: type[_core.Rules] = core().Rules
    return rules_type(rules.to_dict())


def dealt(rules: RuleSet, seed: int) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """The deal (four hands, the kitty) and first bidder of the hand dealt from ``seed``."""
    hand = Hand(rules, seed=seed)
    return hand.deal, hand.first


def seeded_deals(rules: RuleSet, seeds: Sequence[int]) -> tuple[bytes, bytes]:
    """The deals and first bidders of the hands dealt from ``seeds`` (``Hand(rules, seed=s)``'s),
    packed as :func:`pack_deals` packs them: dealt natively, the same shuffle as the Python
    engine's (``tests/test_native.py`` compares them), unless a seed is too large for it."""
    if all(-_SEED_LIMIT < seed < _SEED_LIMIT for seed in seeds):
        deals: tuple[bytes, bytes] = core().deals_from_seeds(
            _pack(rules.variant), rules.variant == "hongwu", [abs(seed) for seed in seeds]
        )
        return deals
    return pack_deals(dealt(rules, seed) for seed in seeds)


_SEED_LIMIT = 1 << 64
"""The native deal takes seeds below 2**64 (in absolute value, as Python's random does)."""


@cache
def _pack(variant: str) -> bytes:
    return bytes(order_for(variant, None).pack)


def pack_deals(deals: Iterable[tuple[tuple[tuple[Card, ...], ...], int]]) -> tuple[bytes, bytes]:
    """Deals and first bidders as the native batch calls take them: 108 card bytes a hand, and
    one seat byte a hand."""
    cards = bytearray()
    firsts = bytearray()
    for deal, first in deals:
        for part in deal:
            cards += bytes(part)
        firsts.append(first)
    return bytes(cards), bytes(firsts)


def result_of(rules: RuleSet, row: Sequence[int]) -> HandResult:
    """A :class:`HandResult` from one row of a native result table."""
    declarer, target, points, made, kind, score, levels, has_score, has_levels = row[:_DELTAS]
    deltas = (row[_DELTAS], row[_DELTAS + 1], row[_DELTAS + 2], row[_DELTAS + 3])
    if kind == RESULT_KINDS.index("no_bid"):
        return HandResult(None, None, 0, False, "no_bid", None, None, deltas)
    return HandResult(
        declarer=declarer,
        target=target,
        declarer_points=points,
        made=bool(made),
        kind=RESULT_KINDS[kind] if kind >= 0 else None,
        score=score if has_score else None,
        levels=levels if has_levels else None,
        deltas=deltas,
        breakdown=dict(
            zip(BREAKDOWN[rules.variant], row[_BREAKDOWN_AT : _BREAKDOWN_AT + 5], strict=True)
        ),
    )


def results_of(rules: RuleSet, table: bytes) -> list[HandResult]:
    """Every row of a native result table (int32, ``RESULT_FIELDS`` a hand)."""
    values = memoryview(table).cast("i")
    return [
        result_of(rules, values[i : i + RESULT_FIELDS])
        for i in range(0, len(values), RESULT_FIELDS)
    ]


def failed_throws_of(table: bytes) -> list[int]:
    """The failed throws (甩错牌) of each hand of a native result table."""
    return list(column(table, "failed_throws"))


def column(table: bytes, name: str) -> memoryview:
    """One column of a native result table (``RESULT_LAYOUT``'s ``name``; its first value where
    it is wider), a value a hand."""
    return memoryview(table).cast("i")[RESULT_AT[name] :: RESULT_FIELDS]


def actions_of(log: bytes) -> list[tuple[int, Action]]:
    """A native action log as ``(seat, action)`` pairs, as :attr:`Hand.actions` holds them."""
    words = memoryview(log).cast("h")
    out: list[tuple[int, Action]] = []
    card = CARDS.__getitem__
    i = 0
    while i < len(words):
        kind, seat, value = words[i], words[i + 1], words[i + 2]
        i += 3
        if kind == ACTION_BID:
            out.append((seat, Bid(None if value < 0 else value)))
        elif kind == ACTION_DECLARE:
            out.append((seat, Declare(SUITS[value], tuple(map(card, words[i : i + 8])))))
            i += 8
        else:  # ACTION_PLAY
            out.append((seat, Play.of(tuple(map(card, words[i : i + value])))))
            i += value
    return out


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A hand the native core played: its deal, actions, trick winners and result."""

    rules: RuleSet
    seed: int | None
    deal: tuple[tuple[Card, ...], ...]
    first: int
    actions: list[tuple[int, Action]]
    winners: tuple[int, ...]
    """The winner of each trick, in order."""
    result: HandResult
    failed_throws: int

    def to_record(self) -> dict[str, Any]:
        """The hand record, as :meth:`baofen.Hand.to_record` writes it."""
        return build_record(
            self.rules, self.seed, self.deal, self.first, self.actions, self.result
        )


def random_table(rules: RuleSet, seeds: Sequence[int], player_seed: int = 0) -> bytes:
    """The hands dealt from ``seeds``, played by native random players in one call: their
    result table (:func:`results_of`, :func:`failed_throws_of`, :func:`column`)."""
    table: bytes
    if all(-_SEED_LIMIT < seed < _SEED_LIMIT for seed in seeds):  # dealt natively too
        table = core().seeded_random_hands(
            native_rules(rules), _pack(rules.variant), [abs(seed) for seed in seeds], player_seed
        )
        return table
    cards, firsts = seeded_deals(rules, seeds)
    table, _, _ = core().random_hands(native_rules(rules), cards, firsts, player_seed)
    return table


def random_hands(rules: RuleSet, seeds: Sequence[int], player_seed: int = 0) -> list[PlayedHand]:
    """As :func:`random_table`, with every hand's actions (for records and replays)."""
    return play_random([Hand(rules, seed=seed) for seed in seeds], player_seed)


def play_random(hands: Sequence[Hand], player_seed: int = 0) -> list[PlayedHand]:
    """The deals of fresh Python ``hands`` (of one rule set, nothing played yet) played by
    native random players in one call; the hands are unchanged, ready to replay the actions."""
    if not hands:
        return []
    rules = hands[0].rules
    cards, firsts = pack_deals((hand.deal, hand.first) for hand in hands)
    table, logs, winners = core().random_hands(
        native_rules(rules), cards, firsts, player_seed, True
    )
    return played_hands(hands, table, logs, winners)


def played_hands(
    hands: Sequence[Hand], table: bytes, logs: Sequence[bytes] | None,
    winners: Sequence[Sequence[int]] | None,
) -> list[PlayedHand]:
    """The :class:`PlayedHand` of each of ``hands`` (fresh, of one rule set) from what a native
    batch that played their deals returned: its results ``table``, each hand's action ``logs``
    and trick ``winners``."""
    assert logs is not None and winners is not None
    rules = hands[0].rules
    return [
        PlayedHand(
            rules, hand.seed, hand.deal, hand.first, actions_of(log), tuple(won), result, failed
        )
        for hand, log, won, result, failed in zip(
            hands, logs, winners, results_of(rules, table), failed_throws_of(table), strict=True
        )
    ]


def native_hand(hand: Hand) -> _core.Hand:
    """A native hand in the state of the Python ``hand`` (its deal and actions replayed)."""
    hand_type: type[_core.Hand] = core().Hand
    native = hand_type(
        native_rules(hand.rules), [c for part in hand.deal for c in part], hand.first
    )
    for seat, action in hand.actions:
        if isinstance(action, Bid):
            native.bid(seat, action.value)
        elif isinstance(action, Declare):
            native.declare(seat, action.trump, action.bury)
        else:
            native.play(seat, action.cards)
    return native


def play_out(rules: RuleSet, hands: Sequence[_core.Hand], player_seed: int = 0) -> list[HandResult]:
    """Copies of native ``hands`` of ``rules``, played to the end by random players in one
    call (the hands themselves are unchanged)."""
    return results_of(rules, core().play_out_many(hands, player_seed))
