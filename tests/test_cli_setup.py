"""First contact: the README's set-up says what the tests need, and git ignores what a
working copy produces (a virtual environment, SQLite's side files)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TEST_COMMAND = "python3 -m pip install -q -e '.[dev,research]' && python3 -m pytest"


def test_readme_keeps_its_two_setup_commands() -> None:
    blocks = re.findall(r"```bash\n(.*?)```", README.split("## The library")[0], re.S)
    assert [block.strip() for block in blocks] == [
        "python3 -m pip install -e '.[dev]' && baofen serve",
        TEST_COMMAND,
    ]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == TEST_COMMAND


def test_readme_names_the_browser_test_packages_and_how_to_install_them() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installed = re.search(r"apt_install((?: [a-z][\w.+-]*)+)\n", ci)
    assert installed, "the CI script installs Debian packages"
    packages = installed.group(1).split()
    assert packages == ["chromium", "fonts-noto-cjk"]
    command = f"apt-get install -y {' '.join(packages)}"
    assert f"`{command}`" in README
    setup = README.split("## The library")[0]
    assert command in setup and "as root" in setup
    for package in packages:
        assert f"`{package}`" in setup


@pytest.mark.parametrize(
    "path",
    [".venv/bin/python", "venv/lib/site.py", "baofen.db-wal", "baofen.db-shm",
     "data/game.sqlite-wal", "data/game.sqlite-shm"],
)
def test_git_ignores(path: str) -> None:
    ignored = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "--quiet", "--no-index", path], check=False
    )
    assert ignored.returncode == 0, f"{path} is not ignored"


def test_git_keeps_sources() -> None:
    kept = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "--quiet", "--no-index", "src/baofen/cards.py"],
        check=False,
    )
    assert kept.returncode == 1
