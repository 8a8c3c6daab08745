"""Solver engines. Each engine module exposes ``solve(coins) -> EngineResult``.

All engines give the same margin and the same set of optimal first moves; their optimal lines
may differ only where both moves are optimal (the DP engines take ``L`` on ties, the reduction
follows its reduced row). Engines expect a row already validated by
:func:`coinrow.numbers.coerce_coins` and run inside :func:`coinrow.numbers.exact_arithmetic`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import UnknownEngineError
from ..numbers import Value

#: Engine names, default first.
ENGINES: tuple[str, ...] = ("reduction", "table", "memo", "linear", "brute")


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
