"""Compiled (Numba) kernels for int64-safe rows. See ``docs/kernels.md``.

Importing this module imports Numba, so it is imported only on the large-row paths
(:func:`coinrow.engines.dispatch.kernel_row` decides). Every kernel takes one C-contiguous, writable
``int64`` array, so each is compiled once (``cache=True`` keeps the machine code in the
package's ``__pycache__`` for later processes). The row must be int64-safe (the sum of
absolute values below :data:`coinrow.engines.dispatch.INT64_SAFE_LIMIT` = 2**62), which bounds every
intermediate; the reduction checks it itself, the other callers beforehand.

The line is an array of ASCII codes ``b"L"``/``b"R"`` (one byte per move, turned into a str
with ``str(line.data, "ascii")`` only when asked); table moves are :data:`MOVE_L`,
:data:`MOVE_R` and :data:`MOVE_LR` codes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numba_cache import use_writable_cache

use_writable_cache()  # before Numba is imported: a read-only install still caches
from numba import njit  # noqa: E402

#: ASCII codes of the moves in a kernel line.
LEFT, RIGHT = ord("L"), ord("R")

#: Move codes of the table: bit 0 "taking the left coin is optimal", bit 1 "the right one".
MOVE_L, MOVE_R, MOVE_LR = 1, 2, 3

Array = Any  # numpy.ndarray; Any keeps the kernels' signatures readable for mypy


@njit(cache=True, nogil=True)
def bounds(coins: Array) -> tuple[int, int]:
    """Minimum and maximum of a non-empty row in one pass (for the int64 safety check)."""
    lo, hi = coins[0], coins[0]
    for index in range(coins.shape[0]):
        lo = min(lo, coins[index])
        hi = max(hi, coins[index])
    return lo, hi


@njit(cache=True, nogil=True)
def _valley_margin(values: Array, first: int, stop: int) -> int:
    """Greedy play on the valley ``values[first:stop]`` (larger end, left on ties)."""
    lo, hi, total, sign = first, stop - 1, 0, 1
    while lo <= hi:
        if values[lo] >= values[hi]:
            total += sign * values[lo]
            lo += 1
        else:
            total += sign * values[hi]
            hi -= 1
        sign = -sign
    return total


@njit(cache=True, nogil=True)
def _push(
    coins: Array, stop: int, values: Array, starts: Array, groups: bool, state: Array
) -> None:
    """Push ``coins[state[3]:stop]`` onto the stack, merging every peak as it forms.

    ``state`` is (size, top, second, next index): the two top entries live in registers and
    the merge test is a single branch. Slots 0 and 1 are padding and ``size >= 4`` guards
    every merge, so reads never leave the array whatever the data. Merging three groups
    keeps the first group's start, so no counts need updating.
    """
    size, top, second = state[0], state[1], state[2]
    for index in range(state[3], stop):
        coin, group_start = coins[index], index
        while (size >= 4) & (top >= second) & (top >= coin):
            coin = second - top + coin
            size -= 2
            if groups:
                group_start = starts[np.uint64(size)]
            top = values[np.uint64(size - 1)]
            second = values[np.uint64(size - 2)]
        values[np.uint64(size)] = coin
        if groups:
            starts[np.uint64(size)] = group_start
        size += 1
        second, top = top, coin
    state[0], state[1], state[2], state[3] = size, top, second, stop


@njit(cache=True, nogil=True)
def _scan(coins: Array, values: Array, starts: Array, groups: bool) -> tuple[int, int]:
    """Peak-reduce ``coins`` onto the stack ``values[2:size]``, group starts in
    ``starts`` when ``groups``. Returns the stack's end and the margin of ``coins[:-1]``:
    the scan is online, so that is the stack just before the last coin is pushed.
    """
    n = coins.shape[0]
    if n == 0:
        return 2, 0
    state = np.zeros(4, np.int64)
    state[0] = 2
    _push(coins, n - 1, values, starts, groups, state)
    before_last = _valley_margin(values, 2, state[0])
    _push(coins, n, values, starts, groups, state)
    return state[0], before_last


@njit(cache=True, nogil=True)
def _expand(values: Array, starts: Array, size: int, n: int, line: Array) -> None:
    """Greedy play on the valley ``values[2:size]``, each entry expanded into its group."""
    lo, hi, position = 2, size - 1, 0
    while lo <= hi:
        if values[lo] >= values[hi]:
            entry, code = lo, LEFT
            lo += 1
        else:
            entry, code = hi, RIGHT
            hi -= 1
        end = starts[entry + 1] if entry + 1 < size else n
        line[position : position + end - starts[entry]] = code
        position += end - starts[entry]


@njit(cache=True, nogil=True)
def reduction_line(coins: Array, starts: Array) -> tuple[int, Array, int]:
    """Margin, line (ASCII codes) and the margin of taking the right coin first (n >= 1).

    O(n) time; memory: a stack of n + 2 int64 values and ``starts`` (n + 2 entries, int32
    when n < 2**31 - 2), touched only as deep as the stack grows (a few dozen entries on
    random rows, n on a sorted row), and the n-byte line.
    """
    n = coins.shape[0]
    values = np.empty(n + 2, np.int64)
    size, before_last = _scan(coins, values, starts, True)
    line = np.empty(n, np.uint8)
    _expand(values, starts, size, n, line)
    return _valley_margin(values, 2, size), line, coins[n - 1] - before_last


@njit(cache=True, nogil=True)
def reduction_left(coins: Array) -> tuple[int, int, int]:
    """The margin of taking the left coin first (one reduction of ``coins[1:]`` without
    groups), and the row's minimum and maximum for the int64 safety check; run in a second
    thread while :func:`reduction_line` builds the line. n >= 1; O(n) time, one stack."""
    lo, hi = bounds(coins)
    values = np.empty(coins.shape[0] + 1, np.int64)
    size, _ = _scan(coins[1:], values, np.empty(0, np.int32), False)
    return coins[0] - _valley_margin(values, 2, size), lo, hi


@njit(cache=True, nogil=True)
def fill_table(coins: Array, values: Array, moves: Array) -> None:
    """Every subgame's value V(i, i+w) at ``values[offset(w) + i]`` and its move code.

    Diagonal-major: diagonal w (n - w cells) starts at offset w*n - w*(w-1)/2, so each
    diagonal reads the previous one contiguously. The loop body is branch-free (a min and
    two comparisons packed into the code), which lets LLVM vectorise it. O(n^2).
    """
    n = coins.shape[0]
    prefix = np.empty(n + 1, np.int64)
    prefix[0] = 0
    for i in range(n):
        prefix[i + 1] = prefix[i] + coins[i]
        values[i] = coins[i]
        moves[i] = MOVE_LR
    previous, current = 0, n
    for width in range(1, n):
        cells = n - width
        after_right = values[previous : previous + cells]
        after_left = values[previous + 1 : previous + 1 + cells]
        out = values[current : current + cells]
        codes = moves[current : current + cells]
        totals_hi = prefix[width + 1 : width + 1 + cells]
        for i in range(cells):
            left, right = after_left[i], after_right[i]
            out[i] = totals_hi[i] - prefix[i] - min(left, right)
            codes[i] = np.uint8(left <= right) | (np.uint8(left >= right) << 1)
        previous, current = current, current + cells


@njit(cache=True, nogil=True)
def linear(coins: Array) -> tuple[int, int]:
    """Margins after taking the left and the right coin (n >= 2); O(n^2) time, O(n) memory.

    D(i, i+w) = max(a_i - D(i+1, i+w), a_{i+w} - D(i, i+w-1)) is updated in place with i
    ascending: D[i] is read before it is overwritten and D[i + 1] still holds width w - 1.
    """
    n = coins.shape[0]
    margins = coins.copy()
    for width in range(1, n - 1):
        for i in range(n - width):
            margins[i] = max(coins[i] - margins[i + 1], coins[i + width] - margins[i])
    return coins[0] - margins[1], coins[n - 1] - margins[0]


@njit(cache=True, nogil=True)
def cooperative(coins: Array) -> int:
    """The cooperative total (:func:`coinrow.strategies.cooperative_total`), swept in place."""
    n = coins.shape[0]
    best = np.zeros(n + 1, np.int64)
    for width in range(1, n + 1):
        if (n - width) % 2 == 0:
            for i in range(n - width + 1):
                best[i] = max(coins[i] + best[i + 1], coins[i + width - 1] + best[i])
        else:
            for i in range(n - width + 1):
                best[i] = max(best[i + 1], best[i])
    result: int = best[0]
    return result


#: ``madvise`` advice that maps pages writable without changing them (Linux 5.14+).
_MADV_POPULATE_WRITE = 23
_PREFAULT_CELLS = 1 << 20  # cells per madvise call


def _prefault(values: Array, codes: Array) -> None:
    """Map the pages of both arrays, chunk by chunk from the start, ahead of the fill.

    On this kind of machine the first touch of fresh memory costs about as much as the fill
    itself; done here in a second thread (ctypes releases the GIL) it overlaps the fill.
    The contents are not changed, so racing the fill is harmless; where the advice is not
    supported the kernel simply takes the page faults itself.
    """
    import ctypes

    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    page = 4096
    for begin in range(0, values.shape[0], _PREFAULT_CELLS):
        for array, width in ((values, 8), (codes, 1)):
            start = array.ctypes.data + begin * width
            aligned = start // page * page
            stop = array.ctypes.data + min(begin + _PREFAULT_CELLS, array.shape[0]) * width
            if madvise(aligned, stop - aligned, _MADV_POPULATE_WRITE) != 0:
                return


def table_arrays(coins: Array) -> tuple[Array, Array]:
    """Allocate and fill the diagonal-major value and move-code arrays of a row (O(n^2)).

    Large tables map their fresh pages in a second thread while :func:`fill_table` runs.
    """
    import threading

    n = coins.shape[0]
    cells = n * (n + 1) // 2
    values = np.empty(cells, np.int64)
    codes = np.empty(cells, np.uint8)
    helper = threading.Thread(target=_prefault, args=(values, codes), daemon=True)
    threaded = cells >= 4 * _PREFAULT_CELLS
    if threaded:
        helper.start()
    fill_table(coins, values, codes)
    if threaded:
        helper.join()
    return values, codes
