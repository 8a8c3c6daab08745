"""Exception classes. Every error coinrow raises for bad input subclasses :class:`CoinrowError`,
which subclasses :class:`ValueError`, so ``except ValueError`` catches them all.

The hierarchy (drawn the same in docs/errors.md; tests/test_errors_tree.py checks both)::

    ValueError
    └── CoinrowError
        ├── InvalidCoinError
        ├── InvalidRowError
        ├── UnknownEngineError
        ├── RowTooLongError
        │   └── TableTooLargeError
        ├── CostLimitError
        ├── SubgameError
        ├── IllegalMoveError
        ├── StrategyUnavailableError
        ├── UnknownStrategyError
        ├── StrategyParameterError
        ├── StrategyFailedError
        ├── RecordError
        ├── PictureError
        ├── InvalidOptionError
        ├── InputFileError
        ├── MissingExtraError
        ├── CensusStoreError
        ├── SchedulerError
        ├── CheckTargetError
        ├── RubricError
        └── RulesError
            └── UnsupportedRulesError
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


class CoinrowError(ValueError):
    """Base class of every input error raised by coinrow. ``parameter``, when given, names
    the argument of the library call the error concerns (``max_length``), so that a shell can
    name its own option for it (the library never names a command-line flag).

    >>> CoinrowError("must be at least 1, got 0", parameter="max_length").parameter
    'max_length'
    """

    def __init__(self, *args: object, parameter: str | None = None) -> None:
        super().__init__(*args)
        self.parameter = parameter


@contextlib.contextmanager
def concerning(parameter: str) -> Iterator[None]:
    """Name ``parameter`` on every :class:`CoinrowError` raised inside that names none yet
    (for checks made by a helper that does not know which argument it checks).

    >>> try:
    ...     with concerning("alphabet"):
    ...         raise InvalidOptionError("the alphabet is empty")
    ... except CoinrowError as error:
    ...     error.parameter
    'alphabet'
    """
    try:
        yield
    except CoinrowError as error:
        if error.parameter is None:
            error.parameter = parameter
        raise


class InvalidCoinError(CoinrowError):
    """A coin value is not an exact finite number (position is 0-based)."""

    def __init__(self, position: int, token: object, reason: str) -> None:
        self.position = position
        self.token = token
        self.reason = reason
        super().__init__(f"coin {position + 1} ({token!r}): {reason}")


class InvalidRowError(CoinrowError):
    """The row itself is not a sequence of coins (``solve(5)``, ``solve(None)``)."""


class UnknownEngineError(CoinrowError):
    """The engine name is not one of :data:`coinrow.ENGINES`."""


class RowTooLongError(CoinrowError):
    """The row is too long for the requested engine or picture."""


class CostLimitError(CoinrowError):
    """A computation's estimated cost (exact arithmetic on long rows or long numbers) is over
    the limit it was given; ``seconds`` is the estimate, ``limit`` the limit."""

    def __init__(self, message: str, seconds: float, limit: float) -> None:
        self.seconds = seconds
        self.limit = limit
        super().__init__(message)


class TableTooLargeError(RowTooLongError):
    """The full subgame table would exceed the memory budget."""


class StrategyUnavailableError(CoinrowError):
    """A strategy is not defined for this row (for example the parity strategy for odd n)."""


class SubgameError(CoinrowError):
    """A subgame index range ``lo..hi`` is not inside the row."""


class IllegalMoveError(CoinrowError):
    """A move is not ``"L"`` or ``"R"``, or the game is already over."""


class PictureError(CoinrowError):
    """A picture cannot be drawn as asked (unknown view, file format or mismatched data)."""


class UnknownStrategyError(CoinrowError):
    """A strategy name is not a built-in and not an importable ``module:function``."""


class StrategyFailedError(CoinrowError):
    """A user strategy raised an exception while choosing a move."""


class StrategyParameterError(CoinrowError):
    """A known strategy's parameter is malformed (for example ``lookahead:x``, ``greedy:3``).
    Not an :class:`UnknownStrategyError`: the strategy exists, its parameter is wrong."""


class RecordError(CoinrowError):
    """A problem in a game record, at a 1-based ``line`` of the text (0 when not from text)."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}" if line else message)


class InvalidOptionError(CoinrowError):
    """An impossible setting: a negative row length, an empty alphabet, a bad value range..."""


class InputFileError(CoinrowError):
    """A file of coins or records cannot be read: missing, a directory, not text, a bad array."""


class MissingExtraError(CoinrowError):
    """A feature needs an optional dependency that is not installed (an *extra*)."""

    def __init__(self, what: str, extra: str) -> None:
        self.extra = extra
        super().__init__(f"{what}: install coinrow[{extra}]")


class CensusStoreError(CoinrowError):
    """A census folder cannot be used: it is a file, it already holds a census, or it holds
    a census of another family, job or version."""


class SchedulerError(CoinrowError):
    """The Dask scheduler given for a census cannot be reached."""


class CheckTargetError(CoinrowError):
    """A solver to check cannot be used: the file is missing or does not compile, importing it
    fails, no solver function is found in it, or the function takes the wrong arguments."""


class RubricError(CoinrowError):
    """A grading rubric cannot be used: not TOML, a missing key, or an unknown check."""


class RulesError(CoinrowError):
    """Rules of the game that are unknown or malformed (``take:0``, ``pizza``)."""


class UnsupportedRulesError(RulesError):
    """Valid rules that do not apply to what was asked (a subgame table of the pizza)."""
