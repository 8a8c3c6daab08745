"""What a request says, read exactly: the row (:func:`read_row`), JSON numbers as exact
Decimals (:class:`ExactRoute`), and one readable sentence for whatever was refused
(:func:`describe_validation`, :func:`rules_refusal`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

from ..errors import InvalidCoinError, InvalidRowError, RowTooLongError, RulesError
from ..numbers import Row, Value, json_number, split_tokens
from ..rules import Rules
from . import models


def read_row(items: Any, limit: int, digits: int) -> Row:
    """The row of a request: a JSON array of numbers or strings, or one text of coins, as
    a validated :class:`~coinrow.numbers.Row` (O(n)). Raises
    :class:`~coinrow.errors.CoinrowError` subclasses naming the problem: not a row, no
    coins, more than ``limit`` coins, a coin that is not a number (booleans, null, nested
    arrays, NaN, infinities, text) or that has more than ``digits`` digits.

    >>> read_row([3, "0.5"], 10, 100), read_row("1/2, 1", 10, 100)
    ((Decimal('3'), Decimal('0.5')), (Fraction(1, 2), Fraction(1, 1)))
    >>> read_row([1, [2]], 10, 100)
    Traceback (most recent call last):
    ...
    coinrow.errors.InvalidCoinError: coin 2 ([2]): not a number (list)
    """
    if isinstance(items, str):
        items = split_tokens(items)
    elif not isinstance(items, list):
        raise InvalidRowError(
            "coins must be a JSON array of numbers or strings, or a string of coins "
            f'such as "3 2 2 3 1 2" (got {type(items).__name__})'
        )
    if not items:
        raise InvalidRowError("no coins given: the row needs at least one coin")
    if len(items) > limit:
        raise RowTooLongError(f"too many coins: {len(items):,} (at most {limit:,} here)")
    for position, item in enumerate(items):
        if isinstance(item, str) and len(item) > models.COIN_CHARS:
            raise InvalidCoinError(
                position, item[:20] + "…", f"longer than {models.COIN_CHARS} characters"
            )
    row = Row.of(items)
    check_digits(row, digits)
    return row


def check_digits(row: Sequence[Value], digits: int) -> None:
    """Refuse coins needing more than ``digits`` digits: exact sums of a long row of such
    coins would cost far more than the row's size suggests (O(n))."""
    bound = 10**digits
    too_long: Callable[[Any], bool]
    if isinstance(row[0], int):
        if -bound < min(row) and max(row) < bound:
            return
        too_long = lambda coin: not -bound < coin < bound  # noqa: E731
    elif isinstance(row[0], Fraction):
        too_long = lambda coin: abs(coin.numerator) >= bound or coin.denominator >= bound  # noqa: E731
    else:
        too_long = lambda coin: _decimal_digits(coin) > digits  # noqa: E731
    for position, coin in enumerate(row):
        if too_long(coin):
            raise InvalidCoinError(position, _short(coin), f"more than {digits:,} digits")


def _decimal_digits(value: Decimal) -> int:
    """Digits needed to write a Decimal out in full, without an exponent."""
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # NaN and infinities were refused by the parser
    whole = max(value.adjusted() + 1, 1)
    return whole + max(-exponent, 0)


def _short(value: Value) -> str:
    text = str(value)
    return text if len(text) <= 20 else text[:20] + "…"


class ExactRequest(Request):
    """A request whose JSON numbers with a fraction or exponent are read as exact Decimals
    (never floats); JSON that Python cannot read (ints over 4,300 digits, nesting deeper than
    the recursion limit) is reported as a JSON error, not a server error."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = json.loads(
                    body, parse_float=json_number, object_pairs_hook=_object_without_duplicates
                )
            except json.JSONDecodeError:
                raise
            except (ValueError, RecursionError) as error:
                raise json.JSONDecodeError(str(error), body.decode("latin-1"), 0) from None
        return self._json


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (which one would count is a guess)."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise ValueError(f"the key {twice!r} is given twice")
    return data


class ExactRoute(APIRoute):
    """Routes that hand their endpoints an :class:`ExactRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def exact_handler(request: Request) -> Response:
            if request.method == "POST" and not _is_json(
                request.headers.get("content-type", "").encode("latin-1")
            ):
                kind = request.headers.get("content-type", "none")[:60]
                detail = f"send application/json (got content type {kind})"
                return JSONResponse({"detail": detail}, status_code=415)
            try:
                return await handler(ExactRequest(request.scope, request.receive))
            except HTTPException as error:  # FastAPI's "error parsing the body", from memory
                if isinstance(error.__cause__, MemoryError):
                    raise MemoryError from None
                raise

        return exact_handler


def _is_json(content_type: bytes) -> bool:
    """``application/json`` or ``application/<anything>+json``, with any parameters."""
    kind = content_type.split(b";")[0].strip().lower()
    return kind == b"application/json" or (
        kind.startswith(b"application/") and kind.endswith(b"+json")
    )


def _where(location: Sequence[Any]) -> str:
    """``("body", "coins", 3)`` as ``coins[3]``; ``("query", "n")`` as ``query parameter n``."""
    parts = [str(part) for part in location]
    prefix = ""
    if parts and parts[0] in ("body", "query"):
        prefix = "query parameter " if parts[0] == "query" else ""
        parts = parts[1:]
    text = ""
    for part in parts:
        text += f"[{part}]" if part.isdigit() else (f".{part}" if text else part)
    return prefix + text if text else ""


def rules_refusal(text: object, pattern: str) -> str:
    """Why ``rules`` were refused: the library's message for unknown or malformed rules,
    else the spelling the API reads or the rules it takes here (O(len(text))).

    >>> rules_refusal("take:0", "")
    "rules 'take:0': K must be a whole number from 1 to 1000000, or any"
    >>> rules_refusal("MISERE", models.RULES_PATTERN)
    "rules 'MISERE': write them as 'misere'"
    """
    try:
        rules = Rules.parse(text)
    except RulesError as error:
        return str(error)
    if str(rules) != text and pattern and re.fullmatch(pattern, str(rules)):
        return f"rules {text!r}: write them as {str(rules)!r}"
    kinds = {
        models.TABLE_RULES_PATTERN: models.TABLE_RULES_KINDS,
        models.PLAY_RULES_PATTERN: models.PLAY_RULES_KINDS,
    }.get(pattern, models.RULES_KINDS)
    return f"rules {text!r} do not apply here; this takes {kinds}"


VARIANT_LINE = models.VARIANT_LINE_PATTERN


def describe_validation(errors: Sequence[Mapping[str, Any]]) -> str:
    """One readable sentence for Pydantic's validation errors (O(errors)).

    >>> describe_validation([{"type": "missing", "loc": ("body", "coins"), "msg": "x"}])
    'coins is required'
    """
    first = errors[0]
    kind, where = first.get("type", ""), _where(first.get("loc", ()))
    context = first.get("ctx") or {}
    if kind == "json_invalid":
        text = f"the request body is not valid JSON: {context.get('error', first['msg'])}"
    elif kind == "missing":
        text = f"{where or 'the request body'} is required"
    elif kind == "extra_forbidden":
        text = f"unknown key {where!r}"
    elif kind == "string_pattern_mismatch" and where == "rules":
        text = rules_refusal(first.get("input"), context.get("pattern", ""))
    elif kind == "string_pattern_mismatch" and context.get("pattern") == VARIANT_LINE:
        text = (
            f"{where}: moves such as L, R, L2, B or a first slice's number, written together "
            'or one space apart ("L2R1", "L2 R1"), with no space at either end'
        )
    elif kind == "string_pattern_mismatch" and where.endswith("moves"):
        text = f"{where}: a move is L (take the left coin) or R (take the right coin)"
    elif kind in ("model_attributes_type", "dict_type") and not where:
        text = "the request body must be a JSON object"
    else:
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        text = f"{where}: {message}" if where else message
    if len(errors) > 1:
        text += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return text
