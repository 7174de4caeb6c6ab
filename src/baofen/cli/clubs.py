"""``baofen club``: an organiser's 亲友圈 commands, run on the server's database (as ``baofen
export`` is): create a club, invite, list the members, set and list presets, and export the
club's results as CSV. Each command acts as an account (``--as USERNAME``) and is held to that
account's role, as the server holds it: only admins invite or set presets."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .command import Command, CommandError, Group, write_file
from .database import open_store, server_settings
from .options import DbOption
from .root import app

if TYPE_CHECKING:
    from ..store import Store

clubs_app = typer.Typer(cls=Group, help="亲友圈 (clubs): an organiser's commands on the "
                        "server's database.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(clubs_app, name="club")

AsOption = Annotated[str, typer.Option("--as", metavar="USERNAME",
                                       help="the account the command acts as")]
ClubArgument = Annotated[str, typer.Argument(metavar="CLUB", help="the club's id")]
BaseOption = Annotated[str, typer.Option(metavar="URL", help="the server's address, for links")]


def _run(db: str | None, username: str, work: Any) -> Any:
    """``work(store, account_id)`` on the database, a club refusal told as one line."""
    from ..accounts.usernames import canonical
    from ..store.accounts import Accounts
    from ..store.clubs import ClubError

    settings = server_settings(db)
    store = open_store(settings)
    try:
        found = Accounts(store).credentials(canonical(username))
        if found is None:
            raise CommandError(f"no account {username!r} in {settings.db}")
        return work(store, found[0].id)
    except ClubError as error:
        raise CommandError(f"{error.reason}: {error.message}") from None
    finally:
        store.close()


def _clubs(store: Store) -> Any:
    from ..store.clubs import Clubs

    config = server_settings(None)
    return Clubs(store, config.club_member_limit, config.clubs_per_account)


@clubs_app.command(cls=Command)
def create(name: Annotated[str, typer.Argument(metavar="NAME", help="the club's name")],
           owner: AsOption, db: DbOption = None) -> None:
    """Create a club owned by the account; prints its id."""
    club = _run(db, owner, lambda store, me: _clubs(store).create(me, name))
    typer.echo(f"{club.id}\t{club.name}")


@clubs_app.command(cls=Command)
def invite(club: ClubArgument, username: AsOption, db: DbOption = None,
           hours: Annotated[int | None, typer.Option(help="valid this long (default: until "
                                                      "revoked)")] = None,
           uses: Annotated[int | None, typer.Option(help="joins at most")] = None,
           approval: Annotated[bool, typer.Option("--approval", help="joining asks the "
                                                  "admins")] = False,
           base: BaseOption = "http://localhost:8000") -> None:
    """A new invitation link of the club (admins)."""
    lifetime = None if hours is None else timedelta(hours=hours)
    made = _run(db, username, lambda store, me: _clubs(store).invite(
        club, me, lifetime, uses, approval))
    typer.echo(f"{base.rstrip('/')}/clubs/join/{made.code}")


@clubs_app.command(cls=Command)
def members(club: ClubArgument, username: AsOption, db: DbOption = None) -> None:
    """The club's members: username, role, joined."""
    listed = _run(db, username, lambda store, me: _clubs(store).members(club, me))
    for member in listed:
        typer.echo(f"{member.username}\t{member.role}\t{member.joined:%Y-%m-%d}")


@clubs_app.command(cls=Command)
def presets(club: ClubArgument, username: AsOption, db: DbOption = None) -> None:
    """The club's presets: name, then its rules and settings as JSON."""
    from ..store.club_records import ClubRecords

    listed = _run(db, username, lambda store, me: ClubRecords(store).presets(club, me))
    for preset in listed:
        typer.echo(f"{preset.name}\t{json.dumps(preset.rules, ensure_ascii=False)}\t"
                   f"{json.dumps(preset.settings, ensure_ascii=False)}")


@clubs_app.command(cls=Command)
def preset(club: ClubArgument,
           name: Annotated[str, typer.Argument(metavar="NAME", help="the preset's name")],
           username: AsOption, db: DbOption = None,
           rules: Annotated[str, typer.Option(metavar="JSON", help='the rule set, e.g. '
                                              '\'{"variant": "baofen", "hands": 8}\'')] = "{}",
           settings: Annotated[str, typer.Option(metavar="JSON", help="the table settings")]
           = "{}") -> None:
    """Make or replace a preset of the club (admins), checked as the server checks it."""
    from pydantic import ValidationError

    from ..store.club_records import ClubRecords
    from ..wire.clubs import PresetBody

    try:
        body = PresetBody.model_validate({"rules": json.loads(rules),
                                          "settings": json.loads(settings)})
    except (ValueError, ValidationError) as error:
        raise typer.BadParameter(f"not a preset: {error}") from None
    _run(db, username, lambda store, me: ClubRecords(store).put_preset(
        club, me, name.strip(), body.rules.to_dict(), body.settings.model_dump()))
    typer.echo(f"preset {name.strip()!r} saved")


@clubs_app.command(cls=Command)
def results(club: ClubArgument, username: AsOption, db: DbOption = None,
            out: Annotated[Path | None, typer.Option(metavar="FILE", help="file to write "
                                                     "(default: club-CLUB.csv)")] = None) -> None:
    """Export every result of the club's finished hands as CSV (one row a member's seat)."""
    from ..store.club_records import ClubRecords

    def rows(store: Store, me: int) -> list[dict[str, Any]]:
        _clubs(store).club(club, me)  # members only
        return ClubRecords(store).export(club)

    exported = _run(db, username, rows)
    text = io.StringIO()
    columns = ["finished", "table_code", "hand_number", "seat", "variant", "username", "role",
               "made", "result"]
    writer = csv.DictWriter(text, columns)
    writer.writeheader()
    for row in exported:
        writer.writerow({**row, "finished": row["finished"].isoformat()})
    target = out or Path(f"club-{club}.csv")
    write_file(target, text.getvalue())
    typer.echo(f"wrote {len(exported)} result{'s' * (len(exported) != 1)} to {target}")
