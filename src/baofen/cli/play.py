"""``baofen play``: a whole match against three bots in the terminal, you in seat 0 (南 South).

Every prompt accepts ``help``, ``hint`` (a suggestion from the rule bot), ``last`` (the previous
trick) and ``quit``. Cards are typed in notation (``SA SK SK``, ``s10``, ``♠A``) or by their
positions in the displayed hand (``1 3 4``); the ten shows as ``10``, and ``T`` is accepted too.
Bad input prints the reason and asks again. ``--save FILE`` writes the match record (what
``baofen replay`` reads) after every hand and on leaving.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..actions import Action, Bid, Declare, Play
from ..bots import Bot, make_bot
from ..bots.rule.evaluation import choose_bury
from ..cards import Card
from ..hand import Hand, PlayResult
from ..match import Match
from ..order import order_for
from ..ruleset import RuleSet
from .answers import (
    CARDS_HELP,
    COMMANDS_HELP,
    PASS_WORDS,
    QUIT_WORDS,
    YES_WORDS,
    parse_selection,
    parse_trump,
    positions_of,
    refusal,
    yes_no,
)
from .command import Command, write_file
from .options import VariantName, VariantOption, bot_option
from .render import (
    bid_choices,
    bids_text,
    cards_text,
    display_order,
    failed_throw_text,
    group_cards,
    hand_text,
    play_text,
    points_text,
    result_table,
    seat_name,
    shape_text,
    table_text,
    trick_text,
    trump_text,
    typed_cards,
)
from .root import app

YOU = 0
"""The human plays South (南), seat 0."""

T = TypeVar("T")


class _Quit(Exception):
    """The player asked to leave the match."""


class Session:
    """One terminal match: the human in seat 0, bots in seats 1–3."""

    def __init__(
        self, console: Console, match: Match, bots: Mapping[int, Bot], hinter: Bot,
        save: Path | None = None,
    ) -> None:
        self.console = console
        self.match = match
        self.bots = bots
        self.hinter = hinter
        self.save = save

    @property
    def hand(self) -> Hand:
        """The hand being played."""
        return self.match.hand

    # -- the match ----------------------------------------------------------------------------

    def run(self) -> None:
        """Play hands until the match is over or the player quits."""
        try:
            while True:
                self.play_hand()
                self.console.print(self.standings())
                self.save_record()
                if self.match.finished:
                    self.console.print(Text("The match is over.", style="bold"))
                    return
                if not self.ask("Next hand? [Y/n]", yes_no):
                    break
                self.match.next_hand()
        except _Quit:
            pass
        finished = len(self.match.history)
        self.console.print(
            f"You left the match after {finished} finished hand{'' if finished == 1 else 's'}."
        )

    def play_hand(self) -> None:
        """Play the current hand to its end, then show its result."""
        hand = self.hand
        rules = hand.rules
        title = "包分 Baofen" if rules.variant == "baofen" else "包红五 Bao Hong Wu"
        self.console.rule(f"Hand {self.match.number} · {title}")
        opener = "caller 主叫" if rules.variant == "baofen" else "first bidder"
        line = f"{seat_name(hand.first, YOU)} is the {opener}."
        if self.match.pot:
            line += f" The pot (捞水草) holds {self.match.pot}."
        self.console.print(line)
        for seat in hand.turns():
            if seat == YOU:
                action, outcome = self.your_turn()
            else:
                action = self.bots[seat].act(hand.observation(seat))
                outcome = hand.apply(seat, action)
            self.announce(seat, action, outcome)
        assert hand.result is not None
        self.console.print(result_table(rules, hand.result, YOU))

    def save_record(self) -> None:
        """Write the match record (every hand so far, the one in play included) to the
        ``--save`` file, if there is one."""
        if self.save is not None:
            record = self.match.to_record()
            write_file(self.save, json.dumps(record, indent=1, ensure_ascii=False) + "\n")

    def standings(self) -> Group:
        """Running scores after the last settled hand, with the pot and the next caller (包分)
        or the coins (包红五)."""
        match = self.match
        scores = match.scores
        entry = match.history[-1]
        hongwu = match.rules.variant == "hongwu"
        table = Table(title=f"Scores after hand {len(match.history)}", title_justify="left")
        table.add_column("seat")
        table.add_column("levels" if hongwu else "score", justify="right")
        table.add_column("this hand", justify="right")
        if hongwu:
            table.add_column("coins", justify="right")
        for seat, score in enumerate(scores):
            row = [seat_name(seat, YOU), str(score), f"{entry.deltas[seat]:+d}"]
            if hongwu:
                row.append(str(match.coins[seat]))
            table.add_row(*row)
        if hongwu:
            return Group(table)
        return Group(table, Text(
            f"Pot 捞水草: {match.pot} · next caller 主叫: {seat_name(match.ledger.caller, YOU)}"
        ))

    # -- narration ----------------------------------------------------------------------------

    def announce(self, seat: int, action: Action, outcome: PlayResult | None) -> None:
        """Say what ``seat`` just did, and what followed from it."""
        hand = self.hand
        who = seat_name(seat, YOU)
        if isinstance(action, Bid):
            said = "passes" if action.value is None else f"bids {action.value}"
            self.console.print(f"{who} {said}.")
            if hand.phase == "kitty":
                assert hand.declarer is not None
                self.console.print(Text(
                    f"{seat_name(hand.declarer, YOU)} is the declarer (庄家) with a target of "
                    f"{hand.target} and takes the kitty (底牌).",
                    style="bold",
                ))
        elif isinstance(action, Declare):
            text = Text(f"{who} names trump ").append_text(trump_text(action.trump))
            text.append(" and buries 8 cards" + (": " if seat == YOU else "."))
            if seat == YOU:
                text.append_text(cards_text(action.bury))
            self.console.print(text)
        elif outcome is not None:
            if outcome.failed_throw:  # who could beat it is a hand's secret (rules.md §2)
                self.console.print(failed_throw_text(
                    seat, outcome.attempted, outcome.played, outcome.penalty, None, YOU
                ))
            elif outcome.trick is None:  # a trick's last play is printed with the trick
                self.console.print(Text("  ").append_text(play_text(seat, outcome.played, YOU)))
            if outcome.trick is not None:
                self.console.print(trick_text(
                    len(hand.tricks), outcome.trick, hand.declarer, YOU, two_lines=True
                ))
                self.console.print(f"The declarer has {points_text(hand)}.", style="dim")

    # -- the human's turn ---------------------------------------------------------------------

    def your_turn(self) -> tuple[Action, PlayResult | None]:
        """Ask the human for the action of the current phase and apply it."""
        phase = self.hand.phase
        if phase == "bidding":
            return self.your_bid(), None
        if phase == "kitty":
            return self.your_kitty(), None
        return self.your_play()

    def your_bid(self) -> Bid:
        """Show the hand and the bidding; ask for one of the legal bids."""
        hand = self.hand
        observation = hand.observation(YOU)
        self.console.print(Text("Your hand:", style="bold"))
        self.console.print(hand_text(observation.by_group))
        self.console.print(Text("Bidding 叫分: ").append_text(bids_text(observation.bids, YOU)))
        choices = bid_choices(observation.legal_bids())

        def answer(line: str) -> Bid:
            word = line.strip().lower()
            if word in PASS_WORDS:
                value = None
            elif word.isdigit():
                value = int(word)
            else:
                raise ValueError(
                    f"{line.strip()!r} is not a bid: type pass or a number ({choices})"
                )
            hand.bid(YOU, value)
            return Bid(value)

        return self.ask(f"Your bid ({choices})", answer)

    def your_kitty(self) -> Declare:
        """Show the kitty and the 33 cards; ask for the trump suit, then for 8 cards to bury."""
        hand = self.hand
        observation = hand.observation(YOU)
        assert observation.kitty is not None
        self.console.print(Text("The kitty 底牌: ").append_text(cards_text(observation.kitty)))
        self.console.print(Text("Your 33 cards:", style="bold"))
        self.console.print(hand_text(observation.by_group))
        while True:
            trump = self.ask("Name the trump suit (S H C D)", parse_trump)
            shown_by_group = group_cards(order_for(hand.rules.variant, trump), observation.hand)
            shown = display_order(shown_by_group)
            self.console.print(Text("With trump ").append_text(trump_text(trump)).append(":"))
            self.console.print(hand_text(shown_by_group))

            def answer(line: str, trump: str = trump, shown: list[Card] = shown) -> Declare | None:
                if line.strip().lower() == "back":
                    return None
                bury = parse_selection(line, shown)
                hand.declare(YOU, trump, bury)
                return Declare(trump, bury)

            declared = self.ask(
                "Bury 8 cards (cards or positions; 'back' to name another trump)", answer, shown,
                trump,
            )
            if declared is not None:
                return declared

    def your_play(self) -> tuple[Play, PlayResult]:
        """Show the table and the hand; ask for a lead or a follow."""
        hand = self.hand
        observation = hand.observation(YOU)
        assert hand.declarer is not None
        status = Text(f"Trick {len(hand.tricks) + 1} · trump ").append_text(trump_text(hand.trump))
        status.append(
            f" · declarer {seat_name(hand.declarer, YOU)} (target {hand.target}, "
            f"{points_text(hand)} so far)"
        )
        self.console.rule(status, style="dim")
        self.console.print(Text("On the table: ").append_text(
            table_text(observation.current_trick, YOU)
        ))
        if observation.current_attempt is not None and observation.leader is not None:
            self.console.print(Text("  (led after a failed throw of ").append_text(
                cards_text(observation.current_attempt)
            ).append(")"))
        shape = observation.lead_shape
        if shape is not None:
            held = len(observation.by_group[shape.group])
            self.console.print(f"Follow with {shape_text(shape)} — you hold {held} of that group.")
        self.console.print(Text(f"Your hand ({len(observation.hand)}):", style="bold"))
        self.console.print(hand_text(observation.by_group))
        shown = list(observation.hand)

        def answer(line: str) -> tuple[Play, PlayResult]:
            cards = parse_selection(line, shown)
            return Play(cards), hand.play(YOU, cards)

        verb = "lead" if shape is None else "follow"
        return self.ask(f"Your {verb} (cards or positions)", answer, shown)

    # -- prompting ----------------------------------------------------------------------------

    def ask(
        self, prompt: str, answer: Callable[[str], T], shown: Sequence[Card] | None = None,
        trump: str | None = None,
    ) -> T:
        """Prompt until ``answer`` accepts a line; ``answer`` raises ``ValueError`` (the engine's
        ``IllegalAction`` included) with the reason a line is refused. ``shown`` is the hand
        as displayed, for the positions in a hint; ``trump`` the trump the player has named,
        for a hint to bury under it."""
        while True:
            try:
                line = self.console.input(Text(f"{prompt} > ", style="bold"))
            except EOFError:
                raise _Quit from None
            word = line.strip().lower()
            if word in QUIT_WORDS:
                if self._quit_confirmed():
                    raise _Quit
                continue
            if word in ("help", "?"):
                self.console.print(COMMANDS_HELP)
                self.console.print(CARDS_HELP)
            elif word == "hint":
                self.console.print(self.hint(shown, trump))
            elif word == "last":
                self.console.print(self.last_trick())
            else:
                try:
                    return answer(line)
                except ValueError as error:
                    self.console.print(Text(f"✗ {refusal(error)}", style="red"))

    def _quit_confirmed(self) -> bool:
        """Ask before ending the match: a stray ``q`` must not throw it away."""
        try:
            line = self.console.input(Text("End the match? [y/N] > ", style="bold"))
        except EOFError:
            return True
        return line.strip().lower() in YES_WORDS - {""}

    def hint(self, shown: Sequence[Card] | None, trump: str | None = None) -> Text:
        """The hint bot's proposal for the current decision, in words and in typeable form
        (with positions in ``shown``); once the player has named ``trump``, the bury for it."""
        hand = self.hand
        if hand.to_act != YOU:
            return Text("Nothing to decide right now.")
        observation = hand.observation(YOU)
        if trump is not None:
            bury, _ = choose_bury(hand.rules.variant, observation.hand, trump)
            action: Action = Declare(trump, bury)
        else:
            action = self.hinter.act(observation)
        if isinstance(action, Bid):
            return Text(f"Hint: {'pass' if action.value is None else f'bid {action.value}'}")
        if isinstance(action, Declare):
            text = Text("Hint: trump ").append_text(trump_text(action.trump)).append(", bury ")
            cards = action.bury
        else:
            assert isinstance(action, Play)
            text = Text("Hint: play ")
            cards = action.cards
        text.append_text(cards_text(cards)).append(f" — type: {typed_cards(cards)}")
        if shown is not None:
            text.append(f" or {' '.join(map(str, positions_of(cards, shown)))}")
        return text

    def last_trick(self) -> Text:
        """The previous finished trick, if any."""
        tricks = self.hand.tricks
        if not tricks:
            return Text("No trick has been played yet in this hand.")
        return trick_text(len(tricks), tricks[-1], self.hand.declarer, YOU)


@app.command(cls=Command)
def play(
    variant: VariantOption = VariantName.baofen,
    bots: Annotated[str, bot_option("computer players in the other three seats")] = "rule",
    seed: Annotated[
        int | None,
        typer.Option(metavar="SEED", help="seed of the deals and the bots (default: random)"),
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option(min=1, metavar="HANDS", help="hands in the match (default: until you quit)"),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE", dir_okay=False,
            help="write the match record to FILE after every hand and on leaving "
            "(baofen replay FILE shows it)",
        ),
    ] = None,
) -> None:
    """Play a match against three bots in the terminal, you in seat 南 (South)."""
    console = Console(highlight=False)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rules = RuleSet.create(variant=variant.value, hands=hands)
    master = random.Random(seed)
    opponents = {seat: make_bot(bots, seed=master.getrandbits(32)) for seat in (1, 2, 3)}
    hinter = make_bot("rule", seed=master.getrandbits(32))
    session = Session(console, Match(rules, seed), opponents, hinter, save)
    session.save_record()  # a FILE that cannot be written is reported before the first hand
    console.print(
        f"baofen play: {variant.value}, bots {bots!r}, seed {seed}. "
        "You sit South (南); East 东, North 北 and West 西 are bots. Type help for help."
    )
    try:
        session.run()
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(130) from None
    finally:
        session.save_record()
