"""Every ``baofen`` command answers a bad option or value with one line on stderr and a non-zero
exit status, never a traceback; ``--help`` reads like a usual command line's."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.main

from baofen.cli import app

SRC = Path(__file__).resolve().parents[1] / "src"
COMMANDS = ("simulate", "play", "replay", "serve", "export", "arena")
FLAGS = frozenset(
    name
    for command in typer.main.get_group(app).commands.values()
    for param in command.params
    if getattr(param, "is_flag", False)
    for name in param.opts
)
"""Options that take no value (``--one-way``): they show no metavar."""


def baofen(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m baofen ARGS`` from this checkout, without a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "baofen", *args],
        cwd=cwd, env={**os.environ, "PYTHONPATH": str(SRC), **(env or {})},
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False,
    )


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port another socket is listening on."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[1]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A directory of bad inputs: malformed JSON, bad UTF-8, a JSON number, a plain file, JSON
    nested deeper than the decoder recurses."""
    (tmp_path / "broken.json").write_text("[{", encoding="utf-8")
    (tmp_path / "latin1.json").write_bytes(b"\xff\xfe")
    (tmp_path / "number.json").write_text("42", encoding="utf-8")
    (tmp_path / "plain").write_text("", encoding="utf-8")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    return tmp_path


NO_DIR = "/nonexistent-baofen-dir"

BAD = [
    (("simulate", "--bot", "nonsense"), "unknown bot 'nonsense'"),
    (("simulate", "--variant", "poker"), "'--variant'"),
    (("simulate", "--seed", "seven"), "'--seed'"),
    (("simulate", "--hands", "0"), "'--hands'"),
    (("simulate", "--frobnicate"), "No such option: --frobnicate"),
    (("play", "--bots", "nonsense"), "unknown bot 'nonsense'"),
    (("play", "--variant", "poker"), "'--variant'"),
    (("play", "--seed", "1.5"), "'--seed'"),
    (("play", "--save", f"{NO_DIR}/match.json"), f"cannot write {NO_DIR}/match.json"),
    (("play", "--save", "."), "is a directory"),
    (("replay", "missing.json"), "does not exist"),
    (("replay", "."), "is a directory"),
    (("replay", "broken.json"), "cannot read broken.json"),
    (("replay", "latin1.json"), "cannot read latin1.json"),
    (("replay", "number.json"), "expected a hand record"),
    (("replay",), "Missing argument 'FILE'"),
    (("replay", "deep.json"), "cannot read deep.json: the JSON is nested too deeply"),
    (("analyze", "deep.json"), "cannot read deep.json: the JSON is nested too deeply"),
    (("analyze", "broken.json"), "cannot read broken.json"),
    (("serve", "--db", "nonsense"), "'nonsense' is not a database URL"),
    (("serve", "--db", f"sqlite:///{NO_DIR}/x.db"), "cannot open the database"),
    (("serve", "--db", "mysql://x"), "its driver is not installed"),
    (("serve", "--port", "70000"), "'--port'"),
    (("serve", "--db", "sqlite:///ok.db", "--redis", "nonsense"), "'nonsense' is not a Redis URL"),
    (("serve", "--db", "sqlite:///ok.db", "--redis", "redis://127.0.0.1:1/0"),
     "cannot reach Redis at redis://127.0.0.1:1/0"),
    (("serve", "--host", "192.0.2.1", "--db", "sqlite:///ok.db"), "cannot listen on 192.0.2.1"),
    (("export",), "Missing option '--table'"),
    (("export", "--table", "ABCD", "--db", "nonsense"), "'nonsense' is not a database URL"),
    (("export", "--table", "ABCD", "--db", f"sqlite:///{NO_DIR}/x.db"), "cannot open the database"),
    (("export", "--table", "ABCD", "--db", "sqlite:///ok.db"), "no table has the code 'ABCD'"),
    (("arena", "--bots", "nonsense,random"), "unknown bot 'nonsense'"),
    (("arena", "--bots", "rule"), "give exactly two bots"),
    (("arena", "--bots", "rule:depth=3,random"), "unknown rule bot option(s): depth"),
    (("arena", "--deals", "0"), "'--deals'"),
    (("arena", "--deals", "1", "--out", "plain/results"), "cannot create the directory"),
    (("deal",), "No such command 'deal'"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_and_a_failure(
    files: Path, args: tuple[str, ...], message: str
) -> None:
    result = baofen(*args, cwd=files)
    assert result.returncode != 0
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert re.match(r"\S.* error: ", lines[0]) and message in lines[0], lines[0]


def test_busy_port_and_bad_setting(files: Path, busy_port: int) -> None:
    for args, env, message in [
        (("serve", "--port", str(busy_port), "--db", "sqlite:///ok.db"), {},
         f"cannot listen on 127.0.0.1:{busy_port}"),
        (("export", "--table", "ABCD", "--db", "sqlite:///ok.db"), {"BAOFEN_BOT_DELAY": "soon"},
         "bad server setting BAOFEN_BOT_DELAY"),
    ]:
        result = baofen(*args, cwd=files, env=env)
        assert result.returncode != 0
        assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


@pytest.mark.parametrize("command", [(), *((c,) for c in COMMANDS)], ids=["baofen", *COMMANDS])
def test_help_reads_like_a_command_line(tmp_path: Path, command: tuple[str, ...]) -> None:
    result = baofen(*command, "--help", cwd=tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    text = result.stdout
    assert text.startswith("Usage: ")
    assert "--help  " in text
    assert not re.search(r"<[\w |,.\[\]]+>|\{\w+\}", text), text  # no <bool>, <int>, {file}
    for line in text.splitlines():
        # Every option that takes a value shows it as a metavar in capitals or as its choices.
        found = re.match(r"\s+(--[\w-]+)(?: (\S+))?\s{2,}", line)
        if found and found.group(1) != "--help" and found.group(1) not in FLAGS:
            assert found.group(2) and re.fullmatch(r"[A-Z,]+|\[[\w|]+\]", found.group(2)), line


def test_help_lists_the_commands(tmp_path: Path) -> None:
    result = baofen(cwd=tmp_path)
    assert result.returncode == 0
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s", result.stdout, re.M)
