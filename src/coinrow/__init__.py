"""coinrow: exact solvers, pictures, play and analysis for the coins-in-a-line game.

>>> import coinrow
>>> coinrow.solve([3, 2, 2, 3, 1, 2]).first_total
8
"""

from __future__ import annotations

from .analysis import GameAnalysis, MoveAnalysis, analyze
from .engines import ENGINES
from .engines.table import Table
from .errors import (
    CensusStoreError,
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
    SchedulerError,
    StrategyFailedError,
    StrategyParameterError,
    StrategyUnavailableError,
    SubgameError,
    TableTooLargeError,
    UnknownEngineError,
    UnknownStrategyError,
)
from .game import Game, Move, Position, TranscriptRow
from .numbers import Value, coerce_coins, parse_coins
from .record import Record, parse_records, read_records
from .solution import Solution, best_moves, solve
from .strategies import Optimal, cooperative_total, greedy_total, parity_total

__version__ = "0.1.0"  # the one place the version is written (pyproject reads it)

__all__ = [
    "ENGINES",
    "CensusStoreError",
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
    "Position",
    "Record",
    "RecordError",
    "RowTooLongError",
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
    "Value",
    "__version__",
    "analyze",
    "best_moves",
    "coerce_coins",
    "cooperative_total",
    "greedy_total",
    "parity_total",
    "parse_coins",
    "parse_records",
    "read_records",
    "solve",
]
