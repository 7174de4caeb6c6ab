"""docs/research.md: the minimal training loop runs as printed (with fewer hands), and the policy
it registers plays in the arena."""

from __future__ import annotations

import re
from pathlib import Path

from baofen import RuleSet
from baofen.arena import BotSpec, run_arena, summarize

DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"


def test_minimal_training_loop_runs_and_its_bot_plays_the_arena() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## A minimal training loop to copy", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    program, count = re.subn(r"HANDS, EPSILON, SCALE = \d+", "HANDS, EPSILON, SCALE = 3",
                             code.group(1))
    assert count == 1
    exec(compile(program, str(DOC), "exec"), {"__name__": "research_doc"})
    rows = run_arena(RuleSet.baofen(), BotSpec.parse("mine"), BotSpec.parse("rule"), deals=1,
                     seed=1)
    assert set(summarize(rows)) == {"mine", "rule"}
