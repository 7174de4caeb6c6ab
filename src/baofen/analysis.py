"""复盘 — the post-game review: the computer evaluates every decision of a finished hand.

For each play of the reviewed seats, the position is taken as that seat saw it (its
:class:`~baofen.Observation`, never the other hands), the rule bot's best candidate plays and the
move actually made are each played out to the end in the same sampled worlds (likelihood-weighted
as the search bot's, :meth:`~baofen.bots.determinize.Determinizer.weighted_world`), with the rule
bot in all four seats, and their mean results for the seat are compared in the hand's own unit:
包分 points (the declarer's points against the target, signed for the seat's side, which decides
the score), 包红五 levels (the seat's result). The expected loss of a move is the best
candidate's mean minus the move's; a loss over the threshold marks a mistake. So does a play
that throws a sure winner away on a trick an opponent is winning when a play giving no more
points would have kept it (浪费大牌, :func:`thriftier`), whatever the playouts say: rule-bot
playouts seldom make a kept 大王 count, their noise on a few dozen worlds is larger than the
difference, and no player would call that play anything but a mistake. Each seat gets a
summary: moves reviewed, moves matching the best found, total expected loss, mistakes.

Bids (叫分) and the trump and bury (定主扣底) are reviewed the same way with the contract search's
candidates (:class:`~baofen.bots.contract.ContractSearch`: the rule bot's choice, a pass, the
lowest bid; each suit as trump with its bury), judged by the hand's score for the seat (the bid
changes the target, so the declarer's points against it would not compare bids); a bid is
reviewed only where the seat had a choice. The review reads a finished hand only, and each
seat's moves are judged from that seat's view, so it never reveals more than the hand's record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from itertools import islice
from typing import Any, Literal

from .actions import Action, Bid, Declare, Play
from .bots.contract import ContractSearch
from .bots.determinize import Determinizer, weighted_means
from .bots.rule_bot import RuleBot
from .bots.search_bot import SearchBot
from .cards import KINDS, POINTS, Card, format_cards
from .hand import Hand
from .observation import Observation

DEFAULT_WORLDS = 24
"""Sampled worlds each move is evaluated on, by default."""

DEFAULT_CANDIDATES = 8
"""Candidate plays (the rule bot's best) evaluated beside the move made, by default."""

THRESHOLDS = {"baofen": 5.0, "hongwu": 1.0}
"""Expected loss over which a move is flagged as a mistake, by game (points; levels)."""

UNITS = {"baofen": "points", "hongwu": "levels"}
"""The unit of a hand's result, by game."""


Reason = Literal["", "loss", "wasted_winner"]
"""Why a move is a mistake (empty: it is not one)."""


@dataclass(frozen=True)
class MoveReview:
    """The review of one play: the move made, the best move found and the expected loss."""

    action: int
    """Index of the decision among the hand's actions."""
    trick: int
    """Number of the trick (from 1); 0 for a bid or the trump and bury."""
    seat: int
    kind: str
    """``"bid"``, ``"declare"`` (trump and bury) or ``"play"``."""
    made: str
    best: str
    value_made: float
    value_best: float
    loss: float
    mistake: bool
    candidates: int
    """Moves compared (the candidates and the move made)."""
    reason: Reason = ""
    """Why it is a mistake: ``"loss"`` (over the threshold) or ``"wasted_winner"`` (a sure
    winner thrown on a lost trick, :func:`thriftier`); empty when it is not one."""


@dataclass
class SeatSummary:
    """One seat's totals over its reviewed moves."""

    seat: int
    moves: int = 0
    matched: int = 0
    total_loss: float = 0.0
    mistakes: int = 0


@dataclass
class HandReview:
    """The review of a hand: its moves in order and a summary per reviewed seat."""

    variant: str
    unit: str
    threshold: float
    worlds: int
    moves: list[MoveReview] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data."""
        return asdict(self)


def review_hand(
    hand: Hand,
    seats: Iterable[int] | None = None,
    worlds: int = DEFAULT_WORLDS,
    candidates: int = DEFAULT_CANDIDATES,
    threshold: float | None = None,
    seed: int = 0,
    on_move: Callable[[int, int], None] | None = None,
) -> HandReview:
    """Review the decisions of ``seats`` (all when ``None``) in the finished ``hand``.

    ``worlds`` sampled worlds per move, ``candidates`` of the rule bot's plays beside the play
    made; ``threshold`` (default by game, :data:`THRESHOLDS`) flags mistakes. ``on_move(done,
    total)`` reports progress. Deterministic under ``seed``.
    """
    if hand.phase != "done":
        raise ValueError("only a finished hand can be reviewed")
    if worlds < 1 or candidates < 1:
        raise ValueError("worlds and candidates must be at least 1")
    reviewed = set(range(4) if seats is None else seats)
    if not reviewed <= set(range(4)):
        raise ValueError("seats are numbered 0–3")
    variant = hand.rules.variant
    limit = THRESHOLDS[variant] if threshold is None else threshold
    review = HandReview(variant, UNITS[variant], limit, worlds)
    summaries = {seat: SeatSummary(seat) for seat in sorted(reviewed)}
    rng = random.Random(seed)
    judge = Judge(variant, rng, worlds, candidates)
    replay = hand.redeal()  # each action is judged on the hand as it stood before it
    actions = list(hand.actions)
    decisions = [i for i, (seat, action) in enumerate(actions)
                 if seat in reviewed and isinstance(action, Bid | Declare | Play)]
    for index, (seat, action) in enumerate(actions):
        judged = judge.judge(replay.observation(seat), action) if index in decisions else None
        if judged is not None:
            kind, options, values, chosen, spare = judged
            best = max(range(len(options)), key=lambda i: (values[i], -i))
            loss = max(0.0, values[best] - values[chosen])
            reason: Reason = "loss" if loss > limit else ""
            if not reason and spare:
                reason = "wasted_winner"
                best = max(spare, key=lambda i: (values[i], -i))
                loss = max(0.0, values[best] - values[chosen])
            move = MoveReview(
                action=index, trick=len(replay.tricks) + 1 if kind == "play" else 0, seat=seat,
                kind=kind, made=_text(options[chosen]), best=_text(options[best]),
                value_made=round(values[chosen], 3), value_best=round(values[best], 3),
                loss=round(loss, 3), mistake=bool(reason), candidates=len(options),
                reason=reason,
            )
            review.moves.append(move)
            summary = summaries[seat]
            summary.moves += 1
            summary.matched += not reason and (best == chosen or loss == 0.0)
            summary.total_loss = round(summary.total_loss + loss, 3)
            summary.mistakes += move.mistake
        if on_move and index in decisions:
            on_move(decisions.index(index) + 1, len(decisions))
        replay.apply(seat, action)
    review.seats = list(summaries.values())
    return review


Judged = tuple[str, list[Any], list[float], int, list[int]]
"""A decision's kind, the options compared, their values, the index of the one made and the
options that would have kept more sure winners than it (:func:`thriftier`)."""


def sure_winners(obs: Observation, play: tuple[Card, ...]) -> int:
    """The seat's trumps left after ``play`` that beat every trump it has not seen (大牌: each
    takes any trick it is played to alone)."""
    assert obs.judge is not None
    order = obs.judge.order
    unseen = obs.counter()
    top = max((order.strength[k] for k in range(KINDS) if unseen[k] and order.is_trump(k)),
              default=-1)
    left = list(obs.hand)
    for card in play:
        left.remove(card)
    return sum(1 for card in left if order.is_trump(card) and order.strength[card] > top)


def thriftier(obs: Observation, options: list[tuple[Card, ...]], made: int) -> list[int]:
    """On a trick an opponent is winning, the options that, like the play made, do not take
    it, give away no more points, and keep more sure winners (:func:`sure_winners`): when
    there are any, the play made threw a winner away on a lost trick (浪费大牌)."""
    assert obs.judge is not None and obs.declarer is not None
    judge = obs.judge
    before = [cards for _, cards in obs.current_trick]
    if not before:
        return []
    winning = obs.current_trick[judge.winner(before)][0]
    if (winning == obs.declarer) == (obs.seat == obs.declarer):  # a partner's trick (or none)
        return []

    def loses(play: tuple[Card, ...]) -> bool:
        return judge.winner([*before, play]) != len(before)

    if not loses(options[made]):
        return []
    points = sum(POINTS[c] for c in options[made])
    kept = sure_winners(obs, options[made])
    return [i for i, play in enumerate(options)
            if i != made and loses(play) and sum(POINTS[c] for c in play) <= points
            and sure_winners(obs, play) > kept]


class Judge:
    """Values a seat's options at one decision, from its observation, on sampled worlds."""

    def __init__(self, variant: str, rng: random.Random, worlds: int, candidates: int) -> None:
        self.rng = rng
        self.worlds = worlds
        self.candidates = candidates
        self.rule = RuleBot()
        self.search = SearchBot(objective="points" if variant == "baofen" else "score")
        self.contract = ContractSearch(self.rule, rng, worlds, margin=0.0)

    def judge(self, obs: Observation, action: Action) -> Judged | None:
        """The options, their values and the made one's index; ``None`` for a bid where the
        seat had no choice."""
        seat = obs.seat
        assert seat is not None
        options: list[Any]
        made: Any
        if isinstance(action, Play):
            kind, made = "play", tuple(action.cards)
            options = list(self.rule.play_candidates(obs, self.candidates))
        elif isinstance(action, Bid) and len(obs.legal_bids()) < 2:
            return None
        else:
            kind, made = ("bid", action) if isinstance(action, Bid) else ("declare", action)
            options = list(self.contract.bid_options(obs) if kind == "bid"
                           else self.contract.declare_options(obs))
        keys = [_key(o) for o in options]
        if _key(made) not in keys:
            options.append(made)
            keys.append(_key(made))
        values = (_values(self.search, Determinizer(obs), seat, options, self.worlds, self.rng)
                  if kind == "play" else self.contract.values(obs, options))
        if values is None:
            raise ValueError("no world consistent with the seat's view could be drawn")
        chosen = keys.index(_key(made))
        return (kind, options, values, chosen,
                thriftier(obs, options, chosen) if kind == "play" else [])


def _key(option: Any) -> tuple[Any, ...]:
    """An option compared by what it does (cards or a bury in any order are the same)."""
    if isinstance(option, Declare):
        return (option.trump, sorted(option.bury))
    if isinstance(option, Bid):
        return (option.value,)
    return tuple(sorted(option))


def _text(option: Any) -> str:
    """A play's cards, a bid ("pass" or its value) or a trump and bury ("S: SA SK …")."""
    if isinstance(option, Declare):
        return f"{option.trump}: {format_cards(option.bury)}"
    if isinstance(option, Bid):
        return str(option)
    return format_cards(option)


def _values(judge: SearchBot, sampler: Determinizer, seat: int,
            options: list[tuple[Card, ...]], worlds: int, rng: random.Random) -> list[float]:
    """Weighted mean result for ``seat`` of each option, over the same sampled worlds (a draw
    that finds no world is tried again, up to four times the number of worlds: late in a hand
    the constraints are tight, and one failed draw must not fail a one-world review)."""
    attempts = (sampler.weighted_world(rng) for _ in range(4 * worlds))
    draws = islice((drawn for drawn in attempts if drawn is not None), worlds)
    means = weighted_means(draws, options, lambda world, option: judge.rollout(world, seat, option))
    if means is None:
        raise ValueError("no world consistent with the seat's view could be drawn")
    return means


def review_record(record: dict[str, Any], seat: int, worlds: int, candidates: int,
                  seed: int = 0) -> dict[str, Any]:
    """:func:`review_hand` of one seat of a hand record, as JSON-ready data (for a worker
    process)."""
    return review_hand(Hand.from_record(record), [seat], worlds, candidates, seed=seed).to_dict()


def merge_reviews(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One review of the hand from per-seat reviews (:func:`review_record`): moves in the
    hand's order, a summary per seat."""
    if not parts:
        raise ValueError("no reviews to merge")
    moves = sorted((m for part in parts for m in part["moves"]), key=lambda m: m["action"])
    seats = sorted((s for part in parts for s in part["seats"]), key=lambda s: s["seat"])
    return {**parts[0], "moves": moves, "seats": seats}
