"""The optional mypyc build (``BAOFEN_COMPILE=1``, see setup.py) plays exactly the same hands."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["baofen"]["compiled"]

GAMES = """
import hashlib, json
import baofen.hand
from baofen import Hand, RuleSet
from baofen.bots import make_bot


def digest(variant: str, hands: int) -> str:
    rules = RuleSet.create(variant=variant)
    bots = [make_bot("random", seed=seat) for seat in range(4)]
    records = []
    for number in range(hands):
        hand = Hand(rules, seed=number)
        while hand.phase != "done":
            seat = hand.to_act
            hand.apply(seat, bots[seat].act(hand.observation(seat)))
        records.append(hand.to_record())
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()
"""


def digest(variant: str, hands: int) -> str:
    namespace: dict[str, object] = {}
    exec(GAMES, namespace)  # the same code as the compiled run below
    function = namespace["digest"]
    assert callable(function)
    return str(function(variant, hands))


def test_compiled_build_plays_the_same_hands(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "src", tmp_path / "src")
    modules = [path.removeprefix("src/") for path in COMPILED]
    build = subprocess.run(
        [sys.executable, "-m", "mypyc", *modules],
        cwd=tmp_path / "src", capture_output=True, text=True, check=False,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    script = GAMES + (
        "assert baofen.hand.__file__.endswith('.so'), baofen.hand.__file__\n"
        "print(digest('baofen', 150), digest('hongwu', 150))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == [digest("baofen", 150), digest("hongwu", 150)]

