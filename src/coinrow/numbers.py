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
import dataclasses
import decimal
import functools
import math
import random
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias, TypeVar

from .errors import CoinrowError, InvalidCoinError, InvalidOptionError, InvalidRowError

Value: TypeAlias = Any
"""An exact coin value: ``int | Decimal | Fraction``. Spelled ``Any`` for the type checker,
which cannot type arithmetic across that union; :func:`coerce_coins` enforces it at run time."""

T = TypeVar("T")

# The one token grammar (docs/numbers.md): ASCII digits only, no digit separators.
_INT_TOKEN = re.compile(r"[+-]?[0-9]+")
_FRACTION_TOKEN = re.compile(r"[+-]?[0-9]+/[0-9]+")
_DECIMAL_TOKEN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INFINITY_TOKEN = re.compile(r"[+-]?inf(?:inity)?", re.IGNORECASE)
_NAN_TOKEN = re.compile(r"[+-]?s?nan[0-9]*", re.IGNORECASE)
#: Separators between tokens: ASCII whitespace, commas and semicolons.
SEPARATORS = re.compile(r"[ \t\n\r\f\v,;]+")

#: Longest number read from text, in decimal digits (int tokens, Decimal coefficients and
#: exponents): reading or printing a 100,000-digit int takes about 0.1 s, and the cost grows
#: as the square of the length. Ints given as Python ints are taken as they are.
MAX_DIGITS = 100_000

# Ints below 2**_SHORT_BITS have at most 4,300 digits (the interpreter's default limit on
# int <-> str conversions).
_SHORT_BITS = 14_284
#: Ints of more digits than this are exact strings in JSON: JSON readers, Python's included,
#: refuse longer numbers.
JSON_INT_DIGITS = 4_300


def digit_count(number: int) -> int:
    """Decimal digits of an int, without its sign (O(1) for ints below 10**4300, O(d^2)
    beyond, like any conversion).

    >>> digit_count(0), digit_count(-999), digit_count(10**5000)
    (1, 3, 5001)
    """
    return len(int_text(abs(number)))


def int_text(number: int) -> str:
    """The decimal text of an int of any size up to :data:`MAX_DIGITS` digits, without the
    interpreter's 4,300-digit limit and without changing it (O(d^2) for d digits).

    >>> int_text(-42), len(int_text(10**5000))
    ('-42', 5001)
    """
    if number.bit_length() < _SHORT_BITS:
        return str(number)
    return str(decimal.Decimal(number))  # Decimal conversions are not limited


def _parse_int(text: str, position: int, token: object) -> int:
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise InvalidCoinError(position, _short(token), f"more than {MAX_DIGITS:,} digits")
    if digits <= 4000:
        return int(text)
    return int(decimal.Decimal(text))  # exact, and not limited like int(text)


def _short(token: object) -> object:
    """A token cut for an error message."""
    if isinstance(token, str) and len(token) > 40:
        return f"{token[:20]}...{token[-10:]}"
    return token


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
    text = token.strip(" \t\n\r\f\v")
    if _INT_TOKEN.fullmatch(text):
        return _parse_int(text, position, token)
    if _FRACTION_TOKEN.fullmatch(text):
        numerator, denominator = text.split("/")
        bottom = _parse_int(denominator, position, token)
        if bottom == 0:
            raise InvalidCoinError(position, token, "zero denominator")
        return Fraction(_parse_int(numerator, position, token), bottom)
    if _DECIMAL_TOKEN.fullmatch(text):
        return parse_decimal(text, position, _short(token))
    if _INFINITY_TOKEN.fullmatch(text):
        raise InvalidCoinError(position, token, "infinity is not a coin value")
    if _NAN_TOKEN.fullmatch(text):
        raise InvalidCoinError(position, token, "NaN is not a coin value")
    reason = "not a number" if text.isascii() else "not a number (digits must be ASCII 0-9)"
    raise InvalidCoinError(position, _short(token), reason)


#: Largest Decimal exponent accepted: exact sums of 1E+N and 1 need about N digits.
MAX_DECIMAL_EXPONENT = 100_000


_EXPONENT_REFUSED = f"exponent beyond ±{MAX_DECIMAL_EXPONENT:,}: too many digits to add exactly"

#: Longest exponent read from text, in digits once leading zeros are dropped: a longer one
#: is beyond :data:`MAX_DECIMAL_EXPONENT` whatever the coefficient (at most
#: :data:`MAX_DIGITS` digits), and from 10**18 on Python's Decimal cannot even hold it.
_EXPONENT_DIGITS = 15


def parse_decimal(text: str, position: int = 0, token: object = None) -> decimal.Decimal:
    """A Decimal from the text of a decimal number (``"0.1"``, ``"9e-3"``), checked like
    every coin: finite, exponent within ±:data:`MAX_DECIMAL_EXPONENT`, at most
    :data:`MAX_DIGITS` digits (O(len(text))). The one place text becomes a Decimal, so an
    exponent of any length is an :class:`~coinrow.errors.InvalidCoinError`, never an
    arithmetic error.

    >>> parse_decimal("2.50")
    Decimal('2.50')
    >>> parse_decimal("9e99999999999999999999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coinrow.errors.InvalidCoinError: coin 1 ('9e99999999999999999999'): exponent beyond ...
    """
    token = text if token is None else token
    exponent = text.lower().partition("e")[2]
    if len(exponent.lstrip("+-").lstrip("0")) > _EXPONENT_DIGITS:
        raise InvalidCoinError(position, _short(token), _EXPONENT_REFUSED)
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise InvalidCoinError(position, _short(token), "not a number") from None
    return _check_decimal(value, position, token)


def json_number(text: str) -> decimal.Decimal | str:
    """``parse_float`` for :func:`json.loads`: a JSON number with a fraction or exponent as
    an exact Decimal, or, when no Decimal can hold it (an exponent of 10**18 or more), as
    its text, which the coin parser then refuses with the usual sentence (O(len(text))).

    >>> json_number("0.1"), json_number("9e99999999999999999999")
    (Decimal('0.1'), '9e99999999999999999999')
    """
    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        return text


def _check_decimal(value: decimal.Decimal, position: int, token: object) -> decimal.Decimal:
    if value.is_nan():
        raise InvalidCoinError(position, token, "NaN is not a coin value")
    if value.is_infinite():
        raise InvalidCoinError(position, token, "infinity is not a coin value")
    _, digits, exponent = value.as_tuple()
    if abs(exponent) > MAX_DECIMAL_EXPONENT:  # type: ignore[arg-type]
        raise InvalidCoinError(position, token, _EXPONENT_REFUSED)
    if len(digits) > MAX_DIGITS:
        raise InvalidCoinError(position, _short(token), f"more than {MAX_DIGITS:,} digits")
    return value


def split_tokens(text: str) -> list[str]:
    """Split text on whitespace, commas and semicolons (O(len(text))).

    >>> split_tokens(" 1, 2\\n3 ;4 ")
    ['1', '2', '3', '4']
    """
    return [token for token in SEPARATORS.split(text) if token]


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
        return decimal.Decimal(repr(float(item)))  # NumPy floats too, by their shortest text
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


#: Int rows whose absolute values sum to less than this run in int64 (docs/kernels.md): every
#: margin, value, prefix sum and merged entry is bounded by that sum, and the factor 2 of
#: headroom keeps ``total + margin`` in range too.
INT64_SAFE_LIMIT: int = 2**62

#: The number kinds of a row: every coin an int, a Decimal, or a Fraction.
ROW_KINDS = ("int", "decimal", "fraction")


class Row(tuple):  # type: ignore[type-arg]  # a tuple of Value; typed through Value (Any)
    """A validated row of coins: an immutable tuple of exact numbers of one kind, with what
    the layers below read from it, so a row is validated once, where it enters (the
    library's public functions, the CLI, the web), and trusted after.

    Make one with :meth:`Row.of` (O(n) to validate; O(1), the row itself, when given a
    ``Row``). It is a ``tuple`` (equal to, hashed and printed as the tuple of its coins)
    carrying :attr:`kind` (``"int"``, ``"decimal"`` or ``"fraction"``), :attr:`size` and
    :attr:`int64_safe` (computed once, when first asked).

    >>> row = Row.of([3, "0.5"])
    >>> row, row.kind, row.size, Row.of(row) is row
    ((Decimal('3'), Decimal('0.5')), 'decimal', 2, True)
    >>> Row.of([1, 2**62]).int64_safe, Row.of([1, -2]).int64_safe
    (False, True)
    """

    kind: str

    @classmethod
    def of(cls, items: Iterable[object]) -> Row:
        """The validated row of ``items`` (a sequence of numbers, a NumPy int array, or text
        such as ``"1 2 3"``), normalised to one exact arithmetic family; a ``Row`` is returned
        as it is (O(n); O(1) for a ``Row``). Bad input raises an
        :class:`~coinrow.errors.InvalidCoinError` or :class:`~coinrow.errors.InvalidRowError`.
        """
        if isinstance(items, Row):
            return items
        values, kind = _validated(items)
        row = tuple.__new__(cls, values)
        row.kind = kind
        return row

    @property
    def size(self) -> int:
        """The number of coins (O(1))."""
        return len(self)

    @functools.cached_property
    def int64_safe(self) -> bool:
        """True when every coin is an int and their absolute values sum to less than
        :data:`INT64_SAFE_LIMIT`, so every intermediate of every compiled kernel fits in
        int64 (O(n) the first time, then O(1)).
        """
        if self.kind != "int":
            return False
        if not self:
            return True
        largest = max(max(self), -min(self))
        if largest * len(self) < INT64_SAFE_LIMIT:
            return True
        return bool(largest < INT64_SAFE_LIMIT and sum(map(abs, self)) < INT64_SAFE_LIMIT)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_trusted_row, (tuple(self), self.kind))


def _trusted_row(values: tuple[Value, ...], kind: str) -> Row:
    """A row of values already validated (unpickling) (O(n))."""
    row = tuple.__new__(Row, values)
    row.kind = kind
    return row


def coerce_coins(items: Iterable[object]) -> list[Value]:
    """Validate a row of coins and normalise it to one exact arithmetic family, as a list
    (O(n); O(n) to copy a :class:`Row`, which is not validated again). Functions that keep
    the row take a :class:`Row` (:meth:`Row.of`) instead.

    >>> coerce_coins([1, 2, 3])
    [1, 2, 3]
    >>> coerce_coins([1, "0.5"])
    [Decimal('1'), Decimal('0.5')]
    >>> coerce_coins([Fraction(1, 3), "0.5"])
    [Fraction(1, 3), Fraction(1, 2)]
    """
    if isinstance(items, Row):
        return list(items)
    return _validated(items)[0]


def _validated(items: Iterable[object]) -> tuple[list[Value], str]:
    """The coins as a list of one exact family, and its kind (O(n))."""
    if isinstance(items, str):
        items = split_tokens(items)
    _check_row_kind(items)
    if is_int_array(items):
        return items.tolist(), "int"  # type: ignore[attr-defined]
    items = list(items)
    if set(map(type, items)) <= {int}:  # the common case, checked at C speed
        return items, "int"
    values = [coerce_value(item, position) for position, item in enumerate(items)]
    kinds = {type(value) for value in values}
    if kinds <= {int}:
        return values, "int"
    if Fraction in kinds:
        return [Fraction(value) for value in values], "fraction"
    return [decimal.Decimal(value) for value in values], "decimal"


def _check_row_kind(items: object) -> None:
    """Refuse what is not an ordered row of numbers: non-iterables, bytes (their items are
    byte values, not coins), sets and mappings (no order), arrays of other than one axis,
    masked arrays with coins masked."""
    if isinstance(items, bytes | bytearray | memoryview):
        raise InvalidRowError("bytes are not a row of coins: decode the text, then parse it")
    if isinstance(items, Set | Mapping):
        raise InvalidRowError(
            f"a {type(items).__name__} has no order: give the coins as a list or tuple"
        )
    if not isinstance(items, Iterable):
        raise InvalidRowError(
            f"a row of coins must be a sequence of numbers, not {type(items).__name__}"
        )
    dimensions = getattr(items, "ndim", 1)
    if dimensions != 1:
        raise InvalidRowError(
            f"a row of coins is one-dimensional; this array has {dimensions} dimensions"
        )
    mask = getattr(items, "mask", None)
    if mask is not None and hasattr(items, "filled") and bool(getattr(mask, "any", bool)()):
        raise InvalidRowError(
            "a masked array hides some of its coins: give the coins of the row "
            "(array.compressed()) or fill the masked ones (array.filled(value))"
        )


def is_int_array(items: object) -> bool:
    """A NumPy integer array, recognised without importing NumPy (O(1)).

    >>> is_int_array([1, 2]), is_int_array("12")
    (False, False)
    """
    kind = getattr(getattr(items, "dtype", None), "kind", None)
    return kind in ("i", "u") and hasattr(items, "tolist")


def exact_row(func: Callable[..., T]) -> Callable[..., T]:
    """Decorate a function of a row: validate the row, then run with exact arithmetic."""

    @functools.wraps(func)
    def wrapper(coins: Iterable[object], *args: Any, **kwargs: Any) -> T:
        row = Row.of(coins)
        with exact_arithmetic():
            return func(row, *args, **kwargs)

    return wrapper


def sum_bits(coins: Sequence[Value], cap: int | None = None) -> int:
    """Bits of the largest number an exact sum of some of the row's coins can need: what
    exact arithmetic on the row costs grows with it (O(n) for int and Decimal rows).

    Ints: the bits of the sum of the absolute values. Decimals: the digits from the largest
    exponent (plus the row's length) down to the smallest, in bits. Fractions: the bits of
    the denominators' least common multiple, twice (numerator and denominator), plus the
    bits of the largest integer part times the row's length (large numerators). The common
    multiple is computed over the distinct denominators and abandoned once it passes
    ``cap`` bits (a result over ``cap`` means "at least that"): O(m * cap * b) for m
    distinct denominators of b bits, never more than what the sums themselves would cost.

    >>> sum_bits([1, 2, 3]), sum_bits([decimal.Decimal("0.001"), decimal.Decimal("1E+3")])
    (4, 24)
    >>> sum_bits([Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)])
    9
    >>> sum_bits([Fraction(2**70, 3)])  # the integer part counts too
    76
    """
    if len(coins) == 0:
        return 0
    first = coins[0]
    if isinstance(first, Fraction):
        # A sum's numerator over the common denominator also carries the integer part.
        whole = max(c.numerator.bit_length() - c.denominator.bit_length() for c in coins) + 1
        whole = max(whole, 0) + len(coins).bit_length()
        return int(2 * _lcm_bits({coin.denominator for coin in coins}, cap) + whole + 1)
    if isinstance(first, decimal.Decimal):
        exponents = [coin.as_tuple().exponent for coin in coins]
        high = max(coin.adjusted() for coin in coins) + len(str(len(coins)))
        digits = max(high - min(exponents), 1)
        return int(digits * 3.3219280948873626) + 1
    if is_int_array(coins):
        return 63
    return int(max(max(coins), -min(coins)).bit_length() + len(coins).bit_length())


def _lcm_bits(denominators: Set[int], cap: int | None) -> int:
    """Bits of the least common multiple of the denominators, or an upper bound: the sum of
    their bits when that is at most ``cap`` (or, without a cap, over :data:`_EXACT_LCM_BITS`:
    the exact multiple would cost too much to compute), or a number over ``cap`` as soon as
    the multiple passes it."""
    upper = sum(d.bit_length() for d in denominators)
    if (cap is None and upper > _EXACT_LCM_BITS) or (cap is not None and upper <= cap):
        return upper
    multiple = 1
    for denominator in sorted(denominators):
        multiple = multiple * denominator // math.gcd(multiple, denominator)
        if cap is not None and multiple.bit_length() > cap:
            break
    return multiple.bit_length()


#: Largest bound on a common denominator's bits under which :func:`sum_bits` computes it
#: exactly when it is given no cap (at most about 2**32 bit operations).
_EXACT_LCM_BITS = 2**16


def zero_like(coins: Sequence[Value]) -> Value:
    """The zero of the row's arithmetic family (O(1)).

    >>> zero_like([Fraction(1, 2)])
    Fraction(0, 1)
    """
    if coins and isinstance(coins[0], Fraction):
        return Fraction(0)
    if coins and isinstance(coins[0], decimal.Decimal):
        return decimal.Decimal(0)
    return 0


def format_value(value: Value, *, keep_digits: bool = False) -> str:
    """Text form of an exact value: ``"8"``, ``"0.4"``, ``"1/3"``; ints of any size up to
    :data:`MAX_DIGITS` digits (O(digits), O(d^2) for huge ints). One number is written one
    way whatever its history: a Decimal loses its trailing zeros (``1.0`` and ``1.00`` are
    written ``1``, as the int 1 is) and zero has no sign. With ``keep_digits`` a Decimal
    keeps the digits it was written with (a game record keeps the coins as typed).

    >>> format_value(8), format_value(decimal.Decimal("1E+2")), format_value(Fraction(4, 2))
    ('8', '100', '2')
    >>> format_value(decimal.Decimal("1.0")), format_value(decimal.Decimal("-0.50"))
    ('1', '-0.5')
    >>> format_value(decimal.Decimal("-0.50"), keep_digits=True)
    '-0.50'
    """
    if isinstance(value, decimal.Decimal):
        text = format(value, "f")
        if keep_digits:
            return text
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    if isinstance(value, Fraction):
        text = int_text(value.numerator)
        return text if value.denominator == 1 else f"{text}/{int_text(value.denominator)}"
    return int_text(value)


def counted(amount: Value, noun: str, plural: str | None = None) -> str:
    """An amount and its noun, singular for exactly one (or minus one), else plural
    (``plural``, default the noun and ``s``) as English writes it: ``1 point``, ``0 points``,
    ``1/2 points``, ``2.5 points`` (O(digits)).

    >>> counted(1, "point"), counted(0, "point"), counted(Fraction(1, 2), "point")
    ('1 point', '0 points', '1/2 points')
    >>> counted(decimal.Decimal("1.00"), "move"), counted(3, "day")
    ('1 move', '3 days')
    """
    one = amount in (1, -1)
    return f"{format_value(amount)} {noun if one else (plural or noun + 's')}"


def value_repr(value: Value) -> str:
    """An evaluable text of an exact value (O(digits)). Ints of more than 4,300 digits are
    written in hexadecimal, the only int literals Python reads at any length.

    >>> value_repr(10), value_repr(decimal.Decimal("0.5")), value_repr(Fraction(1, 3))
    ('10', "Decimal('0.5')", 'Fraction(1, 3)')
    >>> value_repr(-(16**4000))[:6]
    '-0x100'
    """
    if isinstance(value, int):
        return str(value) if value.bit_length() < _SHORT_BITS else hex(value)
    if isinstance(value, Fraction):
        return f"Fraction({value_repr(value.numerator)}, {value_repr(value.denominator)})"
    return repr(value)


def row_repr(coins: Iterable[Value]) -> str:
    """An evaluable list text of a row (O(n)).

    >>> row_repr((1, 2)), row_repr(())
    ('[1, 2]', '[]')
    """
    return "[" + ", ".join(map(value_repr, coins)) + "]"


def json_value(value: Value) -> int | str:
    """JSON form of an exact value: ints as numbers, other values as exact strings; ints of
    more than :data:`JSON_INT_DIGITS` digits as exact strings too, since JSON readers
    (Python's included) refuse longer numbers (O(digits)).

    >>> json_value(8), json_value(decimal.Decimal("0.4")), json_value(Fraction(1, 3))
    (8, '0.4', '1/3')
    >>> json_value(10**5000)[:3]
    '100'
    """
    if isinstance(value, int):
        if value.bit_length() < _SHORT_BITS or digit_count(value) <= JSON_INT_DIGITS:
            return value
        return int_text(value)
    return format_value(value)


def json_form(item: object) -> Any:
    """JSON form of any result's value (O(size)): exact numbers by :func:`json_value`, floats,
    text, booleans and None as they are, an object with a ``to_dict`` by it, another
    dataclass by :func:`json_fields`, mappings (keys as text) and sequences item by item.

    >>> json_form({"a": (1, Fraction(1, 3)), 2: [decimal.Decimal("0.5"), 0.25, None, True]})
    {'a': [1, '1/3'], '2': ['0.5', 0.25, None, True]}
    """
    if item is None or isinstance(item, bool | float | str):
        return item
    if isinstance(item, int | decimal.Decimal | Fraction):
        return json_value(item)
    to_dict = getattr(item, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return json_fields(item)
    if isinstance(item, Mapping):
        return {str(key): json_form(value) for key, value in item.items()}
    if isinstance(item, list | tuple):
        return [json_form(value) for value in item]
    raise TypeError(f"no JSON form for {type(item).__name__}")


def json_fields(
    item: Any,
    *,
    omit: Collection[str] = (),
    rename: Mapping[str, str] | None = None,
    order: Sequence[str] = (),
    **computed: object,
) -> dict[str, Any]:
    """The JSON form of a dataclass instance, the one path of the results' ``to_dict``: each
    field in order (except those in ``omit``; under ``rename[name]`` where given), then each
    ``computed`` value (a property, a count...), every value through :func:`json_form`;
    the keys named in ``order`` come first, in that order (a documented order that is not
    the fields'). O(size).

    >>> @dataclass
    ... class Pair:
    ...     first: Fraction
    ...     second: int
    ...     note: str = ""
    >>> json_fields(Pair(Fraction(1, 3), 2), omit={"note"}, rename={"second": "b"}, sum=3)
    {'first': '1/3', 'b': 2, 'sum': 3}
    >>> json_fields(Pair(Fraction(1, 3), 2), order=["sum", "note"], sum=3)
    {'sum': 3, 'note': '', 'first': '1/3', 'second': 2}
    """
    names = rename or {}
    data = {
        names.get(field.name, field.name): json_form(getattr(item, field.name))
        for field in dataclasses.fields(item)
        if field.name not in omit
    }
    data.update((key, json_form(value)) for key, value in computed.items())
    return {**{key: data[key] for key in order}, **data} if order else data


def halve(value: Value) -> Value:
    """Exactly half of a value known to be a multiple of two for ints (O(digits)).

    >>> halve(16), halve(decimal.Decimal("0.8")), halve(Fraction(1, 3))
    (8, Decimal('0.4'), Fraction(1, 6))
    """
    if isinstance(value, int):
        return value // 2
    with exact_arithmetic():
        return value / 2


# ASCII digits and blanks only, as the token grammar (\d would take "٣-٩").
_RANGE = re.compile(r"[ \t]*([+-]?[0-9]+)[ \t]*(?:-|\.\.)[ \t]*([+-]?[0-9]+)[ \t]*")


@dataclass(frozen=True)
class ValueSpec:
    """How random coins are drawn: uniform integers ``low..high``, or uniform over ``choices``.

    >>> ValueSpec.parse("1-9"), ValueSpec.parse("1,2,5").choices
    (ValueSpec(text='1-9', low=1, high=9, choices=()), (1, 2, 5))
    """

    text: str
    low: int = 0
    high: int = 0
    choices: tuple[Value, ...] = ()

    @classmethod
    def parse(cls, text: str) -> ValueSpec:
        """Parse ``"A-B"`` or ``"A..B"`` (integers, inclusive) or a list ``"1,2,3.5"`` (O(len))."""
        match = _RANGE.fullmatch(text)
        if match:
            low, high = _parse_int(match[1], 0, text), _parse_int(match[2], 1, text)
            if low > high:
                raise InvalidOptionError(f"empty value range {text!r}: {low} > {high}")
            return cls(text, low, high)
        try:
            choices = tuple(parse_coins(text))
        except CoinrowError as error:
            raise InvalidOptionError(
                f"values {text!r}: give a range such as 1-9 or a list such as 1,2,3,5 ({error})"
            ) from None
        if not choices:
            raise InvalidOptionError("no coin values given: use a range such as 1-9 or a list")
        return cls(text, choices=choices)

    def row_seconds(self, n: int) -> float:
        """Estimated seconds of :meth:`row` for ``n`` coins (O(choices)): drawing and
        writing each coin, about 50 ns per character of the widest value and 0.5 us a coin.

        >>> ValueSpec.parse("1-9").row_seconds(1_000_000) < 1
        True
        """
        widest = max(len(str(value)) for value in (*self.choices, self.low, self.high))
        return n * (widest + 10) * 50e-9

    def row(self, n: int, rng: random.Random) -> list[Value]:
        """A random row of ``n`` coins (O(n)).

        >>> ValueSpec.parse("1-9").row(5, random.Random(0))
        [7, 7, 1, 5, 9]
        """
        if self.choices:
            return coerce_coins(rng.choice(self.choices) for _ in range(n))
        return [rng.randint(self.low, self.high) for _ in range(n)]


def random_row(n: int, values: str = "1-9", seed: int | None = None) -> list[Value]:
    """A random row of ``n`` coins drawn by a :class:`ValueSpec` text (O(n)).

    >>> random_row(6, "1-9", seed=1)
    [3, 2, 5, 2, 8, 8]
    """
    if n < 0:
        raise InvalidOptionError(f"the number of coins must be >= 0, got {n}")
    return ValueSpec.parse(values).row(n, random.Random(seed))
