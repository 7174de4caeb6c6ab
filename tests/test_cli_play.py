"""``baofen play`` driven through a pseudo-terminal, and its input parsing."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest

from baofen import CARDS, Card, Hand, IllegalAction, Match, RuleSet, parse_card, parse_cards
from baofen.bots.rule.evaluation import choose_bury
from baofen.cli.answers import parse_selection, parse_trump, positions_of, refusal
from baofen.cli.render import SEAT_NAMES, bid_choices
from baofen.errors import Reason

SRC = Path(__file__).resolve().parents[1] / "src"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPTS = {
    "bid": r"Your bid \(.*?\) > ",
    "trump": r"Name the trump suit \(S H C D\) > ",
    "bury": r"Bury 8 cards \(.*?\) > ",
    "play": r"Your (?:lead|follow) \(cards or positions\) > ",
    "next": r"Next hand\? \[Y/n\] > ",
    "quit": r"End the match\? \[y/N\] > ",
}


def _as_from_a_shell() -> None:
    """In the child before it starts: Ctrl-C as an interactive shell leaves it. An ignored or
    blocked signal is inherited across exec, and a test run started in the background by a
    non-interactive shell (``pytest &``) ignores SIGINT: Python then never raises
    KeyboardInterrupt, and the program sat at its prompt."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A ``baofen play`` process in a pseudo-terminal, with its output kept as plain text."""

    def __init__(self, *args: str) -> None:
        env = {
            **os.environ, "PYTHONPATH": str(SRC), "TERM": "xterm-256color",
            "COLUMNS": "200", "LINES": "60",
        }
        self.raw = io.StringIO()
        self.child = pexpect.spawn(
            sys.executable, ["-m", "baofen", "play", "--bots", "random", *args],
            env=env, encoding="utf-8", dimensions=(60, 200), timeout=30,
            preexec_fn=_as_from_a_shell,
        )
        self.child.logfile_read = self.raw
        self.mark = 0

    @property
    def text(self) -> str:
        """Everything printed so far, without colour codes."""
        return ANSI.sub("", self.raw.getvalue())

    def since_mark(self) -> str:
        """Plain text printed since the last :meth:`next_prompt`."""
        return self.text[self.mark:]

    def next_prompt(self) -> str | None:
        """Wait for the next prompt; its name, or ``None`` when the program ended."""
        self.mark = len(self.text)
        index = self.child.expect([*PROMPTS.values(), pexpect.EOF])
        return None if index == len(PROMPTS) else list(PROMPTS)[index]

    def send(self, line: str) -> None:
        """Type a line."""
        self.child.sendline(line)

    def answer_expecting(self, line: str, message: str, prompt: str) -> None:
        """Type ``line`` and check that ``message`` is printed and ``prompt`` asked again."""
        self.send(line)
        assert self.next_prompt() == prompt
        assert message in self.since_mark(), self.since_mark()

    def hint(self, prompt: str) -> tuple[str, list[int]]:
        """Ask for a hint at ``prompt``; the cards it proposes and their positions."""
        self.send("hint")
        assert self.next_prompt() == prompt
        found = re.search(r"type: ([A-Z0-9 ]+?)(?: or ([\d ]+))?\s*$", self.since_mark(), re.M)
        assert found, self.since_mark()
        return found.group(1), [int(p) for p in (found.group(2) or "").split()]

    def hand(self) -> dict[str, list[tuple[int, Card]]]:
        """The last hand displayed: group label → (position, card) in display order."""
        block = self.text.rsplit("Your hand", 1)[1]
        groups: dict[str, list[tuple[int, Card]]] = {}
        for line in block.splitlines()[1:]:
            cells = re.findall(r"(\d+):(\S+)", line)
            if not cells:
                break
            label = line[:10].strip()
            groups[label] = [(int(p), parse_card(c)) for p, c in cells]
        return groups

    def quit(self) -> int:
        """Type ``quit`` and confirm it; the exit status."""
        self.send("quit")
        assert self.next_prompt() == "quit"
        self.send("y")
        return self.finish()

    def finish(self) -> int:
        """Wait for the process to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus is not None
        return self.child.exitstatus


def play_out(
    term: Terminal, prompt: str | None, bid: str = "pass", until: str | None = None
) -> int:
    """Answer every prompt from ``prompt`` on until the program ends, or until the prompt
    ``until`` (hints for every play, typed alternately as cards and as positions); the number of
    plays made."""
    plays = 0
    while prompt is not None and prompt != until:
        if prompt == "bid":
            term.send(bid)
        elif prompt == "trump":
            term.send("S")
        elif prompt == "bury":
            term.send("1 2 3 4 5 6 7 8")
        elif prompt == "play":
            cards, positions = term.hint("play")
            term.send(" ".join(map(str, positions)) if plays % 2 else cards)
            plays += 1
        else:
            term.send("n")
        prompt = term.next_prompt()
    return plays


def check_tens(text: str) -> None:
    """The ten shows as 10, as players write it (on cards and in typeable hints), never T."""
    assert re.search(r"[♠♥♣♦]10\b", text)
    assert not re.search(r"[♠♥♣♦]T|\b[SHCD]T\b", text)


def check_tricks_numbered(text: str) -> int:
    """Trick reports run 1, 2, 3, … without a gap; their count."""
    numbers = [int(n) for n in re.findall(r"^Trick (\d+) · led by", text, re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    return len(numbers)


def test_baofen_hand_as_declarer() -> None:
    term = Terminal("--variant", "baofen", "--seed", "3", "--hands", "1")
    assert term.next_prompt() == "bid"
    assert "Your bid (pass, 85, 90, 95)" in term.since_mark()
    term.send("95")  # the highest bid ends the bidding at once
    assert term.next_prompt() == "trump"
    text = term.since_mark()
    assert "南 (you) is the declarer (庄家) with a target of 95" in text
    assert "Your 33 cards:" in text and "The kitty 底牌:" in text
    term.answer_expecting("X", "'X' is not a suit", "trump")
    term.send("♥")
    assert term.next_prompt() == "bury"
    assert "With trump ♥ hearts" in term.since_mark()
    term.answer_expecting("1 2 3", "bury exactly 8 cards, not 3", "bury")
    term.answer_expecting("1 1 2 3 4 5 6 7", "position 1 given twice", "bury")
    term.answer_expecting("40", "no card at position 40: positions run from 1 to 33", "bury")
    term.send("back")
    assert term.next_prompt() == "trump"
    term.send("spades")
    assert term.next_prompt() == "bury"
    bury, _ = term.hint("bury")
    term.send(bury)
    prompt = term.next_prompt()
    assert "南 (you) names trump ♠ spades 黑桃 and buries 8 cards: " in term.since_mark()
    assert prompt == "play" and "Your lead" in term.since_mark()
    plays = play_out(term, prompt)
    assert term.finish() == 0
    text = term.text
    assert check_tricks_numbered(text) >= plays
    for line in ("Hand result", "declarer points D", "王分: trump-suit points captured",
                 "Scores after hand 1", "Pot 捞水草", "The match is over."):
        assert line in text
    assert re.search(r"hand score S = D − target|全击|半击|shut-out", text)
    assert "Traceback" not in text
    check_tens(text)


def test_hongwu_hand() -> None:
    term = Terminal("--variant", "hongwu", "--seed", "11", "--hands", "1")
    plays = play_out(term, term.next_prompt())
    assert term.finish() == 0
    text = term.text
    assert plays > 0 and check_tricks_numbered(text) >= plays
    assert "is the first bidder" in text
    assert "levels L (级)" in text and re.search(r"保底|抓底", text)
    assert "coins" in text and "The match is over." in text
    assert "Traceback" not in text
    check_tens(text)


def test_suits_are_coloured() -> None:
    term = Terminal("--seed", "3", "--hands", "1")
    assert term.next_prompt() == "bid"
    raw = term.raw.getvalue()
    assert re.search("\x1b\\[1;31m[♥♦]", raw)  # hearts and diamonds in red
    assert re.search("\x1b\\[1m[♠♣]", raw)  # spades and clubs in the default colour
    assert term.quit() == 0


def test_quit_asks_before_ending_the_match() -> None:
    term = Terminal("--seed", "3", "--hands", "1")
    assert term.next_prompt() == "bid"
    term.send("q")
    assert term.next_prompt() == "quit"
    term.send("")  # no: the match goes on, at the same prompt
    assert term.next_prompt() == "bid"
    assert "You left the match" not in term.text
    assert term.quit() == 0
    assert "You left the match after 0 finished hands." in term.text


def test_bad_input_gets_a_message_and_a_new_prompt() -> None:
    term = Terminal("--variant", "baofen", "--seed", "3", "--hands", "1")
    assert term.next_prompt() == "bid"
    term.answer_expecting("garbage", "'garbage' is not a bid: type pass or a number", "bid")
    term.answer_expecting("12", "12 is not a bid of this game", "bid")
    term.answer_expecting("help", "Commands at any prompt", "bid")
    term.send("95")
    assert term.next_prompt() == "trump"
    term.send("S")
    assert term.next_prompt() == "bury"
    term.send("1 2 3 4 5 6 7 8")
    assert term.next_prompt() == "play"
    hand = term.hand()
    held = {card for cards in hand.values() for _, card in cards}
    missing = next(c for c in CARDS if c not in held)
    term.answer_expecting("ZZ", "bad card 'ZZ'", "play")
    term.answer_expecting("99", "no card at position 99", "play")
    term.answer_expecting("1 SA", "not a mix of both", "play")
    term.answer_expecting(str(missing), f"you do not hold {missing}", "play")
    term.answer_expecting("", "type some cards", "play")
    term.answer_expecting("last", "No trick has been played yet", "play")
    first_two = [cards[0][0] for cards in hand.values()][:2]
    term.answer_expecting(
        " ".join(map(str, first_two)), "a lead must be of one suit group", "play"
    )
    # Play on by hints until a follow could break suit, and try that.
    refused = False
    prompt: str | None = "play"
    while prompt == "play" and not refused:
        led = re.search(r"Follow with (\d+) cards? of (.+?):", term.since_mark())
        hand = term.hand()
        if led:
            size, label = int(led.group(1)), led.group(2)
            others = [p for g, cards in hand.items() if g != label for p, _ in cards]
            if len(hand.get(label, ())) >= size and len(others) >= size:
                term.answer_expecting(
                    " ".join(map(str, others[:size])), "you must follow with", "play"
                )
                refused = True
        cards, _ = term.hint("play")
        term.send(cards)
        prompt = term.next_prompt()
    assert refused
    assert "Trick 1 · led by 南 (you)" in term.text
    term.answer_expecting("last", " · led by ", "play")
    assert term.quit() == 0
    assert "You left the match after 0 finished hands." in term.text
    assert "Traceback" not in term.text


def test_no_bid_hand_then_next_hand() -> None:
    # With seed 3 and --bots random, all three bots pass when South passes.
    term = Terminal("--variant", "baofen", "--seed", "3", "--hands", "2")
    prompt = term.next_prompt()
    while prompt == "bid":
        term.send("pass")
        prompt = term.next_prompt()
    assert prompt == "next"
    text = term.since_mark()
    assert "no declarer: all four passed" in text
    assert "Pot 捞水草: 100 · next caller 主叫: 东" in text
    term.answer_expecting("maybe", "answer y (yes) or n (no)", "next")
    term.send("")
    assert term.next_prompt() is not None
    assert "Hand 2 · 包分 Baofen" in term.since_mark()
    assert "东 is the caller 主叫. The pot (捞水草) holds 100." in term.since_mark()
    term.child.sendeof()
    assert term.finish() == 0
    assert "You left the match after 1 finished hand." in term.text


def test_interrupt_ends_quietly() -> None:
    term = Terminal("--seed", "3")
    assert term.next_prompt() == "bid"
    term.child.sendintr()
    assert term.finish() == 130
    assert "Interrupted." in term.text and "Traceback" not in term.text


# -- input parsing, in process -------------------------------------------------------------

SHOWN = parse_cards("BJ S2 SA SK SK H9 D5")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SA SK SK", "SA SK SK"),
        ("s10 ♠A", "ST SA"),
        ("ST ht", "ST HT"),  # T for the ten is still accepted
        ("sa,sk", "SA SK"),
        ("1 4 5", "BJ SK SK"),
        ("7", "D5"),
    ],
)
def test_selection_by_notation_or_position(text: str, expected: str) -> None:
    assert parse_selection(text, SHOWN) == parse_cards(expected)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type some cards"),
        ("8", "no card at position 8: positions run from 1 to 7"),
        ("0", "no card at position 0"),
        ("2 2", "position 2 given twice"),
        ("1 SA", "not a mix of both"),
        ("SX", "bad card 'SX'"),
    ],
)
def test_bad_selection(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_selection(text, SHOWN)


def test_positions_of_repeated_cards() -> None:
    assert positions_of(parse_cards("SK SK D5"), SHOWN) == [4, 5, 7]


@pytest.mark.parametrize("text", ["S", "s", "♠", "spades", "黑桃", " S "])
def test_trump_names(text: str) -> None:
    assert parse_trump(text) == "S"


def test_bad_trump_name() -> None:
    with pytest.raises(ValueError, match="not a suit"):
        parse_trump("NT")


def test_bid_choices() -> None:
    assert bid_choices([None, 85, 90, 95]) == "pass, 85, 90, 95"
    assert bid_choices([None, *range(70, 205, 5)]) == "pass, or 70–200 in steps of 5"


def test_refusals_write_the_ten_as_10() -> None:
    assert refusal(IllegalAction(Reason("not_held", card="ST"))) == "you do not hold S10"
    assert refusal(IllegalAction(Reason("bury_not_held", cards="HT SA"))) == (
        "cannot bury cards you do not hold: H10 SA"
    )
    assert refusal(IllegalAction(Reason("not_a_card", card="'XT'"))) == "not a card: 'XT'"
    assert refusal(ValueError("bad card 'ZZ'")) == "bad card 'ZZ'"


# -- the match record, the bury hint and a failed throw, through the terminal ---------------

def south_cards(seed: int, hands: int = 1) -> tuple[Match, list[Card]]:
    """The match ``baofen play --seed SEED --hands N`` deals, and South's 33 cards with the
    kitty (South declares)."""
    match = Match(RuleSet.create(variant="baofen", hands=hands), seed)
    return match, [*match.hand.deal[0], *match.hand.kitty]


def test_save_writes_a_match_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    term = Terminal("--variant", "baofen", "--seed", "3", "--hands", "2", "--save", str(path))
    prompt = term.next_prompt()
    plays = play_out(term, prompt, bid="95", until="next")
    assert plays > 0
    hand_one = term.text
    term.send("y")
    assert term.next_prompt() == "bid"
    assert term.quit() == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["format"] == "baofen-match" and len(record["hands"]) == 2
    first = Hand.from_record(record["hands"][0]["hand"])
    second = Hand.from_record(record["hands"][1]["hand"])
    assert Match.from_record(record).hand.deal == second.deal
    assert first.result is not None and second.phase == "bidding"
    assert first.declarer == 0 and first.target == 95
    assert len(first.tricks) == check_tricks_numbered(hand_one)
    deltas = "  ".join(
        f"{SEAT_NAMES[s]}{' (you)' if s == 0 else ''} {d:+d}"
        for s, d in enumerate(first.result.deltas)
    )
    assert deltas in hand_one
    replayed = subprocess.run(
        [sys.executable, "-m", "baofen", "replay", str(path)],
        env={**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "200"},
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "Hand 1 · 包分 Baofen" in replayed.stdout and "Hand 2 · 包分 Baofen" in replayed.stdout
    assert "The record stops in the bidding phase" in replayed.stdout


def test_bury_hint_follows_the_named_trump() -> None:
    _, cards = south_cards(seed=3)
    term = Terminal("--variant", "baofen", "--seed", "3", "--hands", "1")
    assert term.next_prompt() == "bid"
    term.send("95")
    assert term.next_prompt() == "trump"
    term.send("hint")
    assert term.next_prompt() == "trump"
    suggested = re.search(r"Hint: trump (\S)", term.since_mark())
    assert suggested
    named = next(s for s in "SHCD" if parse_trump(suggested.group(1)) != s)
    term.send(named)
    assert term.next_prompt() == "bury"
    bury, positions = term.hint("bury")
    assert f"Hint: trump {parse_card(named + 'A').symbol()[0]}" in term.since_mark()
    expected, _ = choose_bury("baofen", cards, named)
    assert Counter(parse_cards(bury)) == Counter(expected) and len(positions) == 8
    term.send(" ".join(map(str, positions)))
    assert term.next_prompt() == "play"
    assert f"南 (you) names trump {parse_card(named + 'A').symbol()[0]}" in term.since_mark()
    assert term.quit() == 0


def test_failed_throw_shows_its_cards_and_no_other_hand() -> None:
    """A failed throw shows every card tried and the penalty, not who could beat it: those
    cards are in a hand (docs/rules.md §2), as the computer players' Observation has it."""
    term = Terminal("--variant", "baofen", "--seed", "3", "--hands", "1")
    assert term.next_prompt() == "bid"
    term.send("95")
    assert term.next_prompt() == "trump"
    term.send("S")
    assert term.next_prompt() == "bury"
    bury, _ = term.hint("bury")
    term.send(bury)
    assert term.next_prompt() == "play"
    # Throw the two lowest singles of the longest plain suit: some bot holds a higher card.
    hand = term.hand()
    suit = max((g for g in hand if g != "主 trump"), key=lambda g: len(hand[g]))
    kinds = sorted({card for _, card in hand[suit]}, key=lambda c: c.rank or 0)
    throw = kinds[:2]
    term.send(" ".join(map(str, throw)))
    prompt = term.next_prompt()
    found = re.search(
        r"南 \(you\) tried to throw (.+?) — the throw fails \(甩错牌\); "
        r"you play only (.+?), penalty (\d+)\r?$",
        term.since_mark(), re.M,
    )
    assert found, term.since_mark()
    assert found.group(1) == " ".join(c.symbol().replace("T", "10") for c in throw)
    played = parse_cards(found.group(2).split())
    assert played == throw[:1]
    assert int(found.group(3)) == 3 * len(throw)
    assert " holds " not in term.since_mark()
    assert prompt is not None
    # South declares: the score line counts South's own penalty against South's points.
    scored = re.search(r"The declarer has (\d+) points, (-?\d+) after throw penalties\.",
                       term.since_mark())
    assert scored, term.since_mark()
    assert int(scored.group(2)) == int(scored.group(1)) - 3 * len(throw)
    # The finished trick: its plays on one line, who won it on the next (a trick of tractors
    # fits a terminal), and its last play not printed on a line of its own before it.
    trick = re.search(r"^Trick 1 · led by .*\r?\n   → (\S+)(?: \(you\))? wins", term.since_mark(),
                      re.M)
    assert trick, term.since_mark()
    assert term.quit() == 0
