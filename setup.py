"""Compiled parts of the package, each optional.

- **The native core** ``baofen._native._core`` (C++17, bound with pybind11; sources in
  ``src/baofen/_native``): built by every ``pip install`` from source, the editable one included.
  Where there is no C++ compiler (or pybind11 is missing from a ``--no-build-isolation`` build),
  the build says so once and the package installs pure Python; ``baofen._native.engine_name()``
  tells which engine runs, and ``BAOFEN_ENGINE=python`` forces the Python one.
- **The mypyc build**, ``BAOFEN_COMPILE=1``: compiles the engine's hot modules with mypyc (listed in
  pyproject.toml, [tool.baofen] compiled). The compiled modules behave exactly like the Python
  ones (``tests/test_compiled.py``). Build with
  ``BAOFEN_COMPILE=1 python3 -m pip install --no-build-isolation .`` (mypy, which provides mypyc,
  and a C compiler must be installed).
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

HERE = Path(__file__).resolve().parent

# The rules engine's hot path (listed in pyproject.toml, [tool.baofen] compiled).
COMPILED_MODULES = tomllib.loads((HERE / "pyproject.toml").read_text())["tool"]["baofen"][
    "compiled"
]

NATIVE = "baofen._native._core"
NATIVE_SOURCES = ["rules.cpp", "hand.cpp", "rule_player.cpp", "module.cpp"]


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
    return [
        Extension(
            NATIVE,
            [str(folder / name) for name in NATIVE_SOURCES],
            include_dirs=[pybind11.get_include()],
            depends=[str(folder / name) for name in ("engine.hpp", "rule_player.hpp")],
            language="c++",
            # -O2, no debug information: the CI machine has two cores.
            extra_compile_args=["-std=c++17", "-O2", "-g0", "-fvisibility=hidden"],
        )
    ]


class OptionalNative(build_ext):
    """Builds every extension; a failure to build the native core is a warning, not an error."""

    def build_extension(self, ext: Extension) -> None:
        if ext.name != NATIVE:
            super().build_extension(ext)
            return
        try:
            super().build_extension(ext)
        except (CCompilerError, ExecError, PlatformError, OSError) as error:
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
            if any(ext.name != NATIVE for ext in self.extensions):
                raise  # the mypyc build was asked for: it needs the compiler
            _warn(f"no C++ compiler ({error})")


ext_modules = native_extension()
if os.environ.get("BAOFEN_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules += mypycify(COMPILED_MODULES, opt_level="3")

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalNative})
