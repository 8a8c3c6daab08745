"""Focused tests of numbers.py: every coercion path with its exact message, the limits, the
text forms and random rows. Also the mutation subset of scripts/mutate.py."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest

from coinrow import InvalidCoinError, InvalidOptionError
from coinrow.numbers import (
    MAX_DECIMAL_EXPONENT,
    MAX_DIGITS,
    ValueSpec,
    coerce_coins,
    coerce_value,
    json_value,
    parse_token,
    random_row,
)


def message(call: object, *args: object) -> str:
    with pytest.raises(InvalidCoinError) as info:
        call(*args)  # type: ignore[operator]
    return str(info.value)


def test_numpy_scalars() -> None:
    np = pytest.importorskip("numpy")
    assert coerce_value(np.int32(-3)) == -3 and type(coerce_value(np.uint8(7))) is int
    assert coerce_value(np.float32(0.5)) == Decimal("0.5")
    assert coerce_value(np.float64(0.1)) == Decimal("0.1")
    assert (
        message(coerce_value, np.bool_(True), 2)
        == "coin 3 (np.True_): booleans are not coin values"
    )
    assert message(coerce_value, np.str_("x"), 0) == "coin 1 (np.str_('x')): not a number"
    nan = message(coerce_value, np.float64("nan"), 1)
    assert nan == "coin 2 (np.float64(nan)): NaN is not a coin value"
    assert message(coerce_value, object(), 0).endswith("not a number (object)")
    assert message(coerce_value, None, 4) == "coin 5 (None): not a number (NoneType)"
    assert coerce_coins([np.int64(1), 2]) == [1, 2]


def test_decimal_limits_and_messages() -> None:
    assert (
        message(coerce_value, Decimal("NaN"), 0)
        == "coin 1 (Decimal('NaN')): NaN is not a coin value"
    )
    assert message(coerce_value, Decimal("-Infinity"), 0).endswith("infinity is not a coin value")
    assert message(coerce_value, float("inf"), 0) == "coin 1 (inf): infinity is not a coin value"
    assert message(coerce_value, float("-inf"), 0).endswith("infinity is not a coin value")
    assert message(coerce_value, float("nan"), 0) == "coin 1 (nan): NaN is not a coin value"
    edge = Decimal(f"1E+{MAX_DECIMAL_EXPONENT}")
    assert coerce_value(edge) == edge and coerce_value(Decimal(f"1E-{MAX_DECIMAL_EXPONENT}"))
    beyond = message(coerce_value, Decimal(f"1E+{MAX_DECIMAL_EXPONENT + 1}"), 0)
    assert beyond.endswith("exponent beyond ±100,000: too many digits to add exactly")
    assert message(parse_token, f"1e-{MAX_DECIMAL_EXPONENT + 1}", 0).endswith("exactly")
    assert coerce_value(Decimal("1" * (MAX_DIGITS - 1) + ".5")) is not None  # MAX_DIGITS digits
    text = message(parse_token, "1" * MAX_DIGITS + ".5", 0)
    assert text == f"coin 1 ('11111111111111111111...11111111.5'): more than {MAX_DIGITS:,} digits"
    assert message(parse_token, "inf", 0) == "coin 1 ('inf'): infinity is not a coin value"
    assert message(parse_token, "nan", 0) == "coin 1 ('nan'): NaN is not a coin value"
    assert message(parse_token, "x" * 41, 0) == f"coin 1 ('{'x' * 20}...{'x' * 10}'): not a number"
    assert message(parse_token, "x" * 40, 0) == f"coin 1 ('{'x' * 40}'): not a number"


def test_ints_and_fractions() -> None:
    assert parse_token("9" * 4001) == int("9" * 4001)
    assert parse_token("-" + "9" * MAX_DIGITS) == -int("9" * 4000) * 0 - (10**MAX_DIGITS - 1)
    too_long = "7" * (MAX_DIGITS + 1)
    assert message(parse_token, too_long, 0).endswith(f"more than {MAX_DIGITS:,} digits")
    assert message(parse_token, "1/0", 2) == "coin 3 ('1/0'): zero denominator"
    assert parse_token("-2/4") == Fraction(-1, 2)
    assert coerce_value(True.__class__.__mro__[1](5)) == 5  # an int, not a bool
    assert coerce_coins([Fraction(1, 2), Decimal("0.5"), 1]) == [Fraction(1, 2)] * 2 + [1]
    assert coerce_coins([Decimal("0.5"), 1]) == [Decimal("0.5"), Decimal(1)]
    assert [type(v) for v in coerce_coins(["1", "2"])] == [int, int]


def test_json_and_text_forms() -> None:
    big = 10**5000
    assert json_value(10**4299) == 10**4299 and json_value(big) == "1" + "0" * 5000
    assert json_value(-(10**4299)) == -(10**4299)
    assert json_value(Fraction(4, 2)) == "2" and json_value(Decimal("1E+2")) == "100"


def test_value_specs_and_random_rows() -> None:
    assert ValueSpec.parse(" 2 .. 4 ") == ValueSpec(" 2 .. 4 ", 2, 4)
    assert ValueSpec.parse("-3--1") == ValueSpec("-3--1", -3, -1)
    assert ValueSpec.parse("5-5").row(3, random.Random(1)) == [5, 5, 5]
    assert ValueSpec.parse("0.5,1/2").choices == (Fraction(1, 2), Fraction(1, 2))
    with pytest.raises(InvalidOptionError, match=r"^empty value range '4-2': 4 > 2$"):
        ValueSpec.parse("4-2")
    with pytest.raises(InvalidOptionError, match=r"^no coin values given: use a range"):
        ValueSpec.parse(" , ")
    with pytest.raises(
        InvalidOptionError, match=r"^values 'a,b': give a range such as 1-9 .*\(coin 1"
    ):
        ValueSpec.parse("a,b")
    rows = {tuple(ValueSpec.parse("1,2").row(8, random.Random(seed))) for seed in range(5)}
    assert len(rows) > 1 and all(set(row) <= {1, 2} for row in rows)
    assert random_row(0) == [] and random_row(5, seed=3) == random_row(5, "1-9", seed=3)
    assert set(random_row(200, "1-3", seed=1)) == {1, 2, 3}
    with pytest.raises(InvalidOptionError, match=r"^the number of coins must be >= 0, got -1$"):
        random_row(-1)


def test_int_arrays_are_recognised_without_numpy() -> None:
    np = pytest.importorskip("numpy")
    from coinrow.numbers import is_int_array

    class Fake:
        dtype = np.dtype("int64")

    assert is_int_array(np.array([1, 2])) and is_int_array(np.array([1], dtype=np.uint8))
    assert not is_int_array(np.array([1.5])) and not is_int_array(np.array([True]))
    assert not is_int_array(np.array(["1"])) and not is_int_array(Fake())
    assert not is_int_array([1, 2]) and not is_int_array("12")
    assert coerce_coins(np.array([3, 4])) == [3, 4] and coerce_coins("1 2") == [1, 2]


def test_errors_carry_their_position_and_token() -> None:
    np = pytest.importorskip("numpy")
    long = "7" * (MAX_DIGITS + 1)
    for token, position in ((long, 3), (f"1/{long}", 2), (f"{long}/3", 1), (f"{long}-2", 0)):
        with pytest.raises(InvalidCoinError) as info:
            parse_token(token, position) if "-" not in token else ValueSpec.parse(token)
        assert info.value.position == position
        assert info.value.token == f"{token[:20]}...{token[-10:]}"
    with pytest.raises(InvalidCoinError) as info:
        ValueSpec.parse(f"1-{long}")
    assert info.value.position == 1
    for item, reason in ((Decimal("Infinity"), "infinity"), (Decimal("1E+100001"), "exponent")):
        with pytest.raises(InvalidCoinError) as info:
            coerce_value(item, 2)
        assert info.value.token == item and reason in info.value.reason
    with pytest.raises(InvalidCoinError) as info:
        coerce_value(np.float32("nan"), 1)
    assert str(info.value) == "coin 2 (nan): NaN is not a coin value"
    marker = object()
    with pytest.raises(InvalidCoinError) as info:
        coerce_value(marker, 0)
    assert info.value.token is marker
    assert ValueSpec.parse("1,2").text == "1,2"
    assert json_value(10**4299) == 10**4299 and json_value(10**4300) == "1" + "0" * 4300


def test_rows_that_are_not_rows() -> None:
    np = pytest.importorskip("numpy")
    from coinrow import InvalidRowError

    cases = [
        (b"12", "bytes are not a row of coins: decode the text, then parse it"),
        (5, "a row of coins must be a sequence of numbers, not int"),
        (np.zeros((2, 2)), "a row of coins is one-dimensional; this array has 2 dimensions"),
    ]
    for items, text in cases:
        with pytest.raises(InvalidRowError) as info:
            coerce_coins(items)
        assert str(info.value) == text


def test_boundaries_found_by_mutation() -> None:
    widest = 10**4300 - 1  # 4,300 digits and more bits than the short path takes
    assert json_value(widest) == widest and json_value(10**4300) == "1" + "0" * 4300
    for token in ("\u00a01", "X1", "1X"):  # only ASCII whitespace is stripped
        with pytest.raises(InvalidCoinError):
            parse_token(token)
    long = "7" * (MAX_DIGITS + 1)
    with pytest.raises(InvalidCoinError) as info:
        ValueSpec.parse(f"1-{long}")
    assert info.value.token == f"1-{long}"[:20] + "..." + long[-10:]
