"""Terminal rendering of cards, hands, tricks and results, shared by ``play`` and ``replay``.

Every function returns a rich renderable (:class:`~rich.text.Text` or :class:`~rich.table.Table`)
or a string, and prints nothing, so the commands decide where output goes. Cards show as suit
symbol + rank, the ten as players write it (``♥A``, ``♠10``); hearts, diamonds and the big joker
are red, the rest in the terminal's default colour (black or white).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.table import Table
from rich.text import Text

from ..cards import SUIT_SYMBOLS, Card
from ..hand import Hand
from ..order import GROUP_NAMES, TRUMP, Order
from ..ruleset import RuleSet
from ..scoring import HandResult, penalty_adjustment
from ..tricks import LeadShape, Trick
from ..wire.tricks import Stopper
from ..wire.tricks import throw_stopper as find_stopper

SEAT_NAMES = ("南", "东", "北", "西")
"""Seat names: 0 South 南, 1 East 东, 2 North 北, 3 West 西 (play goes counter-clockwise)."""

SUIT_NAMES = {"S": "spades 黑桃", "H": "hearts 红心", "C": "clubs 梅花", "D": "diamonds 方片"}
"""English and Chinese name of each suit letter."""

DISPLAY_GROUPS = (TRUMP, 0, 1, 2, 3)
"""Groups in the order a hand is displayed and numbered: trumps, then S H C D."""

_KIND_NAMES = {
    "full_sweep": "全击 full sweep: every point card played was captured, none buried",
    "half_sweep": "半击 half sweep: every point card played was captured, some buried",
    "shutout": "shut-out: the declarer captured no point card",
    "no_bid": "no declarer: all four passed",
}


def seat_name(seat: int, you: int | None = None) -> str:
    """``"东"``, or ``"南 (you)"`` for the seat ``you`` plays."""
    return f"{SEAT_NAMES[seat]} (you)" if seat == you else SEAT_NAMES[seat]


def card_label(card: Card) -> str:
    """One card as the terminal shows it: ``♠A``, ``♥10``, ``BJ``."""
    return _ten(card.symbol())


def typed_cards(cards: Iterable[Card]) -> str:
    """Cards in notation a player can type back, the ten as ``10``: ``SA S10 BJ``."""
    return " ".join(_ten(str(card)) for card in cards)


def _ten(name: str) -> str:
    # The engine's notation writes the ten T; players write 10 (and may type either).
    return name.replace("T", "10")


def card_text(card: Card) -> Text:
    """One card, coloured by suit."""
    return Text(card_label(card), style="bold red" if card.is_red else "bold")


def cards_text(cards: Iterable[Card]) -> Text:
    """Cards separated by spaces, each coloured; ``—`` for none."""
    parts = [card_text(c) for c in cards]
    return Text(" ").join(parts) if parts else Text("—", style="dim")


def trump_text(trump: str | None) -> Text:
    """The trump suit as ``♥ hearts 红心``, or a note that it is not named yet."""
    if trump is None:
        return Text("not named yet", style="dim")
    return Text(f"{SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]}", style="red" if trump in "HD" else "")


def group_label(group: int) -> str:
    """``"主 trump"`` or the suit symbol and name of a plain group."""
    if group == TRUMP:
        return "主 trump"
    suit = GROUP_NAMES[group]
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit].split()[0]}"


def group_cards(order: Order, cards: Iterable[Card]) -> tuple[tuple[Card, ...], ...]:
    """``cards`` split into the five groups of ``order`` (S, H, C, D, trump), each strongest
    first: the layout of :attr:`baofen.Observation.by_group`."""
    groups: list[list[Card]] = [[], [], [], [], []]
    for card in order.sort(list(cards)):
        groups[order.group[card]].append(Card(card))
    return tuple(tuple(g) for g in groups)


def display_order(by_group: Sequence[Sequence[Card]]) -> list[Card]:
    """A hand held as ``by_group`` in display order, the order its positions are numbered in."""
    return [card for g in DISPLAY_GROUPS for card in by_group[g]]


def sort_cards(order: Order, cards: Iterable[Card]) -> list[Card]:
    """``cards`` in display order under ``order``: trumps first, then S H C D, strongest first."""
    return display_order(group_cards(order, cards))


def hand_text(by_group: Sequence[Sequence[Card]]) -> Text:
    """A hand, one line per suit group held (trumps first), every card after its position
    number (1, 2, …), numbered in :func:`display_order`."""
    lines = []
    position = 1
    for g in DISPLAY_GROUPS:
        cards = by_group[g]
        if not cards:
            continue
        line = Text().append(f"{group_label(g):<10}", style="cyan")
        for card in cards:
            line.append(f" {position:>2}:", style="dim")
            line.append_text(card_text(card))
            position += 1
        lines.append(line)
    return Text("\n").join(lines) if lines else Text("(no cards)", style="dim")


def shape_text(shape: LeadShape) -> str:
    """What a lead asks of the followers, e.g. ``"3 cards of ♠ spades: 1 pair, 1 single"``."""
    if shape.eight:
        return "8 cards of trumps: eight of a kind (八张), followed like four trump pairs"
    parts = [f"tractor of {n} pairs" for n in shape.tractors]
    loose_pairs = shape.pairs - sum(shape.tractors)
    singles = shape.size - 2 * shape.pairs
    if loose_pairs:
        parts.append(f"{loose_pairs} pair" + ("s" if loose_pairs > 1 else ""))
    if singles:
        parts.append(f"{singles} single" + ("s" if singles > 1 else ""))
    throw = " (a throw 甩牌)" if shape.is_throw else ""
    count = f"{shape.size} card" + ("s" if shape.size > 1 else "")
    return f"{count} of {group_label(shape.group)}: {', '.join(parts)}{throw}"


def play_text(seat: int, cards: Sequence[Card], you: int | None = None) -> Text:
    """``东 ♠A ♠A``: one seat's play."""
    return Text(f"{seat_name(seat, you)} ").append_text(cards_text(cards))


def throw_stopper(hand: Hand, thrower: int, played: Sequence[Card]) -> Stopper:
    """Who made a throw fail, and with which cards (:func:`baofen.wire.tricks.throw_stopper`);
    ``hand`` is the hand just after that lead."""
    judge = hand.judge
    assert judge is not None, "a throw is played after trump is named"
    return find_stopper(judge, thrower, played, [hand.hand_of(seat) for seat in range(4)])


def failed_throw_text(seat: int, attempted: Sequence[Card], played: Sequence[Card],
                      penalty: int, stopper: Stopper | None, you: int | None = None) -> Text:
    """The reveal of a failed throw (甩错牌): every attempted card, the cards of the seat that
    beat it where every hand is known (a replay; ``None`` during play, when those cards are a
    hand's, docs/rules.md §2), and what is played instead."""
    text = Text().append(f"{seat_name(seat, you)} tried to throw ", style="yellow")
    text.append_text(cards_text(attempted))
    text.append(" — the throw fails (甩错牌)", style="yellow")
    if stopper is not None:
        text.append(f": {seat_name(stopper.seat, you)} holds ", style="yellow")
        text.append_text(cards_text(stopper.cards))
        text.append(", which beats " if stopper.higher else ", as high as ", style="yellow")
        text.append_text(cards_text(played))
    player = "you play" if seat == you else f"{seat_name(seat)} plays"
    text.append(f"; {player} only ", style="yellow")
    text.append_text(cards_text(played))
    if penalty:
        text.append(f", penalty {penalty}", style="yellow")
    return text


def table_text(plays: Sequence[tuple[int, Sequence[Card]]], you: int | None = None) -> Text:
    """The trick on the table: each seat's play in order, ``东 ♠A   北 ♠3``."""
    if not plays:
        return Text("(empty: you lead)" if you is not None else "(empty)", style="dim")
    return Text("   ").join(play_text(seat, cards, you) for seat, cards in plays)


def trick_text(number: int, trick: Trick, declarer: int | None, you: int | None = None,
               two_lines: bool = False) -> Text:
    """One finished trick on one line (or, ``two_lines``, the winner and points on a line of
    their own, so that a trick of tractors fits a terminal): its plays, the winner, the points."""
    text = Text().append(f"Trick {number} · led by {seat_name(trick.leader, you)}: ", style="bold")
    text.append_text(table_text(trick.plays, you))
    side = "declarer" if trick.winner == declarer else "defenders"
    gap = "\n   " if two_lines else "  "
    text.append(f"{gap}→ {seat_name(trick.winner, you)} wins", style="bold")
    text.append(f" ({side}), {trick.points} points" if trick.points else f" ({side})")
    return text


def points_text(hand: Hand) -> str:
    """The declarer's points so far: ``45 points`` or, with throw penalties (rules §6.1),
    ``45 points, 39 after throw penalties``."""
    captured = hand.declarer_points_so_far
    counted = captured
    if hand.declarer is not None:
        counted += penalty_adjustment(hand.declarer, hand.penalties)
    if counted == captured:
        return f"{captured} points"
    return f"{captured} points, {counted} after throw penalties"


def bids_text(bids: Sequence[tuple[int, int | None]], you: int | None = None) -> Text:
    """The bidding so far, ``南 pass, 东 85, …``."""
    if not bids:
        return Text("no bids yet", style="dim")
    return Text(", ").join(
        Text(f"{seat_name(s, you)} {'pass' if v is None else v}") for s, v in bids
    )


def bid_choices(values: Sequence[int | None]) -> str:
    """Legal bids in words, ``pass, 85, 90, 95``; a long grid is shortened to its range."""
    numbers = [v for v in values if v is not None]
    if len(numbers) > 6:
        step = numbers[1] - numbers[0]
        return f"pass, or {numbers[0]}–{numbers[-1]} in steps of {step}"
    return ", ".join(["pass", *map(str, numbers)])


def _signed(value: int) -> str:
    return f"{value:+d}"


def result_table(rules: RuleSet, result: HandResult, you: int | None = None) -> Table:
    """The hand result with its breakdown (全击/半击, 王分, red fives, 保底, levels)."""
    table = Table(title="Hand result", show_header=False, title_justify="left")
    table.add_column("item")
    table.add_column("value", justify="right")
    if result.declarer is None or result.target is None:
        table.add_row(_KIND_NAMES["no_bid"], "")
    else:
        parts = result.breakdown
        table.add_row("declarer 庄家", seat_name(result.declarer, you))
        table.add_row("target 目标分", str(result.target))
        table.add_row("points captured in tricks", str(parts.get("captured", 0)))
        if rules.variant == "baofen":
            _baofen_rows(rules, table, result, parts)
        else:
            _hongwu_rows(table, result, parts)
    changes = "  ".join(
        f"{seat_name(s, you)} {_signed(d)}" for s, d in enumerate(result.deltas)
    )
    table.add_row("this hand", changes)
    return table


def _baofen_rows(rules: RuleSet, table: Table, result: HandResult, parts: dict[str, int]) -> None:
    table.add_row("王分: trump-suit points captured (of 50)", str(parts.get("wangfen", 0)))
    adjustment = parts.get("wangfen_adjustment", 0)
    if adjustment > 0:
        table.add_row("王分全抓: every trump point captured", _signed(adjustment))
    elif adjustment < 0:
        table.add_row("倒扣王分: no trump point captured", _signed(adjustment))
    if parts.get("penalties"):
        table.add_row("failed-throw penalties", _signed(parts["penalties"]))
    table.add_row("declarer points D", str(result.declarer_points))
    table.add_row("points buried in the kitty (for no one)", str(parts.get("kitty_points", 0)))
    assert result.score is not None and result.target is not None
    if result.kind is not None:
        table.add_row(_KIND_NAMES[result.kind], f"S = {_signed(result.score)}")
    else:
        table.add_row(
            "hand score S = D − target",
            f"{result.declarer_points} − {result.target} = {_signed(result.score)}",
        )
    table.add_row("made" if result.made else "failed", "", style="green" if result.made else "red")


def _hongwu_rows(table: Table, result: HandResult, parts: dict[str, int]) -> None:
    if parts.get("red_fives"):
        table.add_row("红五: red fives changing sides (±20 each)", _signed(parts["red_fives"]))
    kitty_points = parts.get("kitty_points", 0)
    kitty = parts.get("kitty", 0)
    if not kitty_points:
        label = "保底/抓底: the buried kitty holds no points"
    elif kitty > 0:
        label = f"保底: declarer won the last trick, kitty {kitty_points} points"
    else:
        times = -kitty // kitty_points
        label = f"抓底: defenders won the last trick, kitty {kitty_points} × {times}"
    table.add_row(label, _signed(kitty))
    if parts.get("penalties"):
        table.add_row("failed-throw penalties", _signed(parts["penalties"]))
    table.add_row("declarer points P", str(result.declarer_points))
    assert result.levels is not None
    table.add_row("levels L (级)", _signed(result.levels))
    table.add_row("made" if result.made else "failed", "", style="green" if result.made else "red")
