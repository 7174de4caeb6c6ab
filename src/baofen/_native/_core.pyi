"""Types of the compiled native core (src/baofen/_native/module.cpp and its bind_*.cpp parts);
tests/test_native_stub.py checks them against the built module."""

from collections.abc import Sequence
from typing import Any

RESULT_FIELDS: int

class Rules:
    def __init__(self, rules: dict[str, Any]) -> None: ...

class RuleWeights:
    def __init__(self, weights: dict[str, float] = ...) -> None: ...
    def as_dict(self) -> dict[str, float]: ...

class Hand:
    def __init__(self, rules: Rules, deal: Sequence[int], first: int) -> None: ...
    @property
    def phase(self) -> str: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def first(self) -> int: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def trump(self) -> str | None: ...
    @property
    def deal(self) -> list[int]: ...
    def hand_of(self, seat: int) -> list[int]: ...
    def legal_bids(self) -> list[int | None]: ...
    def bid(self, seat: int, value: int | None) -> None: ...
    def declare(self, seat: int, trump: str, bury: Sequence[int]) -> None: ...
    def play(self, seat: int, cards: Sequence[int]) -> list[int]: ...
    def play_error(self, seat: int, cards: Sequence[int]) -> str | None: ...
    def is_legal(self, seat: int, cards: Sequence[int]) -> bool: ...
    def legal_plays(self, limit: int = 100000) -> list[list[int]]: ...
    def actions(self) -> list[tuple[int, int, int, list[int]]]: ...
    def log(self) -> bytes: ...
    def winners(self) -> list[int]: ...
    def result(self) -> tuple[int, ...] | None: ...
    def copy(self) -> Hand: ...
    def play_out(self, seed: int) -> None: ...
    def rule_action(self, weights: RuleWeights) -> tuple[int, int, int, list[int]]: ...
    def rule_plays(self, weights: RuleWeights, limit: int = 64) -> list[list[int]]: ...
    def rule_act(self, weights: RuleWeights) -> None: ...
    def play_out_with(
        self, players: Sequence[RuleWeights | None], seed: int = 0
    ) -> None: ...

class Replay:
    """A sampler's observed actions, replayed on each world it draws (bots/native_worlds.py)."""

    def __init__(
        self,
        actions: Sequence[tuple[int, int, int, Sequence[int]]],
        expected: Sequence[Sequence[int]],
        me: int,
        declarer: int,
        weights: RuleWeights,
        mismatch: tuple[float, float, float],
    ) -> None: ...
    def run(
        self, hand: Hand, bury: Sequence[int], weigh: bool, likelihood: float
    ) -> float | None: ...

class Sampler:
    """A Determinizer's holdings and deal, its worlds drawn natively (worlds.hpp)."""

    def __init__(
        self,
        rules: Rules,
        first: int,
        me: int,
        holders: Sequence[int],
        room: Sequence[int],
        cap: Sequence[Sequence[int]],
        need: Sequence[Sequence[int]],
        weight: Sequence[Sequence[float]],
        unseen: Sequence[int],
        kinds: Sequence[int],
        mine: Sequence[int],
        played: Sequence[Sequence[int]],
        kitty: Sequence[int],
        bury: Sequence[int],
        replay: Replay,
    ) -> None: ...
    def draw(
        self, state: Sequence[int], count: int, tries: int, weigh: bool, attempts: int = 0
    ) -> tuple[list[tuple[Hand, float]], list[int]]: ...

ENV_PIECES: tuple[str, ...]

class EnvCore:
    """The research env's hand on the native core (env.cpp): composer, mask and encoding."""

    def __init__(self, rules: Rules, deal: Sequence[int], first: int) -> None: ...
    @property
    def size(self) -> int: ...
    @property
    def actions(self) -> int: ...
    @property
    def to_act(self) -> int: ...
    @property
    def selected(self) -> list[int]: ...
    def observe(self, seat: int) -> dict[str, Any]: ...
    def step(self, seat: int, index: int) -> int: ...
    def deltas(self) -> tuple[int, int, int, int] | None: ...

def deals_from_seeds(
    pack: bytes, draw_first: bool, seeds: Sequence[int]
) -> tuple[bytes, bytes]: ...
def random_hands(
    rules: Rules, deals: bytes, firsts: bytes, seed: int, logs: bool = False
) -> tuple[bytes, list[bytes] | None, list[bytes] | None]: ...
def seeded_random_hands(rules: Rules, pack: bytes, seeds: Sequence[int], seed: int) -> bytes: ...
def play_out_many(hands: Sequence[Hand], seed: int) -> bytes: ...
def player_hands(
    rules: Rules,
    deals: bytes,
    firsts: bytes,
    players: Sequence[RuleWeights | None],
    seed: int = 0,
    logs: bool = False,
) -> tuple[bytes, list[bytes] | None, list[bytes] | None]: ...
def play_out_players(
    hands: Sequence[Hand], players: Sequence[RuleWeights | None], seed: int = 0
) -> bytes: ...
def play_out_candidates(
    worlds: Sequence[Hand],
    candidates: Sequence[Sequence[int]],
    players: Sequence[RuleWeights | None],
    seed: int = 0,
) -> bytes: ...
def rule_decide(
    rules: Rules,
    weights: RuleWeights,
    phase: str,
    seat: int,
    declarer: int | None,
    trump: str | None,
    hand: Sequence[int],
    played: Sequence[int],
    voids: Sequence[int],
    won: Sequence[int],
    sizes: Sequence[int],
    buried: Sequence[int] | None,
    trick: Sequence[tuple[int, Sequence[int]]],
    bids: Sequence[int],
    limit: int = 1,
) -> Any: ...

LABEL_STATE_FIELDS: int
LABEL_PLANES: int

def label_hands(
    rules: Rules,
    deals: bytes,
    firsts: bytes,
    weights: RuleWeights,
    limit: int = 12,
    wide: int = 0,
    keep: float = 1.0,
    seed: int = 0,
) -> tuple[bytes, bytes, bytes, bytes, bytes]: ...
