"""Solver engines. Each engine module exposes ``solve(coins) -> EngineResult``.

All engines give the same margin and the same set of optimal first moves; their optimal lines
may differ only where both moves are optimal (the DP engines take ``L`` on ties, the reduction
follows its reduced row). Engines expect a row already validated (a
:class:`coinrow.numbers.Row`, made once where the row enters) and run inside
:func:`coinrow.numbers.exact_arithmetic`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from ..errors import CostLimitError, InvalidOptionError, UnknownEngineError
from ..numbers import Value, sum_bits

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

#: Fractions cost more than their size: every sum takes a gcd of the denominators, quadratic
#: in their length. Measured seconds per subgame per byte squared of the largest number
#: (:func:`coinrow.numbers.sum_bits`; 0.7 ps per bit squared of the common denominator,
#: rows of 1/q for random q of 100 to 1,000 digits, n = 20 to 40), and for the reduction per
#: coin per byte of that number times bytes of a coin (5 to 10 ps per bit squared).
FRACTION_SUBGAME_SECONDS_PER_BYTE2: float = 13e-12
FRACTION_COIN_SECONDS_PER_BYTE2: float = 400e-12

#: Measured seconds per coin of the reduction (pure Python; compiled, from a list of ints),
#: per byte of the largest number on the exact path, and per leaf of the exhaustive search.
REDUCTION_COIN_SECONDS: tuple[float, float] = (0.4e-6, 0.1e-6)
REDUCTION_BYTE_SECONDS: float = 1.5e-9
BRUTE_LEAF_SECONDS: float = 0.4e-6

#: Measured seconds per subgame of the compiled kernels (int64 rows; the table's includes
#: mapping its 9 bytes a subgame of fresh memory).
KERNEL_SUBGAME_SECONDS: dict[str, float] = {"table": 3e-9, "linear": 0.35e-9}

#: Default limit of a library call's estimated time (``max_seconds=None`` lifts it): past
#: it, :func:`check_cost` refuses the work before it starts.
MAX_SECONDS: float = 60.0


def subgame_seconds(
    engine: str,
    compiled: bool = False,
    number: type = int,
    number_bytes: int = 0,
    coin_bytes: int = 0,
) -> float:
    """Estimated seconds per subgame of an O(n^2) engine (``table``, ``memo``, ``linear``),
    per coin of ``reduction``, per leaf of ``brute`` (O(1)). ``number`` is the row's family
    (``int``, ``Decimal``, ``Fraction``), ``number_bytes`` the size of the largest number
    a subgame holds (:func:`coinrow.numbers.sum_bits` / 8) and ``coin_bytes`` the size of
    the largest coin (for the reduction of Fractions).

    >>> subgame_seconds("memo") * 1e6, subgame_seconds("table", compiled=True) * 1e9
    (1.2, 3.0)
    """
    if engine not in ENGINES:
        raise UnknownEngineError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if engine == "reduction":
        if compiled:
            return REDUCTION_COIN_SECONDS[1]
        if number is Fraction:
            size = FRACTION_COIN_SECONDS_PER_BYTE2 * number_bytes * max(coin_bytes, 1)
        else:
            size = REDUCTION_BYTE_SECONDS * number_bytes
        return REDUCTION_COIN_SECONDS[0] + size
    if engine == "brute":
        return BRUTE_LEAF_SECONDS
    if compiled and engine in KERNEL_SUBGAME_SECONDS:
        return KERNEL_SUBGAME_SECONDS[engine]
    base, per_byte = PYTHON_SUBGAME_SECONDS[engine].get(number, PYTHON_SUBGAME_SECONDS[engine][int])
    seconds = base + per_byte * number_bytes
    if number is Fraction:
        seconds += FRACTION_SUBGAME_SECONDS_PER_BYTE2 * number_bytes**2
    return seconds


def estimated_seconds(
    engine: str,
    n: int,
    compiled: bool = False,
    number: type = int,
    number_bytes: int = 0,
    coin_bytes: int = 0,
) -> float:
    """Estimated seconds the engine takes on n coins (O(1)): subgames (or coins, or leaves)
    times :func:`subgame_seconds`. An estimate for a rough answer ("seconds or hours?"):
    the machine's load and the numbers themselves change it by a factor of two or so.

    >>> round(estimated_seconds("memo", 20_000))
    240
    >>> round(estimated_seconds("reduction", 10**6, compiled=True), 3)
    0.1
    """
    return float(
        _items(engine, n) * subgame_seconds(engine, compiled, number, number_bytes, coin_bytes)
    )


def _items(engine: str, n: int) -> int:
    if engine == "reduction":
        return n
    if engine == "brute":
        return int(2 ** min(n, 1000))
    return n * (n + 1) // 2


def seconds_limit(max_seconds: object) -> float | None:
    """``max_seconds`` checked: None or infinity (no limit, as None) or a number of seconds
    above 0; anything else (NaN, 0 or less, not a real number) raises
    :class:`~coinrow.errors.InvalidOptionError` naming ``max_seconds`` (O(1)).

    >>> seconds_limit(2), seconds_limit(float("inf"))
    (2.0, None)
    >>> seconds_limit(float("nan"))
    Traceback (most recent call last):
    ...
    coinrow.errors.InvalidOptionError: max_seconds must be a number of seconds above 0 or None, not nan
    """  # noqa: E501
    if max_seconds is None:
        return None
    if (
        isinstance(max_seconds, bool)
        or not isinstance(max_seconds, int | float | Fraction | Decimal)
        or not max_seconds > 0  # NaN too
    ):
        raise InvalidOptionError(
            f"max_seconds must be a number of seconds above 0 or None, not {max_seconds!r:.40}",
            parameter="max_seconds",
        )
    limit = float(max_seconds)
    return None if math.isinf(limit) else limit


def estimated_solve_seconds(
    coins: Sequence[Value], engine: str, items: int | None = None, limit: float | None = None
) -> float:
    """Estimated seconds of ``coinrow.solve(coins, engine)`` on a validated row (O(n)): the
    row's length, whether it runs in a compiled kernel, its number family and the size of
    its exact sums (:func:`coinrow.numbers.sum_bits`) go into :func:`estimated_seconds`.
    ``items`` replaces the engine's count of subgames (or coins) for other work of the same
    kind (n queries of the reduction: ``n * n``); with a ``limit``, a Fraction row's common
    denominator is computed only as far as needed to pass it.

    >>> round(estimated_solve_seconds([1, 2, 3] * 1000, "memo"), 1)
    5.9
    """
    from .dispatch import KERNEL_MIN_LENGTH, kernel_row
    from .table import bytes_per_cell

    limit = seconds_limit(limit)
    n = len(coins)
    if n == 0:
        return 0.0
    count = _items(engine, n) if items is None else items
    compiled = kernel_row(coins, KERNEL_MIN_LENGTH.get(engine)) is not None
    if compiled or hasattr(coins, "dtype"):
        return float(count * subgame_seconds(engine, compiled))
    number = type(coins[0])
    coin_bytes = 0
    if number is Fraction:
        coin_bytes = max(c.numerator.bit_length() + c.denominator.bit_length() for c in coins) // 8
    cap = None if limit is None else _bits_cap(engine, count, limit, coin_bytes) // 8
    number_bytes = bytes_per_cell(coins, cap)
    return float(count * subgame_seconds(engine, False, number, number_bytes, coin_bytes))


def _bits_cap(engine: str, count: int, limit: float, coin_bytes: int) -> int:
    """Bits of the sums past which a Fraction row's estimate is surely over ``limit``."""
    per_item = limit / max(count, 1)
    if engine == "reduction":
        size_bytes = per_item / (FRACTION_COIN_SECONDS_PER_BYTE2 * max(coin_bytes, 1))
    else:
        size_bytes = (per_item / FRACTION_SUBGAME_SECONDS_PER_BYTE2) ** 0.5
    return int(8 * size_bytes) + 64


def check_cost(
    coins: Sequence[Value],
    engine: str,
    *,
    max_seconds: float | None,
    what: str,
    items: int | None = None,
) -> float:
    """Refuse work estimated (:func:`estimated_solve_seconds`) to take over ``max_seconds``
    with a :class:`~coinrow.errors.CostLimitError` naming the limit; ``None`` checks nothing.
    Returns the estimate (O(n), and bounded work for Fractions: see
    :func:`coinrow.numbers.sum_bits`). ``what`` says what would be done ("solving 40
    coins").

    >>> from fractions import Fraction
    >>> check_cost([1, 2, 3], "table", max_seconds=1.0, what="a table") < 1
    True
    >>> check_cost([Fraction(1, 10**300 + k) for k in range(300)], "table", max_seconds=1.0,
    ...            what="a table of 300 coins")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coinrow.errors.CostLimitError: a table of 300 coins would take about ... of 1 second
    """
    max_seconds = seconds_limit(max_seconds)
    if max_seconds is None or len(coins) == 0:
        return 0.0
    seconds = estimated_solve_seconds(coins, engine, items, max_seconds)
    if seconds > max_seconds:
        number = type(coins[0]).__name__ if not hasattr(coins, "dtype") else "int"
        raise CostLimitError(
            f"{what} would take about {duration_text(seconds)} of exact arithmetic "
            f"({number} sums of this row need numbers of about "
            f"{sum_bits(coins, _bits_cap(engine, 1, max_seconds, 1)):,} bits), over the "
            f"limit of {duration_text(max_seconds)}",
            seconds,
            max_seconds,
        )
    return seconds


def duration_text(seconds: float) -> str:
    """A rough duration: ``"1 second"``, ``"40 seconds"``, ``"5 minutes"``, ``"3.2 hours"``.

    >>> duration_text(1), duration_text(42.4), duration_text(290), duration_text(10**7)
    ('1 second', '42 seconds', '5 minutes', '116 days')
    """
    if seconds < 90:
        text = f"{seconds:.2g}" if seconds < 1 else f"{seconds:.0f}"
        return f"{text} second{'' if text == '1' else 's'}"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:,.0f} days"
