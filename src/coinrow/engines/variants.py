"""Engines of the variants (docs/variants.md): one exact interval DP for every two-player
interval variant, the pizza on the doubled row, the best reply to a known opponent, N players,
and the fast paths on the O(n) reduction.

Every engine expects a row validated by :func:`coinrow.numbers.coerce_coins` and runs inside
:func:`coinrow.numbers.exact_arithmetic`. A two-player DP works with the mover's *objective
margin* O(i, j): the mover's score minus the other's from subgame i..j on, where a move's
score is what the rules make it (the coins taken; minus them in the misère game; the coins
left in Stone Game VII). O(i, j) = max over moves (score - O(child)), O(empty) = 0.

Moves are texts: ``L`` and ``R`` take one end coin, ``B`` both ends, ``L3``/``R3`` three coins
from one side (every move of ``take:K`` names its count), and the pizza's first move is the
0-based index of the first slice. Ties go to the first move in the order L before R (before
B), fewer coins before more.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from typing import Any, NamedTuple

from ..errors import (
    CostLimitError,
    RowTooLongError,
    SubgameError,
    TableTooLargeError,
    UnsupportedRulesError,
)
from ..numbers import (
    Value,
    coerce_coins,
    exact_arithmetic,
    format_value,
    halve,
    is_int_array,
    json_value,
    zero_like,
)
from ..rules import Misere, Moves, Rules, StoneGameVII, as_moves, join_moves
from . import (
    MAX_SECONDS,
    duration_text,
    estimated_solve_seconds,
    reduction,
    seconds_limit,
    subgame_seconds,
)
from .dispatch import INT64_SAFE_LIMIT, KERNEL_MIN_LENGTH, int64_safe, kernel_row

#: Side codes of a move: (side, count) -> text.
_SIDES = "LRB"

#: An opponent of ``reply``: the move (``"L"`` or ``"R"``) it makes in subgame lo..hi.
Opponent = Callable[[int, int], str]


class MoveCost(NamedTuple):
    """What a strategy's moves cost in a game on one row: ``once`` seconds before its first
    move (``optimal``'s table of the row) and ``move(m)`` seconds of one move with ``m``
    coins left. A strategy declares it with a ``move_cost(coins)`` attribute
    (``coinrow.strategies.move_cost`` prices the built-ins); :func:`variant_cost` and
    :func:`position_solves_cost` add it for the calls of ``reply`` to its opponent."""

    once: float
    move: Callable[[int], float]


#: Seconds of one call of a ``reply`` opponent object, its position built, for a strategy
#: that decides in O(1) (greedy, measured 0.6 us on small ints, 2-core machine): the price of
#: each move of a strategy that declares no ``move_cost`` (a user's), whose own work is not
#: known.
OPPONENT_MOVE_SECONDS = 0.6e-6


def declared_cost(strategy: object, coins: Sequence[Value]) -> MoveCost | None:
    """The :class:`MoveCost` a strategy declares for this row (its ``move_cost(coins)``
    attribute), or None when it declares none (O(what it declares; O(n) for the built-ins)).

    >>> declared_cost(print, [1, 2]) is None
    True
    """
    declare = getattr(strategy, "move_cost", None)
    cost = declare(coins) if callable(declare) else None
    return cost if isinstance(cost, MoveCost) else None


def reply_calls_seconds(n: int, cost: MoveCost | None) -> float:
    """Estimated seconds of the opponent's moves in :func:`reply_solve` of ``n`` coins: one
    move in each subgame of m coins with n - m odd (n - m + 1 of them), priced by ``cost``
    (None: :data:`OPPONENT_MOVE_SECONDS` a move) (O(n)).

    >>> reply_calls_seconds(4, MoveCost(1.0, lambda m: m))  # once, 2 subgames of 3, 4 of 1
    11.0
    """
    once, move = cost if cost is not None else (0.0, _undeclared_move)
    return once + sum((n - m + 1) * move(m) for m in range(n - 1, 0, -2))


def _undeclared_move(m: int) -> float:
    return OPPONENT_MOVE_SECONDS


class VariantResult(NamedTuple):
    """What a variant engine returns.

    ``totals`` holds each player's total along ``moves`` (coins taken, or Stone Game VII's
    points), first player first; ``objective`` the first player's objective margin (None for
    more than two players); ``moves`` one optimal line, move by move; ``first_moves`` every
    optimal first move (for N players: every first move that gives the first player their
    best total); ``starts`` (the pizza only, else None) the first player's margin after
    each first slice, slice 0 first.
    """

    totals: tuple[Value, ...]
    objective: Value | None
    moves: tuple[str, ...]
    first_moves: tuple[str, ...]
    starts: tuple[Value, ...] | None = None


def variant_table(
    coins: Sequence[object],
    rules: Rules,
    *,
    max_seconds: float | None = MAX_SECONDS,
    memory_budget: int | None = None,
) -> IntervalTable:
    """The table of every subgame of a two-player interval variant (O(n^2) time and memory;
    see :class:`IntervalTable`); other rules raise
    :class:`~coinrow.errors.UnsupportedRulesError`. ``coinrow.Table(coins, rules=...)`` calls
    it. A table estimated (:func:`variant_cost`) over ``max_seconds`` is refused with
    :class:`~coinrow.errors.CostLimitError` (``None``: no limit), one over ``memory_budget``
    bytes (default :data:`coinrow.engines.table.MEMORY_BUDGET`) with
    :class:`~coinrow.errors.TableTooLargeError`, before any work.

    >>> variant_table([1, 2, 3], Rules.parse("take:any")).objective_of(0, 2)
    6
    """
    from .table import MEMORY_BUDGET

    if not rules.interval:
        raise UnsupportedRulesError(
            f"rules {rules} have no table of subgames (only two players alternating on an "
            "interval of the row have one)"
        )
    row = coerce_coins(coins)
    seconds, needed = variant_cost(row, rules, table=True, limit=max_seconds)
    budget = MEMORY_BUDGET if memory_budget is None else memory_budget
    what = f"a table of {len(row):,} coins under {rules}"
    if needed > budget:
        raise TableTooLargeError(
            f"{what} needs about {size_text(needed)} ({len(row) * (len(row) + 1) // 2:,} "
            f"subgames), over the {size_text(budget)} budget"
        )
    check_variant_seconds(seconds, max_seconds, what)
    with exact_arithmetic():
        return IntervalTable(row, rules)


# --- cost model -------------------------------------------------------------------------------

#: Measured seconds per subgame of each variant engine on a row of small Python ints (n =
#: 1,000 to 3,000, a 2-core machine shared with other work, so on the high side): the
#: interval DP (``three-moves``: with both ends; ``take-moves``: per subgame and coin of K,
#: K <= 3; ``window-maxima``: take:K's, slower per subgame as n grows and its deques leave
#: the caches), the best reply (Python, with a strategy object, compiled), N players
#: (``seats``: per subgame and player; ``reply-object``: the DP alone, its opponent's moves
#: priced by :func:`reply_calls_seconds`), the pizza's reductions (per pair of slices: Python,
#: compiled) and its doubled-row DP. Other numbers scale these by the plain table's cost for them
#: (:func:`coinrow.engines.subgame_seconds`).
VARIANT_SUBGAME_SECONDS: dict[str, float] = {
    "interval": 0.35e-6,
    "three-moves": 0.45e-6,
    "window-maxima": 1.0e-6,
    "take-moves": 0.2e-6,
    "take-any": 0.35e-6,
    "reply-python": 0.8e-6,
    "reply-object": 0.15e-6,
    "reply-compiled": 0.3e-8,
    "seats": 0.21e-6,
    "pizza": 0.8e-6,
    "pizza-compiled": 1.5e-8,
    "doubled-row": 0.6e-6,
    "search": 0.6e-6,
}

#: The pure-Python engines' cost per subgame grows with n (measured 1.4 to 3.4 times the
#: figures above at 10^4 coins, on a loaded machine): estimates are scaled by 1 + n / this.
CACHE_COINS = 20_000

#: Bytes a solve keeps per subgame (its move codes; the compiled reply and N players: one).
SOLVE_CODE_BYTES = {"interval-dp": 4, "reply-dp": 1, "players-dp": 1, "search-dp": 200}

#: Bytes a table keeps per subgame besides its number: the move code.
TABLE_CODE_BYTES = 4

#: Bytes of one candidate in take:K's deques (a tuple, its index and the deque's slot).
DEQUE_ENTRY_BYTES = 100


def _engine_key(coins: Sequence[Value], rules: Rules, fast: bool, opponent: bool) -> str:
    family = rules.engine
    if family == "interval-dp" and rules.counted_moves:
        if rules.take is None or rules.take >= len(coins):
            return "take-any"
        return "take-moves" if rules.take <= TAKE_MOVES_MAX_K else "window-maxima"
    if family == "interval-dp" and "B" in rules.sides:
        return "three-moves"
    if family == "circle-dp":
        if not fast:
            return "doubled-row"
        compiled = kernel_row(coins, PIZZA_KERNEL_MIN_LENGTH) is not None
        return "pizza-compiled" if compiled else "pizza"
    if family == "reply-dp":
        if opponent:
            return "reply-object"
        if rules.strategy == "greedy" and kernel_row(coins, REPLY_KERNEL_MIN_LENGTH) is not None:
            return "reply-compiled"
        return "reply-python"
    if family == "players-dp":
        return "seats"
    if family == "search-dp":
        return "search"
    return "interval"


def variant_cost(
    coins: Sequence[Value],
    rules: Rules,
    *,
    fast: bool = True,
    opponent: bool = False,
    opponent_cost: MoveCost | None = None,
    table: bool = False,
    limit: float | None = None,
) -> tuple[float, int]:
    """Estimated seconds and peak bytes of solving a validated row under the rules (or of
    its :func:`variant_table`) (O(n); a Fraction row's common denominator is computed only
    as far as ``limit`` needs, see :func:`coinrow.engines.estimated_solve_seconds`).

    Quadratic engines: subgames (times players for ``players:p``) times
    :data:`VARIANT_SUBGAME_SECONDS`, scaled for numbers other than small ints; bytes are the
    move codes (a table also keeps a number per subgame, and ``take:K`` at most K candidates
    per row and column in its deques). ``misere`` and ``stone-game-vii`` on their fast path
    cost the plain game's O(n) reduction. ``fast`` is the engine choice (``False``: the
    general DP), ``opponent`` whether ``reply`` calls a strategy object, whose moves
    ``opponent_cost`` prices (:func:`reply_calls_seconds`: a ``cooperative`` move is O(m^2),
    so its ``reply`` is O(n^4)). An estimate for a rough answer: load and the numbers change
    it by a factor of two or so.

    >>> seconds, needed = variant_cost([1] * 10_000, Rules.parse("take:any"))
    >>> round(seconds), needed // 10**6
    (26, 200)
    >>> variant_cost([1] * 10_000, Rules.parse("misere"))[0] < 0.1
    True
    """
    from .table import bytes_per_cell

    limit = seconds_limit(limit)
    n = len(coins)
    if not n:
        return 0.0, 0
    if fast and rules.fast_path and rules.interval and not table:
        return estimated_solve_seconds(coins, "reduction", limit=limit), 0
    cells = n * (n + 1) // 2
    key = _engine_key(coins, rules, fast, opponent)
    items = cells * (rules.players if key == "seats" else 1)
    if key == "search":
        items = cells * n // 3  # about n^3 / 6 (state, move) pairs at most
    if key == "take-moves" and rules.take is not None:
        items = cells * (1 + rules.take)  # one list per move and side, a little each
    seconds = items * VARIANT_SUBGAME_SECONDS[key] * _number_factor(coins, items, limit, key)
    if not key.endswith("-compiled"):
        seconds *= 1 + n / CACHE_COINS  # Python objects leave the caches as n grows
    if key == "reply-object":
        seconds += reply_calls_seconds(n, opponent_cost)
    if table:
        return seconds, cells * (bytes_per_cell(coins, None) + TABLE_CODE_BYTES)
    if rules.circle:
        return seconds, 0
    needed = cells * SOLVE_CODE_BYTES.get(rules.engine, SOLVE_CODE_BYTES["interval-dp"])
    if key == "window-maxima" and rules.take is not None:
        needed += 2 * n * min(rules.take, n) * DEQUE_ENTRY_BYTES
    return seconds, needed


def _number_factor(coins: Sequence[Value], items: int, limit: float | None, key: str) -> float:
    """How much more than small ints a subgame of these numbers costs (1 for compiled
    engines and int64-safe ints)."""
    if key.endswith("-compiled"):
        return 1.0
    if set(map(type, coins)) <= {int} and int64_safe(coins):
        return 1.0
    per_subgame = estimated_solve_seconds(list(coins), "table", items=items, limit=limit) / items
    return max(1.0, per_subgame / subgame_seconds("table"))


def number_factor(coins: Sequence[Value], limit: float | None = None) -> float:
    """How much more than small ints a subgame of these numbers costs (1 for int64-safe
    ints; other numbers by the plain table's cost for them) (O(n)).

    >>> number_factor([1, 2, 3]), number_factor([10**40, 1]) > 1
    (1.0, True)
    """
    return _number_factor(coins, max(len(coins), 1) ** 2, limit, "interval")


#: Measured seconds per subgame and player of the solves :class:`~coinrow.play_values.PlayValues`
#: runs on the coins left at each position under ``reply`` and ``players`` (an analysis:
#: one per position of the game), by the rules' engine, small ints, 2-core machine: 100 ns
#: a subgame for ``reply`` (any opponent), 210 ns per subgame and player for ``players:p``.
POSITION_SOLVE_SECONDS = {"reply-dp": 1.0e-7, "players-dp": 2.1e-7}


def position_solves_cost(
    coins: Sequence[Value],
    rules: Rules,
    lengths: Iterable[int],
    *,
    limit: float | None = None,
    opponent: bool = False,
    opponent_cost: MoveCost | None = None,
) -> float:
    """Estimated seconds of solving the coins left at positions of these ``lengths`` (coins
    left) under ``reply`` or ``players`` (0 for other rules, whose positions are read from
    one table) (O(positions + n)). ``opponent`` and ``opponent_cost`` as for
    :func:`variant_cost`: each solve of L coins calls an opponent object in about half its
    subgames.

    >>> round(position_solves_cost([1] * 1000, Rules.parse("players:2"), range(1001)))
    74
    """
    if not rules.per_position or rules.engine not in POSITION_SOLVE_SECONDS:
        return 0.0
    counted = list(lengths)
    cells = sum(m * (m + 1) // 2 for m in counted)
    per_cell = POSITION_SOLVE_SECONDS[rules.engine] * (
        rules.players if rules.engine == "players-dp" else 1
    )
    seconds = cells * per_cell * number_factor(coins, limit) * (1 + len(coins) / CACHE_COINS)
    if opponent and rules.engine == "reply-dp":
        seconds += _positions_calls_seconds(counted, opponent_cost)
    return seconds


def _positions_calls_seconds(lengths: list[int], cost: MoveCost | None) -> float:
    """The opponent's moves in one :func:`reply_solve` per length: in a solve of L coins,
    (L - m + 1) / 2 moves with m coins left (both parities averaged), for each m < L
    (O(positions + n) by suffix sums over L)."""
    once, move = cost if cost is not None else (0.0, _undeclared_move)
    longest = max(lengths, default=0)
    count = [0] * (longest + 2)
    for length in lengths:
        count[length] += 1
    seconds, solves, coins_in_solves = once, 0, 0  # over the lengths L > m
    for m in range(longest - 1, 0, -1):
        solves += count[m + 1]
        coins_in_solves += count[m + 1] * (m + 1)
        seconds += (coins_in_solves - (m - 1) * solves) / 2 * move(m)
    return seconds


def check_variant_seconds(seconds: float, max_seconds: float | None, what: str) -> None:
    """Refuse an estimate over ``max_seconds`` with a
    :class:`~coinrow.errors.CostLimitError` naming the limit (O(1)); ``None`` checks nothing.

    >>> check_variant_seconds(200.0, 60.0, "solving 10,000 coins under take:any")
    Traceback (most recent call last):
    ...
    coinrow.errors.CostLimitError: solving 10,000 coins under take:any would take about 3 minutes, over the limit of 60 seconds
    """  # noqa: E501
    max_seconds = seconds_limit(max_seconds)
    if max_seconds is not None and seconds > max_seconds:
        raise CostLimitError(
            f"{what} would take about {duration_text(seconds)}, over the limit of "
            f"{duration_text(max_seconds)}",
            seconds,
            max_seconds,
        )


def check_variant_bytes(needed: int, budget: int, what: str) -> None:
    """Refuse a solve keeping over ``budget`` bytes with a
    :class:`~coinrow.errors.RowTooLongError` naming the budget (O(1))."""
    if needed > budget:
        raise RowTooLongError(
            f"{what} keeps about {size_text(needed)} of move codes, over the "
            f"{size_text(budget)} budget"
        )


def size_text(count: int) -> str:
    """Bytes as GiB or MiB for messages (O(1)).

    >>> size_text(5 * 2**30), size_text(3 * 2**20)
    ('5.0 GiB', '3.0 MiB')
    """
    return f"{count / 2**30:.1f} GiB" if count >= 2**30 else f"{count / 2**20:.1f} MiB"


#: Largest K whose take:K tries its 2K moves per subgame along the diagonals (O(n^2 K),
#: cache-friendly); larger K slide window maxima (O(n^2), but two deques of scattered
#: Python objects per subgame: measured slower for K <= 3 at n = 3,000, faster from K = 8).
TAKE_MOVES_MAX_K = 3


# --- the general interval DP ---------------------------------------------------------------


class IntervalTable:
    """Objective margins and first optimal moves of every subgame of a two-player interval
    variant (``plain``, ``misere``, ``stone-game-vii``, ``take``, ``both-ends``).

    O(n^2) subgames, each O(1) (amortised): ``take:any`` keeps running extrema and
    ``take:K`` sliding-window maxima instead of trying its 2K moves. O(n^2) memory (a
    diagonal of values and one of move codes per width).

    >>> table = IntervalTable([5, 3, 1, 4, 2], Rules.parse("stone-game-vii"))
    >>> table.objective_of(0, 4), table.move_of(0, 4)
    (6, 'R')
    """

    def __init__(self, coins: Sequence[Value], rules: Rules, *, keep: bool = True) -> None:
        if not rules.interval:
            raise UnsupportedRulesError(f"rules {rules} are not a two-player interval game")
        self.coins = tuple(coins)
        self.rules = rules
        self.zero: Value = zero_like(list(coins[:1]))
        self.prefix: list[Value] = [self.zero, *accumulate(self.coins)]
        #: values[w][i] = O(i, i + w); codes[w][i] = 3 * count + side of its first best move.
        #: Without ``keep`` (a solve, not a table) a diagonal is dropped (None) once no move
        #: reaches it, except its two ends, kept in ``edges`` for the whole row's first moves:
        #: O(n * depth) values and 4 bytes of move code per subgame.
        self.values: list[list[Value] | None] = []
        self.codes: list[array[int]] = []
        self.edges: list[tuple[Value, Value]] = []
        self.keep = keep
        self.depth = 2 if "B" in rules.sides else 1
        #: Moves may take coins from the right end (rules whose moves are all from the
        #: front, such as take-from-the-front rules, have only left moves).
        self.right = "R" in rules.sides
        if rules.counted_moves:
            if rules.take is None or rules.take >= len(self.coins):  # the same game
                self._fill_take_any()
            elif rules.take <= TAKE_MOVES_MAX_K:
                self.depth = rules.take
                self._fill_take_moves()
            else:
                self._fill_take()
        else:
            self._fill_ends()

    def _moves(self, i: int, j: int) -> list[tuple[int, int, Value, int, int]]:
        """(side, count, score, child lo, child hi) of every move in subgame i..j, in tie order."""
        coins, prefix, rules = self.coins, self.prefix, self.rules
        if rules.counted_moves:
            most = j - i + 1 if self.rules.take is None else min(self.rules.take, j - i + 1)
            left = [(0, c, prefix[i + c] - prefix[i], i + c, j) for c in range(1, most + 1)]
            right = [
                (1, c, prefix[j + 1] - prefix[j + 1 - c], i, j - c) for c in range(1, most + 1)
            ]
            return left + right if self.right else left
        if rules.scores_left:
            return [
                (0, 1, prefix[j + 1] - prefix[i + 1], i + 1, j),
                (1, 1, prefix[j] - prefix[i], i, j - 1),
            ]
        sign = -1 if rules.lowest_wins else 1
        moves = [(0, 1, sign * coins[i], i + 1, j), (1, 1, sign * coins[j], i, j - 1)]
        if "B" in rules.sides and i < j:
            moves.append((2, 2, coins[i] + coins[j], i + 1, j - 1))
        return moves

    def _child(self, lo: int, hi: int) -> Value:
        if lo > hi:
            return self.zero
        values = self.values[hi - lo]
        if values is None:
            return self.edges[hi - lo][0 if lo == 0 else 1]
        return values[lo]

    def _store(self, width: int, values: list[Value], codes: array[int]) -> None:
        self.values.append(values)
        self.codes.append(codes)
        self.edges.append((values[0], values[-1]))
        if not self.keep and width > self.depth:
            self.values[width - self.depth - 1] = None

    def _fill_ends(self) -> None:
        """One diagonal at a time, each move's value as a list (the same recurrence as
        :meth:`_moves`, written out for speed): L, R, and B under ``both-ends``."""
        n, prefix, zero, rules = len(self.coins), self.prefix, self.zero, self.rules
        coins = [-coin for coin in self.coins] if rules.lowest_wins else list(self.coins)
        both_ends = "B" in rules.sides
        previous: list[Value] = []
        before: list[Value] = []
        for width in range(n):
            count = n - width
            if rules.scores_left:
                if width == 0:
                    left, right = [zero] * count, [zero] * count
                else:
                    left = [
                        prefix[i + width + 1] - prefix[i + 1] - previous[i + 1]
                        for i in range(count)
                    ]
                    right = [prefix[i + width] - prefix[i] - previous[i] for i in range(count)]
            elif width == 0:
                left, right = coins[:], coins[:]
            else:
                left = [coins[i] - previous[i + 1] for i in range(count)]
                right = [coins[i + width] - previous[i] for i in range(count)]
            values = list(map(max, left, right))  # max keeps the left value on ties
            codes = array("I", [3 if lv >= rv else 4 for lv, rv in zip(left, right, strict=True)])
            if both_ends and width:
                both = [
                    coins[i] + coins[i + width] - (before[i + 1] if width > 1 else zero)
                    for i in range(count)
                ]
                for i, value in enumerate(both):
                    if value > values[i]:
                        values[i], codes[i] = value, 8
            self._store(width, values, codes)
            before, previous = previous, values

    def _fill_take(self) -> None:
        """take:K in O(n^2) whatever K: sliding-window maxima along each column and row.

        Taking c coins from the left of i..j is worth P[i+c] - P[i] - O(i+c, j), so the best
        left move is max over m in i+1..min(i+K, j+1) of (P[m] - O(m, j)), minus P[i]: for a
        fixed j the window slides one step left per diagonal. A monotone deque per column j
        holds the candidates m with strictly decreasing values (a new m, smaller and so
        fewer coins, evicts every candidate it ties or beats; the front is the maximum and
        leaves the window first). The right side is the mirror image, one deque per row i
        over -P[m] - O(i, m-1), m in max(i, j+1-K)..j. O(1) amortised per subgame; O(n K)
        candidates at most in the deques.
        """
        n, prefix, zero = len(self.coins), self.prefix, self.zero
        most = self.rules.take or 1
        columns: list[deque[tuple[Value, int]]] = [deque() for _ in range(n)]
        rows: list[deque[tuple[Value, int]]] = [deque() for _ in range(n)]
        previous: list[Value] = []
        for width in range(n):
            values: list[Value] = []
            codes = array("I")
            for i in range(n - width):
                j = i + width
                column = columns[j]
                fresh = prefix[i + 1] - (previous[i + 1] if width else zero)
                while column and column[-1][0] <= fresh:
                    column.pop()
                column.append((fresh, i + 1))
                if column[0][1] > i + most:
                    column.popleft()
                row = rows[i]
                fresh = -prefix[j] - (previous[i] if width else zero)
                while row and row[-1][0] <= fresh:
                    row.pop()
                row.append((fresh, j))
                if row[0][1] < j + 1 - most:
                    row.popleft()
                left, m_left = column[0]
                right, m_right = row[0]
                take_left = left - prefix[i]
                take_right = prefix[j + 1] + right
                if not self.right or take_left >= take_right:
                    values.append(take_left)
                    codes.append(3 * (m_left - i))
                else:
                    values.append(take_right)
                    codes.append(3 * (j + 1 - m_right) + 1)
            previous = values
            self._store(width, values, codes)

    def _fill_take_moves(self) -> None:
        """take:K for small K, one list per move (L1..LK, then R1..RK: the tie order) and
        diagonal: O(n^2 K), but each list runs along a diagonal kept in memory order, which
        beats the deques' scattered objects for K up to :data:`TAKE_MOVES_MAX_K`."""
        n, prefix, zero = len(self.coins), self.prefix, self.zero
        most = self.rules.take or 1
        for width in range(n):
            count = n - width
            values: list[Value] = []
            codes = array("I")
            for side in (0, 1) if self.right else (0,):
                for taken in range(1, min(most, width + 1) + 1):
                    child = self.values[width - taken] if taken <= width else None
                    if side == 0:
                        scores = [
                            prefix[i + taken]
                            - prefix[i]
                            - (child[i + taken] if child is not None else zero)
                            for i in range(count)
                        ]
                    else:
                        scores = [
                            prefix[i + width + 1]
                            - prefix[i + width + 1 - taken]
                            - (child[i] if child is not None else zero)
                            for i in range(count)
                        ]
                    code = 3 * taken + side
                    if not values:
                        values, codes = scores, array("I", [code]) * count
                        continue
                    for i, value in enumerate(scores):
                        if value > values[i]:
                            values[i], codes[i] = value, code
            self._store(width, values, codes)

    def _fill_take_any(self) -> None:
        """O(n^2): left(i, j) = max over m in i+1..j+1 of P[m] - O(m, j) and right(i, j) = max
        over m in i..j of -P[m] - O(i, m - 1) follow their neighbours (running extrema)."""
        n, prefix = len(self.coins), self.prefix
        left_best: list[tuple[Value, int]] = []  # (extremum, m) on the previous diagonal
        right_best: list[tuple[Value, int]] = []
        for width in range(n):
            values: list[Value] = []
            codes = array("I")
            lefts: list[tuple[Value, int]] = []
            rights: list[tuple[Value, int]] = []
            previous = self.values[width - 1] if width else []
            assert previous is not None
            for i in range(n - width):
                j = i + width
                if width == 0:
                    left, right = (prefix[j + 1], j + 1), (-prefix[i], i)
                else:
                    fresh_left = prefix[i + 1] - previous[i + 1]
                    old_left = left_best[i + 1]
                    left = (fresh_left, i + 1) if fresh_left >= old_left[0] else old_left
                    fresh_right = -prefix[j] - previous[i]
                    old_right = right_best[i]
                    right = (fresh_right, j) if fresh_right >= old_right[0] else old_right
                lefts.append(left)
                rights.append(right)
                take_left = left[0] - prefix[i]
                take_right = prefix[j + 1] + right[0]
                if not self.right or take_left >= take_right:
                    values.append(take_left)
                    codes.append(3 * (left[1] - i))
                else:
                    values.append(take_right)
                    codes.append(3 * (j + 1 - right[1]) + 1)
            left_best, right_best = lefts, rights
            self._store(width, values, codes)

    def __len__(self) -> int:
        return len(self.coins)

    def _check(self, i: int, j: int) -> None:
        if not 0 <= i <= j < len(self.coins):
            raise SubgameError(f"subgame {i}..{j} is not inside a row of {len(self.coins)} coins")

    def objective_of(self, i: int, j: int) -> Value:
        """The mover's objective margin in subgame i..j (O(1))."""
        self._check(i, j)
        return self._child(i, j)

    def move_of(self, i: int, j: int) -> str:
        """The first optimal move in tie order in subgame i..j (O(1))."""
        self._check(i, j)
        code = self.codes[j - i][i]
        return self.rules.move(code % 3, code // 3)

    def optimal_moves_of(self, i: int, j: int) -> tuple[str, ...]:
        """Every optimal move in subgame i..j (O(moves))."""
        self._check(i, j)
        best = self._child(i, j)
        return tuple(
            self.rules.move(side, count)
            for side, count, score, lo, hi in self._moves(i, j)
            if score - self._child(lo, hi) == best
        )

    def moves_of(self, i: int, j: int) -> Moves:
        """Every optimal move in subgame i..j, in tie order, a tuple of
        :class:`~coinrow.rules.Move` (O(moves)).

        >>> IntervalTable([1, 2, 3], Rules.parse("take:any")).moves_of(0, 2)
        ('L3', 'R3')
        """
        return as_moves(self.optimal_moves_of(i, j))

    def margin_of(self, i: int, j: int) -> Value:
        """The mover's objective margin in subgame i..j, as :meth:`objective_of` (O(1))."""
        return self.objective_of(i, j)

    def total_of(self, i: int, j: int) -> Value:
        """Sum of coins i..j (O(1))."""
        self._check(i, j)
        return self.prefix[j + 1] - self.prefix[i]

    def value_of(self, i: int, j: int) -> Value:
        """The coins the mover takes in subgame i..j under optimal play (O(1)); Stone Game
        VII's points depend on the line, so its subgames have margins only.

        >>> IntervalTable([1, 5, 2], Rules.parse("misere")).value_of(0, 2)
        6
        """
        if self.rules.scores_left:
            raise UnsupportedRulesError(
                "Stone Game VII subgames have margins only (margin_of); points follow the line"
            )
        objective, total = self.objective_of(i, j), self.total_of(i, j)
        with exact_arithmetic():
            both = total - objective if self.rules.lowest_wins else total + objective
            return halve(both)

    def __repr__(self) -> str:
        n = len(self.coins)
        if not n:
            return f"<Table of 0 coins under {self.rules}>"
        return (
            f"<Table of {n} coins under {self.rules}: first player's margin "
            f"{format_value(self.objective_of(0, n - 1))}>"
        )

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle with the optimal line highlighted
        (:func:`coinrow.svg.variant_triangle`); None over 40 coins (O(n^2))."""
        from ..svg import repr_variant_svg

        return repr_variant_svg(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n^2)): ``rules``, ``coins``, ``margin`` (the first player's
        objective margin), ``line``, and ``cells``, widest subgame first, each with ``i``,
        ``j``, ``value`` (the coins the mover takes; null under Stone Game VII), ``margin``,
        ``moves`` and ``player`` (``first`` or ``second``, who moves there; null under
        ``take`` and ``both-ends``, where it depends on the line).

        >>> IntervalTable([1, 2, 3], Rules.parse("take:any")).to_dict()["cells"][0]
        {'i': 0, 'j': 2, 'value': 6, 'margin': 6, 'moves': ['L3', 'R3'], 'player': None}
        """
        n = len(self.coins)
        cells = []
        points = self.rules.scores_left
        for width in range(n - 1, -1, -1):
            for i in range(n - width):
                j = i + width
                cells.append(
                    {
                        "i": i,
                        "j": j,
                        "value": None if points else json_value(self.value_of(i, j)),
                        "margin": json_value(self._child(i, j)),
                        "moves": list(self.moves_of(i, j)),
                        # take and both-ends moves take several coins: whose turn it is
                        # depends on the line, so "player" is only given for one-coin moves
                        "player": ("first", "second")[(n - 1 - width) % 2]
                        if self.rules.single_coin_moves
                        else None,
                    }
                )
        return {
            "rules": str(self.rules),
            "coins": [json_value(coin) for coin in self.coins],
            "margin": json_value(self._child(0, n - 1)) if n else 0,
            "line": self.line if n else "",
            "cells": cells,
        }

    @property
    def line(self) -> str:
        """One optimal line, first best move at each step, as one text (O(n))."""
        return join_moves(self.optimal_line())

    def optimal_line(self) -> tuple[str, ...]:
        """One optimal line from the whole row, first best move at each step (O(n))."""
        moves, lo, hi = [], 0, len(self.coins) - 1
        while lo <= hi:
            code = self.codes[hi - lo][lo]
            side, count = code % 3, code // 3
            moves.append(self.rules.move(side, count))
            lo, hi = advance(lo, hi, side, count)
        return tuple(moves)


def advance(lo: int, hi: int, side: int, count: int) -> tuple[int, int]:
    """The subgame left after taking ``count`` coins from ``side`` of lo..hi (O(1))."""
    if side == 0:
        return lo + count, hi
    if side == 1:
        return lo, hi - count
    return lo + 1, hi - 1


def replay(
    coins: Sequence[Value], rules: Rules, moves: Sequence[str], start: int = 0
) -> tuple[Value, ...]:
    """Each player's total along a line of moves from subgame ``start``..n-1 (O(n)):
    coins taken, or Stone Game VII's points (the coins left after each move).

    >>> replay([5, 3, 1, 4, 2], Rules.parse("stone-game-vii"), "LRLRL")
    (15, 9)
    """
    zero = zero_like(list(coins[:1]))
    prefix = [zero, *accumulate(coins)]
    totals = [zero] * rules.players
    lo, hi = start, len(coins) - 1
    for turn, text in enumerate(moves):
        side, count = rules.side_count(text)
        new_lo, new_hi = advance(lo, hi, side, count)
        if rules.scores_left:
            gain = prefix[new_hi + 1] - prefix[new_lo] if new_lo <= new_hi else zero
        else:
            gain = (
                prefix[hi + 1]
                - prefix[lo]
                - (prefix[new_hi + 1] - prefix[new_lo] if new_lo <= new_hi else zero)
            )
        totals[turn % rules.players] += gain
        lo, hi = new_lo, new_hi
    return tuple(totals)


def interval_solve(coins: Sequence[Value], rules: Rules) -> VariantResult:
    """Solve a two-player interval variant by the general DP (see :class:`IntervalTable`).

    >>> interval_solve([4, -10, -20, 7], Rules.parse("take:any")).objective
    7
    """
    if not coins:
        return VariantResult((0, 0), 0, (), ())
    table = IntervalTable(coins, rules, keep=False)
    moves = table.optimal_line()
    return VariantResult(
        replay(coins, rules, moves),
        table.objective_of(0, len(coins) - 1),
        moves,
        table.optimal_moves_of(0, len(coins) - 1),
    )


# --- the pizza -------------------------------------------------------------------------------


def opened(coins: Sequence[Value], start: int) -> list[Value]:
    """The row the pizza leaves after its first slice ``start``: the next slice clockwise
    first (O(n)).

    >>> opened([1, 2, 3, 4], 1)
    [3, 4, 1]
    """
    return [*coins[start + 1 :], *coins[:start]]


def circular_margins(coins: Sequence[Value]) -> list[Value]:
    """The first player's margin for each first slice s, s - plain margin of the opened row,
    by the plain interval DP on the doubled row (O(n^2) for all starts together).

    >>> circular_margins([1, 2, 3, 4])
    [-2, 2, 0, 2]
    """
    n = len(coins)
    doubled = [*coins, *coins]
    zero = zero_like(list(coins[:1]))
    previous: list[Value] = []
    current: list[Value] = list(doubled)
    # windows of width w (w + 1 coins) starting at 0..2n-1-w, up to n - 1 coins
    for width in range(1, n - 1):
        previous = current
        current = [
            max(doubled[i] - previous[i + 1], doubled[i + width] - previous[i])
            for i in range(2 * n - width)
        ]
    if n == 1:
        return [coins[0]]
    return [coins[s] - (current[s + 1] if n > 1 else zero) for s in range(n)]


def circular_margins_fast(coins: Sequence[Value]) -> list[Value]:
    """The same margins by one O(n) reduction per first slice (O(n^2) in all, O(n) memory).

    >>> circular_margins_fast([1, 2, 3, 4])
    [-2, 2, 0, 2]
    """
    row = kernel_row(coins, PIZZA_KERNEL_MIN_LENGTH)
    if row is not None:  # int64-safe ints: the compiled reduction on each rotation
        import numpy as np

        from .kernels import reduce_whole

        rotated = np.empty_like(row)
        margins: list[Value] = []
        for start in range(len(row)):
            rotated[: len(row) - start] = row[start:]
            rotated[len(row) - start :] = row[:start]
            margins.append(int(reduce_whole(rotated)[2]))  # coin 0 minus the rest's margin
        return margins
    return [coins[s] - reduction.margin(opened(coins, s)) for s in range(len(coins))]


#: Shortest pizza whose reductions run compiled (int64-safe int rows).
PIZZA_KERNEL_MIN_LENGTH = 200


def circular_solve(coins: Sequence[Value], fast: bool = True) -> VariantResult:
    """The pizza: the first slice with the best margin, then optimal play on the opened row
    (O(n^2); the line by the reduction, O(n)). The first move is the slice's 0-based index.

    >>> circular_solve([1, 2, 3, 4])  # doctest: +NORMALIZE_WHITESPACE
    VariantResult(totals=(6, 4), objective=2, moves=('1', 'L', 'L', 'L'), first_moves=('1', '3'),
                  starts=(-2, 2, 0, 2))
    """
    if not coins:
        return VariantResult((0, 0), 0, (), (), ())
    margins = circular_margins_fast(coins) if fast else circular_margins(coins)
    best = max(margins)
    start = margins.index(best)
    rest = reduction.optimal_line(opened(coins, start))
    row = [coins[start], *opened(coins, start)]
    plain = Rules()
    totals = replay(row, plain, ("L", *rest))
    return VariantResult(
        totals,
        best,
        (str(start), *rest),
        tuple(str(s) for s, m in enumerate(margins) if m == best),
        tuple(margins),
    )


# --- fast paths on the reduction -------------------------------------------------------------


def _exact(coins: Sequence[Value]) -> Sequence[Value]:
    """Python ints for a NumPy row (its int64 arithmetic could overflow), else the row."""
    return coins.tolist() if is_int_array(coins) else coins  # type: ignore[attr-defined]


def _negated(coins: Sequence[Value]) -> tuple[Value, str, str, Any]:
    """Margin, line and first moves of the plain game on the negated row, and the row as an
    int64 array when it ran compiled (else None) (O(n))."""
    row = kernel_row(coins, KERNEL_MIN_LENGTH["reduction"])
    if row is not None:
        solved = reduction.solve_int64(-row)
        if solved is not None:
            return solved[0], str(solved[1].data, "ascii"), solved[2], row
    plain = reduction.solve([-coin for coin in coins])
    return plain.margin, plain.line, plain.first_moves, None


def _array_totals(row: Any, line: str, points: bool) -> tuple[int, int]:
    """Both players' totals along a line of L/R moves over an int64-safe row, vectorised
    (O(n)); Stone Game VII's points are summed in chunks that cannot overflow int64."""
    import numpy as np

    n = len(row)
    left = np.frombuffer(line.encode("ascii"), np.uint8) == ord("L")
    taken = np.where(left, np.cumsum(left) - 1, n - np.cumsum(~left))
    values = row[taken]
    if points:
        values = int(row.sum()) - np.cumsum(values)  # |each| <= sum of |a| < 2^62
    return _exact_sum(values[0::2]), _exact_sum(values[1::2])


def _exact_sum(values: Any) -> int:
    """Sum of an int64 array whose entries are below 2^62 in size, as a Python int (O(n))."""
    if not len(values):
        return 0
    step = max(1, INT64_SAFE_LIMIT // (int(abs(values).max()) + 1))
    return sum(int(values[start : start + step].sum()) for start in range(0, len(values), step))


def misere_solve(coins: Sequence[Value]) -> VariantResult:
    """Misère by the reduction on negated values (O(n)): the plain game on -a is the
    misère game on a, move for move, so its line is optimal and its margin is minus the
    misère margin (docs/variants.md). Long int64-safe int rows run compiled.

    >>> misere_solve([1, 5, 2]).totals
    (6, 2)
    """
    if not len(coins):
        return VariantResult((0, 0), 0, (), ())
    margin, line, first, row = _negated(coins)
    totals = _array_totals(row, line, False) if row is not None else None
    if totals is None:
        totals = replay(coins, Misere(), line)
    return VariantResult(totals, margin, tuple(line), tuple(first))


def stone_game_vii_solve(coins: Sequence[Value]) -> VariantResult:
    """Stone Game VII by the reduction on negated values (O(n)): each move scores the coins
    left, so the first player's margin is the sum of the coins the second player takes, and
    both play the misère game (docs/variants.md). Long int64-safe int rows run compiled.

    >>> stone_game_vii_solve([7, 90, 5, 1, 100, 10, 10, 2]).objective
    122
    """
    if not len(coins):
        return VariantResult((0, 0), 0, (), ())
    _, line, first, row = _negated(coins)
    if row is not None:
        totals: tuple[Value, ...] = _array_totals(row, line, True)
    else:
        totals = replay(_exact(coins), StoneGameVII(), line)
    return VariantResult(totals, totals[0] - totals[1], tuple(line), tuple(first))


# --- best reply to a known opponent ----------------------------------------------------------


def greedy_opponent(coins: Sequence[Value]) -> Opponent:
    """The greedy opponent: the larger end, left on equality (O(1) a call).

    >>> greedy_opponent([3, 2, 10, 4])(1, 3)
    'R'
    """
    return lambda lo, hi: "L" if coins[lo] >= coins[hi] else "R"


#: Opponents the engines know without the strategies module.
OPPONENTS: dict[str, Callable[[Sequence[Value]], Opponent]] = {"greedy": greedy_opponent}


def reply_solve(coins: Sequence[Value], opponent: Opponent) -> VariantResult:
    """The first player's best against a deterministic second player (O(n^2) states, one
    ``opponent`` call per state with the second player to move).

    F(i, j) = max(a_i + G(i+1, j), a_j + G(i, j-1)) with the first player to move;
    G(i, j) = F(the subgame the opponent's move leaves). ``objective`` is the margin.

    >>> reply_solve([3, 2, 10, 4], greedy_opponent([3, 2, 10, 4])).objective
    7
    """
    n = len(coins)
    if not n:
        return VariantResult((0, 0), 0, (), ())
    zero = zero_like(list(coins[:1]))
    below: list[Value] = []  # the first player's totals from the subgames one coin shorter
    codes: list[bytearray] = []  # 0 = L, 1 = R: the first player's best, or the opponent's move
    for width in range(n):
        first_moves = (n - width - 1) % 2 == 0
        row_values: list[Value] = []
        row_codes = bytearray()
        for i in range(n - width):
            j = i + width
            after_left = below[i + 1] if width else zero
            after_right = below[i] if width else zero
            if first_moves:
                take_left, take_right = coins[i] + after_left, coins[j] + after_right
                if take_left >= take_right:
                    row_values.append(take_left)
                    row_codes.append(0)
                else:
                    row_values.append(take_right)
                    row_codes.append(1)
            else:
                move = opponent(i, j)
                if move not in ("L", "R"):
                    raise UnsupportedRulesError(f"the opponent played {move!r}, not L or R")
                row_values.append(after_left if move == "L" else after_right)
                row_codes.append(0 if move == "L" else 1)
        if width < n - 1:
            below = row_values
        codes.append(row_codes)
    moves, lo, hi = [], 0, n - 1
    while lo <= hi:
        side = codes[hi - lo][lo]
        moves.append(_SIDES[side])
        lo, hi = advance(lo, hi, side, 1)
    first = row_values[0]
    total = sum(coins, zero)
    after_left = below[1] if n > 1 else zero
    after_right = below[0] if n > 1 else zero
    options = {"L": coins[0] + after_left, "R": coins[n - 1] + after_right}
    best_first = tuple(move for move, value in options.items() if value == first)
    return VariantResult((first, total - first), first - (total - first), tuple(moves), best_first)


#: Shortest row whose best reply to greedy runs compiled (int64-safe int rows).
REPLY_KERNEL_MIN_LENGTH = 64


def reply_greedy_solve(coins: Sequence[Value]) -> VariantResult:
    """The best reply to the greedy opponent (SPOJ TWENDS): :func:`reply_solve` with
    :func:`greedy_opponent`, compiled for int64-safe int rows of
    :data:`REPLY_KERNEL_MIN_LENGTH` coins or more (the same results; O(n^2) time, n(n+1)/2
    bytes of move codes, O(n) values).

    >>> reply_greedy_solve([3, 2, 10, 4]).objective, reply_greedy_solve(list(range(100))).totals
    (7, (2500, 2450))
    """
    row = kernel_row(coins, REPLY_KERNEL_MIN_LENGTH)
    if row is None:
        return reply_solve(coins, greedy_opponent(coins))
    from .variant_kernels import reply_greedy

    first, after_left, after_right, codes = reply_greedy(row)
    n = len(row)
    moves, lo, hi = [], 0, n - 1
    while lo <= hi:
        width = hi - lo
        side = int(codes[width * n - width * (width - 1) // 2 + lo])
        moves.append(_SIDES[side])
        lo, hi = advance(lo, hi, side, 1)
    total = int(row.sum())
    options = {"L": int(row[0]) + after_left, "R": int(row[n - 1]) + after_right}
    best_first = tuple(move for move, value in options.items() if value == first)
    return VariantResult((first, total - first), 2 * first - total, tuple(moves), best_first)


# --- N players -------------------------------------------------------------------------------


def search_solve(coins: Sequence[Value], rules: Rules) -> VariantResult:
    """The general memoised search of two-player rules whose positions are not intervals
    (``Rules.engine == "search-dp"``): the rules give the start state and, for a state,
    each move with the coins it takes from the front and the next state
    (:meth:`~coinrow.rules.Rules.state_moves`); the mover maximises their total minus the
    other's. O(sum of moves over the reachable states) time and memory; an explicit stack,
    so no recursion limit.

    >>> class FrontOneOrTwo(Rules):  # a rule given by its states: coins gone from the front
    ...     engine, interval, positions, counted_moves, take = "search-dp", False, False, True, 2
    ...     def start_state(self): return (0,)
    ...     def state_moves(self, state, n):
    ...         return tuple((self.move(0, c), c, (state[0] + c,)) for c in (1, 2) if state[0] + c <= n)
    >>> result = search_solve([1, 2, 3, 7], FrontOneOrTwo())
    >>> result.totals, result.moves, result.first_moves
    ((8, 5), ('L1', 'L2', 'L1'), ('L1',))
    """  # noqa: E501
    n = len(coins)
    zero = zero_like(list(coins[:1]))
    if not n:
        return VariantResult((zero, zero), zero, (), ())
    prefix = [zero, *accumulate(coins)]
    start = rules.start_state()
    best: dict[Any, tuple[Value, int]] = {}  # state -> (mover's margin, index of first best)
    stack = [start]
    while stack:
        state = stack[-1]
        if state in best:
            stack.pop()
            continue
        moves = rules.state_moves(state, n)
        missing = [child for _, _, child in moves if child not in best and not _over(child, n)]
        if missing:
            stack.extend(missing)
            continue
        stack.pop()
        gone = state[0]
        values = [
            prefix[gone + taken] - prefix[gone] - (zero if _over(child, n) else best[child][0])
            for _, taken, child in moves
        ]
        top = max(values)
        best[state] = (top, values.index(top))  # ties: the first move in the rules' order
    line: list[str] = []
    totals = [zero, zero]
    state, turn = start, 0
    while not _over(state, n):
        move, taken, child = rules.state_moves(state, n)[best[state][1]]
        line.append(move)
        totals[turn] += prefix[state[0] + taken] - prefix[state[0]]
        state, turn = child, 1 - turn
    top = best[start][0]
    firsts = tuple(
        move
        for move, taken, child in rules.state_moves(start, n)
        if prefix[taken] - (zero if _over(child, n) else best[child][0]) == top
    )
    return VariantResult(tuple(totals), top, tuple(line), firsts)


def _over(state: Any, n: int) -> bool:
    """A search state is over when every coin is gone (its first item counts them)."""
    return bool(state[0] >= n)


def players_solve(coins: Sequence[Value], players: int, tie_break: str) -> VariantResult:
    """N players in turn, each maximising their own total (O(n^2 p) time, O(n p) values kept
    plus O(n^2) move codes).

    V(i, j) lists the totals from subgame i..j of the mover and the players after them; a
    move to child C gives the mover a + C[p-1] and the player k seats later C[k-1]. Ties in
    the mover's total go by ``tie_break``: ``left``, ``right``, or ``spite`` (the move that
    leaves the best-off other player the least, then left).

    >>> players_solve([1, 2, 3, 4, 5], 3, "left").totals
    (7, 5, 3)
    """
    n = len(coins)
    zero = zero_like(list(coins[:1]))
    if not n:
        return VariantResult((zero,) * players, None if players > 2 else zero, (), ())
    empty = (zero,) * players
    previous: list[tuple[Value, ...]] = []
    codes: list[bytearray] = []
    for width in range(n):
        current: list[tuple[Value, ...]] = []
        row_codes = bytearray()
        for i in range(n - width):
            j = i + width
            left_child = previous[i + 1] if width else empty
            right_child = previous[i] if width else empty
            left = (coins[i] + left_child[-1], *left_child[:-1])
            right = (coins[j] + right_child[-1], *right_child[:-1])
            if width == 0 or left[0] > right[0]:
                choice = 0
            elif right[0] > left[0] or tie_break == "right":
                choice = 1
            elif tie_break == "spite":
                choice = 1 if max(right[1:]) < max(left[1:]) else 0
            else:
                choice = 0
            current.append(right if choice else left)
            row_codes.append(choice)
        previous = current
        codes.append(row_codes)
    totals = previous[0]
    moves, lo, hi = [], 0, n - 1
    while lo <= hi:
        side = codes[hi - lo][lo]
        moves.append(_SIDES[side])
        lo, hi = advance(lo, hi, side, 1)
    first = ("L", "R") if n == 1 else _players_first(coins, codes, players, zero)
    objective = totals[0] - totals[1] if players == 2 else None
    return VariantResult(tuple(totals), objective, tuple(moves), first)


def _players_first(
    coins: Sequence[Value], codes: list[bytearray], players: int, zero: Value
) -> tuple[str, ...]:
    """First moves giving the first player their best total (O(n p): two replays)."""
    n = len(coins)
    result = {}
    for side, (lo, hi) in enumerate(((1, n - 1), (0, n - 2))):
        taken = coins[0] if side == 0 else coins[n - 1]
        own, turn = taken, 1
        while lo <= hi:
            code = codes[hi - lo][lo]
            if turn % players == 0:
                own += coins[lo] if code == 0 else coins[hi]
            lo, hi = advance(lo, hi, code, 1)
            turn += 1
        result[_SIDES[side]] = own
    best = max(result.values())
    return tuple(move for move, value in result.items() if value == best)
