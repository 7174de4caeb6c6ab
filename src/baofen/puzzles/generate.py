"""Generating puzzles from arena hands — hands of the computer levels played from numbered deal
seeds — or from the finished hands of players who consent (read from a server's database,
:func:`generate_from_hands`), each reviewed for puzzles (:func:`baofen.puzzles.find.find`) in a
pool of worker processes (every core by default).

The output is a JSON-lines file, one puzzle a line, and beside it ``<file>.done``, the deal
seeds already searched, one a line: a run stopped at any point goes on where it stopped, and
the same seeds give the same puzzles whatever the number of workers. Puzzles kept before
reasons were kept get theirs with :func:`explain_file` (``baofen puzzles explain``).
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import IO, Any, Protocol

from ..bots import make_bot
from ..hand import Hand
from ..ruleset import RuleSet
from .find import Puzzle, explain, find, player_puzzles


class PlayerHand(Protocol):
    """A consenting player's finished hand as the server's store gives it
    (:class:`baofen.store.puzzles.PlayerHand`; the store is a layer of its own)."""

    @property
    def key(self) -> str:
        """The hand and seat, as the progress file names them."""

    @property
    def record(self) -> dict[str, Any]: ...

    @property
    def account_id(self) -> int: ...

    @property
    def seat(self) -> int: ...


LEVELS = ("easy", "normal")
"""The computer levels whose hands are searched, in turn by deal seed (the cheap levels: the
search levels' hands take a thousand times longer to play and give the same positions)."""

SEED_BASE = {"baofen": 41_000_000, "hongwu": 42_000_000}
"""The first deal seed of each game's generation (the shipped set's hands are these)."""


def rules_of(game: str) -> RuleSet:
    """The rule set of ``game`` (``baofen`` or ``hongwu``)."""
    if game == "baofen":
        return RuleSet.baofen()
    if game == "hongwu":
        return RuleSet.hongwu()
    raise ValueError(f"unknown game {game!r}: baofen or hongwu")


def arena_hand(game: str, seed: int) -> tuple[Hand, str]:
    """The hand of deal ``seed``, played by one computer level in every seat (by seed)."""
    level = LEVELS[seed % len(LEVELS)]
    hand = Hand(rules_of(game), seed=seed, first=seed % 4)
    bots = [make_bot(level, seed=seed * 4 + i) for i in range(4)]
    while hand.phase != "done":
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, bots[seat].act(hand.observation(seat)))
    return hand, f"arena:{level}"


def search_deal(game: str, seed: int) -> tuple[list[dict[str, Any]], float]:
    """The puzzles of deal ``seed`` (a worker's job), as JSON-ready data, and the CPU seconds
    the worker spent on them."""
    started = time.process_time()
    hand, source = arena_hand(game, seed)
    found = [p.to_dict() for p in find(hand, source, seed=seed)]
    return found, time.process_time() - started


def done_seeds(path: Path) -> set[int]:
    """The deal seeds already searched for ``path`` (its ``.done`` file)."""
    done = path.with_name(path.name + ".done")
    if not done.exists():
        return set()
    return {int(line) for line in done.read_text().split()}


def count(path: Path) -> int:
    """Puzzles in the JSON-lines file ``path`` (0 when it does not exist)."""
    return sum(1 for line in path.open() if line.strip()) if path.exists() else 0


Job = tuple[str, Callable[..., tuple[list[dict[str, Any]], float]], tuple[Any, ...]]
"""One search: its key in the progress file, the worker's function and its arguments."""


def generate(game: str, wanted: int, path: Path, workers: int | None = None,
             on_puzzle: Callable[[dict[str, Any]], None] | None = None,
             log: Callable[[str], None] | None = None) -> int:
    """Search deals of ``game`` until ``path`` holds ``wanted`` puzzles, in ``workers``
    processes (every core when ``None``); returns the puzzles in ``path``. Each kept puzzle is
    appended (and passed to ``on_puzzle``) as its deal finishes."""
    rules_of(game)
    done = done_seeds(path)
    jobs: Iterator[Job] = ((str(seed), search_deal, (game, seed)) for seed in _seeds(game, done))
    return _search(jobs, wanted, path, path.with_name(path.name + ".done"), workers, on_puzzle,
                   log)


def generate_from_hands(hands: Iterable[PlayerHand], wanted: int, path: Path,
                        workers: int | None = None,
                        on_puzzle: Callable[[dict[str, Any]], None] | None = None,
                        log: Callable[[str], None] | None = None) -> int:
    """Search players' finished hands (:func:`~baofen.store.puzzles.consenting_hands`: each
    the seat of an account that consents) until ``path`` holds ``wanted`` puzzles or every
    hand is searched; only the decisions of the consenting player's seat are searched. The
    hands searched are kept in ``<path>.hands``, so a run goes on where it stopped."""
    progress = path.with_name(path.name + ".hands")
    done = set(progress.read_text().split()) if progress.exists() else set()
    jobs: Iterator[Job] = ((hand.key, search_player_hand, (hand.record, hand.account_id,
                                                          hand.seat))
                           for hand in hands if hand.key not in done)
    return _search(jobs, wanted, path, progress, workers, on_puzzle, log)


def search_player_hand(record: dict[str, Any], account_id: int,
                       seat: int) -> tuple[list[dict[str, Any]], float]:
    """The puzzles of a consenting player's finished hand (a worker's job), from their seat's
    decisions, and the CPU seconds spent."""
    started = time.process_time()
    found = player_puzzles(record, account_id, seat, consent=True)
    return [p.to_dict() for p in found], time.process_time() - started


def _search(jobs: Iterator[Job], wanted: int, path: Path, progress_path: Path,
            workers: int | None, on_puzzle: Callable[[dict[str, Any]], None] | None,
            log: Callable[[str], None] | None) -> int:
    """Run ``jobs`` in a pool until ``path`` holds ``wanted`` puzzles (or the jobs run out),
    taking their answers in the jobs' order (the file does not depend on the workers), each
    job's key written to ``progress_path`` once its puzzles are."""
    if wanted < 1:
        raise ValueError("the number of puzzles must be at least 1")
    workers = workers or os.cpu_count() or 1
    have = count(path)
    started, searched, cpu, kept = time.monotonic(), 0, 0.0, 0
    with ProcessPoolExecutor(workers) as pool, path.open("a") as out, \
            progress_path.open("a") as progress:
        pending: deque[tuple[str, Future[tuple[list[dict[str, Any]], float]]]] = deque()
        while have < wanted:
            for key, function, args in itertools.islice(jobs, 2 * workers - len(pending)):
                pending.append((key, pool.submit(function, *args)))
            if not pending:
                break
            key, future = pending.popleft()
            puzzles, seconds = future.result()
            cpu += seconds
            kept += len(puzzles)
            for puzzle in puzzles[: wanted - have]:
                out.write(json.dumps(puzzle, ensure_ascii=False) + "\n")
                if on_puzzle:
                    on_puzzle(puzzle)
                have += 1
            out.flush()
            progress.write(f"{key}\n")
            progress.flush()
            searched += 1
            if log:
                log(f"deal {key}: {len(puzzles)} kept; {have}/{wanted}; {searched} deals in "
                    f"{time.monotonic() - started:.0f} s, {cpu:.0f} CPU s: "
                    f"{kept / max(cpu, 1e-9) * 3600:.0f} puzzles a CPU-hour")
        for _, future in pending:
            future.cancel()
    return have


def _seeds(game: str, done: set[int]) -> Iterator[int]:
    seed = SEED_BASE[game]
    while True:
        if seed not in done:
            yield seed
        seed += 1


def load(path: Path) -> list[dict[str, Any]]:
    """The puzzles of a JSON-lines file (gzipped where its name ends in ``.gz``)."""
    with _open(path, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def explain_file(path: Path, workers: int | None = None) -> int:
    """Give every puzzle of ``path`` without a reason its reason (:func:`.find.explain`), in
    ``workers`` processes; the file is rewritten in place, in its order. The number explained."""
    puzzles = load(path)
    missing = [i for i, puzzle in enumerate(puzzles) if puzzle.get("reason") is None]
    with ProcessPoolExecutor(workers or os.cpu_count() or 1) as pool:
        reasons = pool.map(_explain, [puzzles[i] for i in missing], chunksize=8)
        for i, reason in zip(missing, reasons, strict=True):
            puzzles[i]["reason"] = reason
    with _open(path, "wt") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle, ensure_ascii=False) + "\n")
    return sum(puzzles[i]["reason"] is not None for i in missing)


def _explain(puzzle: dict[str, Any]) -> dict[str, Any] | None:
    return explain(Puzzle.from_dict(puzzle))


def _open(path: Path, mode: str) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, mode, encoding="utf-8")  # type: ignore[return-value]
    return path.open(mode[0], encoding="utf-8")
