"""``baofen tournament create`` and ``list``: a running server's tournaments, over its REST API
(the standard library's HTTP client: the command line needs nothing more)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from http.cookiejar import CookieJar
from typing import Annotated, Any
from urllib.error import HTTPError, URLError
from urllib.request import HTTPCookieProcessor, OpenerDirector, Request, build_opener

import typer
from rich.console import Console
from rich.table import Table

from ..competition.schedule import Format
from ..setting import BOT_LEVELS
from .command import Command, CommandError
from .options import VariantName
from .tournament import GameOption, tournament_app

ServerOption = Annotated[
    str, typer.Option("--server", metavar="URL", help="the server, e.g. http://127.0.0.1:8000")
]


def _call(opener: OpenerDirector, server: str, method: str, path: str,
          body: dict[str, Any] | None = None) -> Any:
    """One REST call; a refusal or an unreachable server as a :class:`CommandError`."""
    data = None if body is None else json.dumps(body).encode()
    request = Request(server.rstrip("/") + path, data=data, method=method,
                      headers={"Content-Type": "application/json"})
    try:
        with opener.open(request, timeout=30) as response:
            return json.loads(response.read() or b"null")
    except HTTPError as error:
        detail = json.loads(error.read() or b"{}").get("detail", error.reason)
        if isinstance(detail, dict):
            detail = f"{detail.get('message')} ({detail.get('code')})"
        raise CommandError(f"the server refused {method} {path}: {detail}") from None
    except (URLError, OSError) as error:
        raise CommandError(f"cannot reach {server}: {error}") from None


def _start(text: str) -> datetime:
    """``+MINUTES`` from now, or an ISO time (UTC unless it names its zone)."""
    try:
        if text.startswith("+"):
            return datetime.now(UTC) + timedelta(minutes=float(text[1:]))
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is neither +MINUTES nor an ISO time",
                                 param_hint="--start") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@tournament_app.command(cls=Command)
def create(
    server: ServerOption,
    username: Annotated[str, typer.Option(metavar="NAME", help="the organiser's account")],
    name: Annotated[str, typer.Option(metavar="TEXT", help="the event's name")] = "",
    game: GameOption = VariantName.baofen,
    form: Annotated[Format, typer.Option("--format", metavar="[duplicate|swiss]",
                                         help="duplicate (复式) or swiss (瑞士移位)")
                    ] = Format.duplicate,
    rounds: Annotated[int, typer.Option(min=1, max=20, metavar="R")] = 2,
    hands: Annotated[int, typer.Option(min=1, max=32, metavar="H",
                                       help="deals (hands) a round")] = 4,
    start: Annotated[str, typer.Option(metavar="+MINUTES|ISO",
                                       help="when round 1 starts")] = "+10",
    seat_limit: Annotated[int, typer.Option(min=4, max=1024, metavar="N")] = 64,
    level: Annotated[str, typer.Option(metavar="LEVEL", help="the fillers' computer level: "
                                       + ", ".join(BOT_LEVELS))] = "hard",
    rated: Annotated[bool, typer.Option("--rated", help="rate every hand")] = False,
    no_guests: Annotated[bool, typer.Option("--no-guests",
                                            help="accounts only (no guests by name)")] = False,
) -> None:
    """Organise a tournament on a running server (the password from $BAOFEN_PASSWORD, or asked
    for)."""
    if level not in BOT_LEVELS:
        raise typer.BadParameter(f"{level!r} is not one of {', '.join(BOT_LEVELS)}",
                                 param_hint="--level")
    moment = _start(start)
    password = os.environ.get("BAOFEN_PASSWORD") or typer.prompt("password", hide_input=True)
    opener = build_opener(HTTPCookieProcessor(CookieJar()))
    _call(opener, server, "POST", "/api/login", {"username": username, "password": password})
    settings = {"name": name, "format": form.value, "rounds": rounds, "hands": hands,
                "start": moment.isoformat(), "seat_limit": seat_limit, "rated": rated,
                "bot_level": level, "guests": not no_guests}
    info = _call(opener, server, "POST", "/api/tournaments",
                 {"rules": {"variant": game.value}, "settings": settings})
    typer.echo(f"{info['code']}: {server.rstrip('/')}/tournaments/{info['code']} "
               f"(starts {info['next_start']})")


def _when(moment: str | None) -> str:
    """An ISO time as ``YYYY-MM-DD HH:MM`` in UTC."""
    if moment is None:
        return ""
    return datetime.fromisoformat(moment).astimezone(UTC).strftime("%Y-%m-%d %H:%M")


@tournament_app.command(name="list", cls=Command)
def list_events(server: ServerOption) -> None:
    """List a running server's tournaments: upcoming and running first."""
    events = _call(build_opener(), server, "GET", "/api/tournaments")
    table = Table(title=f"tournaments on {server}")
    table.add_column("code", overflow="fold")  # never cut short: it is what one types next
    for column in ("name", "game", "format", "status", "round", "entrants", "starts (UTC)"):
        table.add_column(column)
    for e in events:
        s = e["settings"]
        table.add_row(e["code"], s["name"], e["rules"]["variant"], s["format"], e["status"],
                      f"{e['round']}/{s['rounds']}", f"{e['registered']}/{s['seat_limit']}",
                      _when(e["next_start"]))
    Console().print(table)
