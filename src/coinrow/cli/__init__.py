"""The ``coinrow`` command line (Typer + Rich). Commands only parse, call the library, print.

Each command group lives in its own module and registers itself on :data:`app`. Errors in
the input end the command with exit status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from .. import __version__
from ..errors import CoinrowError
from ..io import read_file
from ..numbers import Value, coerce_coins, parse_coins

app = typer.Typer(
    name="coinrow",
    help="Solve, draw, play and study the coins-in-a-line game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Settings for commands that take coins as arguments, so negative coins are not options.
COIN_ARGS = {"ignore_unknown_options": True}

#: The row's coins as arguments, and the ``--file`` option, shared by every command of a row.
CoinsArgument = Annotated[
    list[str] | None,
    typer.Argument(help="Coin values, or '-' to read them from standard input."),
]
FileOption = Annotated[
    Path | None,
    typer.Option("--file", "-f", help="Read coins from a text file or a .npy array."),
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"coinrow {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Solve, draw, play and study the coins-in-a-line game."""


class CommandLineError(CoinrowError):
    """A problem with the command line itself (missing coins, conflicting options...)."""


def fail(message: str) -> NoReturn:
    """Stop the command with a usage error (exit status 2, one line on stderr)."""
    raise CommandLineError(message)


def read_coins(tokens: list[str] | None, file: Path | None) -> list[Value]:
    """Coins from arguments, from ``-`` (standard input) or from a file (``.npy`` or text)."""
    return coerce_coins(read_row(tokens, file))


def read_row(tokens: list[str] | None, file: Path | None) -> Sequence[Value]:
    """Like :func:`read_coins`, but integer files stay NumPy arrays for the compiled kernels:
    an integer ``.npy`` file is memory-mapped (copy-on-write, never read into Python ints)
    and a long text file of integers is parsed by pyarrow's CSV reader. Any other text is
    parsed exactly, token by token (so ``0.1`` is still ``Decimal("0.1")``)."""
    tokens = tokens or []
    if file is not None:
        if tokens:
            fail("give coins either as arguments or with --file, not both")
        return read_file(file)
    if tokens == ["-"]:
        return parse_coins(sys.stdin.read())
    if "-" in tokens:
        fail("'-' (read standard input) must be the only coin argument")
    options = [token for token in tokens if token.startswith("--")]
    if options:
        fail(f"no such option: {options[0]} (see --help)")
    if not tokens:
        fail("no coins given: pass them as arguments, with --file PATH, or '-' for stdin")
    return coerce_coins(tokens)


def print_json(data: Any) -> None:
    """Print a JSON document on stdout."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every input error into exit status 2."""
    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv, prog_name="coinrow", standalone_mode=False)
    except typer.Exit as stop:
        return stop.exit_code
    except typer.Abort:
        sys.stderr.write("coinrow: interrupted\n")
        return 130
    except typer.TyperException as error:  # click's usage errors: unknown option, bad value...
        if not error.format_message():  # no arguments at all: the help was printed
            return 0
        sys.stderr.write(f"coinrow: error: {_one_line(error.format_message())}\n")
        return 2
    except CoinrowError as error:
        sys.stderr.write(f"coinrow: error: {_one_line(str(error))}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("coinrow: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0


def _one_line(text: str) -> str:
    return " ".join(text.split())


# Each command module registers its commands on app when imported (one line per module).
from . import bench, pictures, play, serve, solve, study  # noqa: E402, F401

__all__ = ["app", "main", "read_coins", "read_row"]
