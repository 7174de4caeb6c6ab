"""Write every golden playthrough file: ``python3 tests/golden/regenerate.py`` (from the checkout).

The bots of each hand (:mod:`tests.golden.profiles`) play it on the Python engine; the file is
that hand replayed and rendered (:mod:`tests.golden.playthrough`). ``--check`` writes nothing and
fails, naming the files, where a file would change (the rules or the bots' choices moved). Where
the native core is built, each file is replayed on it too and a disagreement is reported.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if __package__ in (None, ""):  # run as a script: import this checkout's package and tests
    sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from baofen import _native as native  # noqa: E402
from tests.golden.engines import NativeEngine, PythonEngine  # noqa: E402
from tests.golden.playthrough import is_python_only, render  # noqa: E402
from tests.golden.profiles import PROFILES, Profile  # noqa: E402

FOLDER = Path(__file__).resolve().parent


def text_of(profile: Profile) -> str:
    actions = [spec.played(profile.rules) for spec in profile.hands]
    lines = render(profile, actions, PythonEngine)
    refused = [line for line in lines if line.startswith("!")]
    if refused:
        raise RuntimeError(f"{profile.file_name}: the Python engine refuses its bots: {refused}")
    if native.available():
        expected = [line for line in lines if not is_python_only(line)]
        if render(profile, actions, NativeEngine) != expected:
            print(f"{profile.file_name}: the native core disagrees (run the golden test)")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail on a change")
    args = parser.parse_args(argv)
    changed = []
    for profile in PROFILES:
        path = FOLDER / profile.file_name
        text = text_of(profile)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        changed.append(path.name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    verb = "would change" if args.check else "written"
    print(f"{len(changed)} of {len(PROFILES)} files {verb}: {' '.join(changed) or '-'}")
    if not native.available():
        print(f"not replayed on the native core: {native.why_unavailable()}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
