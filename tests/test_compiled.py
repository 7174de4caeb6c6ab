"""The optional mypyc build (``BAOFEN_COMPILE=1``, see setup.py) plays exactly the same hands,
with random bots and with the search bot (whose rollouts copy hands and run the rule bot)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["baofen"]["compiled"]

GAMES = """
import hashlib, json
import baofen.hand
from baofen import RuleSet, play_hand
from baofen.arena import BotSpec


def digest(variant: str, hands: int, players: str) -> str:
    rules = RuleSet.create(variant=variant)
    bots = [BotSpec.parse(spec).make(seat) for seat, spec in enumerate(players.split(","))]
    records = []
    for number in range(hands):
        records.append(play_hand(rules, number, bots).to_record())
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()
"""


RANDOM = "random,random,random,random"
SEARCH = "search:iterations=8,rule,rule,random"
CASES = [("baofen", 150, RANDOM), ("hongwu", 150, RANDOM), ("baofen", 3, SEARCH),
         ("hongwu", 3, SEARCH)]


def digest(variant: str, hands: int, players: str) -> str:
    namespace: dict[str, object] = {}
    exec(GAMES, namespace)  # the same code as the compiled run below
    function = namespace["digest"]
    assert callable(function)
    return str(function(variant, hands, players))


# The build alone is minutes of mypy and C compiler on a loaded 2-core machine: a limit of its own,
# above the suite's 10 minutes.
@pytest.mark.timeout(1800)
def test_compiled_build_plays_the_same_hands(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "src", tmp_path / "src")
    modules = [path.removeprefix("src/") for path in COMPILED]
    build = subprocess.run(
        # PettingZoo ships no type information (pyproject.toml says so to mypy, but mypyc runs
        # here, away from it).
        [sys.executable, "-m", "mypyc", "--ignore-missing-imports", *modules],
        cwd=tmp_path / "src", capture_output=True, text=True, check=False,
        # The C compiler's optimisation changes how fast the code runs, not what it does: -O0
        # builds the same modules in a fraction of the time.
        env={**os.environ, "MYPYC_OPT_LEVEL": "0"},
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    script = GAMES + (
        "import baofen.bots.search_bot\n"
        "for module in (baofen.hand, baofen.bots.search_bot):\n"
        "    assert module.__file__.endswith('.so'), module.__file__\n"
        f"print(*(digest(*case) for case in {CASES!r}))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == [digest(*case) for case in CASES]

