"""The native core, ``baofen._native._core`` (C++17, bound with pybind11; sources in
``src/baofen/_native``): built by every ``pip install`` from source, the editable one included.
Where there is no C++ compiler (or pybind11 is missing from a ``--no-build-isolation`` build), the
build says so once and the package installs pure Python; ``baofen._native.engine_name()`` tells
which engine runs, and ``BAOFEN_ENGINE=python`` forces the Python one.

``BAOFEN_SANITIZE=1`` builds the core with AddressSanitizer and UndefinedBehaviorSanitizer
instead (``-O1``, line tables, the objects compiled in parallel), and a failure to build is then
an error: for a build into a folder of its own, ``python3 setup.py build_ext --build-lib DIR
--build-temp DIR/temp`` (tests/sanitized.py builds and loads it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

NATIVE = "baofen._native._core"
SANITIZE = os.environ.get("BAOFEN_SANITIZE") == "1"
SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
"""The sanitizers of a ``BAOFEN_SANITIZE=1`` build; undefined behaviour stops the process too."""
NATIVE_SOURCES = [
    # the engine: the rules of play, a hand, the random player, the deal of a seed
    "rules.cpp", "hand.cpp", "random_player.cpp", "deal.cpp",
    # the rule player: its bid and declaration, its play decision's leads and follows
    "rule_player.cpp", "rule_bidding.cpp", "rule_lead.cpp", "rule_follow.cpp",
    # a search's sampled worlds, the research env, the learned evaluator's labels
    "worlds.cpp", "env.cpp", "labels.cpp",
    # the Python binding, by concern
    "module.cpp", "bind_engine.cpp", "bind_rule_player.cpp", "bind_worlds.cpp", "bind_batch.cpp",
]
"""The native core's C++ sources in src/baofen/_native; every header there is a dependency."""


def _warn(message: str) -> None:
    print(
        f"WARNING: {message}; baofen installs without its native core (pure Python)",
        file=sys.stderr,
    )


def native_extension() -> list[Extension]:
    """The native core's extension, or none when pybind11 cannot be imported."""
    try:
        import pybind11
    except ImportError:
        _warn("pybind11 is not installed")
        return []
    folder = Path("src/baofen/_native")
    # -O2, no debug information: the CI machine has two cores.
    flags = ["-O2", "-g0"]
    if SANITIZE:  # -O1 and line tables: readable reports, a build of a minute or two
        from pybind11.setup_helpers import ParallelCompile

        ParallelCompile().install()  # every core
        flags = ["-O1", "-g1", "-fno-omit-frame-pointer", *SANITIZERS]
    return [
        Extension(
            NATIVE,
            [str(folder / name) for name in NATIVE_SOURCES],
            include_dirs=[pybind11.get_include()],
            depends=[str(path) for path in sorted(folder.glob("*.hpp"))],
            language="c++",
            extra_compile_args=["-std=c++17", *flags, "-fvisibility=hidden"],
            extra_link_args=SANITIZERS if SANITIZE else [],
        )
    ]


class OptionalNative(build_ext):
    """Builds the native core; a failure to build it is a warning, not an error."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except (CCompilerError, ExecError, PlatformError, OSError) as error:
            if SANITIZE:  # asked for explicitly: no pure-Python fallback
                raise
            _warn(f"the native core did not build ({error})")
            self.failed = True

    def build_extensions(self) -> None:
        self.failed = False
        super().build_extensions()
        if self.failed:  # nothing to copy or install for it
            self.extensions = [ext for ext in self.extensions if ext.name != NATIVE]

    def run(self) -> None:
        try:
            super().run()
        except PlatformError as error:  # no compiler at all
            if SANITIZE:
                raise
            _warn(f"no C++ compiler ({error})")


setup(ext_modules=native_extension(), cmdclass={"build_ext": OptionalNative})
