"""Answers as plain data across the process boundary.

The child turns whatever the solver returned into a small JSON value (:func:`encode`),
reading ``int``, ``float``, ``Decimal`` and ``Fraction`` values through the base classes'
own methods (a subclass's ``__eq__``, ``__index__`` or ``__reduce__`` is never called) and
refusing values too large to compare cheaply. The parent rebuilds a plain value from it
(:func:`decode`), checking every field: what comes back from a solver is never unpickled,
and is compared by coinrow as a plain ``int``, ``bool``, ``float``, ``Decimal`` or
``Fraction``, never through the solver's own methods.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

#: Largest int (in bits) an answer may be: far above any right answer coinrow checks
#: (coins up to 10^30 on rows up to 10^7 coins), far below what is slow to convert.
MAX_BITS = 1 << 16

#: Largest number of digits, and of exponent, of a Decimal answer.
MAX_DIGITS = 20_000

#: Longest text (a str answer, an exception's name or message) passed back.
MAX_TEXT = 300

_HEX = re.compile(rf"-?[0-9a-f]{{1,{MAX_BITS // 4 + 1}}}")
_DECIMAL = re.compile(rf"-?[0-9.]{{1,{MAX_DIGITS + 1}}}(E[-+]?[0-9]{{1,12}})?|-?(Infinity|s?NaN)")


@dataclass(frozen=True)
class Unsendable:
    """An answer that is not passed back as a value: its type's name and why."""

    type_name: str
    why: str = ""


def encode(value: Any) -> dict[str, Any]:
    """The answer as a small JSON value (O(size of the answer), bounded by :data:`MAX_BITS`).

    >>> encode(True), encode(22), encode(2.5)
    ({'bool': True}, {'int': '16'}, {'float': '2.5'})
    >>> class Liar(int):
    ...     def __eq__(self, other): return True
    >>> encode(Liar(0))
    {'int': '0', 'type': 'Liar'}
    """
    kind = type(value)
    name = _type_name(kind)
    if value is None:
        return {"none": True}
    if kind is bool:
        return {"bool": bool.__bool__(value)}
    if kind.__module__ == "numpy" and hasattr(value, "item"):
        return {**encode(value.item()), "type": name}
    extra = {} if kind in (int, float, Decimal, Fraction) else {"type": name}
    if isinstance(value, int):
        bits = int.bit_length(value)
        if bits > MAX_BITS:
            return {"unsendable": name, "why": f"an int of {bits:,} bits"}
        return {"int": int.__format__(value, "x"), **extra}
    if isinstance(value, float):
        return {"float": float.__repr__(value), **extra}
    if isinstance(value, Decimal):
        _, digits, exponent = Decimal.as_tuple(value)
        if isinstance(exponent, int) and (len(digits) > MAX_DIGITS or abs(exponent) > MAX_DIGITS):
            return {"unsendable": name, "why": f"a Decimal with exponent {exponent:,}"}
        return {"decimal": Decimal.__str__(value), **extra}
    if isinstance(value, Fraction):
        top, bottom = Fraction.numerator.fget(value), Fraction.denominator.fget(value)  # type: ignore[attr-defined]
        if type(top) is not int or type(bottom) is not int:
            return {"unsendable": name, "why": "a Fraction of non-integers"}
        if max(int.bit_length(top), int.bit_length(bottom)) > MAX_BITS:
            return {"unsendable": name, "why": "a Fraction too large"}
        return {"fraction": [int.__format__(top, "x"), int.__format__(bottom, "x")], **extra}
    if isinstance(value, str):
        return {"str": str.__str__(value)[:MAX_TEXT], **extra}
    return {"unsendable": name}


def _type_name(kind: type) -> str:
    name = type.__dict__["__name__"].__get__(kind)
    return str.__str__(name)[:80] if isinstance(name, str) else "object"


class BadMessage(ValueError):
    """A message from the child that is not what the protocol allows."""


def decode(data: Any) -> Any:
    """The plain value of an encoded answer; raises :class:`BadMessage` for anything else
    (O(size)).

    >>> decode({'int': '-16'}), decode({'fraction': ['1', '3']}), decode({'none': True})
    (-22, Fraction(1, 3), None)
    """
    if not isinstance(data, dict) or not 1 <= len(data) <= 3:
        raise BadMessage("an answer is not a small object")
    type_name = data.get("type")
    if type_name is not None and not (isinstance(type_name, str) and len(type_name) <= 80):
        raise BadMessage("bad type name")
    if "none" in data:
        return None
    if "bool" in data and isinstance(data["bool"], bool):
        return data["bool"]
    if "int" in data:
        return _int(data["int"])
    if "float" in data and isinstance(data["float"], str) and len(data["float"]) < 40:
        try:
            return float(data["float"])
        except ValueError:
            raise BadMessage("bad float") from None
    if "decimal" in data:
        text = data["decimal"]
        if not isinstance(text, str) or not _DECIMAL.fullmatch(text):
            raise BadMessage("bad Decimal")
        exponent = text.partition("E")[2]
        if exponent and abs(int(exponent)) > MAX_DIGITS:
            raise BadMessage("Decimal too large")
        return Decimal(text)
    if "fraction" in data:
        pair = data["fraction"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise BadMessage("bad Fraction")
        top, bottom = _int(pair[0]), _int(pair[1])
        if bottom <= 0:
            raise BadMessage("bad Fraction")
        return Fraction(top, bottom)
    if "str" in data and isinstance(data["str"], str) and len(data["str"]) <= MAX_TEXT:
        return data["str"]
    if "unsendable" in data and isinstance(data["unsendable"], str):
        why = data.get("why", "")
        if not isinstance(why, str):
            raise BadMessage("bad reason")
        return Unsendable(data["unsendable"][:80], why[:MAX_TEXT])
    raise BadMessage("unknown kind of answer")


def _int(text: Any) -> int:
    if not isinstance(text, str) or not _HEX.fullmatch(text):
        raise BadMessage("bad int")
    return int(text, 16)


def text_field(data: Any, limit: int = MAX_TEXT) -> str:
    """A text field of a message, checked (O(limit))."""
    if not isinstance(data, str):
        raise BadMessage("a text field is not text")
    return data[:limit]


def number_field(data: Any) -> float:
    """A finite non-negative number field of a message (O(1))."""
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise BadMessage("a number field is not a number")
    value = float(data)
    if not math.isfinite(value) or value < 0:
        raise BadMessage("a number field is out of range")
    return value
