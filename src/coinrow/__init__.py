"""coinrow: exact solvers, pictures, play and analysis for the coins-in-a-line game.

>>> import coinrow
>>> coinrow.solve([3, 2, 2, 3, 1, 2]).first_total
8
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .analysis import GameAnalysis, MoveAnalysis, analyze
from .engines import ENGINES
from .errors import (
    CensusStoreError,
    CheckTargetError,
    CoinrowError,
    CostLimitError,
    IllegalMoveError,
    InputFileError,
    InvalidCoinError,
    InvalidOptionError,
    InvalidRowError,
    MissingExtraError,
    PictureError,
    RecordError,
    RowTooLongError,
    RubricError,
    RulesError,
    SchedulerError,
    StrategyFailedError,
    StrategyParameterError,
    StrategyUnavailableError,
    SubgameError,
    TableTooLargeError,
    UnknownEngineError,
    UnknownStrategyError,
    UnsupportedRulesError,
)
from .game import Game, Move, Position, TranscriptRow
from .numbers import Value, coerce_coins, parse_coins
from .play_values import PlayValues
from .record import Record, parse_records, read_records
from .rules import Rules
from .solution import Solution, best_moves, solve
from .strategies import Optimal, cooperative_total, greedy_total, parity_total
from .tables import Table

if TYPE_CHECKING:
    from .checking import CheckResult, check


def __getattr__(name: str) -> Any:
    """``coinrow.check`` and ``coinrow.CheckResult`` load :mod:`coinrow.checking` when first
    used (it needs multiprocessing, which ``import coinrow`` does not)."""
    if name in ("check", "CheckResult"):
        from . import checking

        return getattr(checking, name)
    raise AttributeError(f"module 'coinrow' has no attribute {name!r}")


__version__ = "0.2.0"  # the one place the version is written (pyproject reads it)

__all__ = [
    "ENGINES",
    "CensusStoreError",
    "CheckResult",
    "CheckTargetError",
    "CoinrowError",
    "CostLimitError",
    "Game",
    "GameAnalysis",
    "IllegalMoveError",
    "InputFileError",
    "InvalidCoinError",
    "InvalidOptionError",
    "InvalidRowError",
    "MissingExtraError",
    "Move",
    "MoveAnalysis",
    "Optimal",
    "PictureError",
    "PlayValues",
    "Position",
    "Record",
    "RecordError",
    "RowTooLongError",
    "RubricError",
    "Rules",
    "RulesError",
    "SchedulerError",
    "Solution",
    "StrategyFailedError",
    "StrategyParameterError",
    "StrategyUnavailableError",
    "SubgameError",
    "Table",
    "TableTooLargeError",
    "TranscriptRow",
    "UnknownEngineError",
    "UnknownStrategyError",
    "UnsupportedRulesError",
    "Value",
    "__version__",
    "analyze",
    "best_moves",
    "check",
    "coerce_coins",
    "cooperative_total",
    "greedy_total",
    "parity_total",
    "parse_coins",
    "parse_records",
    "read_records",
    "solve",
]
