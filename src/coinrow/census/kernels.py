"""Compiled (Numba) census kernels: every row of a shard, depth first, sharing prefixes.

Importing this module imports NumPy and Numba; only shard runs (:mod:`coinrow.census.shards`)
do. Every kernel is ``@njit(cache=True, nogil=True)``. See ``docs/census.md`` for the
algorithms and their proofs; in short:

*Stack scans* (no strategy). The peak reduction is an online left-to-right stack scan, so a
depth-first walk over the rows pushes one coin per tree node and undoes it on the way back.
A push only ever writes one stack slot (merges pop entries without touching them and write
the merged entry at the final top), so the undo is O(1): the slot's old contents and the old
size. Each slot also keeps two numbers of the stack up to it: ``Q``, the alternating sum of
the entries, and ``M``, the stack's margin (greedy play on the valley). With those, the
margin after a push is O(r) instead of a greedy pass: the entries larger than the new top
``z`` are the first ``r`` entries of the valley (its strictly decreasing part), so in the
descending order of the entries ``z`` comes right after them and every later entry changes
sign: ``D = (Q[r] - M) + (Q[r] +- z)``. A leaf costs the merges of its last coin and that
short scan.

*Column scans* (strategies). Appending coin ``j`` fills column ``j`` of every subgame table:
the margin ``D(i, j)``, what the strategy gets from ``i..j`` when it moves (``S``) and when
the optimal opponent moves and picks, among its optimal moves, the one worst for the
strategy (``O``), plus what the strategies need (cooperative totals ``F``/``G``, depth-limited
margins for ``lookahead``). A column depends only on earlier columns, so siblings share them:
O(n) per row of n coins, no undo. Each strategy's rule is fused into its totals loop.

The three walks (:func:`scan_words`, :func:`scan_compositions`, :func:`scan_rows`) differ
only in the order they visit rows; they share one push, one undo and one row finish
(:func:`_push_coin`, :func:`_pop_coin`, :func:`_finish_row`), inlined by Numba
(``inline="always"``) so no call or reference count stands between them and the work.

All values stay within int64 when the sum of the absolute coin values of every row is below
2**62 (every intermediate is bounded by that sum, or by twice it; see ``docs/census.md``).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from ..numba_cache import use_writable_cache

use_writable_cache()  # before Numba is imported: a read-only install still caches
from numba import njit  # noqa: E402
from numba.core import types  # noqa: E402
from numba.extending import intrinsic  # noqa: E402
from numba.np.arrayobj import make_array, populate_array  # noqa: E402

from .compiled import (  # noqa: E402
    COOPERATIVE,
    GREEDY,
    LOOKAHEAD,
    OPTIMAL_LEFT,
    OPTIMAL_RIGHT,
    THIBAULT,
    THIBAULT3,
)

Array = Any  # numpy.ndarray

#: Above every int64-safe value: the two padding slots below the stack.
SENTINEL = np.int64(2**63 - 1)

#: ``counts`` slots: rows, rows where taking the right coin is optimal, and (only when the
#: left move is computed directly) rows where only L / only R / both are optimal.
ROWS, RIGHT_OPTIMAL, LEFT_ONLY, RIGHT_ONLY, BOTH = range(5)
COUNTS = 5

#: First-move codes in per-row output.
MOVE_L, MOVE_R, MOVE_LR = 1, 2, 3

#: Per-strategy statistics: optimal rows, regret sum (low 32 bits and the rest), worst regret,
#: counterexamples recorded.
OPTIMAL, REGRET_LO, REGRET_HI, WORST, FOUND = range(5)
STRATEGY_STATS = 5

#: Fixed tables of a column scan: margins, cooperative F and G, the optimal moves; lookahead
#: tables and the strategies' totals follow.
TABLE_D, TABLE_F, TABLE_G, TABLE_OPTIMAL, FIXED_TABLES = range(5)

#: ``flags`` slots: the walk's settings.
FLAG_COLUMNS, FLAG_DIRECT_LEFT, FLAG_DENSE, FLAG_OFFSET, FLAG_ROWS, FLAG_LOOKAHEAD = range(6)
FLAG_COOPERATIVE, FLAGS = 6, 7

_LOW = np.int64(0xFFFFFFFF)

#: A walk's work arrays, in the order every walk takes them after ``flags``: the coins with
#: their alternating and plain prefix sums (``row``), the stack scans (the row's, then the
#: row's without its first coin) with their sizes per depth and undo slots, the column
#: tables, the strategy slots (code and parameter rows) and requested strategies (first slot
#: and parity flag rows), and the outputs.
Work = namedtuple(
    "Work",
    "row stack sizes undo tables slots chosen stats examples counts hist margins "
    "out_margin out_moves out_offsets out_values",
)

#: A walk's settings, read once from ``flags``.
Settings = namedtuple(
    "Settings", "columns direct_left dense offset rows_mode lookahead cooperative left_known"
)


# --- borrowed arrays ----------------------------------------------------------------------


def _borrowed(typingctx: Any, array: Any) -> Any:
    """The same array without its reference count (no meminfo): Numba counts references to
    every array a function receives, with atomic operations that cost more than the work of
    a short column. The walks borrow their arguments, which outlive them, once."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        source = make_array(array)(context, builder, value=args[0])  # type: ignore[no-untyped-call]
        view = make_array(array)(context, builder)  # type: ignore[no-untyped-call]
        populate_array(  # type: ignore[no-untyped-call]
            view,
            data=source.data,
            shape=source.shape,
            strides=source.strides,
            itemsize=source.itemsize,
            meminfo=None,
        )
        return view._getvalue()

    return array(array), codegen


_borrow: Any = intrinsic(_borrowed)


@njit(cache=True, nogil=True, inline="always")
def _open(flags: Array, work: Any) -> tuple[Any, Any]:
    """The walk's settings and its work arrays, borrowed."""
    columns, direct_left = flags[FLAG_COLUMNS] != 0, flags[FLAG_DIRECT_LEFT] != 0
    settings = Settings(
        columns,
        direct_left,
        flags[FLAG_DENSE] != 0,
        flags[FLAG_OFFSET],
        flags[FLAG_ROWS] != 0,
        flags[FLAG_LOOKAHEAD],
        flags[FLAG_COOPERATIVE] != 0,
        columns or direct_left,
    )
    w = Work(
        _borrow(work[0]),
        _borrow(work[1]),
        _borrow(work[2]),
        _borrow(work[3]),
        _borrow(work[4]),
        _borrow(work[5]),
        _borrow(work[6]),
        _borrow(work[7]),
        _borrow(work[8]),
        _borrow(work[9]),
        _borrow(work[10]),
        _borrow(work[11]),
        _borrow(work[12]),
        _borrow(work[13]),
        _borrow(work[14]),
        _borrow(work[15]),
    )
    return settings, w


def work_arrays(n: int, columns: bool, tables: int) -> tuple[Array, Array, Array, Array, Array]:
    """Scratch arrays of a walk over rows of up to ``n`` coins: row, stack, sizes, undo and
    tables (a 1x1x1 placeholder for stack scans)."""
    stack = np.zeros((6, n + 3), np.int64)
    stack[0, 0] = stack[3, 0] = SENTINEL
    stack[0, 1] = stack[3, 1] = SENTINEL - 1
    return (
        np.zeros((3, n + 1), np.int64),
        stack,
        np.full((2, n + 1), 2, np.int64),
        np.zeros(6 * (n + 1), np.int64),
        np.zeros((tables, n, n) if columns else (1, 1, 1), np.int64),
    )


# --- stack scans ------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _margin_after(vals: Array, q: Array, m: Array, s: int, z: int) -> int:
    """Margin of the stack ``vals[2:s]`` + ``[z]`` (``vals[s] == z`` already written, which
    stops the scan). The entries larger than z form a prefix of the valley (its strictly
    decreasing part): in descending order z comes right after them and every later entry
    changes sign."""
    i = 2
    while vals[i] > z:
        i += 1
    signed = z if (i & 1) == 0 else -z
    margin: int = (q[i - 1] - m[s - 1]) + (q[i - 1] + signed)
    return margin


@njit(cache=True, nogil=True)
def _settle(vals: Array, s: int, z: int) -> tuple[int, int]:
    """Merge the pushed coin ``z`` with every peak it completes; returns the slot it goes to
    and its merged value. The sentinels in slots 0 and 1 stop the loop at the bottom."""
    y = vals[s - 1]
    x = vals[s - 2]
    while (y >= x) & (y >= z):
        z = x - y + z
        s -= 2
        y = vals[s - 1]
        x = vals[s - 2]
    return s, z


@njit(cache=True, nogil=True)
def _push(vals: Array, q: Array, m: Array, s: int, c: int, undo: Array, u: int) -> int:
    """Push coin ``c`` on the stack of size ``s`` (slots 2..s-1); save the one slot it writes
    in ``undo[u:u+3]``; return the new size."""
    s, z = _settle(vals, s, c)
    undo[u] = vals[s]
    undo[u + 1] = q[s]
    undo[u + 2] = m[s]
    vals[s] = z
    m[s] = _margin_after(vals, q, m, s, z)
    q[s] = q[s - 1] + (z if (s & 1) == 0 else -z)
    return s + 1


@njit(cache=True, nogil=True)
def _pop(vals: Array, q: Array, m: Array, s: int, undo: Array, u: int) -> None:
    """Undo the push that left the stack at size ``s``."""
    vals[s - 1] = undo[u]
    q[s - 1] = undo[u + 1]
    m[s - 1] = undo[u + 2]


@njit(cache=True, nogil=True)
def _leaf_margin(vals: Array, q: Array, m: Array, s: int, c: int) -> int:
    """Margin of the stack with coin ``c`` pushed, leaving the stack as it was."""
    s, z = _settle(vals, s, c)
    old = vals[s]
    vals[s] = z
    margin = _margin_after(vals, q, m, s, z)
    vals[s] = old
    return margin


# --- column scans -----------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _margins(j: int, row: Array, tables: Array) -> None:
    """Column j of the margins D alone (a row's last column; the others are filled in the
    first strategy's loop, :func:`_totals`): a dependency chain through its previous cell."""
    aj = row[0, j]
    tables[TABLE_D, j, j] = aj
    x = aj
    for i in range(j - 1, -1, -1):
        x = max(row[0, i] - x, aj - tables[TABLE_D, j - 1, i])
        tables[TABLE_D, j, i] = x


@njit(cache=True, nogil=True, inline="always")
def _optimal(row: Array, tables: Array, i: int, j: int) -> int:
    """The optimal-move code at subgame i..j (i < j) from the filled margins."""
    left = row[0, i] - tables[TABLE_D, j, i + 1]
    right = row[0, j] - tables[TABLE_D, j - 1, i]
    code: int = (left >= right) | ((right >= left) << 1)
    return code


@njit(cache=True, nogil=True, inline="always")
def _thibault(row: Array, i: int, j: int, local_rule: bool) -> bool:
    """Thibault's rules at subgame i..j (i < j): True for the left coin."""
    ai = row[0, i]
    aj = row[0, j]
    if ai > aj and ai > row[0, i + 1]:
        return True
    if aj > ai and aj > row[0, j - 1]:
        return False
    if (j - i) & 1 == 1:  # an even number of coins: compare the two alternating groups
        groups = row[1, j + 1] - row[1, i]
        if i & 1 == 1:
            groups = -groups
        if groups != 0:
            return bool(groups > 0)
    if local_rule:
        left = ai - max(row[0, i + 1], aj)
        right = aj - max(ai, row[0, j - 1])
        if left != right:
            return bool(left > right)
    return True


@njit(cache=True, nogil=True, inline="always")
def _takes_left(code: int, parameter: int, row: Array, tables: Array, i: int, j: int) -> bool:
    """The strategy's move at subgame i..j (i < j) once column j's margins are filled (and
    its lookahead and cooperative tables): True for left. Inlined with a constant ``code``,
    only its own rule is left."""
    ai = row[0, i]
    aj = row[0, j]
    if code == GREEDY or (code == LOOKAHEAD and parameter == 1):
        return bool(ai >= aj)
    if code == OPTIMAL_LEFT:
        return bool(_optimal(row, tables, i, j) & 1)
    if code == OPTIMAL_RIGHT:
        return bool(_optimal(row, tables, i, j) == 1)
    if code in (THIBAULT, THIBAULT3):
        return _thibault(row, i, j, code == THIBAULT3)
    if code == LOOKAHEAD:
        if parameter == 0:
            return True
        if parameter == 2:  # M_1 is the larger end: no table
            return bool(ai - max(row[0, i + 1], aj) >= aj - max(ai, row[0, j - 1]))
        m_k = FIXED_TABLES + parameter - 2  # M_{depth-1}
        return bool(ai - tables[m_k, j, i + 1] >= aj - tables[m_k, j - 1, i])
    if code == COOPERATIVE:
        return bool(tables[TABLE_F, j, i + 1] >= tables[TABLE_F, j - 1, i])
    if (j - i) & 1 == 1:  # PARITY with an even number of coins left: its group's end
        return (i & 1) == parameter
    return bool(ai >= aj)


# The commonest rules on their own, so a specialised loop compiles only its own rule (the
# generic _takes_left inlined with a constant code still compiled every rule's branches:
# twice the cold compile). Each takes _takes_left's arguments.


@njit(cache=True, nogil=True)
def _greedy_rule(code: int, parameter: int, row: Array, tables: Array, i: int, j: int) -> bool:
    return bool(row[0, i] >= row[0, j])


@njit(cache=True, nogil=True)
def _lookahead2_rule(code: int, parameter: int, row: Array, tables: Array, i: int, j: int) -> bool:
    ai = row[0, i]
    aj = row[0, j]
    return bool(ai - max(row[0, i + 1], aj) >= aj - max(ai, row[0, j - 1]))


@njit(cache=True, nogil=True)
def _thibault_rule(code: int, parameter: int, row: Array, tables: Array, i: int, j: int) -> bool:
    return _thibault(row, i, j, False)


@njit(cache=True, nogil=True)
def _thibault3_rule(code: int, parameter: int, row: Array, tables: Array, i: int, j: int) -> bool:
    return _thibault(row, i, j, True)


@njit(cache=True, nogil=True)
def _any_rule(code: int, parameter: int, row: Array, tables: Array, i: int, j: int) -> bool:
    return _takes_left(code, parameter, row, tables, i, j)


@njit(cache=True, nogil=True, inline="always")
def _totals(
    j: int,
    row: Array,
    tables: Array,
    mover: int,
    other: int,
    rule: Any,
    code: int,
    parameter: int,
    fused: bool,
) -> None:
    """Column j of a strategy's totals: by its move where it moves (``mover``), the worst
    over the opponent's optimal moves where the opponent does (``other``). One loop with the
    ``rule`` (one of the ``_*_rule`` kernels) compiled in; ``fused``: the column's margins
    D and optimal-move codes (bit 0 for L, bit 1 for R) too, in the same loop, so the two
    dependency chains overlap (about 15% faster than two loops)."""
    aj = row[0, j]
    tables[mover, j, j] = aj
    tables[other, j, j] = 0
    tables[TABLE_D, j, j] = aj
    x = aj  # the margin of i+1..j
    mover_next = aj  # the strategy's total from i+1..j when it moves there
    other_next = np.int64(0)  # ... and when the opponent moves there
    for i in range(j - 1, -1, -1):
        if fused:
            left = row[0, i] - x
            right = aj - tables[TABLE_D, j - 1, i]
            x = max(left, right)
            tables[TABLE_D, j, i] = x
            moves = np.int64(left >= right) | (np.int64(right >= left) << 1)
            tables[TABLE_OPTIMAL, j, i] = moves
        else:
            moves = tables[TABLE_OPTIMAL, j, i]
        if rule(code, parameter, row, tables, i, j):
            total = row[0, i] + other_next
        else:
            total = aj + tables[other, j - 1, i]
        after_left = mover_next if moves & 1 else SENTINEL
        after_right = tables[mover, j - 1, i] if moves >> 1 else SENTINEL
        worst = min(after_left, after_right)
        tables[mover, j, i] = total
        tables[other, j, i] = worst
        mover_next = total
        other_next = worst


@njit(cache=True, nogil=True, inline="always")
def _leaf_total(
    j: int, row: Array, tables: Array, rule: Any, code: int, parameter: int, mover: int
) -> int:
    """S(0, j): the strategy's total from the whole row a[0..j], moving first, against the
    optimal opponent that hurts it most, with column j's margins filled but not its totals.

    Position (i, j) is reached from (0, j) only by i moves from the left, the strategy's at
    even i. Walk down while the next position needed is in column j (the strategy takes
    the left coin, or the opponent may); every other branch is in column j - 1, filled. Then
    add up on the way back: O(length of the walk), a few steps on most rows. Inlined with
    a ``rule`` kernel (:func:`_totals`), only its own rule is compiled in."""
    aj = row[0, j]
    end = 0
    while end < j:
        if end & 1 == 0:
            if not rule(code, parameter, row, tables, end, j):
                break
        else:
            moves = _optimal(row, tables, end, j)
            tables[TABLE_OPTIMAL, j, end] = moves  # for the way back
            if moves & 1 == 0:
                break
        end += 1
    if end == j:  # one coin left
        total = aj if end & 1 == 0 else 0
    elif end & 1 == 0:  # the strategy takes the right coin
        total = aj + tables[mover + 1, j - 1, end]
    else:  # the opponent's only optimal move is the right coin
        total = tables[mover, j - 1, end]
    for i in range(end - 1, -1, -1):
        if i & 1 == 0:
            total += row[0, i]
        elif tables[TABLE_OPTIMAL, j, i] == 3:
            total = min(total, tables[mover, j - 1, i])
    result: int = total
    return result


@njit(cache=True, nogil=True, inline="always")
def _column(
    j: int, row: Array, tables: Array, slots: Array, lookahead: int, cooperative: bool, last: bool
) -> None:
    """Fill column ``j`` (subgames i..j) of every table, coins row[0, 0..j] set; O(j) per
    table.

    ``row[1, x]`` is the alternating prefix sum a_0 - a_1 + ... of the first x coins; slot s
    has the code ``slots[0, s]`` and the parameter ``slots[1, s]`` and keeps the strategy's
    totals at ``tables[base + 2s]`` (it moves) and ``[base + 2s + 1]`` (the opponent moves),
    base = FIXED_TABLES + lookahead tables. The margins and optimal moves are filled in the
    first strategy's totals loop (the rules read only earlier cells of column j and the
    tables filled before it). The ``last`` column of a row (no column is built on it) needs
    only the margins and each strategy's total from the whole row, S(0, j):
    :func:`_leaf_total` follows the few positions it depends on. Depth-2 lookahead needs no
    table (M_1 is the larger end), so M_1 is filled only for deeper ones."""
    base = FIXED_TABLES + max(lookahead - 1, 0)
    aj = row[0, j]
    if last:
        _margins(j, row, tables)
    if cooperative:
        tables[TABLE_F, j, j] = aj
        tables[TABLE_G, j, j] = 0
        for i in range(j - 1, -1, -1):
            tables[TABLE_F, j, i] = max(
                row[0, i] + tables[TABLE_G, j, i + 1], aj + tables[TABLE_G, j - 1, i]
            )
            tables[TABLE_G, j, i] = max(tables[TABLE_F, j, i + 1], tables[TABLE_F, j - 1, i])
    for t in range(1, lookahead if lookahead > 2 else 0):  # margins t moves deep
        m_t = FIXED_TABLES + t - 1
        tables[m_t, j, j] = aj
        if t == 1:
            for i in range(j):
                tables[m_t, j, i] = max(row[0, i], aj)
        else:
            for i in range(j - 1, -1, -1):
                tables[m_t, j, i] = max(
                    row[0, i] - tables[m_t - 1, j, i + 1], aj - tables[m_t - 1, j - 1, i]
                )
    for s in range(slots.shape[1]):
        mover, other = base + 2 * s, base + 2 * s + 1
        code, parameter = slots[0, s], slots[1, s]
        if last:
            tables[mover, j, 0] = _leaf_totals(j, row, tables, code, parameter, mover)
        else:
            _column_totals(j, row, tables, code, parameter, mover, other, s == 0)


@njit(cache=True, nogil=True)
def _leaf_totals(j: int, row: Array, tables: Array, code: int, parameter: int, mover: int) -> int:
    """:func:`_leaf_total` with the commonest rules as constants."""
    if code == GREEDY or (code == LOOKAHEAD and parameter == 1):
        return _leaf_total(j, row, tables, _greedy_rule, GREEDY, 0, mover)
    if code == LOOKAHEAD and parameter == 2:
        return _leaf_total(j, row, tables, _lookahead2_rule, LOOKAHEAD, 2, mover)
    if code == THIBAULT:
        return _leaf_total(j, row, tables, _thibault_rule, THIBAULT, 0, mover)
    if code == THIBAULT3:
        return _leaf_total(j, row, tables, _thibault3_rule, THIBAULT3, 0, mover)
    return _leaf_total(j, row, tables, _any_rule, code, parameter, mover)


@njit(cache=True, nogil=True)
def _column_totals(
    j: int,
    row: Array,
    tables: Array,
    code: int,
    parameter: int,
    mover: int,
    other: int,
    fused: bool,
) -> None:
    """:func:`_totals` with the commonest rules as constants."""
    if code == GREEDY or (code == LOOKAHEAD and parameter == 1):
        _totals(j, row, tables, mover, other, _greedy_rule, GREEDY, 0, fused)
    elif code == LOOKAHEAD and parameter == 2:
        _totals(j, row, tables, mover, other, _lookahead2_rule, LOOKAHEAD, 2, fused)
    elif code == THIBAULT:
        _totals(j, row, tables, mover, other, _thibault_rule, THIBAULT, 0, fused)
    elif code == THIBAULT3:
        _totals(j, row, tables, mover, other, _thibault3_rule, THIBAULT3, 0, fused)
    else:
        _totals(j, row, tables, mover, other, _any_rule, code, parameter, fused)


# --- one tree node: push, undo, finish --------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _push_coin(d: int, c: int, w: Any, settings: Any, last: bool) -> None:
    """Coin ``c`` becomes coin ``d`` of the row: its column (``last``: the row's last one),
    or its push on the stack scans (and on the scan without the first coin)."""
    row = w.row
    row[0, d] = c
    if settings.columns:
        row[1, d + 1] = row[1, d] + (c if (d & 1) == 0 else -c)
        row[2, d + 1] = row[2, d] + c
        _column(d, row, w.tables, w.slots, settings.lookahead, settings.cooperative, last)
        return
    stack, sizes = w.stack, w.sizes
    sizes[0, d + 1] = _push(stack[0], stack[1], stack[2], sizes[0, d], c, w.undo, 6 * d)
    if settings.direct_left and d > 0:
        sizes[1, d + 1] = _push(stack[3], stack[4], stack[5], sizes[1, d], c, w.undo, 6 * d + 3)
    else:
        sizes[1, d + 1] = sizes[1, d]


@njit(cache=True, nogil=True, inline="always")
def _pop_coin(d: int, w: Any, settings: Any) -> None:
    """Undo :func:`_push_coin` of coin ``d`` (columns need no undo)."""
    if not settings.columns:
        stack, sizes = w.stack, w.sizes
        _pop(stack[0], stack[1], stack[2], sizes[0, d + 1], w.undo, 6 * d)
        if settings.direct_left and d > 0:
            _pop(stack[3], stack[4], stack[5], sizes[1, d + 1], w.undo, 6 * d + 3)


@njit(cache=True, nogil=True, inline="always")
def _finish_row(n: int, c: int, local: int, w: Any, settings: Any) -> None:
    """The row whose first n - 1 coins are pushed, with last coin ``c``, is row ``local`` of
    the shard: solve it (leaving the scans as they were), play the strategies on it and
    tally it."""
    d = n - 1
    row = w.row
    if settings.columns:
        _push_coin(d, c, w, settings, True)
        margin = w.tables[TABLE_D, d, 0]
        moves = MOVE_LR
        if n > 1:
            moves = MOVE_L if row[0, 0] - w.tables[TABLE_D, d, 1] == margin else 0
            if c - w.tables[TABLE_D, d - 1, 0] == margin:
                moves += MOVE_R
        _strategies_leaf(n, margin, local, w, settings.lookahead)
    else:
        row[0, d] = c
        stack, s = w.stack, w.sizes[0, d]
        margin = _leaf_margin(stack[0], stack[1], stack[2], s, c)
        moves = MOVE_R if c - stack[2, s - 1] == margin else 0
        if settings.direct_left and (
            d == 0
            or row[0, 0] - _leaf_margin(stack[3], stack[4], stack[5], w.sizes[1, d], c) == margin
        ):
            moves += MOVE_L
    counts = w.counts
    counts[ROWS] += 1
    counts[RIGHT_OPTIMAL] += moves >> 1
    if settings.left_known:
        counts[1 + moves] += 1
    if settings.dense:
        w.hist[margin + settings.offset] += 1
    else:
        w.margins[local] = margin
    if settings.rows_mode:  # per-row output: margin, first moves and the coins
        w.out_margin[local] = margin
        w.out_moves[local] = moves
        start = w.out_offsets[local]
        for t in range(n):
            w.out_values[start + t] = row[0, t]
        w.out_offsets[local + 1] = start + n


@njit(cache=True, nogil=True, inline="always")
def _strategies_leaf(n: int, margin: int, local: int, w: Any, lookahead: int) -> None:
    """Each requested strategy's worst total on the row a[0..n-1] (columns filled) against
    the optimal opponent: its regret, and the row's number when it is a counterexample."""
    base = FIXED_TABLES + max(lookahead - 1, 0)
    row, chosen, stats, examples = w.row, w.chosen, w.stats, w.examples
    first_total = (row[2, n] + margin) >> 1  # the total and the margin have the same parity
    limit = examples.shape[1]
    for r in range(chosen.shape[1]):
        slot = chosen[0, r]
        if chosen[1, r] != 0 and (n & 1) == 0 and row[1, n] < 0:
            slot += 1  # parity on an even row whose odd positions hold more: its odd slot
        regret = first_total - w.tables[base + 2 * slot, n - 1, 0]
        if regret == 0:
            stats[r, OPTIMAL] += 1
        else:
            low = stats[r, REGRET_LO] + (regret & _LOW)
            stats[r, REGRET_HI] += (regret >> 32) + (low >> 32)
            stats[r, REGRET_LO] = low & _LOW
            if regret > stats[r, WORST]:
                stats[r, WORST] = regret
            found = stats[r, FOUND]
            if found < limit:
                examples[r, found] = local
                stats[r, FOUND] = found + 1


# --- the three walks ----------------------------------------------------------------------
#
# Each takes, after its family arguments: flags (FLAG_*) and the work arrays (:data:`Work`).


@njit(cache=True, nogil=True)
def scan_words(alphabet: Array, n: int, first: Array, count: int, flags: Array, *work: Any) -> None:
    """``count`` rows of ``n`` coins over ``alphabet`` in lexicographic order of the
    alphabet's indices, from the row whose indices are ``first`` (or up to the last row).

    Stack scans cost O(1) amortised per tree node plus a scan of the valley's decreasing
    part per row; column scans O(n * tables) per tree node. The plain scan's last coin
    (the common case) keeps its tallies in registers."""
    settings, w = _open(flags, work)
    alphabet = _borrow(alphabet)
    k = alphabet.shape[0]
    digit = np.zeros(n, np.int64)
    for d in range(n):  # a loop: a slice assignment compiles a shape error's text formatting
        digit[d] = first[d]
    d = 0
    local = 0
    fast = not (settings.columns or settings.direct_left or settings.rows_mode) and settings.dense
    vals, q, m, hist, offset = w.stack[0], w.stack[1], w.stack[2], w.hist, settings.offset
    resume = True  # going down to the first row rather than along the smallest values
    while True:
        while d < n - 1:  # down (one push site: each inlined copy costs compile time)
            _push_coin(d, alphabet[digit[d]], w, settings, False)
            d += 1
            if not resume:
                digit[d] = 0
        resume = False
        if fast:
            s = w.sizes[0, d]
            parent = m[s - 1]
            stop = min(k, digit[d] + count - local)
            right = 0
            for j in range(digit[d], stop):
                c = alphabet[j]
                margin = _leaf_margin(vals, q, m, s, c)
                right += c - parent == margin
                hist[margin + offset] += 1
            w.counts[RIGHT_OPTIMAL] += right
            w.counts[ROWS] += stop - digit[d]
            local += stop - digit[d]
        else:
            for j in range(digit[d], k):  # the last coin
                if local == count:
                    return
                _finish_row(n, alphabet[j], local, w, settings)
                local += 1
        if local == count:
            return
        while True:  # up to the deepest coin with a next value
            if d == 0:
                return
            d -= 1
            _pop_coin(d, w, settings)
            digit[d] += 1
            if digit[d] < k:
                break


@njit(cache=True, nogil=True)
def scan_compositions(total: int, first: Array, count: int, flags: Array, *work: Any) -> None:
    """``count`` compositions of ``total`` in standard order from the one whose number's bits
    after its leading 1 are ``first`` (``total - 1`` bits), or up to the last one.

    Bit 0 makes the open part longer, bit 1 closes it and opens a part of 1. Only closed
    parts are pushed, so the walk costs what :func:`scan_words` does per part plus O(1) per
    bit."""
    settings, w = _open(flags, work)
    first = _borrow(first)
    bit = np.zeros(total, np.int64)  # per bit: 0 or 1 as set now
    saved = np.zeros(total, np.int64)  # the open part's length before the bit
    parts = 0
    part = 1
    t = 0
    local = 0
    resume = True  # going down along ``first`` rather than along zeros
    close = False  # the next bit is set to 1 (after a climb)
    while True:
        while t < total - 1:  # down: set the remaining bits (the walk's one push site)
            b = 1 if close else (first[t] if resume else 0)
            close = False
            bit[t] = b
            saved[t] = part
            if b == 0:
                part += 1
            else:
                _push_coin(parts, part, w, settings, False)
                parts += 1
                part = 1
            t += 1
        resume = False
        if local == count:
            return
        _finish_row(parts + 1, part, local, w, settings)  # the open part is the last one
        local += 1
        while True:  # up to the deepest bit still 0, undoing the 1s on the way
            if t == 0:
                return
            t -= 1
            part = saved[t]
            if bit[t] == 0:
                break
            parts -= 1
            _pop_coin(parts, w, settings)
        close = True  # then set it to 1 on the way down: close the part


@njit(cache=True, nogil=True)
def scan_rows(rows: Array, flags: Array, *work: Any) -> None:
    """Every row of the 2-D array ``rows`` (n >= 1 coins each), one after the other: O(n)
    per row for stack scans, O(n^2 * tables) for column scans."""
    settings, w = _open(flags, work)
    rows = _borrow(rows)
    count, n = rows.shape
    for local in range(count):
        for d in range(n - 1):
            _push_coin(d, rows[local, d], w, settings, False)
        _finish_row(n, rows[local, n - 1], local, w, settings)


@njit(cache=True, nogil=True)
def strategy_moves(coins: Array, code: int, parameter: int) -> Array:
    """The compiled strategy's move at every subgame i..j of the row (i < j): 1 for the left
    coin, 0 for the right one, as the walks decide it; O(n^2 * tables), for checking the
    kernels against :mod:`coinrow.strategies`. Parity's ``parameter`` is its group."""
    n = coins.shape[0]
    slots = np.zeros((2, 1), np.int64)
    slots[0, 0] = code
    slots[1, 0] = parameter
    lookahead = parameter if code == LOOKAHEAD and parameter >= 2 else 0
    tables = np.zeros((FIXED_TABLES + max(lookahead - 1, 0) + 2, n, n), np.int64)
    row = np.zeros((3, n + 1), np.int64)
    moves = np.ones((n, n), np.int64)
    for j in range(n):
        row[0, j] = coins[j]
        row[1, j + 1] = row[1, j] + (coins[j] if (j & 1) == 0 else -coins[j])
        row[2, j + 1] = row[2, j] + coins[j]
        _column(j, row, tables, slots, lookahead, code == COOPERATIVE, False)
        for i in range(j):
            moves[i, j] = _takes_left(code, parameter, row, tables, i, j)
    return moves


def cached(walk: Any) -> bool:
    """Whether Numba's cache holds ``walk`` (one of the three walks) compiled from this
    source for this machine, so its first call loads it instead of compiling (O(1): reads
    one index file, compiles nothing). It reads Numba's cache index through Numba's own
    (private) helpers, so anything unexpected there counts as not cached."""
    try:
        cache = walk._cache
        index = cache._cache_file._load_index()
        codegen = walk.targetctx.codegen()
        return any(key[1:] == cache._index_key(key[0], codegen)[1:] for key in index)
    except Exception:  # a private API: any change means "compile to be sure"
        return False
