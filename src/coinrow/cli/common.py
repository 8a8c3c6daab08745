"""The ``coinrow`` command line's app and the helpers its commands share (Typer + Rich).

Each command group lives in its own module and registers itself on :data:`app` (the package,
:mod:`coinrow.cli`, imports them all). Errors in
the input end the command with exit status 2 and one line on stderr, never a traceback.
Before Click parses, :func:`positionals_last` moves the positional tokens after ``--``, so
negative coins (``-3``, ``-1e5``, ``-inf``) are never read as options. Results print without
Rich's highlighting: its regular expressions take seconds on numbers of thousands of digits.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import re
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
from rich.console import Console

from .. import __version__
from ..engines import duration_text, estimated_solve_seconds
from ..errors import CoinrowError
from ..io import read_file, read_text_bytes
from ..numbers import Row, Value, ValueSpec
from ..rules import PLAIN


def unwrap_paragraphs(text: str) -> str:
    """``text`` with the line breaks inside each paragraph turned into spaces (O(len)), so
    that Rich wraps a docstring's paragraphs to the terminal instead of keeping its source
    lines (Typer keeps them in its "rich" markup mode). Paragraphs are separated by a blank
    line; one that starts with ``\\b`` keeps its lines, as in Click.

    >>> unwrap_paragraphs("One line\\nand its end.\\n\\nNext   paragraph.")
    'One line and its end.\\n\\nNext   paragraph.'
    """
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        part if part.startswith("\b") else " ".join(line.strip() for line in part.splitlines())
        for part in paragraphs
    )


class _Tidy:
    """What every coinrow command and the group do to their help: a flag (an option that
    takes no value) shows no type such as ``<bool>``, and paragraphs are unwrapped."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if param.param_type_name == "option" and (param.is_flag or param.count):
                param.metavar = ""
        return params


class TidyCommand(_Tidy, typer.core.TyperCommand):
    """A command whose help reads well at any width (see :class:`_Tidy`)."""


class TidyGroup(_Tidy, typer.core.TyperGroup):
    """The ``coinrow`` group, with the same help rules as its commands; commands are listed
    in the order they are documented."""

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(self.commands)


app = typer.Typer(
    name="coinrow",
    help="Solve, draw, play and study the coins-in-a-line game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=TidyGroup,
)

#: The row's coins as arguments, and the ``--file`` option, shared by every command of a row.
CoinsArgument = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="COINS",
        help="Coin values: integers, decimals or fractions such as 3, -1e5, 0.25 or 1/3 (a "
        "negative one is a coin, never an option), or '-' to read them from standard input.",
        show_default=False,
    ),
]
FileOption = Annotated[
    Path | None,
    typer.Option(
        "--file",
        "-f",
        help="Read coins from a text file (or a pipe such as /dev/stdin) or a 1-D .npy array; "
        "an empty file is an error.",
    ),
]


def json_option(help: str = "Print the solution as JSON.") -> Any:
    """The ``--json`` flag (off by default) of a command that prints results; ``help`` names
    the keys the command prints."""
    return typer.Option(False, "--json", help=help)


def rules_option(help: str, *, default: str | None = str(PLAIN), shown: str | None = None) -> Any:
    """The ``-r/--rules`` option that names the rules of the game
    (:meth:`coinrow.rules.Rules.parse`); ``help`` lists those the command takes, ``shown``
    describes a default that is not a plain value."""
    return typer.Option(default, "--rules", "-r", help=help, show_default=shown or True)


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


def read_coins(tokens: list[str] | None, file: Path | None) -> Row:
    """Coins from arguments, from ``-`` (standard input) or from a file (``.npy`` or text)."""
    return Row.of(read_row(tokens, file))


def read_row(tokens: list[str] | None, file: Path | None) -> Sequence[Value]:
    """Like :func:`read_coins`, but integer files stay NumPy arrays for the compiled kernels:
    an integer ``.npy`` file is memory-mapped (copy-on-write, never read into Python ints)
    and a long text of plain integers is read by the vectorised reader of
    :func:`coinrow.io.read_text_bytes` (same grammar as the exact parser, so ``0.1`` is still
    ``Decimal("0.1")``). An empty file or standard input is refused (the library's empty row
    is a valid game worth 0, but here it is almost surely a mistake)."""
    tokens = tokens or []
    if file is not None:
        if tokens:
            fail("give coins either as arguments or with --file, not both")
        row = read_file(file)
        if len(row) == 0:
            fail(f"no coins in {file}")
        return row
    if tokens == ["-"]:
        row = read_text_bytes(_stdin_bytes(), "standard input")
        if len(row) == 0:
            fail("no coins on standard input")
        return row
    if "-" in tokens:
        fail("'-' (read standard input) must be the only coin argument")
    if not tokens:
        fail("no coins given: pass them as arguments, with --file PATH, or '-' for stdin")
    return Row.of(tokens)


def _stdin_bytes() -> bytes:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream without bytes (tests replace sys.stdin)
        return sys.stdin.read().encode("utf-8", "surrogateescape")
    data: bytes = buffer.read()
    return data


def given_option(ctx: typer.Context, flag: str) -> bool:
    """Whether the command line gave the option ``flag`` (``--max-length``), rather than its
    default being used (O(1))."""
    source = ctx.get_parameter_source(flag.lstrip("-").replace("-", "_"))
    return source is not None and source.name == "COMMANDLINE"


#: Most values an alphabet written as a range LO..HI may hold.
MAX_ALPHABET = 10_000


def alphabet_text(text: str, flag: str) -> str:
    """The ``--values`` of an exhaustive search as the list the library takes: a list such
    as ``1,2,5`` as it is, a range ``LO..HI`` (or the older ``LO-HI``) written out
    (O(HI - LO), at most :data:`MAX_ALPHABET` values).

    >>> alphabet_text("1..4", "--values"), alphabet_text("0.5,2", "--values")
    ('1,2,3,4', '0.5,2')
    """
    if "," in text or (".." not in text and not re.fullmatch(r"\s*-?\d+-\d+\s*", text)):
        return text
    spec = ValueSpec.parse(text)
    if spec.choices:
        return text
    if spec.high - spec.low + 1 > MAX_ALPHABET:
        fail(f"{flag} {text}: at most {MAX_ALPHABET:,} values in a search, got "
             f"{spec.high - spec.low + 1:,}")  # fmt: skip
    return ",".join(map(str, range(spec.low, spec.high + 1)))


def check_output_path(path: Path, option: str) -> None:
    """Refuse up front an output file that cannot be written: a directory, or in a folder
    that does not exist or is not writable (so no work is lost at the end)."""
    parent = path.parent
    if path.is_dir():
        fail(f"{option} {path}: is a directory; give a file name")
    if not parent.is_dir():
        fail(f"{option} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"{option} {path}: not writable")


def size_text(count: int) -> str:
    """Bytes as KiB, MiB or GiB for messages.

    >>> size_text(3 * 2**29), size_text(5 * 2**20), size_text(2048)
    ('1.5 GiB', '5.0 MiB', '2.0 KiB')
    """
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


#: Longest run a command starts: a run estimated to take longer is refused up front.
MAX_SECONDS = 60.0


def check_engine_time(engine: str, row: Sequence[Value]) -> None:
    """Refuse ``--engine`` on a row it would take more than :data:`MAX_SECONDS` to solve, by
    the library's cost model (:func:`coinrow.engines.estimated_solve_seconds`)."""
    seconds = estimated_solve_seconds(row, engine, limit=MAX_SECONDS)
    if seconds <= MAX_SECONDS:
        return
    n = len(row)
    unit = {"reduction": "coin", "brute": "game-tree leaf"}.get(engine, "subgame")
    items = n if engine == "reduction" else 2**n if engine == "brute" else n * (n + 1) // 2
    fail(
        f"--engine {engine} on {n:,} coins would take about {duration_text(seconds)} (about "
        f"{_short_time(seconds / items)} per {unit}); use the default engine"
    )


def _short_time(seconds: float) -> str:
    """``"1.3 µs"``, ``"700 ns"``: two significant digits, no exponent."""
    units = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"))
    scale, unit = next(((s, u) for s, u in units if seconds >= s), (1e-9, "ns"))
    value = seconds / scale
    return f"{value:.0f} {unit}" if value >= 10 else f"{value:.2g} {unit}"


#: The option of each command that sets a library argument an error can name
#: (:attr:`CoinrowError.parameter <coinrow.errors.CoinrowError>`): the one place where a
#: library parameter becomes a flag, so the commands need not repeat the library's checks
#: to name their options.
FLAGS: dict[str, dict[str, str]] = {
    "census": {
        "length": "--length",
        "max_length": "--max-length",
        "total": "--compositions",
        "count": "--random",
        "values": "--values",
        "alphabet": "--values",
        "seed": "--seed",
        "strategies": "--strategy",
        "examples": "--examples",
        "rows": "--rows",
        "shard_rows": "--shard-rows",
        "workers": "--workers",
        "timeout": "--connect-timeout",
    },
    "compare": {
        "names": "STRATEGIES",
        "rows": "--games",
        "n": "--length",
        "values": "--values",
        "seed": "--seed",
    },
    "refute": {"alphabet": "--values", "max_length": "--max-length", "limit": "--examples"},
    "solve-chunks": {"workers": "--workers"},
}

#: The version that drops the old spellings of :data:`RENAMED`.
RENAMED_UNTIL = "0.3.0"

#: Old spellings of options, renamed so that one idea has one name in every command (the
#: table in docs/cli.md), and still read for one release: hidden from ``--help``, each use
#: prints a note on stderr. ``refute --row A,B,C`` (the row as a comma list) is read too:
#: its coins become arguments, as in every other command.
RENAMED: dict[str, dict[str, str]] = {
    "compare": {"--n": "--length"},
    "census": {"--alphabet": "--values", "-a": "--values"},
    "refute": {"--alphabet": "--values", "-a": "--values", "--limit": "--examples"},
    "play": {"--random": "--length"},
    "puzzles": {"-n": "--count"},
}


def renamed_options(group: Any, argv: list[str], notes: list[str]) -> list[str]:
    """``argv`` with the old spellings of :data:`RENAMED` replaced by the new ones (and
    ``refute --row A,B,C`` by the coins as arguments), a note in ``notes`` for each (printed
    on stderr when the command succeeds: an error stays one line); O(len(argv)).

    >>> notes = []
    >>> command = typer.main.get_command(app)
    >>> renamed_options(command, ["compare", "greedy", "optimal", "--n=4"], notes), notes
    (['compare', 'greedy', 'optimal', '--length=4'], ['--n is now --length'])
    """
    index = _skip_options(_arities(group), argv, 0)
    command = argv[index] if index < len(argv) else None
    renames = RENAMED.get(command or "", {})
    if not renames and command != "refute":
        return argv
    result, coins, position = argv[: index + 1], list[str](), index + 1
    while position < len(argv):
        token = argv[position]
        name, equals, value = token.partition("=")
        if token == "--":
            result.extend(argv[position:])
            break
        given = argv[position + 1] if position + 1 < len(argv) else ""
        if command == "refute" and name == "--row" and (value if equals else given).strip(", "):
            position += 0 if equals else 1
            notes.append("--row A,B,C is now the coins as arguments (refute STRATEGY A B C)")
            row = value if equals else given
            coins.extend(part.strip() for part in row.split(",") if part.strip())
        elif name in renames and (equals == "" or name.startswith("--")):
            notes.append(f"{name} is now {renames[name]}")
            result.append(renames[name] + equals + value)
        else:
            result.append(token)
        position += 1
    if coins:
        result.extend(coins if "--" in result else ["--", *coins])
    return result


def error_text(error: CoinrowError, command: str | None) -> str:
    """The one line a command prints for an input error: the library's message, after the
    option the error concerns when :data:`FLAGS` knows it (O(len(message))).

    >>> from coinrow.errors import InvalidOptionError
    >>> error_text(InvalidOptionError("must be >= 1, got 0", parameter="max_length"), "refute")
    '--max-length: must be >= 1, got 0'
    """
    flag = FLAGS.get(command or "", {}).get(error.parameter or "")
    text = _one_line(str(error))
    return f"{flag}: {text}" if flag else text


@contextlib.contextmanager
def progress_bar(
    description: str, total: int, hidden: bool, *, completed: int = 0, unit: str = ""
) -> Iterator[Callable[[int], None]]:
    """The one progress bar of the long commands (compare, refute, census): Rich on stderr,
    with the count, the speed in ``unit``/s when a unit is given, and the time left; hidden
    with --json or when stderr is not a terminal. Yields a function that advances it."""
    console = Console(stderr=True)
    if hidden or not console.is_terminal:
        yield lambda advance: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Speed(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f} {unit}/s")

    columns: list[str | ProgressColumn] = ["{task.description}", BarColumn()]
    columns += [MofNCompleteColumn(), *([Speed()] if unit else [])]
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(description, total=total, completed=completed)
        yield lambda advance: bar.advance(task, advance)


def run_steps(steps: Iterable[int], description: str, total: int, hidden: bool) -> None:
    """Drive a library step generator (it yields the items finished since its last yield, as
    :meth:`coinrow.tournament.Tournament.play` and :meth:`coinrow.refute.Search.run` do) with
    :func:`progress_bar`; Ctrl-C stops it, and the caller reports what was finished so far."""
    with progress_bar(description, total, hidden) as advance:
        try:
            for finished in steps:
                advance(finished)
        except KeyboardInterrupt:
            pass  # the library's result holds the steps finished before it


def fitted_table(
    headers: Sequence[str], *, text: Collection[str] = (), title: str | None = None, **style: Any
) -> Any:
    """A Rich table that fits a narrow terminal (80 columns) without cutting a number: the
    columns not named in ``text`` hold numbers, right-aligned and never wrapped, their
    headers broken at spaces; the ``text`` columns (names, rows of coins) fold when they must;
    adjacent paddings collapse. ``style`` goes to :class:`rich.table.Table` (O(columns))."""
    from rich import box
    from rich.table import Table

    style = {"box": box.SIMPLE_HEAD, "collapse_padding": True, "pad_edge": False, **style}
    table = Table(title=title, **style)
    for header in headers:
        if header in text:
            table.add_column(header, justify="left", overflow="fold")
        else:
            table.add_column(header.replace(" ", "\n"), justify="right", no_wrap=True)
    return table


def print_json(data: Any) -> None:
    """Print a JSON document on stdout."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every input error into exit status 2."""
    command = typer.main.get_command(app)
    args, notes = sys.argv[1:] if argv is None else list(argv), list[str]()
    args = positionals_last(command, renamed_options(command, args, notes))
    try:
        result = command.main(args=args, prog_name="coinrow", standalone_mode=False)
        for note in notes:
            sys.stderr.write(f"coinrow: note: {note}; the old spelling goes in {RENAMED_UNTIL}\n")
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
        sys.stderr.write(f"coinrow: error: {error_text(error, _command_name(command, args))}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("coinrow: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0


#: A token that starts like a signed number (``-3``, ``-1e5``, ``-.5``, ``-1/3``, ``-inf``,
#: ``-nan``) is a coin, never an option: no option of coinrow starts with a digit or a dot,
#: and the number grammar's words (inf, infinity, nan, snan) are not options either.
_SIGNED_NUMBER = re.compile(r"[+-](?:[0-9.]|inf|nan|snan)", re.IGNORECASE)


def positionals_last(group: Any, argv: list[str]) -> list[str]:
    """``argv`` with the command's positional tokens moved after a ``--`` separator, in
    their order, so that Click never reads a negative coin such as ``-1e5`` or ``-inf`` as
    an option (O(len(argv))).

    The command's parameters tell which tokens are option names and how many values each
    takes; a token that is neither, nor an option's value, is positional. A token that
    starts like a signed number is positional unless it is exactly an option name. Other
    unknown ``-x`` tokens stay in place, for Click to report. Without a known command, or
    without positional tokens, ``argv`` is returned unchanged.

    >>> command = typer.main.get_command(app)
    >>> positionals_last(command, ["solve", "-1e5", "3", "--engine", "memo", "--json"])
    ['solve', '--engine', 'memo', '--json', '--', '-1e5', '3']
    """
    index = _skip_options(_arities(group), argv, 0)
    if index >= len(argv) or argv[index] not in getattr(group, "commands", {}):
        return argv
    arities = _arities(group.commands[argv[index]])
    options: list[str] = []
    positionals: list[str] = []
    rest, position = argv[index + 1 :], 0
    while position < len(rest):
        token = rest[position]
        if token == "--":
            positionals.extend(rest[position + 1 :])
            break
        end = _skip_options(arities, rest, position)
        if end == position:
            positionals.append(token)
            end += 1
        else:
            options.extend(rest[position:end])
        position = end
    if not positionals:
        return argv
    return [*argv[: index + 1], *options, "--", *positionals]


def _arities(command: Any) -> dict[str, int]:
    """Every option name of a Click command, with how many values it takes."""
    arities: dict[str, int] = {}
    for param in command.get_params(typer.Context(command)):
        if param.param_type_name == "option":
            takes = 0 if param.is_flag or param.count else param.nargs
            arities.update(dict.fromkeys([*param.opts, *param.secondary_opts], takes))
    return arities


def _skip_options(arities: dict[str, int], argv: list[str], position: int) -> int:
    """The index after the option (and its values) at ``argv[position]``, or ``position``
    when that token is not an option."""
    while position < len(argv):
        token = argv[position]
        name = token.partition("=")[0]
        if token in arities:
            position += 1 + arities[token]
        elif token.startswith("--") and name in arities:  # --name=value
            position += 1
        elif _SIGNED_NUMBER.match(token) or not token.startswith("-") or token in ("-", "--"):
            return position
        else:  # a short option with its value attached (-ememo), or unknown: Click decides
            position += 1
    return min(position, len(argv))


def _command_name(group: Any, argv: list[str]) -> str | None:
    """The name of the command ``argv`` runs, or None (O(len(argv)))."""
    index = _skip_options(_arities(group), argv, 0)
    return argv[index] if index < len(argv) else None


def _one_line(text: str) -> str:
    return " ".join(text.split())
