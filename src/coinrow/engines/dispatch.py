"""Which rows run in the compiled kernels: int64 safety and length thresholds.

A row goes to a Numba kernel (:mod:`coinrow.engines.kernels`) only when the ``fast`` extra is
installed (NumPy and Numba), the engine has a kernel, the row is long enough for the kernel
to pay for loading it, and every intermediate value provably fits in int64
(:func:`int64_safe`, proof in ``docs/kernels.md``). Every other row stays on the exact
pure-Python path, with the same results.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from ..numbers import INT64_SAFE_LIMIT, Row, is_int_array

__all__ = [
    "ENGINES",
    "INT64_SAFE_LIMIT",
    "KERNEL_MIN_LENGTH",
    "compile_notice",
    "int64_safe",
    "kernel_row",
    "kernels_available",
]

#: Engine names, default first.
ENGINES: tuple[str, ...] = ("reduction", "table", "memo", "linear", "brute")

#: Shortest int row each engine sends to its compiled kernel. Below these, importing Numba
#: and loading the cached kernels (about 0.5 s, once per process) costs more than solving in
#: Python (the reduction: about 0.75 us per coin; the O(n^2) engines: 0.2 s at n = 1000).
KERNEL_MIN_LENGTH: dict[str, int] = {
    "reduction": 100_000,
    "table": 1_000,
    "linear": 1_000,
    "cooperative": 1_000,
}

#: Shortest pizza whose reductions run compiled (int64-safe int rows).
PIZZA_KERNEL_MIN_LENGTH = 200

#: Shortest row whose best reply to greedy runs compiled (int64-safe int rows).
REPLY_KERNEL_MIN_LENGTH = 64


def kernels_available() -> bool:
    """True when NumPy and Numba are installed (the ``fast`` extra), without importing them
    (O(1)).

    >>> isinstance(kernels_available(), bool)
    True
    """
    return all(importlib.util.find_spec(name) is not None for name in ("numpy", "numba"))


def int64_safe(coins: Any) -> bool:
    """True when the int row's absolute values sum to less than :data:`INT64_SAFE_LIMIT`,
    so every intermediate of every kernel fits in int64 (O(n), exact).

    A quick accept (``max|a| * n`` below the limit) needs only the minimum and maximum;
    otherwise the absolute values are summed exactly, stopping once the limit is reached.

    >>> int64_safe([2**61, -(2**61) + 1]), int64_safe([2**61, -(2**61)]), int64_safe([])
    (True, False, True)
    """
    if isinstance(coins, Row):
        return coins.int64_safe  # computed once per row
    n = len(coins)
    if n == 0:
        return True
    if is_int_array(coins):
        from .kernels import bounds

        lo, hi = bounds(coins) if coins.dtype.name == "int64" else (coins.min(), coins.max())
        lo, hi = int(lo), int(hi)
    else:
        lo, hi = min(coins), max(coins)
    largest = max(hi, -lo)
    if largest * n < INT64_SAFE_LIMIT:
        return True
    if largest >= INT64_SAFE_LIMIT:
        return False
    if not is_int_array(coins):
        return bool(sum(map(abs, coins)) < INT64_SAFE_LIMIT)
    import numpy as np

    chunk = INT64_SAFE_LIMIT // largest  # no chunk's sum of |a| can overflow int64
    total = 0
    for begin in range(0, n, chunk):
        total += int(np.abs(np.asarray(coins[begin : begin + chunk], dtype=np.int64)).sum())
        if total >= INT64_SAFE_LIMIT:
            return False
    return True


def kernel_row(items: object, min_length: int | None, checked: bool = True) -> Any:
    """The row as a C-contiguous, writable int64 NumPy array when it should run in a
    compiled kernel, else None (O(n); O(1) for a writable int64 array, which is not copied).

    That is when the kernels are available (:func:`kernels_available`), the engine has a
    kernel (``min_length`` is not None), the row has at least ``min_length`` coins, every
    coin is a plain int or the row is a 1-D NumPy integer array, and the row is
    :func:`int64_safe` (left to the caller when not ``checked``: the reduction checks it in a
    second thread). Everything else (short rows, huge ints, Decimal, Fraction, text) stays on
    the exact pure-Python path.

    >>> kernel_row([1, 2, 3], None), kernel_row([1, 2, 3], 10)
    (None, None)
    >>> kernel_row([2**62, 1], 1) is None
    True
    """
    if min_length is None or isinstance(items, str) or not hasattr(items, "__len__"):
        return None
    if getattr(items, "ndim", 1) != 1 or hasattr(items, "mask"):
        return None  # 0-d or n-d arrays and masked arrays: the exact path refuses them
    if len(items) < min_length or not kernels_available():
        return None
    if is_int_array(items):
        row = _int64_array(items)
    elif isinstance(items, Row) and items.kind != "int":
        return None  # a validated row knows its kind: no scan
    elif isinstance(items, Row) or (
        isinstance(items, list | tuple) and set(map(type, items)) <= {int}
    ):
        known = items.__dict__.get("int64_safe") if isinstance(items, Row) else None
        if checked and known is False:
            return None
        import numpy as np

        try:
            row = np.array(items, dtype=np.int64)
        except OverflowError:
            return None
        if checked and known is None:
            safe = int64_safe(row)  # one compiled scan of the array, not two in Python
            if isinstance(items, Row):
                items.__dict__["int64_safe"] = safe  # the row's own cached answer
            return row if safe else None
        return row
    else:
        return None
    return row if row is not None and (not checked or int64_safe(row)) else None


def _int64_array(array: Any) -> Any:
    """A 1-D integer array as a C-contiguous writable int64 array, or None when a value
    does not fit; int64 arrays that already qualify (memory maps included) are not copied."""
    import numpy as np

    if array.ndim != 1:
        return None
    wide_unsigned = array.dtype.kind == "u" and array.dtype.itemsize == 8 and array.size
    if wide_unsigned and int(array.max()) > np.iinfo(np.int64).max:
        return None
    row = np.asarray(array)  # a plain ndarray view of a memmap or other subclass
    if row.dtype != np.int64 or not row.flags.c_contiguous or not row.flags.writeable:
        row = np.array(row, dtype=np.int64, order="C")
    return row


def compile_notice(coins: Any, engine: str = "reduction") -> str | None:
    """The one line a shell shows before solving ``coins`` with ``engine`` when the solve
    will first compile the engine's kernels (a fresh install: seconds of silence
    otherwise); None when the row stays on the Python path or the kernels are in Numba's
    cache (O(1); imports Numba only for a row long enough to need it anyway). The library
    itself never prints it.

    >>> compile_notice([1, 2, 3]) is None
    True
    """
    min_length = KERNEL_MIN_LENGTH.get(engine)
    if min_length is None or not hasattr(coins, "__len__") or len(coins) < min_length:
        return None
    if isinstance(coins, str) or not kernels_available():
        return None
    if isinstance(coins, Row) and not coins.int64_safe:
        return None  # a Decimal, Fraction or huge-int row stays on the Python path
    from .kernels import COMPILE_SECONDS, cache_is_warm

    if cache_is_warm(engine):
        return None
    return f"compiling the solver kernels once, about {COMPILE_SECONDS[engine]:.0f} s"
