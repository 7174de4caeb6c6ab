"""``baofen export``: write a server table's finished hands as a JSON file of hand records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .command import Command, CommandError, write_file
from .database import open_store, server_settings
from .options import DbOption
from .root import app


@app.command(cls=Command)
def export(
    table: Annotated[str, typer.Option("--table", metavar="CODE", help="the table's code")],
    db: DbOption = None,
    out: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="file to write (default: baofen-CODE.json)"),
    ] = None,
) -> None:
    """Write the finished hands of table CODE as a JSON list of hand records (baofen replay
    reads them; Hand.from_record replays each)."""
    settings = server_settings(db)
    store = open_store(settings)
    try:
        if store.load(table) is None:
            raise CommandError(f"no table has the code {table!r} in {settings.db}")
        records = store.hand_records(table)
    finally:
        store.close()
    target = out or Path(f"baofen-{table}.json")
    write_file(target, json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    typer.echo(f"wrote {len(records)} hand record{'s' * (len(records) != 1)} to {target}")
