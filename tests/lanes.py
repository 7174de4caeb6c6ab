"""The test lanes, declared in one place: the markers each test module carries, so that
``pytest -m`` selects a lane (tests/conftest.py puts them on the tests; tests/test_suite_shape.py
fails for a test module that has none, and for an entry here that names no module or test).

A module is named by its path under ``tests/``; a folder (``server/``) gives its lane to every
module in it. A new or renamed test module gets its line here.
"""

from __future__ import annotations

from pathlib import Path

LANES: dict[str, tuple[str, ...]] = {
    # The rules engine: cards, rules, the hand and the match, records, the package's shape.
    "test_bidding.py": ("engine",),
    "test_cards.py": ("engine",),
    "test_examples.py": ("engine",),
    "test_follow.py": ("engine",),
    "test_hand_api.py": ("engine",),
    "test_match.py": ("engine",),
    "test_observation_declared.py": ("engine",),
    "test_order.py": ("engine",),
    "test_plain_install.py": ("engine",),
    "test_properties.py": ("engine",),
    "test_ruleset.py": ("engine",),
    "test_scoring.py": ("engine",),
    "test_structure.py": ("engine",),
    "test_suite_shape.py": ("engine",),
    "test_throws.py": ("engine",),
    "test_tricks.py": ("engine",),
    "test_units.py": ("engine",),
    "golden/": ("engine", "native"),
    # The computer players, and the tools made of them (the arena, the review).
    "test_analyze.py": ("bots",),
    "test_review_reasons.py": ("bots",),
    "test_review_referee.py": ("bots",),
    "test_arena.py": ("bots",),
    "test_puzzles_find.py": ("bots",),
    "test_puzzles_glicko2.py": ("bots",),
    "test_matchpoints.py": ("bots",),
    "test_daily.py": ("bots",),
    "test_tournament_logic.py": ("bots",),
    "test_tournament_local.py": ("bots",),
    "test_bots.py": ("bots",),
    "test_bots_levels.py": ("bots",),
    "test_bots_engine.py": ("bots",),
    "test_bot_data.py": ("bots",),
    "test_search_budget.py": ("bots",),
    "test_holdings.py": ("bots",),
    "test_search_gating.py": ("bots",),
    "test_tracking.py": ("bots",),
    # The native core against the Python engine, players and env (skipped without the build).
    "test_native.py": ("native",),
    "test_native_rule.py": ("native",),
    "test_native_sanitized.py": ("native",),
    "test_native_stub.py": ("native",),
    "test_native_tables.py": ("native",),
    "test_native_validation.py": ("native",),
    "test_search_native.py": ("native",),
    "test_env_native.py": ("native", "research"),
    # The server extra: the server and its store, the wire, accounts, the command line.
    "server/": ("server",),
    "test_accounts_rules.py": ("server",),
    "test_cli_errors.py": ("server",),
    "test_cli_play.py": ("server",),
    "test_cli_replay.py": ("server",),
    "test_cli_setup.py": ("server",),
    "test_cli_throw_reveal.py": ("server",),
    "test_patch.py": ("server",),
    "test_quality.py": ("server",),
    "test_wire_view_data.py": ("server",),
    # The browser client in Chromium.
    "web/": ("web",),
    # The research extra: the env, the learned players, Ray.
    "test_env.py": ("research",),
    "test_env_docs.py": ("research",),
    "test_env_gym.py": ("research",),
    "test_env_name.py": ("research",),
    "test_env_optional.py": ("research",),
    "test_evaluator.py": ("research",),
    "test_learned_bidder.py": ("research",),
    "test_learned_evaluator.py": ("research",),
    "test_neural.py": ("research",),
    "test_ray.py": ("research",),
}

SLOW: frozenset[str] = frozenset({
    # 5 s or more on one core, its parametrizations together (CPU seconds, measured one test
    # at a time; mypy cold, Ray with its cluster's start).
    "test_properties.py::test_baofen_hands_checked_at_every_step",
    "test_properties.py::test_hongwu_hands_checked_at_every_step",
    "test_properties.py::test_many_hands_end_to_end",
    "test_native.py::test_native_hands_replay_in_the_python_engine",
    "test_native_sanitized.py::test_the_sanitized_core_agrees_with_the_python_engine",
    "test_search_native.py::test_the_search_decides_the_same_natively_and_in_python",
    "test_quality.py::test_mypy",
    "test_ray.py::test_cluster_runs_match_local_runs",
    "server/test_partitions.py::test_partitions_lose_nothing_and_heal",
})
"""Tests (``module::function``, every parametrization) that carry the ``slow`` marker too."""

TESTS = Path(__file__).resolve().parent
"""The folder the map's paths are relative to."""


def relative(path: Path) -> str:
    """``path`` as the map names it: under ``tests/``, with ``/`` between folders."""
    return path.resolve().relative_to(TESTS).as_posix()


def lanes_of(path: Path) -> tuple[str, ...] | None:
    """The lanes of the test module or folder at ``path`` (its own entry, else its nearest
    folder's); None where the map has none."""
    name = relative(path) + ("/" if path.is_dir() else "")
    if name in LANES:
        return LANES[name]
    parts = name.rstrip("/").split("/")[:-1]
    for depth in range(len(parts), 0, -1):
        folder = "/".join(parts[:depth]) + "/"
        if folder in LANES:
            return LANES[folder]
    return None
