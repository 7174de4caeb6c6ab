"""The rule profiles the golden playthroughs cover, and the hands played under each.

Each profile is one game's defaults or a house-rule variant that changes play (bids, throws,
the structure obligation, eights, no-bid handling, kitty and red-five scoring). Each hand names
its seed (the deal), the seat whose observation is written, and the bots that chose its actions
(``make_bot`` specs, as the arena writes them). The files hold the actions, so the engines are
checked on them whatever the bots do; a test checks apart that the bots still choose them.
"""

from __future__ import annotations

from dataclasses import dataclass

from baofen import Hand, RuleSet
from baofen.actions import Action
from baofen.bots import make_bot, parse_spec


@dataclass(frozen=True)
class GoldenHand:
    """One hand of a playthrough file."""

    seed: int
    seat: int
    """The seat whose observation is written."""
    players: tuple[str, str, str, str]
    """The bot of each seat, as ``name:option=value`` (:func:`baofen.bots.parse_spec`)."""

    def played(self, rules: RuleSet) -> list[tuple[int, Action]]:
        """The actions the hand's bots choose under ``rules`` (on the Python engine)."""
        hand = Hand(rules, seed=self.seed)
        bots = []
        for player in self.players:
            name, options = parse_spec(player)
            bots.append(make_bot(name, **dict(options)))
        for seat in hand.turns():
            hand.apply(seat, bots[seat].act(hand.observation(seat)))
        return list(hand.actions)


@dataclass(frozen=True)
class Profile:
    """One playthrough file: a rule set and the hands played under it."""

    name: str
    title: str
    rules: RuleSet
    hands: tuple[GoldenHand, ...]

    @property
    def file_name(self) -> str:
        return f"{self.name}.txt"


def _rule(seed: int) -> tuple[str, str, str, str]:
    """Rule bots in all four seats, seeded from ``seed``."""
    return (f"rule:seed={seed}", f"rule:seed={seed + 1}", f"rule:seed={seed + 2}",
            f"rule:seed={seed + 3}")


def _thrower(seed: int, seat: int) -> tuple[str, str, str, str]:
    """Rule bots, but a random bot that never bids and often throws (甩牌) in ``seat``."""
    players = list(_rule(seed))
    players[seat] = f"random:seed={seed + seat}:throw_rate=0.6:pass_rate=1.0"
    return (players[0], players[1], players[2], players[3])


PROFILES: tuple[Profile, ...] = (
    Profile(
        "baofen",
        "包分 with its defaults",
        RuleSet.baofen(),
        (
            GoldenHand(13, 3, _rule(13)), GoldenHand(0, 0, _rule(0)),
            GoldenHand(18, 3, _thrower(18, 2)),
        ),
    ),
    Profile(
        "baofen-direct",
        "包分, house rules: five bids 80–100, four passes cost the caller at once (直接扣分法), "
        "zero-sum settlement, a heavier throw penalty, no eights of a kind",
        RuleSet.baofen(
            bid_values=(80, 85, 90, 95, 100), no_bid_mode="direct", direct_penalty=30,
            settlement="zero_sum", throw_penalty_per_card=5, eight_of_a_kind=False,
        ),
        (
            GoldenHand(3, 0, _rule(3)), GoldenHand(0, 1, _rule(0)),
            GoldenHand(6, 2, _thrower(6, 2)),
        ),
    ),
    Profile(
        "baofen-loose",
        "包分, house rules: no structure obligation, throws unpunished, other 王分 and sweep "
        "scores, other pot stakes",
        RuleSet.baofen(
            must_follow_structure=False, throw_penalty_per_card=0, wangfen_all_bonus=40,
            wangfen_none_penalty=80, full_sweep_score=600, half_sweep_score=300,
            shutout_score=-400, pot_caller_stake=50, pot_other_stake=10,
        ),
        (
            GoldenHand(5, 2, _rule(5)), GoldenHand(12, 1, _thrower(12, 0)),
            GoldenHand(17, 3, _thrower(17, 1)),
        ),
    ),
    Profile(
        "hongwu",
        "包红五 with its defaults",
        RuleSet.hongwu(),
        (GoldenHand(21, 2, _rule(21)), GoldenHand(28, 0, _thrower(28, 0))),
    ),
    Profile(
        "hongwu-strict",
        "包红五, house rules: bids 60–150 in tens, followers owe pairs and tractors, "
        "a failed throw costs 5 a card",
        RuleSet.hongwu(
            bid_min=60, bid_step=10, bid_max=150, must_follow_structure=True,
            throw_penalty_per_card=5,
        ),
        (GoldenHand(21, 1, _rule(21)), GoldenHand(17, 3, _thrower(17, 1))),
    ),
    Profile(
        "hongwu-kitty",
        "包红五, house rules: 抓底 triples the kitty with a trump and doubles it with a plain "
        "suit, a red five is worth 40, 20 points a level",
        RuleSet.hongwu(
            kitty_multiplier_trump=3, kitty_multiplier_plain=2, red5_capture_points=40,
            points_per_level=20,
        ),
        (GoldenHand(21, 2, _rule(21)), GoldenHand(17, 0, _thrower(17, 1))),
    ),
)
