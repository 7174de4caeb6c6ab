"""The follows considered beyond the rule bot's own list: by the search's ``wide=1``
(:mod:`baofen.bots.search.bot`) and among the learned evaluator's candidates
(:mod:`baofen.bots.learned.evaluator`)."""

from __future__ import annotations

from ...cards import KINDS, POINTS, Card
from ...observation import Observation
from ...order import TRUMP
from .bot import RuleBot
from .play import PlayDecision
from .shared import CostChooser, compose_follow, matching_play

__all__ = ["wide_follows"]


def wide_follows(obs: Observation, rule: RuleBot, limit: int) -> list[tuple[Card, ...]]:
    """Up to ``limit`` legal follows, best first by the rule bot's own estimate: its candidates,
    and every other legal single (to a single lead), follows composed to keep the strongest
    cards, to shed each plain suit first, to feed or to keep points, and ruffs of either kind."""
    table = PlayDecision(obs, rule.weights, rule.tally)
    shape = obs.lead_shape
    assert shape is not None
    judge = table.judge
    by_group = obs.by_group
    value = table.value
    group = table.group
    strength = table.strength
    extra: list[list[Card]] = []
    suited = by_group[shape.group]
    if shape.size == 1:
        extra += [[c] for c in sorted(set(suited or obs.hand))]
    else:
        costs = [
            [-float(strength[k]) for k in range(KINDS)],  # the strongest
            [value[k] + 2.0 * POINTS[k] for k in range(KINDS)],  # keep points
            [value[k] - 2.0 * POINTS[k] for k in range(KINDS)],  # feed points
        ]
        for g in range(4):  # shed one plain suit first
            costs.append([value[k] - (50.0 if group[k] == g else 0.0) for k in range(KINDS)])
        for cost in costs:
            extra.append(compose_follow(judge, shape, by_group, CostChooser(cost)))
        if not suited and shape.group != TRUMP and len(by_group[TRUMP]) >= shape.size:
            for cost in costs[:3]:
                play = matching_play(judge, shape, by_group[TRUMP], CostChooser(cost))
                if play is not None:
                    extra.append(play)
    plays = [cards for _, cards in obs.current_trick]
    later = table.later_seats()

    def score(cards: tuple[Card, ...]) -> float:
        """The rule bot's estimate of a follow (as in its own follow candidates)."""
        index = judge.best(shape, [*plays, cards])
        winner = obs.seat if index == len(plays) else obs.current_trick[index][0]
        best = cards if index == len(plays) else plays[index]
        assert winner is not None and shape is not None
        p_side = table.holds_chance(winner, shape, best, later)
        return table.trick_value(p_side, winner == obs.declarer, cards, obs.current_trick,
                                 len(later)) - table.spend_cost(cards)

    own = rule.play_candidates(obs, 64)
    seen = {tuple(sorted(cards)) for cards in own}
    scored = [(score(cards), rank, cards) for rank, cards in enumerate(own[1:], 1)]
    for option in extra:
        cards = tuple(option)
        key = tuple(sorted(cards))
        if key not in seen and table.is_legal(cards):
            seen.add(key)
            scored.append((score(cards), len(scored) + 64, cards))
    scored.sort(key=lambda item: (-item[0], item[1]))
    # The rule bot's choice stays first (the gate and the halving compare against it).
    return [own[0], *(cards for _, _, cards in scored)][:limit]
