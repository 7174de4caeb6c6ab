"""Option types shared by the commands, each checked when the command line is read."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from ..bots import bot_names


class VariantName(StrEnum):
    """The two games."""

    baofen = "baofen"
    hongwu = "hongwu"


VariantOption = Annotated[
    VariantName,
    typer.Option(metavar="[baofen|hongwu]", help="game: baofen (包分) or hongwu (包红五)"),
]
"""``--variant baofen|hongwu``."""

SeedOption = Annotated[int, typer.Option(metavar="SEED", help="seed of the deals and the bots")]
"""``--seed SEED``: the seed of a command's deals and bots."""


def load_bot(name: str) -> None:
    """Import the module that registers the bot ``name`` when it is one of the package's extras
    (the learned player ``neural``: :mod:`baofen.env.neural`, the research extra);
    ``ValueError`` saying what to install when the extra is missing."""
    if name != "neural":
        return
    try:
        import baofen.env.neural  # noqa: F401  (registers "neural" with the bots)
    except ImportError as error:
        raise ValueError(
            f"the learned player 'neural' needs the research extra: "
            f"pip install 'baofen[research]' ({error})"
        ) from None


def _known_bot(name: str) -> str:
    try:
        load_bot(name)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    if name not in bot_names():
        raise typer.BadParameter(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return name


def bot_option(help: str) -> Any:
    """A ``--bot``-style option naming one bot of :func:`baofen.bots.bot_names`; an unknown
    name is a usage error."""
    return typer.Option(metavar=f"[{'|'.join(bot_names())}]", callback=_known_bot, help=help)


def _database_url(url: str | None) -> str | None:
    # Imported here: SQLAlchemy takes longer to load than the rest of the command line.
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if url is not None:
        try:
            make_url(url)
        except ArgumentError:
            raise typer.BadParameter(
                f"{url!r} is not a database URL (e.g. sqlite:///baofen.db or "
                "postgresql+psycopg://user@host/dbname)"
            ) from None
    return url


DbOption = Annotated[
    str | None,
    typer.Option(
        metavar="URL", callback=_database_url,
        help="database URL (default: sqlite:///baofen.db, or $BAOFEN_DB)",
    ),
]
"""``--db URL``: the server's database; a malformed URL is a usage error."""
