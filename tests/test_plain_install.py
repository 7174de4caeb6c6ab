"""``pip install baofen`` is the engine, the bots and hand records: they import and play with the
server's, the command line's and the research extra's packages missing (a finder on
``sys.meta_path`` refuses them in a fresh interpreter), and the ``baofen`` command says in one line
what to install."""

from __future__ import annotations

import subprocess
import textwrap

from .helpers import BLOCKER, run_python

BLOCKED = (
    "fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "pydantic_settings", "redis",
    "argon2", "segno", "openskill", "typer", "rich", "torch", "numpy", "gymnasium", "pettingzoo",
    "ray", "matplotlib", "pydantic", "pydantic_core", "orjson",
)
"""Packages no plain install has: it is the standard library alone."""

ENGINE = textwrap.dedent(
    """
    import json
    import baofen
    from baofen import Hand, Match, RuleSet, play_hand
    from baofen.bots import bot_names, make_bot

    for rules in (RuleSet.baofen(), RuleSet.hongwu()):
        hand = play_hand(rules, 7, [make_bot("rule", seed=s) for s in range(4)])
        record = json.loads(json.dumps(hand.to_record()))
        assert Hand.from_record(record).to_record() == record
    from baofen.bots.learned.bidder import LearnedBidder
    hand = Hand(RuleSet.baofen(), seed=3)
    assert LearnedBidder().bid(hand.observation(hand.to_act)) in (None, 85, 90, 95)
    match = Match(RuleSet.baofen(), seed=1)
    assert Match.from_record(match.to_record()).hand.deal == match.hand.deal
    assert "neural" in bot_names()
    try:
        make_bot("neural")
    except ValueError as error:
        assert "baofen[research]" in str(error) and "baofen.env.neural" in str(error), error
    else:
        raise AssertionError("make_bot('neural') without the research extra")
    layers = ("baofen.wire", "baofen.server", "baofen.store", "baofen.env", "baofen.cli")
    print(sorted(name for name in sys.modules if name.startswith(layers)))
    """
)


def run(program: str) -> subprocess.CompletedProcess[str]:
    return run_python(BLOCKER.format(blocked=set(BLOCKED)) + program)


def test_the_blocker_refuses_the_packages() -> None:
    done = run("import typer\n")
    assert done.returncode != 0 and "blocked" in done.stderr


def test_the_engine_bots_and_records_need_no_server_or_research_packages() -> None:
    done = run(ENGINE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"loaded other layers: {done.stdout.strip()}"


def test_the_command_says_what_to_install() -> None:
    done = run("import runpy; runpy.run_module('baofen', run_name='__main__')\n")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'baofen[server]'" in lines[0], done.stderr
