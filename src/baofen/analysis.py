"""复盘 — the post-game review: the computer evaluates every decision of a finished hand.

Each decision of the reviewed seats is judged from the position as that seat saw it (its
:class:`~baofen.Observation`, never the other hands). Its options — the rule bot's best
candidates, the hint's choice (提示, :data:`HINT`) and the move actually made — are each played
out to the end, the rule bot in all four seats, on the **same** sampled worlds (likelihood-weighted
as the search bot's, :meth:`~baofen.bots.determinize.Determinizer.weighted_world`; before play,
deals of the unseen cards with the bidding replayed, weighted by how likely the rule bot would
have bid as the others did). The playouts run on the native core's rule player where it is
built (the rule bot's choices, the same values, several times faster;
:mod:`baofen.bots.native_players`), and so does the replay that weighs a world in play (the same
worlds and weights, :mod:`baofen.bots.native_worlds`), else in Python. A world's value for
the seat is in the hand's own unit (:func:`seat_value`): 包分 points (the declarer's points
against the target, signed for the seat's side; the pot stake of a hand nobody bid), 包红五
levels (the seat's result).

Two stages, so that a loss is both large and told from noise (:mod:`baofen.analysis_confirm`):
1. *screen*: every option on ``worlds`` common worlds; their weighted means are the move's
   ``options`` and pick the best found (for a bid, the best is the hint's choice: bids are judged
   against the evaluator the hint uses, so the review never contradicts 提示 on a bid);
2. *confirm*, when the screen's loss reaches a share of the inaccuracy threshold or cannot be
   told from it (an option's gain over the move made, above or below it on the screen, has an
   upper bound reaching the threshold): the made move against those options (three at most;
   for a bid, the hint's choice) on batches of :data:`~baofen.analysis_confirm.CONFIRM` times
   as many fresh common worlds, while a category's threshold lies within the loss's interval
   (wider for a verdict taken early), up to 768 worlds at the standard level. The best is
   picked again there; the loss is the mean paired difference against it, with a one-sided 95%
   lower bound (Bonferroni over the options compared: the screen's winner's curse does not
   carry over, and the confirm stage's own is accounted for).

A move is an inaccuracy (不精确), a mistake (失误) or a blunder (大错) when the lower bound of its
confirmed loss reaches that category's threshold (:data:`THRESHOLDS`): its loss both over the
threshold and told from noise, so that a loss measured near a threshold is not flagged on one
set of worlds and left on another. A sure winner thrown on a trick an opponent wins when a play
giving no more points would have kept it (浪费大牌, :func:`thriftier`) is at least an
inaccuracy, whatever the playouts say (rule-bot playouts seldom make a kept 大王 count). Each
seat gets moves, moves with a choice, moves as good as the best found, the count of each
category and an :func:`accuracy` — never a sum of losses: each loss is measured from its own
position, and they do not add up.

Each decision is reviewed on worlds of its own seed (the review's and the action's index): its
review does not depend on which others are reviewed, or in which worker process. The review
reads a finished hand only, each seat's moves judged from that seat's view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ._native import available as native_available
from .actions import Action, Bid, Declare, Play
from .analysis_confirm import CONFIRM, Category, Worlds, categorize, confirm, rivals
from .bots import make_bot
from .bots.contract import ContractSearch
from .bots.determinize import Determinizer, gather
from .bots.rule_bot import RuleBot
from .bots.search_bot import CLIP
from .cards import KINDS, POINTS, Card, format_cards
from .hand import Hand
from .observation import Observation
from .ruleset import RuleSet
from .scoring import HandResult

VERSION = 3
"""The review's version (3: a category only where its threshold is below the loss's lower bound;
2: categories, accuracy, paired intervals; 1 had a sum of losses). A review kept under another
version is made again."""

DEFAULT_WORLDS = 16
"""Sampled worlds of each stage (screen, confirm) per decision, by default."""

DEFAULT_CANDIDATES = 3
"""The rule bot's candidate plays evaluated beside the move made and the hint's, by default."""

HINT = "rule"
"""The player whose choice the table's hint (提示) suggests (``baofen.server.assist.HINT_BOT``);
bids are judged against its choice, and every reviewed move names it."""

THRESHOLDS: dict[str, dict[str, float]] = {
    "baofen": {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 25.0},
    "hongwu": {"inaccuracy": 1.0, "mistake": 2.0, "blunder": 4.0},
}
"""The loss (包分 points, 包红五 levels) from which a move is in each category, by game."""

SCALES = {"baofen": 20.0, "hongwu": 2.0}
"""The loss at which a move's accuracy is 100/e ≈ 37%, by game (:func:`accuracy`)."""

UNITS = {"baofen": "points", "hongwu": "levels"}
"""The unit of a hand's result, by game."""

Reason = Literal["", "loss", "wasted_winner"]
"""Why a move is flagged (empty: it is not)."""

Kind = Literal["bid", "declare", "play"]


@dataclass(frozen=True)
class Option:
    """One option of a decision and its weighted mean value on the screen's common worlds."""

    move: str
    value: float


@dataclass(frozen=True)
class MoveReview:
    """The review of one decision: the move made, the best found, the loss and its category."""

    action: int
    """Index of the decision among the hand's actions."""
    trick: int
    """Number of the trick (from 1); 0 for a bid or the trump and bury (``kind``)."""
    seat: int
    kind: Kind
    made: str
    best: str
    """The best option found (for a bid: the hint's choice)."""
    hint: str
    """What the hint (提示, :data:`HINT`) suggests here."""
    value_made: float
    value_best: float
    loss: float
    """Expected loss against the best (confirm stage when it ran, else screen), with its
    one-sided 95% lower bound ``loss_low`` (paired over common worlds)."""
    loss_low: float
    """−1000 where it cannot be estimated (one world)."""
    category: Category
    reason: Reason
    """Why it is flagged: ``"loss"`` or ``"wasted_winner"`` (:func:`thriftier`); empty if not."""
    candidates: int
    """Options compared (the candidates, the hint's choice and the move made); 1: no choice."""
    worlds: int
    """Worlds the loss was measured on."""
    options: list[Option] = field(default_factory=list)
    """Every option's value on the screen's common worlds, best first."""

    @property
    def flagged(self) -> bool:
        """True when the move is in a category."""
        return bool(self.category)


@dataclass
class SeatSummary:
    """One seat's totals over its reviewed moves."""

    seat: int
    moves: int = 0
    choices: int = 0
    """Moves where the seat had a choice; ``matched``: of them, those as good as the best."""
    matched: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    accuracy: float = 100.0
    """:func:`accuracy` over the moves with a choice (%)."""


@dataclass
class HandReview:
    """The review of a hand: its moves in order and a summary per reviewed seat."""

    variant: str
    unit: str
    thresholds: dict[str, float]
    worlds: int
    hint: str = HINT
    version: int = VERSION
    moves: list[MoveReview] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data."""
        return asdict(self)


def seat_value(variant: str, result: HandResult, seat: int) -> float:
    """What a hand's result is worth to ``seat`` in the review's unit: 包红五 the seat's levels;
    包分 the declarer's points against the target signed for the seat's side (clipped at
    ±:data:`~baofen.bots.search_bot.CLIP`, as the search's), or the seat's pot stake when
    nobody bid."""
    if variant != "baofen" or result.target is None or result.declarer is None:
        return float(result.deltas[seat])
    sign = 1.0 if seat == result.declarer else -1.0
    return sign * max(-CLIP, min(CLIP, float(result.declarer_points - result.target)))


def move_accuracy(variant: str, loss: float) -> float:
    """A move's accuracy (%) for a counted ``loss``: 100·exp(−loss/scale)."""
    return 100.0 * math.exp(-max(0.0, loss) / SCALES[variant])


def accuracy(variant: str, moves: Iterable[MoveReview]) -> float:
    """A seat's accuracy (%): the mean :func:`move_accuracy` over its moves with a choice, a
    flagged move's loss counted (an unflagged one is as good as the best: 100)."""
    scores = [move_accuracy(variant, m.loss if m.flagged else 0.0)
              for m in moves if m.candidates > 1]
    return round(sum(scores) / len(scores), 1) if scores else 100.0


def decisions(hand: Hand, seats: Iterable[int] | None = None) -> list[int]:
    """Indices of the reviewed decisions of ``seats`` (all when ``None``): every play, the
    trump and bury, and every bid where the seat had a choice."""
    reviewed = set(range(4) if seats is None else seats)
    if not reviewed <= set(range(4)):
        raise ValueError("seats are numbered 0–3")
    out = []
    replay = hand.redeal()  # each action as the hand stood before it
    for index, (seat, action) in enumerate(hand.actions):
        if seat in reviewed and (isinstance(action, Declare | Play) or (
                isinstance(action, Bid) and len(replay.observation(seat).legal_bids()) > 1)):
            out.append(index)
        replay.apply(seat, action)
    return out


def review_hand(hand: Hand, seats: Iterable[int] | None = None, worlds: int = DEFAULT_WORLDS,
                candidates: int = DEFAULT_CANDIDATES, seed: int = 0,
                on_move: Callable[[int, int], None] | None = None,
                actions: Iterable[int] | None = None) -> HandReview:
    """Review the decisions of ``seats`` (all when ``None``; or only the action indices
    ``actions``) in the finished ``hand``: ``worlds`` sampled worlds a stage, ``candidates`` of
    the rule bot's plays beside the move made and the hint's. ``on_move(done, total)`` reports
    progress. Deterministic under ``seed``."""
    _check(hand, worlds, candidates)
    chosen = decisions(hand, seats)
    if actions is not None:
        wanted = set(actions)
        chosen = [i for i in chosen if i in wanted]
    moves = []
    for done, index in enumerate(chosen, 1):
        moves.append(review_action(hand, index, worlds, candidates, seed))
        if on_move:
            on_move(done, len(chosen))
    reviewed = sorted(set(range(4) if seats is None else seats))
    return assemble(hand.rules.variant, worlds, moves, reviewed)


def assemble(variant: str, worlds: int, moves: Sequence[MoveReview],
             seats: Iterable[int]) -> HandReview:
    """The hand's review from its reviewed moves, with a summary for each of ``seats``."""
    review = HandReview(variant, UNITS[variant], dict(THRESHOLDS[variant]), worlds)
    review.moves = sorted(moves, key=lambda m: m.action)
    for seat in seats:
        own = [m for m in review.moves if m.seat == seat]
        choices = [m for m in own if m.candidates > 1]
        review.seats.append(SeatSummary(
            seat=seat, moves=len(own), choices=len(choices),
            matched=sum(1 for m in choices if not m.flagged and m.loss <= 0.0),
            inaccuracies=sum(m.category == "inaccuracy" for m in own),
            mistakes=sum(m.category == "mistake" for m in own),
            blunders=sum(m.category == "blunder" for m in own),
            accuracy=accuracy(variant, own),
        ))
    return review


def _check(hand: Hand, worlds: int, candidates: int) -> None:
    if hand.phase != "done":
        raise ValueError("only a finished hand can be reviewed")
    if worlds < 1 or candidates < 1:
        raise ValueError("worlds and candidates must be at least 1")


def review_action(hand: Hand, index: int, worlds: int = DEFAULT_WORLDS,
                  candidates: int = DEFAULT_CANDIDATES, seed: int = 0,
                  native: bool | None = None) -> MoveReview:
    """The review of action ``index`` of the finished ``hand`` (a bid, the trump and bury or a
    play), on worlds drawn from the seed ``(seed, index)``; the playouts on the native core
    where it is built (``native``: force it on or off), the same values either way."""
    seat, action = hand.actions[index]
    before = hand.redeal(index)
    obs = before.observation(seat)
    rng = random.Random(f"review:{seed}:{index}")
    judge = Judge(hand.rules.variant, rng, worlds, candidates, native)
    return judge.review(obs, action, index, len(before.tricks) + 1)


def review_record(record: dict[str, Any], actions: list[int], worlds: int, candidates: int,
                  seed: int = 0) -> list[dict[str, Any]]:
    """:func:`review_action` of ``actions`` of a hand record, as JSON-ready data (for a worker
    process)."""
    hand = Hand.from_record(record)
    _check(hand, worlds, candidates)
    return [asdict(review_action(hand, i, worlds, candidates, seed)) for i in actions]


def review_of_moves(record: dict[str, Any], worlds: int,
                    moves: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The whole review, JSON-ready, from the moves :func:`review_record` gave (any order)."""
    variant = Hand.from_record(record).rules.variant
    reviewed = [MoveReview(**{**m, "options": [Option(**o) for o in m["options"]]})
                for m in moves]
    return assemble(variant, worlds, reviewed, range(4)).to_dict()


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
    """Reviews one decision of a seat from its observation, on sampled worlds."""

    def __init__(self, variant: str, rng: random.Random, worlds: int, candidates: int,
                 native: bool | None = None) -> None:
        self.variant = variant
        self.native = native_available() if native is None else native
        self.rng = rng
        self.worlds = worlds
        self.candidates = candidates
        self.rule = RuleBot()
        self.contract = ContractSearch(self.rule, rng, worlds, margin=0.0)
        self.players = (self.rule,) * 4

    def review(self, obs: Observation, action: Action, index: int, trick: int) -> MoveReview:
        """The review of ``action`` taken by the observing seat."""
        seat = obs.seat
        assert seat is not None
        kind: Kind
        options: list[Any]
        made: Any
        if isinstance(action, Play):
            kind, made = "play", tuple(action.cards)
            options = list(self.rule.play_candidates(obs, self.candidates))
        elif isinstance(action, Bid):
            kind, made = "bid", action
            options = list(self.contract.bid_options(obs))
        elif isinstance(action, Declare):
            kind, made = "declare", action
            options = list(self.contract.declare_options(obs))
        else:
            raise ValueError(f"not a decision: {action!r}")
        hinted = make_bot(HINT, seed=index).act(obs)
        hint: Any = tuple(hinted.cards) if isinstance(hinted, Play) else hinted
        keys = [_key(o) for o in options]
        for extra in (hint, made):
            if _key(extra) not in keys:
                options.append(extra)
                keys.append(_key(extra))
        chosen, hinted_at = keys.index(_key(made)), keys.index(_key(hint))
        if len(options) == 1:
            return MoveReview(index, trick if kind == "play" else 0, seat, kind, _text(made),
                              _text(made), _text(hint), 0.0, 0.0, 0.0, 0.0, "", "", 1, 0,
                              [Option(_text(made), 0.0)])
        draw = self._draw(obs)
        screen = self._evaluate(obs, draw, options)
        means = [screen.mean(i) for i in range(len(options))]
        if kind == "bid":  # bids are judged against the hint's choice
            best = hinted_at
        else:
            best = max(range(len(options)), key=lambda i: (means[i], i == chosen, -i))
        loss, low = screen.paired(best, chosen) if best != chosen else (0.0, 0.0)
        measured = len(screen)
        limits = THRESHOLDS[self.variant]
        compared = rivals(screen, chosen, [best] if kind == "bid" else range(len(options)),
                          limits["inaccuracy"])
        if compared:  # on fresh common worlds, the best picked again there (analysis_confirm)
            best, loss, low, value_best, value_made, measured = confirm(
                lambda picked, n: self._evaluate(obs, draw, [options[i] for i in picked], n),
                compared, chosen, limits, CONFIRM * self.worlds)
        else:
            value_best, value_made = means[best], means[chosen]
        loss = max(0.0, loss)
        category = categorize(limits, low)
        reason: Reason = "loss" if category else ""
        if not category and kind == "play":
            spare = thriftier(obs, options, chosen)
            if spare:
                category, reason = "inaccuracy", "wasted_winner"
                best = max(spare, key=lambda i: (means[i], -i))
                value_best = means[best]
                loss = max(0.0, means[best] - means[chosen])
                low = min(low, loss)
        ranked = sorted(range(len(options)), key=lambda i: (-means[i], i))
        return MoveReview(
            action=index, trick=trick if kind == "play" else 0, seat=seat, kind=kind,
            made=_text(options[chosen]), best=_text(options[best]), hint=_text(options[hinted_at]),
            value_made=round(value_made, 3), value_best=round(value_best, 3),
            loss=round(loss, 3), loss_low=round(max(low, -1000.0), 3),
            category=category, reason=reason, candidates=len(options), worlds=measured,
            options=[Option(_text(options[i]), round(means[i], 3)) for i in ranked],
        )

    def _draw(self, obs: Observation) -> Callable[[int], list[tuple[Hand, float]]]:
        """A source of weighted worlds consistent with ``obs``: up to so many, from up to four
        times as many draws (:func:`~baofen.bots.determinize.gather`: late in a hand the
        constraints are tight, and one failed draw must not fail a one-world review)."""
        if obs.phase == "playing":  # native worlds for native play-outs: the same worlds
            sampler = Determinizer(obs, native_worlds=self.native)
            return lambda n: sampler.weighted_worlds(self.rng, n, attempts=4 * n)
        # Before play: the contract search's worlds (the deal of the unseen cards with the
        # bidding replayed, weighted by the rule bot's bids for the others), on this rng.
        return lambda n: gather(lambda: self.contract._world(obs), n, 4 * n)

    def _evaluate(self, obs: Observation, draw: Callable[[int], list[tuple[Hand, float]]],
                  options: Sequence[Any], worlds: int = 0) -> Worlds:
        """Every option on the same ``worlds`` (default ``self.worlds``) worlds of ``draw``."""
        seat = obs.seat
        assert seat is not None
        drawn = draw(worlds or self.worlds)
        if not drawn:
            raise ValueError("no world consistent with the seat's view could be drawn")
        hands = [world for world, _ in drawn]
        values = self._native_values(obs.rules, hands, seat, options) if self.native \
            else self._python_values(hands, seat, options)
        out = Worlds()
        for (_, weight), row in zip(drawn, values, strict=True):
            out.add(weight, row)
        return out

    def _python_values(self, worlds: list[Hand], seat: int,
                       options: Sequence[Any]) -> list[list[float]]:
        """Each option's value for ``seat`` in each world, the rule bot playing on (Python)."""
        return [[self._rollout(world, seat, option) for option in options] for world in worlds]

    def _rollout(self, world: Hand, seat: int, option: Any) -> float:
        hand = world.copy()
        hand.apply(seat, Play.of(option) if isinstance(option, tuple) else option)
        result = hand.play_out(self.players).result
        assert result is not None
        return seat_value(self.variant, result, seat)

    def _native_values(self, rules: RuleSet, worlds: list[Hand], seat: int,
                       options: Sequence[Any]) -> list[list[float]]:
        """:meth:`_python_values` played out by the native core's rule player (the same
        choices as the rule bot, several times faster), all worlds and options in one call;
        a world in play may be a native hand (:class:`Determinizer`'s ``native_worlds``)."""
        from ._native.batch import native_hand
        from .bots.native_players import play_out_candidates, play_out_with

        if all(isinstance(option, tuple) for option in options):  # plays
            table = play_out_candidates(rules, worlds, [[int(c) for c in o] for o in options])
        else:  # a bid or a trump and bury: applied here, then played out natively
            natives = []
            for world in worlds:
                for option in options:
                    hand = world.copy()
                    hand.apply(seat, option)
                    natives.append(native_hand(hand))
            flat = play_out_with(rules, natives)
            table = [flat[i:i + len(options)] for i in range(0, len(flat), len(options))]
        return [[seat_value(self.variant, result, seat) for result in row] for row in table]


def _key(option: Any) -> tuple[Any, ...]:
    """An option compared by what it does (cards or a bury in any order are the same)."""
    if isinstance(option, Declare):
        return ("declare", option.trump, sorted(option.bury))
    if isinstance(option, Bid):
        return ("bid", option.value)
    return ("play", *sorted(option))


def _text(option: Any) -> str:
    """A play's cards, a bid ("pass" or its value) or a trump and bury ("S: SA SK …")."""
    if isinstance(option, Declare):
        return f"{option.trump}: {format_cards(option.bury)}"
    if isinstance(option, Bid):
        return str(option)
    return format_cards(option)
