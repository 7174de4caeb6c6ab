"""How every ``baofen`` command behaves: plain help, and each fault told in one line.

Typer's default help labels every value with its Python type (``--seed <int>``, even
``--help <bool>``); :class:`Command` prints help the usual way instead: an option with its
metavar (``--seed SEED``, ``--variant [baofen|hongwu]``), a flag alone, an argument by its name.

:class:`Group` is the one place where faults become messages: a bad option or value (Typer's
usage errors, :class:`typer.BadParameter` from a command) and a :class:`CommandError` (a file or
database a command cannot use) end the command with one line on stderr and a non-zero exit
status (2 for usage, 1 otherwise), never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup


class CommandError(typer.TyperException):
    """A command cannot do what was asked (a file it cannot read or write, a database it cannot
    open); the message says what and why. Exit status 1."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.command = "baofen"
        """The command it stopped (set by :meth:`Command.invoke`)."""


@contextmanager
def file_faults(task: str) -> Iterator[None]:
    """Report an ``OSError`` raised in the block as ``cannot <task>: <reason>``, a
    :class:`CommandError`."""
    try:
        yield
    except OSError as error:
        raise CommandError(f"cannot {task}: {error.strerror or error}") from None


def write_file(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, a file a command produces."""
    with file_faults(f"write {path}"):
        path.write_text(text, encoding="utf-8")


def _metavar(param: Any) -> str:
    """The metavar a value is shown with: the declared one, else the parameter's name in
    capitals (``--seed SEED``)."""
    metavar = param.metavar
    return str(metavar) if metavar is not None else str(param.name).upper()


class Command(TyperCommand):
    """A ``baofen`` command, with help that reads like a usual command line's."""

    def invoke(self, ctx: Any) -> Any:
        """Run the command; a :class:`CommandError` it raises learns which command it stopped."""
        try:
            return super().invoke(ctx)
        except CommandError as error:
            error.command = ctx.command_path
            raise

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """``[OPTIONS] FILE``: arguments by metavar, optional ones in brackets."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = _metavar(param)
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The Arguments and Options sections: each name with its metavar, then its help."""
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            if param.hidden:  # type: ignore[attr-defined]
                continue
            if param.param_type_name == "argument":
                arguments.append((_metavar(param), param.help or ""))  # type: ignore[attr-defined]
                continue
            record = param.get_help_record(ctx)
            if record is None:
                continue
            names, text = record
            if not param.is_flag:  # type: ignore[attr-defined]
                names = f"{', '.join(param.opts)} {_metavar(param)}"
            options.append((names, text))
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


class Group(TyperGroup):
    """The ``baofen`` command group: runs a command and turns its faults into one line each."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; when standalone (as a program), exit with its status."""
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            # Not standalone, so that faults reach this handler instead of Typer's own.
            status = run(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as error:
            typer.echo(one_line(error), err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("baofen: aborted", err=True)
            sys.exit(1)
        # A finished command returns None; ``typer.Exit`` and ``--help`` return their status.
        sys.exit(status if isinstance(status, int) else 0)


def one_line(error: typer.TyperException) -> str:
    """``baofen simulate: error: …``: the fault on one line, after the command it stopped."""
    message = " ".join(error.format_message().split())
    if isinstance(error, CommandError):
        where = error.command
    else:
        context = getattr(error, "ctx", None)  # a usage error knows its command
        where = "baofen" if context is None else context.command_path
    return f"{where}: error: {message}"
