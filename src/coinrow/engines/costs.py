"""What the engines cost, estimated before any work: seconds and bytes of every engine.

The plain game's engines (:func:`estimated_solve_seconds`, :func:`check_cost`), the bytes of
the plain table (:func:`bytes_per_cell`), and the variants' engines (:func:`variant_cost`,
:func:`position_solves_cost`), each from measured costs per subgame, scaled by the row's
numbers. Every caller that bounds a cost before paying it (the library's ``max_seconds``,
the web's request limits, the census) asks here.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from ..errors import CostLimitError, InvalidOptionError, RowTooLongError, UnknownEngineError
from ..numbers import Value, sum_bits
from ..rules import Rules
from .dispatch import (
    ENGINES,
    KERNEL_MIN_LENGTH,
    PIZZA_KERNEL_MIN_LENGTH,
    REPLY_KERNEL_MIN_LENGTH,
    int64_safe,
    kernel_row,
)
from .interval import TAKE_MOVES_MAX_K


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


#: Seconds to replay one move of a game under rules other than the plain game's (read the
#: move, check it, take its coins), as :class:`~coinrow.game.Game` does for a solution's
#: ``to_dict`` and ``transcript``: 12-14 us measured at 1,000 coins, rounded up.
REPLAY_SECONDS_PER_MOVE = 2e-5


def replay_seconds(moves: int) -> float:
    """Estimated seconds to replay ``moves`` moves under rules other than the plain game's
    (O(1)); the plain game's line is read without a replay.

    >>> replay_seconds(1000)
    0.02
    """
    return moves * REPLAY_SECONDS_PER_MOVE


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
    """Estimated seconds of the opponent's moves in a ``reply`` solve of ``n`` coins: one
    move in each subgame of m coins with n - m odd (n - m + 1 of them), priced by ``cost``
    (None: :data:`OPPONENT_MOVE_SECONDS` a move) (O(n)).

    >>> reply_calls_seconds(4, MoveCost(1.0, lambda m: m))  # once, 2 subgames of 3, 4 of 1
    11.0
    """
    once, move = cost if cost is not None else (0.0, _undeclared_move)
    return once + sum((n - m + 1) * move(m) for m in range(n - 1, 0, -2))


def _undeclared_move(m: int) -> float:
    return OPPONENT_MOVE_SECONDS


# --- the plain game's engines ----------------------------------------------------------------

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


#: Bytes per subgame of the pure-Python table besides the number itself: the list slot and
#: the lists' spare capacity (measured: 40 bytes a cell in all for small ints).
SLOT_BYTES: int = 12


def bytes_per_cell(coins: Sequence[Value], cap: int | None = None) -> int:
    """Estimated bytes per subgame of the pure-Python table of a validated row, from the
    largest number any cell can hold (O(n); see :func:`coinrow.numbers.sum_bits`, whose
    common denominator of Fractions is abandoned past ``cap`` bytes).

    Every cell value is a sum of some of the coins, so it is bounded by the sum of their
    absolute values; Fractions share the least common denominator of the coins, and an exact
    Decimal sum needs the digits from the row's largest exponent down to its smallest.
    Measured: 40 bytes for small ints, 113 for short Decimals, 142 for small Fractions.

    >>> bytes_per_cell([1, 2, 3]), bytes_per_cell([Decimal("0.5")]) > 100
    (40, True)
    """
    if not coins:
        return SLOT_BYTES
    first = coins[0]
    if isinstance(first, Fraction):
        bits = sum_bits(coins, None if cap is None else 8 * cap)
        return SLOT_BYTES + sys.getsizeof(first) + 2 * (sys.getsizeof(0) + 4 * (bits // 60 + 1))
    if isinstance(first, Decimal):
        digits = sum_bits(coins) * 0.30103
        return SLOT_BYTES + sys.getsizeof(Decimal(0)) + 8 * (int(digits) // 19 + 1)
    return SLOT_BYTES + sys.getsizeof(sum(map(abs, coins)))


# --- the variants' engines -------------------------------------------------------------------

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
