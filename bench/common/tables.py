"""Write a fitted table as the package's data file (:mod:`baofen.bots.data`) that the bots read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "src" / "baofen" / "bots" / "data"
"""Where the bots' tables live in this source tree."""


def _dumps(value: Any, indent: int) -> str:
    """JSON with one line per innermost mapping (the tables stay readable in a diff)."""
    if isinstance(value, dict) and any(isinstance(v, dict) for v in value.values()):
        pad = " " * indent
        rows = [f"{pad}  {json.dumps(k)}: {_dumps(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(rows) + "\n" + pad + "}"
    return json.dumps(value, ensure_ascii=False)


def write_table(name: str, about: str, command: str, table: dict[str, Any],
                out: Path | None = None) -> Path:
    """Write ``table`` as ``name``.json (in :data:`DATA` unless ``out``); returns the path."""
    path = out or DATA / f"{name}.json"
    head = {"about": about, "written by": command}
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items()]
    lines.append(f'  "table": {_dumps(table, 2)}')
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    return path


def read_table(name: str, out: Path | None = None) -> dict[str, Any]:
    """The table a data file holds now (to replace one game's part of it)."""
    path = out or DATA / f"{name}.json"
    table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["table"]
    return table
