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


@njit(cache=True, nogil=True, inline="always")
def _push_entry(
    values: Array,
    starts: Array,
    floor: int,
    size: int,
    top: int,
    second: int,
    entry: int,
    entry_start: int,
    groups: bool,
) -> tuple[int, int, int]:
    """Push one entry onto the stack ``values[floor + 2:size]``, merging every peak it forms;
    returns the new (size, top, second).

    The two top entries live in registers and the merge test is a single branch. The two
    slots below ``floor + 2`` are padding and ``size >= floor + 4`` guards every merge, so
    reads never leave the stack's region whatever the data. Merging three groups keeps the
    first group's start, so no counts need updating.
    """
    while (size >= floor + 4) & (top >= second) & (top >= entry):
        entry = second - top + entry
        size -= 2
        if groups:
            entry_start = starts[np.uint64(size)]
        top = values[np.uint64(size - 1)]
        second = values[np.uint64(size - 2)]
    values[np.uint64(size)] = entry
    if groups:
        starts[np.uint64(size)] = entry_start
    return size + 1, entry, top


#: Coins folded at a time: a span (a chunk is 4 blocks, a chunk file on Dask many) is folded
#: block by block onto one stack, so the fold arrays stay this long, in the core's cache, and
#: each thread's task maps few fresh pages (65,536 cost 0.2 ms a task, 16,384 about half).
FOLD_BLOCK = 1 << 14
#: Fold passes over a block stop when fewer entries than this are left (the stack is then
#: cheaper than another pass) or when a pass keeps more than 3/4 of its entries.
FOLD_MIN_ENTRIES = 64
#: At most this many fold passes over a block (random rows keep about 37% of the entries a pass).
FOLD_MAX_PASSES = 8
#: After a block whose first fold pass kept more than 3/4 of its coins (a sorted or constant
#: stretch: the pass costs more than it saves), this many blocks are pushed without folding
#: before folding is tried again.
FOLD_SKIP_BLOCKS = 7


@njit(cache=True, nogil=True)
def _fold_peaks(
    coins: Array,
    sums_in: Array,
    starts_in: Array,
    direct: bool,
    lo: int,
    hi: int,
    sums: Array,
    starts: Array,
) -> int:
    """One pass folding every peak x < y >= z of the entries lo .. hi - 1 (hi - lo >= 3) into
    x - y + z; returns the number of entries written.

    The entries read are ``coins[j]`` with group start j (``direct``), or else
    ``sums_in[j + 1] - sums_in[j]`` with start ``starts_in[j]``. Entry k written is
    ``sums[k + 1] - sums[k]`` with start ``starts[k]`` (and ``starts[count]`` is where the
    last group ends). Peaks are never adjacent (the left test is strict), and a run
    x0 y1 x1 y2 x2 ... of peaks folds into one alternating sum, each fold a valid peak merge
    (x0 - y1 + x1 <= x1 <= y2). The pass is branch-free: each entry adds its signed value to
    a running sum and writes the running sum and the next start at the slot after the
    current entry's, overwritten until a new entry begins, so the stack that follows sees
    about a third of the entries and the branch per push is paid that much less often.
    """
    count = 0
    total = 0
    sums[0] = 0
    if direct:
        left, middle = coins[lo], coins[lo + 1]
        starts[0] = lo
    else:
        left = sums_in[lo + 1] - sums_in[lo]
        middle = sums_in[lo + 2] - sums_in[lo + 1]
        starts[0] = starts_in[lo]
    total += left  # entry lo begins the first group and is never a peak
    sums[1] = total
    starts[1] = lo + 1 if direct else starts_in[lo + 1]
    last_peak = 0
    for index in range(lo + 1, hi - 1):
        if direct:
            right = coins[np.uint64(index + 1)]
        else:
            right = sums_in[np.uint64(index + 2)] - sums_in[np.uint64(index + 1)]
        peak = int(left < middle) & int(middle >= right)
        count += 1 - (peak | last_peak)
        total += middle * (1 - 2 * peak)  # a product, not a select: LLVM makes selects jumps
        sums[np.uint64(count + 1)] = total
        starts[np.uint64(count + 1)] = index + 1 if direct else starts_in[np.uint64(index + 1)]
        last_peak = peak
        left, middle = middle, right
    count += 1 - last_peak  # entry hi - 1 is never a peak
    total += middle
    sums[np.uint64(count + 1)] = total
    starts[np.uint64(count + 1)] = hi if direct else starts_in[np.uint64(hi)]
    return count + 1


@njit(cache=True, nogil=True, inline="always")
def _reduce_span(
    coins: Array,
    lo: int,
    hi: int,
    work: Array,
    work_starts: Array,
    sums: Array,
    sum_starts: Array,
    spare: Array,
    spare_starts: Array,
    groups: bool,
    skip: int,
) -> tuple[int, int, int, int]:
    """Peak-reduce ``coins[lo:hi]`` onto the stack ``work[2:size]`` (group starts in
    ``work_starts`` when ``groups``); returns (size, minimum, maximum, skip), the minimum
    and maximum of the coins (coin 0 for an empty span). ``work`` and ``work_starts`` hold
    hi - lo + 2 entries, the four fold arrays min(hi - lo, :data:`FOLD_BLOCK`) + 2.

    Block by block, fold passes (:func:`_fold_peaks`) shrink the coins first and the stack
    merges what they leave. ``skip`` blocks (carried from span to span) are pushed without
    folds; a block whose first pass keeps more than 3/4 of its coins sets it to
    :data:`FOLD_SKIP_BLOCKS`. The stack comes out the same as pushing every coin would give
    (tested on every row of up to 10 coins over {0, 1, 2} and on random rows), and the
    folds are peak merges, so ``docs/theory.md`` (Theorem 6.5) covers them. O(hi - lo).
    """
    size, top, second = 2, 0, 0
    low = high = coins[lo] if hi > lo else coins[0]
    for block in range(lo, hi, FOLD_BLOCK):
        stop = min(hi, block + FOLD_BLOCK)
        fold = stop - block >= 3 and skip == 0
        count, in_spare = stop - block, True  # in_spare: the entries are in spare, not sums
        for fold_pass in range(FOLD_MAX_PASSES if fold else 0):
            first = fold_pass == 0  # the first pass reads the coins and writes sums
            if not first and count < FOLD_MIN_ENTRIES:
                break
            begin, end = (block, stop) if first else (0, count)
            if in_spare:  # two call sites, not swapped arrays: swaps cost compile time
                kept = _fold_peaks(coins, spare, spare_starts, first, begin, end, sums, sum_starts)
            else:
                kept = _fold_peaks(coins, sums, sum_starts, first, begin, end, spare, spare_starts)
            in_spare = not in_spare
            little = 4 * kept > 3 * count
            count = kept
            if little:
                if first:  # the pass cost this block more than it saved: skip a few
                    skip = FOLD_SKIP_BLOCKS
                break
        if not fold:
            skip = max(skip - 1, 0)
        block_low, block_high = bounds(coins[block:stop])  # after the fold: from the cache
        low, high = min(low, block_low), max(high, block_high)
        for slot in range(count):  # one push site: each inlined copy costs compile time
            if not fold:
                entry, entry_start = coins[np.uint64(block + slot)], block + slot
            elif in_spare:
                entry = spare[np.uint64(slot + 1)] - spare[np.uint64(slot)]
                entry_start = spare_starts[np.uint64(slot)]
            else:
                entry = sums[np.uint64(slot + 1)] - sums[np.uint64(slot)]
                entry_start = sum_starts[np.uint64(slot)]
            size, top, second = _push_entry(
                work, work_starts, 0, size, top, second, entry, entry_start, groups
            )
    return size, low, high, skip


@njit(cache=True, nogil=True)
def reduce_chunks(
    coins: Array, cuts: Array, values: Array, starts: Array, stack: Array, first: int, stop: int
) -> None:
    """Peak-reduce the chunks ``coins[cuts[k, 0]:cuts[k, 1]]`` for k = first .. stop - 1, each
    on its own, and pack their stacks one after another from ``values[cuts[first, 2] + 2]``,
    the group start (an index into ``coins``) of each entry at the same place in ``starts``;
    ``stack[k]`` receives (begin, end, minimum, maximum) of chunk k's entries (the minimum
    and maximum for the int64 safety check; coin 0 for an empty chunk).

    Each chunk is reduced in small work arrays of this call (as long as the longest chunk,
    :func:`_reduce_span`) and only its reduced stack is copied out, so the shared arrays are
    touched only as far as the packed stacks reach (a few dozen entries a chunk on random
    rows): fresh pages of n-long arrays would cost more than the scan. Calls with disjoint
    chunk ranges, whose regions ``cuts[k, 2] ..`` do not overlap, run in parallel threads.
    O(coins in the chunks).
    """
    longest = 0
    for chunk in range(first, stop):
        longest = max(longest, cuts[chunk, 1] - cuts[chunk, 0])
    work = np.empty(longest + 2, np.int64)
    work_starts = np.empty(longest + 2, starts.dtype)
    block = min(longest, FOLD_BLOCK) + 2
    sums, spare = np.empty(block, np.int64), np.empty(block, np.int64)
    sum_starts, spare_starts = np.empty(block, starts.dtype), np.empty(block, starts.dtype)
    position = cuts[first, 2] + 2
    skip = 0
    for chunk in range(first, stop):
        size, low, high, skip = _reduce_span(
            coins,
            cuts[chunk, 0],
            cuts[chunk, 1],
            work,
            work_starts,
            sums,
            sum_starts,
            spare,
            spare_starts,
            True,
            skip,
        )
        count = size - 2
        for slot in range(count):  # a loop: a slice assignment compiles a shape error's text
            values[position + slot] = work[2 + slot]
            starts[position + slot] = work_starts[2 + slot]
        stack[chunk, 0], stack[chunk, 1] = position, position + count
        stack[chunk, 2], stack[chunk, 3] = low, high
        position += count


@njit(cache=True, nogil=True)
def combine_stacks(
    values: Array,
    starts: Array,
    begins: Array,
    ends: Array,
    out_values: Array,
    out_starts: Array,
    groups: bool,
) -> tuple[int, int, int]:
    """Reduce the concatenation of the chunk stacks ``values[begins[k]:ends[k]]``, in the
    order given, onto ``out_values[2:size]`` (group starts in ``out_starts`` when
    ``groups``). Returns the stack's end, the margin of all the stacks and the margin of all
    but the last (the scan is online: that is the stack before the last one is pushed).

    The output may be the input arrays themselves when each stack begins at least 2 slots
    past the number of entries before it: an entry is read before it can be overwritten,
    since the output stack never holds more entries than have been read. O(total stack
    entries).
    """
    size, top, second, before_last = 2, 0, 0, 0
    size += 0  # int64, not the literal 2: one compiled _valley_margin, not two
    for chunk in range(begins.shape[0]):
        if chunk == begins.shape[0] - 1:
            before_last = _valley_margin(out_values, 2, size)
        for slot in range(begins[chunk], ends[chunk]):
            entry = values[np.uint64(slot)]
            entry_start = starts[np.uint64(slot)] if groups else 0
            size, top, second = _push_entry(
                out_values, out_starts, 0, size, top, second, entry, entry_start, groups
            )
    return size, _valley_margin(out_values, 2, size), before_last


@njit(cache=True, nogil=True)
def fill_line(
    values: Array, starts: Array, size: int, n: int, line: Array, base: int, lo: int, hi: int
) -> None:
    """Write moves ``lo .. hi - 1`` of the line into ``line[lo - base:hi - base]``: greedy
    play on the valley ``values[2:size]`` (group starts in ``starts``), each entry expanded
    into its group's coins. Threads fill disjoint ranges of one line, or machines their own
    part of it. O(size + hi - lo).
    """
    left, right, position = 2, size - 1, 0
    while left <= right and position < hi:
        if values[left] >= values[right]:
            entry, code = left, LEFT
            left += 1
        else:
            entry, code = right, RIGHT
            right -= 1
        end = starts[entry + 1] if entry + 1 < size else n
        stop = position + end - starts[entry]
        if stop > lo:
            line[max(position, lo) - base : min(stop, hi) - base] = code
        position = stop


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


@njit(cache=True, nogil=True)
def reduce_whole(coins: Array) -> tuple[int, Array, int, int, int, int]:
    """The reduction of a row of one chunk and its last coin (cuts ``[0, n - 1, n]``, n >= 2)
    in one call, for short rows where threads and the chunk tables cost more than the scan:
    margin, line codes, the margins after taking the left and the right coin, and the row's
    minimum and maximum. O(n) time, work arrays of n + 2 entries.
    """
    n = coins.shape[0]
    values = np.empty(n + 2, np.int64)
    starts = np.empty(n + 2, np.int32)
    block = min(n, FOLD_BLOCK) + 2
    sums, spare = np.empty(block, np.int64), np.empty(block, np.int64)
    sum_starts, spare_starts = np.empty(block, np.int32), np.empty(block, np.int32)
    size, low, high, _ = _reduce_span(
        coins, 0, n - 1, values, starts, sums, sum_starts, spare, spare_starts, True, 0
    )
    low, high = min(low, coins[n - 1]), max(high, coins[n - 1])
    before_last = _valley_margin(values, 2, size)
    size, _, _ = _push_entry(
        values, starts, 0, size, values[size - 1], values[size - 2], coins[n - 1], n - 1, True
    )
    line = np.empty(n, np.uint8)
    fill_line(values, starts, size, n, line, 0, 0, n)
    best = _valley_margin(values, 2, size)
    size, _, _, _ = _reduce_span(  # no groups: the margin after taking the left coin
        coins, 1, n, values, starts, sums, sum_starts, spare, spare_starts, False, 0
    )
    rest = _valley_margin(values, 2, size)
    return best, line, coins[0] - rest, coins[n - 1] - before_last, low, high


#: The kernels each engine runs, for :func:`cache_is_warm`.
ENGINE_KERNELS: dict[str, tuple[Any, ...]] = {
    # Rows long enough for the kernels (dispatch.KERNEL_MIN_LENGTH) have several chunks;
    # reduce_whole serves only shorter int64 arrays given to solve_int64 directly.
    "reduction": (reduce_chunks, combine_stacks, fill_line),
    "table": (fill_table,),
    "linear": (linear,),
    "cooperative": (cooperative,),
}

#: Seconds a cold compile of each engine's kernels takes (2-core machine, idle; see
#: ``docs/kernels.md``), for the notice a shell shows before it.
COMPILE_SECONDS: dict[str, float] = {
    "reduction": 3.0,
    "table": 1.0,
    "linear": 1.0,
    "cooperative": 1.0,
}


def cache_is_warm(engine: str) -> bool:
    """True when every kernel of ``engine`` is compiled in this process or found in Numba's
    on-disk cache for the current source and this CPU, so no compile wait is ahead; False
    when one would compile (or the cache cannot be read) (O(kernels), reads the cache
    indexes only).

    >>> cache_is_warm("reduction") in (True, False)
    True
    """
    for kernel in ENGINE_KERNELS[engine]:
        if kernel.signatures:
            continue
        try:  # Numba's cache index: {(signature, target magic tuple, code hash): file}
            index = kernel._cache._cache_file._load_index()
            magic = kernel.targetctx.codegen().magic_tuple()
        except Exception:
            return False
        if not any(key[1] == magic for key in index):
            return False
    return True
