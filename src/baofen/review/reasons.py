"""Why a move is flagged (:class:`~baofen.review.moves.Reason`), drawn from the play-outs: the
move made and the better one played out on the same simulated deals, and what differs.

Each kind's facts (JSON values; shares are of the deals, weighted as the review's worlds):

- ``card`` — a card the better move keeps (the move made spends it) wins a later trick for the
  seat in :data:`CARD_SHARE` of the deals or more: ``card``, ``keeps`` (all the cards kept),
  ``share`` (deals where it does), ``trick`` (the trick it wins most often), ``last`` (that is
  the last trick: in 包红五 it takes the kitty), ``points`` (of the tricks it wins, with the
  kitty's on the last trick), ``gained``
  (how many more card points the seat's side takes with the better move, on average),
  ``given`` (how many more points the move made gives the opponents on this trick than the
  better move, where the seat's side loses it either way; negative when the better move pays
  them now for the later win);
- ``trick`` — the trick (this one or a later one) the seat's side nets most more on with the
  better move (points taken there less points given): ``trick`` (its number), ``points`` (how
  many more, on average), ``share`` (deals where it changes hands to the seat's side),
  ``against`` (the reverse), ``last``, ``keeps``, ``plays`` (on this trick: what the better
  move plays instead) — given where no ``card`` reason is, or where the card kept wins back
  less than the better move pays on this trick (``given``);
- ``value`` — no later trick is gained: ``points`` (how many more card points the seat's side
  takes with the better move, on average);
- ``wasted_winner`` — a sure winner thrown on a trick the opponents win: ``keeps``;
- ``bid`` — for the bid made and the better one (``made``, ``best``): ``declares_made`` and
  ``declares_best`` (deals where the seat ends as the declarer), ``makes_made`` and
  ``makes_best`` (of those, the deals where it makes the contract; ``None`` if it never declares);
- ``declare`` — for the trump and bury made and the better one: ``trump_made``,
  ``trump_length_made``, ``buried_points_made``, and the same ``…_best``.

A reviewed move's ``card``, ``trick`` and ``value`` reasons also carry its ``loss`` and the hand's
``unit`` (:func:`with_loss`): their words give the move's whole difference as the loss the
review shows for it (its estimate, in the hand's unit), never as another average (the card
points of the reason's own deals, in 包红五 not even the unit of the loss). Figures of one trick
(``points`` of ``card`` and ``trick``) are worded as that trick's card points.

:func:`main_difference` is what two reviews of a move must agree on: the kind, and the card
kept or the trick.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..actions import Bid, Declare, Play
from ..cards import POINTS, Card, format_cards
from ..observation import Observation
from ..order import order_for
from ..ruleset import RuleSet
from . import lines
from .moves import Reason


def main_difference(reason: Reason | None) -> tuple[Any, ...]:
    """What a reason says above all: its kind, and the card kept (``card``) or the trick
    (``trick``)."""
    if reason is None:
        return ()
    if reason.kind == "card":
        return (reason.kind, reason.facts["card"])
    return (reason.kind, reason.facts["trick"]) if reason.kind == "trick" else (reason.kind,)


def kept(made: Sequence[Card], best: Sequence[Card]) -> list[Card]:
    """The cards of ``made`` the play ``best`` keeps (the multiset difference)."""
    left = Counter(best)
    out = []
    for card in made:
        if left[card]:
            left[card] -= 1
        else:
            out.append(card)
    return out


def play_reason(rules: RuleSet, seat: int, worlds: Sequence[tuple[Any, float]],
                made: tuple[Card, ...], best: tuple[Card, ...], trick: int,
                searched: bool) -> Reason:
    """The ``card``, ``trick`` or ``value`` reason of a play: ``made`` and ``best`` played out
    on ``worlds`` (weighted; the seat to act, at trick number ``trick``), the seat's later plays
    searched in the end game (``searched``, as the review valued them)."""
    mass = sum(weight for _, weight in worlds)
    pairs = [(lines.line(rules, world, Play.of(made), seat, searched),
              lines.line(rules, world, Play.of(best), seat, searched), weight / mass)
             for world, weight in worlds]
    return _reason(pairs, kept(made, best), kept(best, made), trick)


def _reason(pairs: Sequence[tuple[lines.Line, lines.Line, float]], keeps: list[Card],
            plays: list[Card], trick: int) -> Reason:
    """The reason drawn from the play-outs ``pairs`` (the move made's line, the better move's,
    the deal's weight), the better move keeping ``keeps`` and playing ``plays`` instead."""
    gained = round(sum(w * (_side_points(b) - _side_points(a)) for a, b, w in pairs))
    # A kept card's later wins first: what a player sees at once, and what two reviews on
    # other worlds name alike more often (the trick that nets most is another one more often).
    # Not where they win back less than the better move pays on this trick: "40 more points
    # now, and the card kept later wins 7" explains nothing.
    card = _card_reason(pairs, keeps, trick, gained)
    found = card
    if card is None or card[1] < -card[0].facts["given"]:
        found = _trick_reason(pairs, keeps, plays, trick) or card
    return found[0] if found else Reason("value", {"points": gained})


CARD_SHARE = 0.2
"""The share of the deals from which a kept card's later win is the reason (``card``)."""


def _card_reason(pairs: Sequence[tuple[lines.Line, lines.Line, float]], keeps: list[Card],
                 trick: int, gained: int) -> tuple[Reason, float] | None:
    """The ``card`` reason: a card the better move keeps wins a later trick for the seat in
    :data:`CARD_SHARE` of the deals or more (the one that does so most often); with the points
    it wins, on average over the deals."""
    wins: dict[Card, float] = {}
    tricks: dict[Card, dict[int, float]] = {}
    points: dict[Card, float] = {}
    for _, b, weight in pairs:
        for k in range(1, len(b.won)):
            winning = [Card(c) for c in b.cards[k] if Card(c) in keeps]
            if b.mine[k] and winning:
                card = max(winning)  # one card named per deal: its first later win
                wins[card] = wins.get(card, 0.0) + weight
                at = tricks.setdefault(card, {})
                at[trick + k] = at.get(trick + k, 0.0) + weight
                points[card] = points.get(card, 0.0) + weight * _net(b, k)
                break
    if not wins:
        return None
    card, share = max(wins.items(), key=lambda item: (item[1], -int(item[0])))
    if share < CARD_SHARE:
        return None
    often = max(tricks[card].items(), key=lambda item: (item[1], -item[0]))[0]
    last = all(len(b.won) == often - trick + 1 for _, b, _ in pairs)
    return Reason("card", {"card": str(card), "keeps": format_cards(keeps),
                           "share": round(share, 2), "trick": often, "last": last,
                           "points": round(points[card] / share), "gained": gained,
                           "given": _given(pairs)}), points[card]


def _given(pairs: Sequence[tuple[lines.Line, lines.Line, float]]) -> int:
    """The points the move made gives the opponents on this trick beyond what the better move
    gives, on average over the deals where the seat's side loses it either way (0 unless that
    is most of them); negative where the better move gives more. A card thrown on a lost trick
    is first of all its points, and a better move that pays points now runs against instinct
    unless the reason says what it pays."""
    lost = [(a, b, weight) for a, b, weight in pairs if not a.won[0] and not b.won[0]]
    mass = sum(weight for _, _, weight in lost)
    if mass <= 0.5:
        return 0
    return round(sum(w * (a.points[0] - b.points[0]) for a, b, w in lost) / mass)


def _trick_reason(pairs: Sequence[tuple[lines.Line, lines.Line, float]], keeps: list[Card],
                  plays: list[Card], trick: int) -> tuple[Reason, float] | None:
    """The ``trick`` reason: the trick (this one or a later one) the seat's side nets most more
    on with the better move — the points it takes there, less those the opponents take —, with
    how much (``None``: none). When it is this trick, what the better move ``plays`` instead is
    named (the cards it keeps say little there: a 10 fed to a partner's trick)."""
    depth = max(min(len(a.won), len(b.won)) for a, b, _ in pairs)
    better = [0.0] * depth
    for a, b, weight in pairs:
        for k in range(min(len(a.won), len(b.won))):
            better[k] += weight * (_net(b, k) - _net(a, k))
    k = max(range(depth), key=lambda i: (better[i], -i))
    if better[k] < 0.5:  # not a whole point on any trick
        return None
    share = sum(w for a, b, w in pairs if k < min(len(a.won), len(b.won)) and b.won[k]
                and not a.won[k])
    against = sum(w for a, b, w in pairs if k < min(len(a.won), len(b.won)) and a.won[k]
                  and not b.won[k])
    return Reason("trick", {
        "trick": trick + k, "points": round(better[k]), "share": round(share, 2),
        "against": round(against, 2),
        "last": all(len(a.won) == k + 1 == len(b.won) for a, b, _ in pairs),
        "keeps": format_cards(keeps), "plays": format_cards(plays) if k == 0 else "",
    }), better[k]


def _net(line: lines.Line, k: int) -> int:
    """What trick ``k`` of ``line`` nets the seat's side: its points taken or given, and on the
    last trick what the kitty did (包红五: it goes with the last trick)."""
    net = line.points[k] if line.won[k] else -line.points[k]
    return net + line.kitty if k == len(line.won) - 1 else net


def _side_points(line: lines.Line) -> int:
    return sum(p for p, won in zip(line.points, line.won, strict=True) if won)


def with_loss(reason: Reason, loss: float, unit: str) -> Reason:
    """``reason`` with the reviewed move's ``loss`` (in ``unit``: ``points`` or ``levels``) for
    its words to give as the move's whole difference (``card``, ``trick`` and ``value``
    reasons; others as they are)."""
    if reason.kind not in ("card", "trick", "value"):
        return reason
    return Reason(reason.kind, {**reason.facts, "loss": round(loss, 3), "unit": unit})


def loss_text(loss: float, unit: str, lang: str) -> str:
    """A loss as the review shows its estimate: whole points, or levels to one decimal."""
    step = 1 if unit == "points" else 10  # rounded half up, as the page rounds it
    n = f"{math.floor(loss * step + 0.5) / step:.{0 if step == 1 else 1}f}"
    return UNIT_TEXTS[lang][unit].format(n=n)


def wasted_reason(made: tuple[Card, ...], best: tuple[Card, ...]) -> Reason:
    """The reason of a sure winner thrown on a lost trick (浪费大牌)."""
    return Reason("wasted_winner", {"keeps": format_cards(kept(made, best))})


def bid_reason(seat: int, results: Sequence[Sequence[Any]], weights: Sequence[float],
               made: Bid, best: Bid) -> Reason:
    """The reason of a bid: ``results[w]`` the results of ``made`` and ``best`` in world
    ``w`` (its weight in ``weights``)."""
    facts: dict[str, Any] = {"made": str(made), "best": str(best)}
    mass = sum(weights)
    for column, name in ((0, "made"), (1, "best")):
        declares = sum(w for row, w in zip(results, weights, strict=True)
                       if row[column].declarer == seat)
        makes = sum(w for row, w in zip(results, weights, strict=True)
                    if row[column].declarer == seat and row[column].made)
        facts[f"declares_{name}"] = round(declares / mass, 2)
        facts[f"makes_{name}"] = round(makes / declares, 2) if declares else None
    return Reason("bid", facts)


def declare_reason(obs: Observation, made: Declare, best: Declare) -> Reason:
    """The reason of a trump and bury: each one's trump, its length in the hand kept, and the
    points buried."""
    facts: dict[str, Any] = {}
    for option, name in ((made, "made"), (best, "best")):
        order = order_for(obs.rules.variant, option.trump)
        left = kept(obs.hand, option.bury)
        facts[f"trump_{name}"] = option.trump
        facts[f"trump_length_{name}"] = sum(1 for card in left if order.is_trump(card))
        facts[f"buried_points_{name}"] = sum(POINTS[card] for card in option.bury)
    return Reason("declare", facts)


TEXTS = {
    "en": {
        "trick": "{keeps}on trick {trick}{last} your side nets {points} more card points with "
                 "the better move, on average over the simulated deals{changes}{worth}",
        "changes": "; that trick changes hands in {share}% of them",
        "card": "the better move keeps {keeps}:{now} in {share}% of the simulated deals "
                "{card} later wins trick {trick} for you (that trick's {points} points){last}"
                "{gained}",
        "now": " it gives the opponents {points} fewer points on this trick, and",
        "costs": " it gives the opponents {points} more points on this trick, but",
        "gained": "; your side takes {points} more card points on average",
        "worth": "; in all, the better move is worth {loss} more on average (the loss shown)",
        "keeps": "the better move keeps {cards}: ",
        "plays": "the better move plays {cards}: ",
        "last": " — the last trick, which takes the kitty",
        "value": "no single trick stands out: the better move is worth {loss} more on average "
                 "(the loss shown)",
        "value_points": "no single trick stands out: your side takes {points} more card points "
                        "on average with the better move",
        "wasted_winner": "a sure winner thrown on a trick the opponents win; the better move "
                         "keeps {keeps}",
        "bid": "{made}: you end as the declarer in {declares_made}% of the simulated deals"
               "{makes_made}; {best}: {declares_best}%{makes_best}",
        "makes": ", and make the contract in {rate}% of those",
        "bid_value": "bid {n}",
        "pass": "pass",
        "declare": "trump {trump_made} ({trump_length_made} trumps), {buried_points_made} "
                   "points buried; better trump {trump_best} ({trump_length_best} trumps), "
                   "{buried_points_best} points buried",
    },
    "zh": {
        "trick": "{keeps}第{trick}轮{last}：换用更好的一手，己方在这一轮平均多拿{points}牌分"
                 "{changes}{worth}",
        "changes": "；这一轮在{share}%的牌局中易手",
        "card": "更好的一手留住{keeps}：{now}在{share}%的模拟牌局中，{card}之后为你赢得第"
                "{trick}轮（该轮{points}分）{last}{gained}",
        "now": "这一轮少送对方{points}分，并且",
        "costs": "这一轮多送对方{points}分，但",
        "gained": "；己方平均多拿{points}牌分",
        "worth": "；总的来说，更好的一手平均多{loss}（即所示的损失）",
        "keeps": "更好的一手留住{cards}：",
        "plays": "更好的一手出{cards}：",
        "last": "——最后一轮，连底牌",
        "value": "不在某一轮：更好的一手平均多{loss}（即所示的损失）",
        "value_points": "不在某一轮：换用更好的一手，己方平均多拿{points}牌分",
        "wasted_winner": "把必赢的大牌垫在对方赢的一轮上；更好的一手留住{keeps}",
        "bid": "{made}：在{declares_made}%的模拟牌局中坐庄{makes_made}；"
               "{best}：{declares_best}%坐庄{makes_best}",
        "makes": "，其中{rate}%成约",
        "bid_value": "叫{n}",
        "pass": "不叫",
        "declare": "主{trump_made}（{trump_length_made}张主），扣{buried_points_made}分；"
                   "更好：主{trump_best}（{trump_length_best}张主），扣{buried_points_best}分",
    },
}
"""The CLI's words for a reason (the browser's are its i18n keys ``review.reason.*``)."""

UNIT_TEXTS = {
    "en": {"points": "{n} points", "levels": "{n} levels"},
    "zh": {"points": "{n} 分", "levels": "{n} 级"},
}
"""A loss in the hand's unit, as the review's table shows it (the browser's ``review.unit.*``)."""


def describe(reason: Reason, lang: str = "en") -> str:
    """A reason in words (``lang``: ``en`` or ``zh``)."""
    words = TEXTS[lang]
    facts = dict(reason.facts)
    # The whole difference as the loss shown where the review gave it (with_loss), else the
    # card points of the reason's deals, worded as card points.
    loss = (loss_text(facts["loss"], facts["unit"], lang) if "loss" in facts else None)
    if reason.kind in ("trick", "card"):
        facts["share"] = round(100 * facts["share"])
        facts["last"] = words["last"] if facts["last"] else ""
    if reason.kind == "trick":
        plays = facts.get("plays", "")  # reviews kept before it was given have none
        facts["keeps"] = (words["plays"].format(cards=plays) if plays
                          else words["keeps"].format(cards=facts["keeps"]) if facts["keeps"]
                          else "")
        share = facts["share"]
        facts["changes"] = words["changes"].format(share=share) if share else ""
        facts["worth"] = words["worth"].format(loss=loss) if loss is not None else ""
    if reason.kind == "card":
        given = facts.get("given", 0)  # reviews kept before it was given have none
        facts["now"] = (words["now"].format(points=given) if given > 0
                        else words["costs"].format(points=-given) if given < 0 else "")
        gained = facts["gained"]
        facts["gained"] = (words["worth"].format(loss=loss) if loss is not None
                           else words["gained"].format(points=gained) if gained > 0 else "")
    if reason.kind == "value":
        return (words["value"].format(loss=loss) if loss is not None
                else words["value_points"].format(**facts))
    if reason.kind == "bid":
        for name in ("made", "best"):
            facts[f"declares_{name}"] = round(100 * facts[f"declares_{name}"])
            rate = facts[f"makes_{name}"]
            facts[f"makes_{name}"] = "" if rate is None else words["makes"].format(
                rate=round(100 * rate))
            bid = facts[name]
            facts[name] = words["pass"] if bid == "pass" else words["bid_value"].format(n=bid)
    return words[reason.kind].format(**facts)
