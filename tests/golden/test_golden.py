"""The golden playthroughs (tests/golden/*.txt) replay to the same text on both engines.

Each file's actions are replayed on the Python engine, which must render the file exactly, and
on the native core, which must render every line but the observation lines only the Python
engine has (:data:`~tests.golden.engines.PYTHON_ONLY`). A difference is a change of the rules,
of the deal or of what an engine reports: shown as a diff; if it is meant, regenerate the files
(``python3 tests/golden/regenerate.py``) and review the diff.

Without the native core the native half skips, saying why; with ``BAOFEN_TEST_REQUIRE_NATIVE=1``
(CI, which builds it) it fails instead.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from baofen import _native as native

from .engines import NativeEngine, PythonEngine
from .playthrough import REGENERATE, Actions, EngineMaker, actions_in, is_python_only, render
from .profiles import PROFILES, Profile

FOLDER = Path(__file__).resolve().parent
REQUIRED = os.environ.get("BAOFEN_TEST_REQUIRE_NATIVE") == "1"
WHY = f"the native core is not available: {native.why_unavailable()}"


def _golden(profile: Profile) -> list[str]:
    path = FOLDER / profile.file_name
    if not path.exists():
        pytest.fail(f"{path.name} is missing: run `{REGENERATE}`")
    return path.read_text(encoding="utf-8").splitlines()


def _replayed(profile: Profile, golden: list[str], make: EngineMaker) -> list[str]:
    actions = actions_in(golden)
    assert len(actions) == len(profile.hands), f"{profile.file_name}: hands differ; regenerate"
    return render(profile, actions, make)


def _same(profile: Profile, engine: str, expected: list[str], got: list[str]) -> None:
    __tracebackhide__ = True
    if got != expected:
        diff = "\n".join(difflib.unified_diff(
            expected, got, f"{profile.file_name}", f"replayed on the {engine} engine",
            lineterm="", n=2,
        ))
        pytest.fail(
            f"{profile.file_name} does not replay on the {engine} engine:\n{diff}", pytrace=False
        )


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_the_python_engine_replays_the_file(profile: Profile) -> None:
    golden = _golden(profile)
    _same(profile, "python", golden, _replayed(profile, golden, PythonEngine))


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_the_native_core_replays_the_file(profile: Profile) -> None:
    if not native.available():
        if REQUIRED:
            pytest.fail(f"BAOFEN_TEST_REQUIRE_NATIVE=1 but {WHY}")
        pytest.skip(WHY)
    golden = _golden(profile)
    expected = [line for line in golden if not is_python_only(line)]
    _same(profile, "native", expected, _replayed(profile, golden, NativeEngine))


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_the_bots_still_choose_the_written_actions(profile: Profile) -> None:
    for number, (spec, written) in enumerate(
        zip(profile.hands, actions_in(_golden(profile)), strict=True), 1
    ):
        chosen = spec.played(profile.rules)
        if chosen != written:
            at = next(
                (i for i, (a, b) in enumerate(zip(chosen, written, strict=False)) if a != b),
                min(len(chosen), len(written)),
            )
            pytest.fail(
                f"{profile.file_name}, hand {number}: action {at + 1} was "
                f"{_shown(written, at)}, the bots now choose {_shown(chosen, at)}; if meant, run "
                f"`{REGENERATE}` and review the diff", pytrace=False,
            )


def _shown(actions: Actions, at: int) -> str:
    if at >= len(actions):
        return "none (the hand ended)"
    seat, action = actions[at]
    return f"seat {seat} {action}"


def test_the_files_cover_both_games_under_three_profiles_each() -> None:
    variants = [profile.rules.variant for profile in PROFILES]
    assert variants.count("baofen") >= 3 and variants.count("hongwu") >= 3
    assert len({profile.rules for profile in PROFILES}) == len(PROFILES)
    assert sorted(p.name for p in FOLDER.glob("*.txt")) == sorted(
        profile.file_name for profile in PROFILES
    ), f"a file without a profile, or the reverse: run `{REGENERATE}`"
