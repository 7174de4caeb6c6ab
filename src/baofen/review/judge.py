"""One decision judged: its options played out on common sampled worlds, the loss of the move
made and its category (see :mod:`baofen.review`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action, Bid, Declare, Play
from ..bots import make_bot
from ..bots.rule.bot import RuleBot
from ..bots.search.contract import ContractSearch
from ..bots.search.determinize import World, gather
from ..cards import KINDS, POINTS, Card, format_cards
from ..observation import Observation
from . import lines, reasons
from .confirm import CONFIRM, Worlds, categorize, confirm, rivals
from .lines import in_endgame
from .moves import HINT, THRESHOLDS, UNITS, Kind, MoveReview, Option, Reason, seat_value


def sure_winners(obs: Observation, play: tuple[Card, ...]) -> int:
    """The seat's trumps left after ``play`` that no trump it has not seen beats (大牌: each
    takes any trick it leads; one that only ties the highest unseen, e.g. the other copy of
    a 小王 when both 大王 are out, loses only to that copy played before it on the trick)."""
    assert obs.judge is not None
    order = obs.judge.order
    unseen = obs.counter()
    top = max((order.strength[k] for k in range(KINDS) if unseen[k] and order.is_trump(k)),
              default=-1)
    left = list(obs.hand)
    for card in play:
        left.remove(card)
    return sum(1 for card in left if order.is_trump(card) and order.strength[card] >= top)


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


REASON_WORLDS = 64
"""Worlds a flagged move's reason is drawn from (whatever the review's level: a reason read off
fewer names another trick under other worlds too often)."""


class Judge:
    """Reviews one decision of a seat from its observation, on sampled worlds."""

    def __init__(self, variant: str, rng: random.Random, worlds: int, candidates: int) -> None:
        self.variant = variant
        self.rng = rng
        self.worlds = worlds
        self.candidates = candidates
        self.rule = RuleBot()
        self.engine = self.rule.engine
        """The engine that draws the worlds and plays them out (the same values on either)."""
        self.contract = ContractSearch(self.rule, rng, worlds, margin=0.0)

    def review(self, obs: Observation, action: Action, index: int, trick: int) -> MoveReview:
        """The review of ``action`` taken by the observing seat."""
        return self._judge(obs, action, index, trick, confirmed=True)

    def screen(self, obs: Observation, action: Action, index: int, trick: int) -> MoveReview:
        """The first stage alone: every option's value on common worlds and the best found
        there, with its paired loss — no confirm stage, so no category and no reason (for a
        search that confirms what it keeps on its own: puzzles)."""
        return self._judge(obs, action, index, trick, confirmed=False)

    def _judge(self, obs: Observation, action: Action, index: int, trick: int,
               confirmed: bool) -> MoveReview:
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
                              _text(made), _text(hint), 0.0, 0.0, 0.0, 0.0, "", None, 1, 0,
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
                          limits["inaccuracy"]) if confirmed else []
        if compared:  # on fresh common worlds, the best picked again there (.confirm)
            best, loss, low, value_best, value_made, measured = confirm(
                lambda picked, n: self._evaluate(obs, draw, [options[i] for i in picked], n),
                compared, chosen, limits, CONFIRM * self.worlds)
        else:
            value_best, value_made = means[best], means[chosen]
        loss = max(0.0, loss)
        category = categorize(limits, low) if confirmed else ""
        reason: Reason | None = None
        if confirmed and not category and kind == "play":
            spare = thriftier(obs, options, chosen)
            if spare:
                category = "inaccuracy"
                best = max(spare, key=lambda i: (means[i], -i))
                value_best = means[best]
                loss = max(0.0, means[best] - means[chosen])
                low = min(low, loss)
                reason = reasons.wasted_reason(options[chosen], options[best])
        if category and reason is None:
            reason = reasons.with_loss(
                self._reason(obs, draw, kind, options[chosen], options[best], trick),
                loss, UNITS[self.variant])
        ranked = sorted(range(len(options)), key=lambda i: (-means[i], i))
        return MoveReview(
            action=index, trick=trick if kind == "play" else 0, seat=seat, kind=kind,
            made=_text(options[chosen]), best=_text(options[best]), hint=_text(options[hinted_at]),
            value_made=round(value_made, 3), value_best=round(value_best, 3),
            loss=round(loss, 3), loss_low=round(max(low, -1000.0), 3),
            category=category, reason=reason, candidates=len(options), worlds=measured,
            options=[Option(_text(options[i]), round(means[i], 3)) for i in ranked],
        )

    def explain(self, obs: Observation, kind: Kind, made: Any, best: Any, trick: int) -> Reason:
        """Why ``made`` is worse than ``best`` at the seat's decision ``obs`` (options in the
        review's forms: a play's cards, a :class:`~baofen.actions.Bid`, a
        :class:`~baofen.actions.Declare`), drawn as a flagged move's reason is."""
        return self._reason(obs, self._draw(obs), kind, made, best, trick)

    def _reason(self, obs: Observation, draw: Callable[[int], list[tuple[World, float]]],
                kind: Kind, made: Any, best: Any, trick: int) -> Reason:
        """Why ``made`` is flagged against ``best`` (:mod:`.reasons`): the two played out on
        :data:`REASON_WORLDS` fresh worlds of ``draw``, or for a bury the hand itself."""
        if kind == "declare":
            return reasons.declare_reason(obs, made, best)
        seat = obs.seat
        assert seat is not None
        drawn = draw(REASON_WORLDS)
        if kind == "bid":
            table = self.engine.play_out(obs.rules, [world for world, _ in drawn], [made, best])
            return reasons.bid_reason(seat, table, [weight for _, weight in drawn], made, best)
        return reasons.play_reason(obs.rules, seat, drawn, made, best, trick, in_endgame(obs))

    def _draw(self, obs: Observation) -> Callable[[int], list[tuple[World, float]]]:
        """A source of weighted worlds consistent with ``obs``: up to so many, from up to four
        times as many draws (:func:`~baofen.bots.search.determinize.gather`: late in a hand the
        constraints are tight, and one failed draw must not fail a one-world review)."""
        if obs.phase == "playing":
            sampler = self.engine.worlds(obs)
            return lambda n: sampler.weighted_worlds(self.rng, n, attempts=4 * n)
        # Before play: the contract search's worlds (the deal of the unseen cards with the
        # bidding replayed, weighted by the rule bot's bids for the others), on this rng.
        return lambda n: gather(lambda: self.contract.world(obs), n, 4 * n)

    def _evaluate(self, obs: Observation, draw: Callable[[int], list[tuple[World, float]]],
                  options: Sequence[Any], worlds: int = 0) -> Worlds:
        """Every option on the same ``worlds`` (default ``self.worlds``) worlds of ``draw``,
        played out by the rule bot in every seat (in the end game, the seat's own later plays
        searched: :mod:`.lines`); a world's value is :func:`seat_value`."""
        seat = obs.seat
        assert seat is not None
        drawn = draw(worlds or self.worlds)
        if not drawn:
            raise ValueError("no world consistent with the seat's view could be drawn")
        actions = [Play.of(option) if isinstance(option, tuple) else option
                   for option in options]
        worlds_drawn = [world for world, _ in drawn]
        if in_endgame(obs):  # the seat's later plays searched (.lines: its own errors not charged)
            table = lines.values(obs.rules, worlds_drawn, actions, seat)
        else:
            table = [[seat_value(self.variant, result, seat) for result in row]
                     for row in self.engine.play_out(obs.rules, worlds_drawn, actions)]
        out = Worlds()
        for (_, weight), row in zip(drawn, table, strict=True):
            out.add(weight, row)
        return out


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
