"""The ``coinrow`` command line (Typer + Rich). Commands only parse, call the library, print.

The app and the helpers every command shares live in :mod:`coinrow.cli.common`; each command
group lives in its own module, imports them from there and registers itself on :data:`app`
when this package imports it (one line below), so no command module imports the package
back. Errors in the input end the command with exit status 2 and one line on stderr, never a
traceback.
"""

from __future__ import annotations

import inspect

# Each command module registers its commands on app when imported (one line per module).
from . import bench, census, check, chunks, pictures, play, puzzles, serve, solve, study  # noqa: F401
from .common import (
    FLAGS,
    RENAMED,
    RENAMED_UNTIL,
    CommandLineError,
    TidyCommand,
    app,
    main,
    progress_bar,
    read_coins,
    read_row,
    unwrap_paragraphs,
)

#: One-line summaries for the command list, for commands whose docstring opens with a
#: longer paragraph (the others are listed by their docstring's first paragraph).
SUMMARIES = {"check": "Check someone's solver and name its smallest failing row."}


def _tidy_commands() -> None:
    """Give every registered command the help rules of :class:`TidyCommand`, and its
    docstring unwrapped into paragraphs: the one place help text is prepared."""
    for info in app.registered_commands:
        info.cls = TidyCommand
        text = info.help if info.help is not None else inspect.getdoc(info.callback) or ""
        info.help = unwrap_paragraphs(text)
        info.short_help = SUMMARIES.get(info.name or "", info.short_help)


_tidy_commands()

__all__ = [
    "FLAGS",
    "RENAMED",
    "RENAMED_UNTIL",
    "CommandLineError",
    "app",
    "main",
    "progress_bar",
    "read_coins",
    "read_row",
]
