"""The research extra stays optional: the library, the bots, the arena, the CLI and the server
import and run without loading torch, PettingZoo, Gymnasium or Ray."""

from __future__ import annotations

import textwrap

from .helpers import run_python

RESEARCH_MODULES = ("torch", "pettingzoo", "gymnasium", "ray", "numpy")

PROGRAM = textwrap.dedent(
    """
    import sys
    import baofen
    import baofen.arena
    import baofen.cli
    from baofen.bots import bot_names, make_bot
    from baofen.server import ServerConfig
    from baofen.server.app import create_app

    baofen.play_hand(baofen.RuleSet.baofen(), 3, [make_bot("rule", seed=s) for s in range(4)])
    create_app(ServerConfig())
    assert "neural" in bot_names()
    loaded = sorted(name for name in sys.modules if name.split(".")[0] in {modules!r})
    print(",".join(loaded))
    """
)


def test_plain_library_and_server_do_not_import_the_research_extra() -> None:
    done = run_python(PROGRAM.format(modules=set(RESEARCH_MODULES)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"loaded without being asked: {done.stdout.strip()}"
