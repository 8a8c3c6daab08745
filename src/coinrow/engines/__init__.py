"""Solver engines. Each engine module exposes ``solve(coins) -> EngineResult``.

All engines give the same margin and the same set of optimal first moves; their optimal lines
may differ only where both moves are optimal (the DP engines take ``L`` on ties, the reduction
follows its reduced row). Engines expect a row already validated (a
:class:`coinrow.numbers.Row`, made once where the row enters) and run inside
:func:`coinrow.numbers.exact_arithmetic`. What they cost is estimated in one place,
:mod:`coinrow.engines.costs` (re-exported here).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import UnknownEngineError
from ..numbers import Value
from .costs import (
    BRUTE_LEAF_SECONDS,
    FRACTION_COIN_SECONDS_PER_BYTE2,
    FRACTION_SUBGAME_SECONDS_PER_BYTE2,
    KERNEL_SUBGAME_SECONDS,
    MAX_SECONDS,
    PYTHON_SUBGAME_SECONDS,
    REDUCTION_BYTE_SECONDS,
    REDUCTION_COIN_SECONDS,
    SLOT_BYTES,
    bytes_per_cell,
    check_cost,
    duration_text,
    estimated_seconds,
    estimated_solve_seconds,
    seconds_limit,
    subgame_seconds,
)
from .dispatch import ENGINES

__all__ = [
    "BRUTE_LEAF_SECONDS",
    "ENGINES",
    "FRACTION_COIN_SECONDS_PER_BYTE2",
    "FRACTION_SUBGAME_SECONDS_PER_BYTE2",
    "KERNEL_SUBGAME_SECONDS",
    "MAX_SECONDS",
    "PYTHON_SUBGAME_SECONDS",
    "REDUCTION_BYTE_SECONDS",
    "REDUCTION_COIN_SECONDS",
    "SLOT_BYTES",
    "EngineResult",
    "bytes_per_cell",
    "check_cost",
    "duration_text",
    "estimated_seconds",
    "estimated_solve_seconds",
    "moves_from_margins",
    "run",
    "seconds_limit",
    "subgame_seconds",
]


class EngineResult(NamedTuple):
    """What an engine returns: the first player's margin, one optimal line of ``L``/``R``
    covering every coin, and the optimal first moves (``"L"``, ``"R"``, ``"LR"``; ``""`` for
    no coins)."""

    margin: Value
    line: str
    first_moves: str


def run(engine: str, coins: Sequence[Value]) -> EngineResult:
    """Solve a validated row with the named engine (complexity: the engine's).

    >>> run("table", [3, 2, 2, 3, 1, 2]).margin
    3
    """
    if engine not in ENGINES:
        raise UnknownEngineError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    module = importlib.import_module(f"{__name__}.{engine}")
    result: EngineResult = module.solve(coins)
    return result


def moves_from_margins(left: Value, right: Value) -> str:
    """``"L"``, ``"R"`` or ``"LR"`` from the mover's margin after each move (O(1)).

    >>> moves_from_margins(3, 3), moves_from_margins(1, 2)
    ('LR', 'R')
    """
    if left > right:
        return "L"
    if right > left:
        return "R"
    return "LR"
