"""What the player types at ``baofen play``'s prompts, read: cards (in notation or by their
positions in the displayed hand), a trump suit, yes or no, and the words of the commands; and
why a line is refused, in the terminal's notation."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import SUIT_SYMBOLS, SUITS, Card, parse_cards
from ..errors import IllegalAction, Reason
from .render import SUIT_NAMES, typed_cards

PASS_WORDS = frozenset({"pass", "p", "-"})
YES_WORDS = frozenset({"", "y", "yes"})
NO_WORDS = frozenset({"n", "no"})
QUIT_WORDS = frozenset({"quit", "exit", "q"})
SUIT_WORDS = {
    **{s.lower(): s for s in SUITS},
    **{symbol: s for s, symbol in SUIT_SYMBOLS.items()},
    **{name.split()[0]: s for s, name in SUIT_NAMES.items()},
    **{name.split()[1]: s for s, name in SUIT_NAMES.items()},
}

COMMANDS_HELP = (
    "Commands at any prompt: hint (a suggestion), last (the previous trick), help, quit."
)
CARDS_HELP = (
    "Type cards in notation — suit S H C D (or ♠ ♥ ♣ ♦) and rank A K Q J 10 9 … 2 (T for the "
    "ten is fine too), jokers BJ (大王) and LJ (小王), e.g. 'SA SK SK' or 's10' — or by the "
    "positions shown before each card in your hand, e.g. '1 3 4'. Repeat a card to play both "
    "copies (a pair: 'SK SK')."
)


def parse_selection(text: str, shown: Sequence[Card]) -> list[Card]:
    """Cards chosen by notation (``SA SK``) or by 1-based positions in ``shown`` (``1 3``)."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise ValueError("type some cards (e.g. SA SK) or their positions (e.g. 1 3)")
    numeric = [token.isdigit() for token in tokens]
    if any(numeric) and not all(numeric):
        raise ValueError("give either cards (SA SK) or positions (1 3), not a mix of both")
    if not all(numeric):
        return parse_cards(tokens)
    positions = [int(token) for token in tokens]
    for position in positions:
        if not 1 <= position <= len(shown):
            raise ValueError(
                f"no card at position {position}: positions run from 1 to {len(shown)}"
            )
    repeated = sorted({p for p in positions if positions.count(p) > 1})
    if repeated:
        raise ValueError(
            f"position {repeated[0]} given twice; each position is one card "
            "(a pair takes two positions)"
        )
    return [shown[p - 1] for p in positions]


def positions_of(cards: Sequence[Card], shown: Sequence[Card]) -> list[int]:
    """1-based positions in ``shown`` of ``cards`` (a repeated card takes its next copy)."""
    used: set[int] = set()
    positions = []
    for card in cards:
        index = next(i for i, c in enumerate(shown) if c == card and i not in used)
        used.add(index)
        positions.append(index + 1)
    return positions


def refusal(error: ValueError) -> str:
    """Why a line was refused, its cards written as the terminal shows them (``S10``)."""
    reason = error.reason if isinstance(error, IllegalAction) else None
    if reason is None:
        return str(error)
    return Reason(reason.code, **{
        name: _typed(value) if name in ("card", "cards") else value
        for name, value in reason.params.items()
    })


def _typed(notation: str) -> str:
    try:
        return typed_cards(parse_cards(notation))
    except ValueError:  # not a card at all (the reason says so): shown as given
        return notation


def parse_trump(text: str) -> str:
    """A suit letter from ``S``, ``♠``, ``spades`` or ``黑桃`` (any case)."""
    word = text.strip().lower()
    suit = SUIT_WORDS.get(word)
    if suit is None:
        raise ValueError(f"{text.strip()!r} is not a suit: name trump as S, H, C or D (or ♠ ♥ ♣ ♦)")
    return suit


def yes_no(line: str) -> bool:
    """True for y (or an empty line), False for n."""
    word = line.strip().lower()
    if word in YES_WORDS:
        return True
    if word in NO_WORDS:
        return False
    raise ValueError("answer y (yes) or n (no)")
