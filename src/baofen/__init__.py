"""baofen: 包分 (Baofen) and 包红五 (Bao Hong Wu), the Chinese trick-taking card games.

A rules engine with a flat public API::

    from baofen import RuleSet, Hand, Match, parse_cards

    hand = Hand(RuleSet.baofen(), seed=7)
    hand.bid(0, 85)
    ...

See ``docs/rules.md`` for the rules and ``README.md`` for the tools built on the engine.
"""

from .actions import Action, Bid, Declare, Play
from .cards import CARDS, SUITS, Card, card_of, format_cards, full_pack, parse_card, parse_cards
from .errors import IllegalAction, Reason
from .hand import Hand, Player, PlayResult, Step, play_hand
from .match import Match, MatchEntry
from .observation import Observation
from .order import Order, order_for
from .ruleset import RuleSet
from .scoring import HandResult
from .tricks import Trick

__all__ = [
    "CARDS",
    "SUITS",
    "Action",
    "Bid",
    "Card",
    "Declare",
    "Hand",
    "HandResult",
    "IllegalAction",
    "Match",
    "MatchEntry",
    "Observation",
    "Order",
    "Play",
    "PlayResult",
    "Player",
    "Reason",
    "RuleSet",
    "Step",
    "Trick",
    "card_of",
    "format_cards",
    "full_pack",
    "order_for",
    "parse_card",
    "parse_cards",
    "play_hand",
]

__version__ = "0.1.0"
