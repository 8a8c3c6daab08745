"""Solver engines. Each engine module exposes ``solve(coins) -> EngineResult``.

All engines give the same margin and the same set of optimal first moves; their optimal lines
may differ only where both moves are optimal (the DP engines take ``L`` on ties, the reduction
follows its reduced row). Engines expect a row already validated by
:func:`coinrow.numbers.coerce_coins` and run inside :func:`coinrow.numbers.exact_arithmetic`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
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


#: Measured cost of one subgame on the exact pure-Python path, in seconds: a base by number
#: family (ints of up to 19 digits, Decimals of a few digits, Fractions of small
#: denominators), plus a cost per byte of the largest number a subgame holds (big ints, long
#: Decimals). Measured on a 2-core 2026 machine at n = 500..1500.
PYTHON_SUBGAME_SECONDS: dict[str, dict[type, tuple[float, float]]] = {
    "table": {int: (0.5e-6, 2.5e-9), Decimal: (0.9e-6, 1.3e-9), Fraction: (9e-6, 2.5e-9)},
    "memo": {int: (1.2e-6, 3e-9), Decimal: (1.7e-6, 0.9e-9), Fraction: (11e-6, 3e-9)},
    "linear": {int: (0.45e-6, 1.5e-9), Decimal: (0.65e-6, 0.4e-9), Fraction: (6e-6, 1.5e-9)},
}

#: Measured seconds per subgame of the compiled kernels (int64 rows; the table's includes
#: mapping its 9 bytes a subgame of fresh memory).
KERNEL_SUBGAME_SECONDS: dict[str, float] = {"table": 3e-9, "linear": 0.35e-9}

#: Measured seconds per coin of the reduction (pure Python; compiled, from a list of ints),
#: and per leaf of the exhaustive search.
REDUCTION_COIN_SECONDS: tuple[float, float] = (0.4e-6, 0.1e-6)
BRUTE_LEAF_SECONDS: float = 0.4e-6


def subgame_seconds(
    engine: str, compiled: bool = False, number: type = int, number_bytes: int = 0
) -> float:
    """Estimated seconds per subgame of an O(n^2) engine (``table``, ``memo``, ``linear``),
    per coin of ``reduction``, per leaf of ``brute`` (O(1)). ``number`` is the row's family
    (``int``, ``Decimal``, ``Fraction``) and ``number_bytes`` the size of the largest number
    a subgame holds (:func:`coinrow.engines.table.bytes_per_cell`).

    >>> subgame_seconds("memo") * 1e6, subgame_seconds("table", compiled=True) * 1e9
    (1.2, 3.0)
    """
    if engine not in ENGINES:
        raise UnknownEngineError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if engine == "reduction":
        return REDUCTION_COIN_SECONDS[compiled]
    if engine == "brute":
        return BRUTE_LEAF_SECONDS
    if compiled and engine in KERNEL_SUBGAME_SECONDS:
        return KERNEL_SUBGAME_SECONDS[engine]
    base, per_byte = PYTHON_SUBGAME_SECONDS[engine].get(number, PYTHON_SUBGAME_SECONDS[engine][int])
    return base + per_byte * number_bytes


def estimated_seconds(
    engine: str, n: int, compiled: bool = False, number: type = int, number_bytes: int = 0
) -> float:
    """Estimated seconds the engine takes on n coins (O(1)): subgames (or coins, or leaves)
    times :func:`subgame_seconds`. An estimate for a rough answer ("seconds or hours?"):
    the machine's load and the numbers themselves change it by a factor of two or so.

    >>> round(estimated_seconds("memo", 20_000))
    240
    >>> round(estimated_seconds("reduction", 10**6, compiled=True), 3)
    0.1
    """
    per_item = subgame_seconds(engine, compiled, number, number_bytes)
    if engine == "reduction":
        items = n
    elif engine == "brute":
        items = 2 ** min(n, 1000)
    else:
        items = n * (n + 1) // 2
    return float(items * per_item)


def estimated_solve_seconds(coins: Sequence[Value], engine: str) -> float:
    """Estimated seconds of ``coinrow.solve(coins, engine)`` on a validated row (O(n)): the
    row's length, whether it runs in a compiled kernel, its number family and the size of
    its numbers go into :func:`estimated_seconds`.

    >>> round(estimated_solve_seconds([1, 2, 3] * 1000, "memo"), 1)
    5.9
    """
    from .dispatch import KERNEL_MIN_LENGTH, kernel_row
    from .table import bytes_per_cell

    n = len(coins)
    if n == 0:
        return 0.0
    compiled = kernel_row(coins, KERNEL_MIN_LENGTH.get(engine)) is not None
    number = type(coins[0]) if not hasattr(coins, "dtype") else int
    size = 0 if compiled or hasattr(coins, "dtype") else bytes_per_cell(coins)
    return estimated_seconds(engine, n, compiled, number, size)
