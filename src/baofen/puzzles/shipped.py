"""The starting set of puzzles shipped with the package (``data/<game>.jsonl.gz``, made by
``baofen puzzles generate``), which a server stores on its first start."""

from __future__ import annotations

import gzip
import json
from importlib import resources
from typing import Any

GAMES = ("baofen", "hongwu")


def shipped(game: str) -> list[dict[str, Any]]:
    """The shipped puzzles of ``game`` (none when the package has no set for it)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: baofen or hongwu")
    path = resources.files("baofen.puzzles") / "data" / f"{game}.jsonl.gz"
    if not path.is_file():
        return []
    with gzip.open(path.open("rb"), "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
