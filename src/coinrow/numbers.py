"""Coin values: parsing and validation of exact numbers.

Coins are exact: :class:`int` (any size), :class:`~decimal.Decimal` or
:class:`~fractions.Fraction`. A row is normalised to one arithmetic family so that sums never
mix incompatible types: ints stay ints; ints with Decimals become Decimals; any Fraction makes
the whole row Fractions (a Decimal converts to a Fraction exactly). Text tokens are parsed as
ints when they are integer literals, as Fractions when written ``p/q`` and as Decimals
otherwise, so ``0.1 0.2 0.3`` is exact. Floats are accepted through their shortest decimal
representation (``0.1`` becomes ``Decimal("0.1")``).
"""

from __future__ import annotations

import contextlib
import decimal
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any, TypeAlias, TypeVar

from .errors import InvalidCoinError, InvalidRowError

Value: TypeAlias = Any
"""An exact coin value: ``int | Decimal | Fraction``. Spelled ``Any`` for the type checker,
which cannot type arithmetic across that union; :func:`coerce_coins` enforces it at run time."""

T = TypeVar("T")

_INT_TOKEN = re.compile(r"[+-]?\d+")
_FRACTION_TOKEN = re.compile(r"[+-]?\d+/\d+")
_SEPARATORS = re.compile(r"[\s,;]+")

#: Arithmetic context used for Decimal rows: unbounded precision, and every inexact
#: operation raises instead of rounding, so a result can never silently lose digits.
EXACT_CONTEXT = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[
        decimal.InvalidOperation,
        decimal.Inexact,
        decimal.Rounded,
        decimal.Overflow,
        decimal.DivisionByZero,
    ],
)


@contextlib.contextmanager
def exact_arithmetic() -> Iterator[None]:
    """Run Decimal arithmetic without rounding (O(1)).

    >>> from decimal import Decimal
    >>> with exact_arithmetic():
    ...     Decimal("1" * 40) + Decimal("0.1")
    Decimal('1111111111111111111111111111111111111111.1')
    """
    with decimal.localcontext(EXACT_CONTEXT):
        yield


def parse_token(token: str, position: int = 0) -> Value:
    """Parse one text token as an exact value (O(len(token))).

    >>> parse_token("12"), parse_token("0.1"), parse_token("1/3")
    (12, Decimal('0.1'), Fraction(1, 3))
    >>> parse_token("abc", 4)
    Traceback (most recent call last):
    ...
    coinrow.errors.InvalidCoinError: coin 5 ('abc'): not a number
    """
    text = token.strip()
    if _INT_TOKEN.fullmatch(text):
        return int(text)
    if _FRACTION_TOKEN.fullmatch(text):
        numerator, denominator = text.split("/")
        if int(denominator) == 0:
            raise InvalidCoinError(position, token, "zero denominator")
        return Fraction(int(numerator), int(denominator))
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise InvalidCoinError(position, token, "not a number") from None
    return _check_decimal(value, position, token)


#: Largest Decimal exponent accepted: exact sums of 1E+N and 1 need about N digits.
MAX_DECIMAL_EXPONENT = 100_000


def _check_decimal(value: decimal.Decimal, position: int, token: object) -> decimal.Decimal:
    if value.is_nan():
        raise InvalidCoinError(position, token, "NaN is not a coin value")
    if value.is_infinite():
        raise InvalidCoinError(position, token, "infinity is not a coin value")
    if abs(value.as_tuple().exponent) > MAX_DECIMAL_EXPONENT:  # type: ignore[arg-type]
        raise InvalidCoinError(
            position,
            token,
            f"exponent beyond ±{MAX_DECIMAL_EXPONENT:,}: too many digits to add exactly",
        )
    return value


def split_tokens(text: str) -> list[str]:
    """Split text on whitespace, commas and semicolons (O(len(text))).

    >>> split_tokens(" 1, 2\\n3 ;4 ")
    ['1', '2', '3', '4']
    """
    return [token for token in _SEPARATORS.split(text) if token]


def parse_coins(text: str) -> list[Value]:
    """Parse a whitespace- or comma-separated row of coins (O(len(text))).

    >>> parse_coins("0.1 0.2, 0.3")
    [Decimal('0.1'), Decimal('0.2'), Decimal('0.3')]
    """
    return coerce_coins(split_tokens(text))


def coerce_value(item: object, position: int = 0) -> Value:
    """Validate one coin value and return it as an exact number (O(1) for numbers).

    >>> coerce_value(3), coerce_value(0.25), coerce_value("7")
    (3, Decimal('0.25'), 7)
    >>> coerce_value(True)
    Traceback (most recent call last):
    ...
    coinrow.errors.InvalidCoinError: coin 1 (True): booleans are not coin values
    """
    if isinstance(item, bool):
        raise InvalidCoinError(position, item, "booleans are not coin values")
    if isinstance(item, int):
        return int(item)  # int subclasses (IntEnum, ...) become plain ints
    if isinstance(item, Fraction):
        return item
    if isinstance(item, decimal.Decimal):
        return _check_decimal(item, position, item)
    if isinstance(item, str):
        return parse_token(item, position)
    if isinstance(item, float):
        if item != item:
            raise InvalidCoinError(position, item, "NaN is not a coin value")
        if item in (float("inf"), float("-inf")):
            raise InvalidCoinError(position, item, "infinity is not a coin value")
        return decimal.Decimal(repr(item))
    return _coerce_foreign(item, position)


def _coerce_foreign(item: Any, position: int) -> Value:
    """NumPy scalars and other number-likes; anything else is rejected."""
    kind = getattr(getattr(item, "dtype", None), "kind", None)
    if kind == "b":
        raise InvalidCoinError(position, item, "booleans are not coin values")
    if kind in ("i", "u"):
        return int(item)
    if kind == "f":
        return coerce_value(float(item), position)
    raise InvalidCoinError(position, item, f"not a number ({type(item).__name__})")


def coerce_coins(items: Iterable[object]) -> list[Value]:
    """Validate a row of coins and normalise it to one exact arithmetic family (O(n)).

    >>> coerce_coins([1, 2, 3])
    [1, 2, 3]
    >>> coerce_coins([1, "0.5"])
    [Decimal('1'), Decimal('0.5')]
    >>> coerce_coins([Fraction(1, 3), "0.5"])
    [Fraction(1, 3), Fraction(1, 2)]
    """
    if isinstance(items, str):
        return parse_coins(items)
    if is_int_array(items):
        return items.tolist()  # type: ignore[attr-defined, no-any-return]
    if not isinstance(items, Iterable):
        raise InvalidRowError(f"a row of coins must be a sequence of numbers, not {items!r}")
    items = list(items)
    if all(type(item) is int for item in items):
        return items  # the common case, checked at C speed
    values = [coerce_value(item, position) for position, item in enumerate(items)]
    kinds = {type(value) for value in values}
    if kinds <= {int}:
        return values
    if Fraction in kinds:
        return [Fraction(value) for value in values]
    return [decimal.Decimal(value) for value in values]


def is_int_array(items: object) -> bool:
    """A NumPy integer array, recognised without importing NumPy (O(1)).

    >>> is_int_array([1, 2]), is_int_array("12")
    (False, False)
    """
    kind = getattr(getattr(items, "dtype", None), "kind", None)
    return kind in ("i", "u") and hasattr(items, "tolist")


#: Int rows whose absolute values sum to less than this run in int64 (see docs/kernels.md):
#: every margin, value, prefix sum and merged entry is bounded by that sum, and the factor
#: 2 of headroom keeps ``total + margin`` in range too.
INT64_SAFE_LIMIT: int = 2**62

#: Shortest int row each engine sends to its compiled kernel. Below these, importing Numba
#: and loading the cached kernels (about 0.5 s, once per process) costs more than solving in
#: Python (the reduction: about 0.75 us per coin; the O(n^2) engines: 0.2 s at n = 1000).
KERNEL_MIN_LENGTH: dict[str, int] = {
    "reduction": 100_000,
    "table": 1_000,
    "linear": 1_000,
    "cooperative": 1_000,
}


def int64_safe(coins: Any) -> bool:
    """True when the int row's absolute values sum to less than :data:`INT64_SAFE_LIMIT`,
    so every intermediate of every kernel fits in int64 (O(n), exact).

    A quick accept (``max|a| * n`` below the limit) needs only the minimum and maximum;
    otherwise the absolute values are summed exactly, stopping once the limit is reached.

    >>> int64_safe([2**61, -(2**61) + 1]), int64_safe([2**61, -(2**61)]), int64_safe([])
    (True, False, True)
    """
    n = len(coins)
    if n == 0:
        return True
    if is_int_array(coins):
        from .engines.kernels import bounds

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

    That is when the engine has a kernel (``min_length`` is not None), the row has at least
    ``min_length`` coins, every coin is a plain int or the row is a NumPy integer array, and
    the row is :func:`int64_safe` (left to the caller when not ``checked``: the reduction
    checks it in a second thread). Everything else (short rows, huge ints, Decimal,
    Fraction, text) stays on the exact pure-Python path.

    >>> kernel_row([1, 2, 3], None), kernel_row([1, 2, 3], 10), kernel_row([1, 2, 3], 1)
    (None, None, array([1, 2, 3]))
    >>> kernel_row([2**62, 1], 1) is None
    True
    """
    if min_length is None or isinstance(items, str) or not hasattr(items, "__len__"):
        return None
    if len(items) < min_length:
        return None
    if is_int_array(items):
        row = _int64_array(items)
    elif isinstance(items, list | tuple) and set(map(type, items)) <= {int}:
        import numpy as np

        try:
            row = np.array(items, dtype=np.int64)
        except OverflowError:
            return None
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


def exact_row(func: Callable[..., T]) -> Callable[..., T]:
    """Decorate a function of a row: validate the row, then run with exact arithmetic."""

    @functools.wraps(func)
    def wrapper(coins: Iterable[object], *args: Any, **kwargs: Any) -> T:
        row = coerce_coins(coins)
        with exact_arithmetic():
            return func(row, *args, **kwargs)

    return wrapper


def zero_like(coins: list[Value]) -> Value:
    """The zero of the row's arithmetic family (O(1)).

    >>> zero_like([Fraction(1, 2)])
    Fraction(0, 1)
    """
    if coins and isinstance(coins[0], Fraction):
        return Fraction(0)
    if coins and isinstance(coins[0], decimal.Decimal):
        return decimal.Decimal(0)
    return 0


def format_value(value: Value) -> str:
    """Text form of an exact value: ``"8"``, ``"0.4"``, ``"1/3"`` (O(digits)).

    >>> format_value(8), format_value(decimal.Decimal("1E+2")), format_value(Fraction(4, 2))
    ('8', '100', '2')
    """
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    return str(value)


def json_value(value: Value) -> int | str:
    """JSON form of an exact value: ints as numbers, other values as exact strings (O(digits)).

    >>> json_value(8), json_value(decimal.Decimal("0.4")), json_value(Fraction(1, 3))
    (8, '0.4', '1/3')
    """
    return value if isinstance(value, int) else format_value(value)


def halve(value: Value) -> Value:
    """Exactly half of a value known to be a multiple of two for ints (O(digits)).

    >>> halve(16), halve(decimal.Decimal("0.8")), halve(Fraction(1, 3))
    (8, Decimal('0.4'), Fraction(1, 6))
    """
    if isinstance(value, int):
        return value // 2
    with exact_arithmetic():
        return value / 2
