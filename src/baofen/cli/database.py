"""The server's settings and store as the commands open them, faults told as
:class:`~.command.CommandError`. The server, pydantic and SQLAlchemy are imported only when a
command needs them: they take longer to load than the rest of the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .command import CommandError

if TYPE_CHECKING:
    from ..server import ServerConfig
    from ..store import Store


def server_settings(db: str | None) -> ServerConfig:
    """The server settings from the ``BAOFEN_*`` environment, with ``db`` when given."""
    from pydantic import ValidationError

    from ..server import ServerConfig

    try:
        return ServerConfig() if db is None else ServerConfig(db=db)
    except ValidationError as error:
        first = error.errors()[0]
        name = "BAOFEN_" + "_".join(map(str, first["loc"])).upper()
        raise CommandError(f"bad server setting {name}: {first['msg']}") from None


def open_store(settings: ServerConfig) -> Store:
    """The store of ``settings.db``, opened (its schema created or upgraded by the
    migrations)."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..store import Store
    from ..store.migrations import SchemaTooNew

    try:
        return Store(settings.db, settings.db_schema)
    except SchemaTooNew as error:
        raise CommandError(f"cannot open the database {settings.db}: {error}") from None
    except SQLAlchemyError as error:
        # The driver's message comes first; SQLAlchemy adds the statement and a link below it.
        reason = str(error).strip().splitlines()[0]
        raise CommandError(f"cannot open the database {settings.db}: {reason}") from None
    except ImportError as error:  # a database SQLAlchemy knows but whose driver is not here
        raise CommandError(
            f"cannot open the database {settings.db}: its driver is not installed ({error}); "
            "baofen runs on sqlite:///FILE or postgresql+psycopg://USER@HOST/DBNAME"
        ) from None
