"""The FastAPI app: a JSON API under ``/api/`` and the static page at ``/``.

Every endpoint parses its input, calls the library and serialises the library's own
``to_dict()`` documents; no game logic lives here. The server keeps no state between
requests: a game in progress is sent back in full (coins and moves) each time.

Bad input of any kind is a 4xx response ``{"detail": "<one sentence>"}``: JSON syntax,
unknown keys, wrong types, booleans, nested arrays, NaN and infinities, coins that are not
numbers or are too long, too many coins, moves that do not fit the row, unknown strategies;
bodies over the size limit are refused with 413 before they are read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..analysis import analyze
from ..diagram import check_view, table_data
from ..engines.table import Table
from ..errors import (
    CoinrowError,
    InvalidCoinError,
    InvalidOptionError,
    InvalidRowError,
    RowTooLongError,
)
from ..game import Game
from ..numbers import Value, coerce_coins, json_value, random_row, split_tokens
from ..solution import solve
from ..steps import fill_steps, memo_calls
from ..strategies import BUILTINS, get
from ..subgames import Subgames
from ..svg import triangle
from . import models

#: Where the page's HTML, CSS and JavaScript modules live (shipped inside the package).
STATIC = Path(__file__).parent / "static"

#: Longest row whose per-coin keys ``/api/solve`` includes without ``full`` (as the CLI).
PER_COIN_LIMIT = 10_000

#: Prefix of the environment variables that set :class:`Limits` (``COINROW_WEB_SOLVE_COINS``).
ENV_PREFIX = "COINROW_WEB_"


@dataclass(frozen=True)
class Limits:
    """What one request may ask for. Each can be set by an environment variable named
    ``COINROW_WEB_`` + the field in capitals (so ``uvicorn --workers N`` workers see it).

    ``analyze_coins`` is lower than the others because analysing a long row of Decimals or
    Fractions costs O(n^2) exact operations (about 3.5 s at 2,000 coins); int rows use a
    compiled table and are fast.
    """

    solve_coins: int = 1_000_000
    table_coins: int = 40
    steps_coins: int = 40
    play_coins: int = 1_000
    analyze_coins: int = 2_000
    random_coins: int = 10_000
    coin_digits: int = 1_000
    body_bytes: int = 16 * 2**20

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """Defaults overridden by ``COINROW_WEB_*`` variables (O(1)).

        >>> Limits.from_env({"COINROW_WEB_TABLE_COINS": "20"}).table_coins
        20
        """
        environ = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for field in fields(cls):
            text = environ.get(ENV_PREFIX + field.name.upper())
            if text is None:
                continue
            try:
                values[field.name] = int(text)
            except ValueError:
                raise InvalidOptionError(
                    f"{ENV_PREFIX}{field.name.upper()} must be a whole number, not {text!r}"
                ) from None
            if values[field.name] < 1:
                raise InvalidOptionError(f"{ENV_PREFIX}{field.name.upper()} must be at least 1")
        return cls(**values)


# ---------------------------------------------------------------------------------------------
# Input


def read_row(items: Any, limit: int, digits: int) -> list[Value]:
    """The row of a request: a JSON array of numbers or strings, or one text of coins, as
    exact values (O(n)). Raises :class:`~coinrow.errors.CoinrowError` subclasses naming the
    problem: not a row, no coins, more than ``limit`` coins, a coin that is not a number
    (booleans, null, nested arrays, NaN, infinities, text) or that has more than ``digits``
    digits.

    >>> read_row([3, "0.5"], 10, 100), read_row("1/2, 1", 10, 100)
    ([Decimal('3'), Decimal('0.5')], [Fraction(1, 2), Fraction(1, 1)])
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
    row = coerce_coins(items)
    _check_digits(row, digits)
    return row


def _check_digits(row: list[Value], digits: int) -> None:
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


class _ExactRequest(Request):
    """A request whose JSON numbers with a fraction or exponent are read as exact Decimals
    (never floats); JSON that Python cannot read (ints over 4,300 digits, nesting deeper than
    the recursion limit) is reported as a JSON error, not a server error."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = json.loads(body, parse_float=Decimal)
            except json.JSONDecodeError:
                raise
            except (ValueError, RecursionError) as error:
                raise json.JSONDecodeError(str(error), body.decode("latin-1"), 0) from None
        return self._json


class _ExactRoute(APIRoute):
    """Routes that hand their endpoints an :class:`_ExactRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def exact_handler(request: Request) -> Response:
            return await handler(_ExactRequest(request.scope, request.receive))

        return exact_handler


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes with 413 and a JSON
    ``detail``: at once when ``Content-Length`` says so (nothing is read), else as soon as
    the bytes received pass the limit (O(1) per chunk)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        received, refused = 0, False

        async def limited_receive() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not refused:
                await send(message)

        await self.app(scope, limited_receive, guarded_send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"detail": f"the request body is over the limit of {self.limit:,} bytes"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


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


# ---------------------------------------------------------------------------------------------
# The app

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": models.ErrorResponse, "description": "Malformed request"},
    413: {"model": models.ErrorResponse, "description": "Request body over the size limit"},
    422: {"model": models.ErrorResponse, "description": "Invalid input (the detail says why)"},
}


def create_app(limits: Limits | None = None) -> FastAPI:
    """The web app with the given limits (default: :meth:`Limits.from_env`) (O(1))."""
    limits = Limits.from_env() if limits is None else limits
    bodies = models.request_models(
        limits.solve_coins,
        limits.table_coins,
        limits.steps_coins,
        limits.play_coins,
        limits.analyze_coins,
    )
    app = FastAPI(
        title="coinrow",
        version=__version__,
        description="Solve, explore, play and learn the coins-in-a-line game. Every error is "
        '{"detail": "<a sentence>"}; exact values are JSON numbers (ints) or exact strings.',
    )
    app.router.route_class = _ExactRoute
    app.add_middleware(BodyLimit, limit=limits.body_bytes)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe_validation(error.errors())}, status_code=422)

    @app.exception_handler(CoinrowError)
    async def _library(request: Request, error: CoinrowError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=422)

    def row_of(items: Any, limit: int) -> list[Value]:
        return read_row(items, limit, limits.coin_digits)

    @app.post(
        "/api/solve",
        summary="Solve a row",
        response_model=models.SolveResponse,
        responses=ERRORS,
        tags=["game"],
    )
    @_body(bodies.solve)
    def solve_endpoint(body: Any) -> JSONResponse:
        """Solve a row: exactly what ``coinrow solve --json`` prints. O(n)."""
        solution = solve(row_of(body.coins, limits.solve_coins))
        return JSONResponse(solution.to_dict(None if body.full else PER_COIN_LIMIT))

    @app.post(
        "/api/table",
        summary="Every subgame, as data and as the SVG triangle",
        response_model=models.TableResponse,
        responses=ERRORS,
        tags=["pictures"],
    )
    @_body(bodies.table)
    def table_endpoint(body: Any) -> JSONResponse:
        """Every subgame as data (``coinrow table --json``) and the SVG triangle. O(n^2)."""
        table = Table(row_of(body.coins, limits.table_coins))
        view = check_view(body.view)
        highlight = table.line if body.highlight == "best" else body.highlight or None
        data = table_data(table)
        data["svg"] = str(triangle(table, view=view, highlight=highlight))
        return JSONResponse(data)

    @app.post(
        "/api/steps",
        summary="The bottom-up fill and the memoised recursion, step by step",
        response_model=models.StepsResponse,
        responses=ERRORS,
        tags=["pictures"],
    )
    @_body(bodies.steps)
    def steps_endpoint(body: Any) -> JSONResponse:
        """The bottom-up fill, cell by cell, and the memoised recursion's calls. O(n^2)."""
        row = row_of(body.coins, limits.steps_coins)
        return JSONResponse(
            {
                "coins": [json_value(coin) for coin in row],
                "fill": [step.to_dict() for step in fill_steps(row)],
                "memo": memo_calls(row).to_dict(),
            }
        )

    @app.post(
        "/api/move",
        summary="The strategy's move, the best moves and the totals of a position",
        response_model=models.MoveResponse,
        responses=ERRORS,
        tags=["game"],
    )
    @_body(bodies.move)
    def move_endpoint(body: Any) -> JSONResponse:
        """The strategy's next move, the best moves and the totals after ``moves``.

        Stateless: send the whole game each time. A random strategy's choice depends on
        ``seed`` and the number of moves played, so a position replays the same way.
        O(n^2) for rows up to 512 coins (the table of subgames), O(n) per query beyond.
        """
        row = row_of(body.coins, limits.play_coins)
        game = Game(row, body.moves)
        seed = None if body.seed is None else body.seed * 1_000_003 + len(game.moves)
        strategy = get(body.strategy, seed=seed, allow_user=False)  # never imports user code
        return JSONResponse(position_data(game, strategy))

    @app.post(
        "/api/analyze",
        summary="Move-by-move analysis of a game",
        response_model=models.AnalyzeResponse,
        responses=ERRORS,
        tags=["game"],
    )
    @_body(bodies.analyze)
    def analyze_endpoint(body: Any) -> JSONResponse:
        """Move-by-move analysis of a game, finished or not (one game of ``coinrow analyze
        --json``). O(n^2) for rows up to 512 coins, and for int rows up to 8,000."""
        row = row_of(body.coins, limits.analyze_coins)
        return JSONResponse(analyze(row, Game(row, body.moves).line).to_dict())

    @app.get(
        "/api/random",
        summary="A random row",
        response_model=models.RandomResponse,
        responses=ERRORS,
        tags=["game"],
    )
    def random_endpoint(
        n: int = Query(10, ge=1, le=limits.random_coins, description="Number of coins."),
        values: str = Query(
            "1-9", max_length=200, description='A range such as "1-9" or a list "1,2,5".'
        ),
        seed: int | None = Query(None, ge=0, le=2**32 - 1, description="Random seed."),
    ) -> JSONResponse:
        """A random row of ``n`` coins. O(n)."""
        coins = random_row(n, values, seed)
        return JSONResponse(
            {"n": n, "values": values, "seed": seed, "coins": [json_value(c) for c in coins]}
        )

    @app.get(
        "/api/strategies",
        summary="The built-in strategies",
        response_model=models.StrategiesResponse,
        tags=["game"],
    )
    def strategies_endpoint() -> JSONResponse:
        """The built-in strategies the computer can play (never user code). O(1)."""
        return JSONResponse(
            {
                "strategies": [
                    {"name": name, "syntax": syntax, "description": description}
                    for name, (syntax, description) in BUILTINS.items()
                ]
            }
        )

    @app.get(
        "/api/limits",
        summary="The server's limits",
        response_model=models.LimitsResponse,
        tags=["server"],
    )
    def limits_endpoint() -> JSONResponse:
        """The server's limits. O(1)."""
        return JSONResponse(asdict(limits))

    page = (STATIC / "index.html").read_text(encoding="utf-8")

    @app.get("/", include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(page)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


F = TypeVar("F", bound=Callable[..., Any])


def _body(model: type[BaseModel]) -> Callable[[F], F]:
    """Declare an endpoint's ``body`` parameter as ``model`` (built at run time, with the
    app's limits, so it cannot be written in the annotation)."""

    def declare(endpoint: F) -> F:
        endpoint.__annotations__ = {**endpoint.__annotations__, "body": model}
        return endpoint

    return declare


def position_data(game: Game, strategy: Callable[..., Any]) -> dict[str, Any]:
    """The current position of ``game`` for ``/api/move`` (O(n^2) for the table of up to 512
    coins, then O(1); O(n) per query for longer rows)."""
    position = game.position
    lo, hi = position.lo, position.hi
    first, second = game.totals
    subgames = Subgames(game.coins)
    finished = position.is_over
    value = subgames.value_of(lo, hi)
    guaranteed = game.guaranteed(subgames=subgames)
    return {
        "coins": [json_value(coin) for coin in game.coins],
        "lo": lo,
        "hi": hi,
        "finished": finished,
        "turn": None if finished else position.turn,
        "move": None if finished else strategy(position),
        "best_moves": "" if finished else subgames.moves_of(lo, hi),
        "value": json_value(value),
        "first_total": json_value(first),
        "second_total": json_value(second),
        "first_guaranteed": json_value(guaranteed[0]),
        "second_guaranteed": json_value(guaranteed[1]),
        "leader": "first" if first > second else "second" if second > first else "tie",
    }
