"""The native core built with AddressSanitizer and UndefinedBehaviorSanitizer, and a Python
process that runs on it: for tests/test_native_sanitized.py, and by hand::

    python3 -m tests.sanitized --seed 1 --seconds 120   # builds (cached in build/), then fuzzes

The build (``BAOFEN_SANITIZE=1 python3 setup.py build_ext``, see setup.py) goes into
``build/sanitize``, beside the in-place core, and is skipped while it is newer than every source
and header. The process it runs in preloads the sanitizers' runtimes (CPython is not built with
them) and loads that core as ``baofen._native._core`` before ``baofen`` is imported; ASan's leak
check is off, for CPython's own allocations held until exit look like leaks to it. Any report of
either sanitizer ends the process with an error.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "sanitize"
"""Where the sanitizer build goes (build/ is git-ignored)."""
RUNTIMES = ("libasan.so", "libubsan.so")


class BuildError(RuntimeError):
    """The sanitizer build of the core failed, or its runtimes are not found."""


def build() -> Path:
    """The sanitizer build of the native core (built now unless it is up to date): its path."""
    command = [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(BUILD / "lib"),
               "--build-temp", str(BUILD / "temp")]
    env = {**os.environ, "BAOFEN_SANITIZE": "1"}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    built = BUILD / "lib" / "baofen" / "_native" / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    if done.returncode != 0 or not built.exists():
        raise BuildError(f"the sanitizer build failed ({done.returncode}):\n"
                         f"{done.stdout[-3000:]}\n{done.stderr[-6000:]}")
    return built


def runtimes() -> list[str]:
    """The sanitizers' shared runtimes, as the compiler that built the core finds them."""
    found = []
    for name in RUNTIMES:
        path = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True,
                              text=True, check=False).stdout.strip()
        if not os.path.isabs(path) or not os.path.exists(path):
            raise BuildError(f"gcc does not find {name} (libasan/libubsan are part of GCC)")
        found.append(path)
    return found


def environment() -> dict[str, str]:
    """The environment of a process that loads the sanitizer build."""
    env = dict(os.environ)
    env.update(
        LD_PRELOAD=":".join(runtimes()),
        ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:exitcode=86",
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86",
        # Python's objects from malloc, where ASan sees them, not from CPython's arenas.
        PYTHONMALLOC="malloc",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")])),
        PYTHONFAULTHANDLER="1",
    )
    return env


def fuzz(core: Path, argv: Sequence[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """tests/native_fuzz.py with ``argv`` in a process on the sanitizer build ``core``."""
    command = [sys.executable, "-m", "tests.sanitized", "--core", str(core), *argv]
    return subprocess.run(command, cwd=ROOT, env=environment(), capture_output=True, text=True,
                          timeout=timeout, check=False)


def load(core: Path) -> None:
    """Loads ``core`` as ``baofen._native._core``, before ``baofen._native`` imports its own."""
    spec = importlib.util.spec_from_file_location("baofen._native._core", core)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)


def main(argv: Sequence[str]) -> None:
    """``--core PATH`` then the fuzz's arguments: the fuzz on that core, here. Without
    ``--core``: builds, then runs this again in a process on the build."""
    if argv[:1] == ["--core"]:
        load(Path(argv[1]))
        from .native_fuzz import main as run_fuzz

        run_fuzz(argv[2:])
        return
    core = build()
    os.execve(sys.executable, [sys.executable, "-m", "tests.sanitized", "--core", str(core),
                               *argv], environment())


if __name__ == "__main__":
    main(sys.argv[1:])
