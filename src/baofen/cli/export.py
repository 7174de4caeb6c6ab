"""``baofen export``: write a server table's finished hands as a JSON file of hand records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .root import app


@app.command()
def export(
    table: Annotated[str, typer.Option("--table", help="the table's code")],
    db: Annotated[
        str | None,
        typer.Option(help="database URL (default: sqlite:///baofen.db, or $BAOFEN_DB)"),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="file to write (default: baofen-TABLE.json)")
    ] = None,
) -> None:
    """Write the finished hands of TABLE as a JSON list of hand records (``baofen replay``
    reads them; ``Hand.from_record`` replays each)."""
    from ..server import ServerSettings
    from ..store import Store

    settings = ServerSettings() if db is None else ServerSettings(db=db)
    store = Store(settings.db, settings.db_schema)
    try:
        if store.load(table) is None:
            typer.echo(f"error: no table has the code {table!r} in {settings.db}", err=True)
            raise typer.Exit(1)
        records = store.hand_records(table)
    finally:
        store.close()
    target = out or Path(f"baofen-{table}.json")
    target.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    typer.echo(f"wrote {len(records)} hand record{'s' * (len(records) != 1)} to {target}")
