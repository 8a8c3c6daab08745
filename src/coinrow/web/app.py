"""The FastAPI app: a JSON API under ``/api/`` and the static page at ``/``.

Every endpoint parses its input, calls the library and serialises the library's own
``to_dict()`` documents; no game logic lives here. The server keeps no state between
requests: a game in progress is sent back in full (coins and moves) each time.

Bad input of any kind is a 4xx response ``{"detail": "<one sentence>"}``: JSON syntax,
unknown keys, wrong types, booleans, nested arrays, NaN and infinities, coins that are not
numbers or are too long, too many coins, moves that do not fit the row, unknown strategies;
bodies over the size limit are refused with 413 before they are read.

Every request goes through :class:`RequestGuard`, which bounds what a request may cost: its
body (size, time to arrive, JSON content type), its response (size), and its work. Work the
library estimates (:func:`coinrow.engines.check_cost`) at more than :data:`INLINE_SECONDS`,
and every request with a large body, runs in a :class:`~coinrow.web.workers.WorkerPool`
process with a time and a memory limit, killed when the client disconnects; the rest is
answered inline, so small requests stay fast while large ones run.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
import os
import random
import re
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, fields
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, TypeVar

import fastapi_offline
from fastapi import FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..analysis import analyze
from ..diagram import check_view, table_data
from ..engines import check_cost, duration_text
from ..engines.table import Table
from ..engines.variants import variant_cost, variant_table
from ..errors import (
    CoinrowError,
    CostLimitError,
    InvalidCoinError,
    InvalidOptionError,
    InvalidRowError,
    RowTooLongError,
    RulesError,
    UnsupportedRulesError,
)
from ..game import Game, Position
from ..levels import level_table
from ..numbers import (
    Value,
    ValueSpec,
    coerce_coins,
    json_number,
    json_value,
    split_tokens,
)
from ..play_values import PlayValues
from ..puzzles import daily_puzzle, puzzle
from ..record import Record, load_records
from ..review import evaluation
from ..rules import RULES, Rules
from ..solution import solve
from ..steps import fill_steps, memo_calls
from ..strategies import BUILTINS, Optimal, game_seconds, get, move_seconds, play
from ..subgames import Subgames
from ..svg import triangle
from . import learning, models
from .guard import BodyBudget, Security, allowed_hosts, die_with_parent
from .workers import Answer, WorkerPool, error_answer

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

    What one request may cost: ``response_bytes`` (its answer), ``body_seconds`` (for its
    body to arrive), ``request_seconds`` and ``request_memory`` (its work, in a worker
    process); ``processes`` worker processes per server process, with ``queue`` requests
    waiting at most (more get 503). ``bodies_bytes``: the request bodies one server process
    holds at once (default: four times ``body_bytes``; :class:`~coinrow.web.guard.BodyBudget`;
    a body that does not fit gets 503 unread); ``header_seconds``: the time a client has to
    send its headers, ``connections`` the most connections a server process keeps open (both
    under ``coinrow serve``, by :class:`~coinrow.web.guard.BoundedHTTP`).
    """

    solve_coins: int = 1_000_000
    table_coins: int = 40
    steps_coins: int = 40
    play_coins: int = 1_000
    analyze_coins: int = 2_000
    random_coins: int = 10_000
    coin_digits: int = 1_000
    body_bytes: int = 16 * 2**20
    response_bytes: int = 64 * 2**20
    body_seconds: int = 10
    request_seconds: int = 10
    request_memory: int = 512 * 2**20
    processes: int = 1
    queue: int = 8
    bodies_bytes: int = 0  # 0: four times body_bytes (64 MiB)
    header_seconds: int = 10
    connections: int = 1000

    def __post_init__(self) -> None:
        if self.bodies_bytes == 0:
            object.__setattr__(self, "bodies_bytes", 4 * self.body_bytes)
        if self.bodies_bytes * 3 // 4 < self.body_bytes:
            raise InvalidOptionError(
                f"{ENV_PREFIX}BODIES_BYTES ({self.bodies_bytes:,}) must be at least 4/3 of "
                f"{ENV_PREFIX}BODY_BYTES ({self.body_bytes:,}): large bodies take three "
                "quarters of it"
            )

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


class _ExactRoute(APIRoute):
    """Routes that hand their endpoints an :class:`_ExactRequest`."""

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
                return await handler(_ExactRequest(request.scope, request.receive))
            except HTTPException as error:  # FastAPI's "error parsing the body", from memory
                if isinstance(error.__cause__, MemoryError):
                    raise MemoryError from None
                raise

        return exact_handler


#: Work the library estimates at no more than this is answered inline, in the server
#: process; costlier work goes to a worker process (measured: a small solve is about 0.1 ms).
INLINE_SECONDS = 0.02

#: Bodies up to this size are answered inline when their work is cheap; larger ones always
#: go to a worker process (reading their JSON alone would hold the event loop).
INLINE_BODY = 64 * 2**10

#: Estimated seconds of work the current request may do (set by :class:`RequestGuard`):
#: :data:`INLINE_SECONDS` inline, ``Limits.request_seconds`` in a worker process.
REQUEST_SECONDS: ContextVar[float] = ContextVar("coinrow_request_seconds", default=10.0)
_INLINE: ContextVar[bool] = ContextVar("coinrow_inline", default=False)

#: Header of an inline answer asking :class:`RequestGuard` to run the request in a worker
#: process instead (never sent to a client).
_TO_WORKER = b"x-coinrow-to-worker"


def request_seconds() -> float:
    """The estimated seconds of work the current request may do: pass it as the library's
    ``max_seconds`` (O(1))."""
    return REQUEST_SECONDS.get()


def check_seconds(seconds: float, what: str) -> None:
    """Refuse work of an endpoint's own estimate (``seconds``) over :func:`request_seconds`
    with a :class:`~coinrow.errors.CostLimitError`, as the library refuses its own (O(1))."""
    limit = request_seconds()
    if seconds > limit:
        raise CostLimitError(
            f"{what} would take about {seconds:.2g} seconds, over the limit of {limit:g} seconds",
            seconds,
            limit,
        )


def check_variant_cost(row: Sequence[Value], rules: Rules, *, table: bool = False) -> None:
    """Refuse a variant solve or table (``table``) estimated over :func:`request_seconds`
    (inline, that sends it to a worker process), by the engines' own cost model
    (:func:`coinrow.engines.variants.variant_cost`, O(n))."""
    seconds, _ = variant_cost(row, rules, table=table, limit=request_seconds())
    check_seconds(seconds, f"rules {rules} on {len(row):,} coins")


class RequestGuard:
    """ASGI middleware bounding what every request may cost (O(1) per chunk):

    - the body: over ``body_bytes`` refused with 413 (from ``Content-Length`` before
      anything is read, or as soon as the bytes received pass it); a body that stops
      arriving for ``body_seconds`` with 408 (a POST whose content type is not JSON gets
      415 from its route);
    - the answer: one over ``response_bytes`` is replaced by a 422 saying so;
    - the work: with a ``pool``, an API request with a large body, or whose work the
      library estimates over :data:`INLINE_SECONDS`, is answered by a worker process (time
      and memory limits, killed when the client disconnects); without one (inside a worker
      process) everything runs here with ``request_seconds``.
    """

    def __init__(self, app: ASGIApp, limits: Limits, pool: WorkerPool | None) -> None:
        self.app, self.limits, self.pool = app, limits, pool
        self.budget = BodyBudget(total=limits.bodies_bytes, small=INLINE_BODY)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limits.body_bytes):
            await _send_answer(send, self._too_large())
            return
        api = scope["path"].startswith("/api/")
        if not api:
            await self.app(scope, receive, self._bounded(send))
            return
        # the bytes its body may take: its length, the most for a chunked one, else none
        chunked = length is None and b"transfer-encoding" in headers
        claim = self.limits.body_bytes if chunked else int(length or 0)
        large = claim > INLINE_BODY
        if self.pool is not None and large and self.pool.full():
            await _send_answer(send, self.pool.busy_answer())  # before reading the body
            return
        if not self.budget.claim(claim):
            await _send_answer(send, self._bodies_full())  # before reading the body
            return
        try:
            await self._answer(scope, receive, send)
        finally:
            self.budget.release(claim)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body (its bytes claimed) and answer, inline or by a worker process."""
        body = await self._read_body(receive, send)
        if body is None:
            return
        if self.pool is None:
            REQUEST_SECONDS.set(float(self.limits.request_seconds))
            await self.app(scope, _replay(body, receive), self._bounded(send))
            return
        if len(body) <= INLINE_BODY:
            REQUEST_SECONDS.set(INLINE_SECONDS)
            _INLINE.set(True)
            answer = await _collect(self.app, scope, _replay(body, receive))
            if not any(key == _TO_WORKER for key, _ in answer[1]):
                await _send_answer(send, self._bound_answer(answer))
                return
        pooled = await self.pool.answer(dict(scope), body, _disconnect(receive))
        if pooled is not None:
            await _send_answer(send, self._bound_answer(pooled))

    async def _read_body(self, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once a 408 or 413 has been sent."""
        chunks, size = [], 0
        deadline = asyncio.get_running_loop().time() + self.limits.body_seconds
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.001))
            except TimeoutError:
                await _send_answer(
                    send,
                    error_answer(
                        408,
                        "the request body did not arrive within "
                        f"{duration_text(self.limits.body_seconds)}",
                        {"connection": "close"},
                    ),
                )
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.body_bytes:
                await _send_answer(send, self._too_large())
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _bodies_full(self) -> Answer:
        return error_answer(
            503,
            "the server is holding as many request bodies as it may "
            f"({self.limits.bodies_bytes:,} bytes); try again in a moment",
            {"retry-after": "1", "connection": "close"},
        )

    def _too_large(self) -> Answer:
        return error_answer(
            413,
            f"the request body is over the limit of {self.limits.body_bytes:,} bytes",
            {"connection": "close"},
        )

    def _bound_answer(self, answer: Answer) -> Answer:
        """The answer, or a 422 in its place when it is over ``response_bytes``."""
        if len(answer[2]) <= self.limits.response_bytes:
            return answer
        return error_answer(422, self._response_refusal(len(answer[2])))

    def _response_refusal(self, size: int) -> str:
        return (
            f"the answer would be {size:,} bytes, over the limit of "
            f"{self.limits.response_bytes:,} bytes; ask for fewer or shorter coins"
        )

    def _bounded(self, send: Send) -> Send:
        """``send`` refusing a response whose ``Content-Length`` is over the limit."""
        refused = False

        async def bounded_send(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start":
                length = dict(message.get("headers", [])).get(b"content-length", b"0")
                if length.isdigit() and int(length) > self.limits.response_bytes:
                    refused = True
                    await _send_answer(send, error_answer(422, self._response_refusal(int(length))))
                    return
            if not refused:
                await send(message)

        return bounded_send


def _is_json(content_type: bytes) -> bool:
    """``application/json`` or ``application/<anything>+json``, with any parameters."""
    kind = content_type.split(b";")[0].strip().lower()
    return kind == b"application/json" or (
        kind.startswith(b"application/") and kind.endswith(b"+json")
    )


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` giving the body already read, then the client's own messages."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _disconnect(receive: Receive) -> None:
    """Return when the client disconnects."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _collect(app: ASGIApp, scope: Scope, receive: Receive) -> Answer:
    """Run a request and collect its response instead of sending it."""
    status, headers, chunks = 500, [], []

    async def send(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status, headers = message["status"], list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))

    await app(scope, receive, send)
    return status, headers, b"".join(chunks)


async def _send_answer(send: Send, answer: Answer) -> None:
    status, headers, body = answer
    await send({"type": "http.response.start", "status": status, "headers": headers})
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


# ---------------------------------------------------------------------------------------------
# The app

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": models.ErrorResponse, "description": "Malformed request"},
    408: {"model": models.ErrorResponse, "description": "The body stopped arriving"},
    413: {"model": models.ErrorResponse, "description": "Request body over the size limit"},
    415: {"model": models.ErrorResponse, "description": "The body is not application/json"},
    422: {
        "model": models.ErrorResponse,
        "description": "Invalid input, or work over the server's limits (the detail says why)",
    },
    503: {"model": models.ErrorResponse, "description": "Busy: every worker process is taken"},
}


def worker_app(limits: Limits) -> FastAPI:
    """The app a worker process runs: the same limits, everything answered in the process
    (O(1)); the host was checked by the server process that sent the request."""
    return create_app(limits, workers=False, hosts=["*"])


def create_app(
    limits: Limits | None = None, *, workers: bool = True, hosts: Sequence[str] | None = None
) -> FastAPI:
    """The web app with the given limits (default: :meth:`Limits.from_env`) (O(1)). With
    ``workers``, costly requests run in worker processes (:class:`RequestGuard`), started
    on first use and stopped with the app. ``hosts``: the host names requests may be sent to
    (default: ``COINROW_WEB_ALLOWED_HOSTS``, else loopback; :func:`~coinrow.web.guard.
    allowed_hosts`); every response carries the security headers of :mod:`coinrow.web.guard`."""
    limits = Limits.from_env() if limits is None else limits
    served_hosts = allowed_hosts(hosts)
    pool = None
    if workers:
        pool = WorkerPool(
            worker_app,
            limits,
            size=limits.processes,
            queue=limits.queue,
            seconds=limits.request_seconds,
            memory=limits.request_memory,
        )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        die_with_parent()  # a server process of `coinrow serve --workers N` ends with it
        yield
        if pool is not None:
            pool.close()

    bodies = models.request_models(
        limits.solve_coins,
        limits.table_coins,
        limits.steps_coins,
        limits.play_coins,
        limits.analyze_coins,
    )
    page_bodies = models.page_request_models(limits.analyze_coins)
    app = FastAPI(
        title="coinrow",
        version=__version__,
        docs_url=None,  # served below from the package's own copy of Swagger UI (offline)
        redoc_url=None,
        description="Solve, explore, play and learn the coins-in-a-line game. Every error is "
        '{"detail": "<a sentence>"}; exact values are JSON numbers (ints) or exact strings.',
        lifespan=lifespan,
    )
    app.router.route_class = _ExactRoute
    app.add_middleware(RequestGuard, limits=limits, pool=pool)
    app.add_middleware(Compress)
    app.add_middleware(StaticCache)
    app.add_middleware(Security, hosts=served_hosts)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe_validation(error.errors())}, status_code=422)

    @app.exception_handler(CoinrowError)
    async def _library(request: Request, error: CoinrowError) -> JSONResponse:
        if isinstance(error, CostLimitError) and _INLINE.get():
            # too costly to answer inline: RequestGuard sends it to a worker process
            return JSONResponse({"detail": str(error)}, 422, {_TO_WORKER.decode(): "1"})
        return JSONResponse({"detail": str(error)}, status_code=422)

    @app.exception_handler(MemoryError)
    async def _memory(request: Request, error: MemoryError) -> JSONResponse:
        detail = (
            "the request needed more than the server's memory limit of "
            f"{limits.request_memory / 2**20:,.0f} MiB for one request and was stopped"
        )
        return JSONResponse({"detail": detail}, status_code=422)

    def row_of(items: Any, limit: int) -> list[Value]:
        return read_row(items, limit, limits.coin_digits)

    def api_post(
        path: str, summary: str, response: Any, body: type[BaseModel], *, tag: str = "game"
    ) -> Callable[[F], F]:
        """Declare a POST endpoint of the API taking a ``body`` and answering ``response``."""
        route = app.post(
            path, summary=summary, response_model=response, responses=ERRORS, tags=[tag]
        )

        def declare(endpoint: F) -> F:
            return route(_with_body(endpoint, body))

        return declare

    def api_get(
        path: str, summary: str, response: Any, *, errors: bool = True, tag: str = "game"
    ) -> Callable[[F], F]:
        """Declare a GET endpoint of the API answering ``response`` (``errors``: and the
        error responses)."""
        return app.get(
            path,
            summary=summary,
            response_model=response,
            responses=ERRORS if errors else None,
            tags=[tag],
        )

    def row_and_rules(
        body: Any, limit: int, *, table: bool = False, check_plain: bool = True
    ) -> tuple[list[Value], Rules]:
        """The body's coins (at most ``limit``) and rules, refusing work estimated over the
        request's time by :func:`check_variant_cost` (``check_plain``: also for the plain game,
        whose ``solve`` and ``Table`` otherwise check their own cost) (O(n))."""
        row, rules = row_of(body.coins, limit), Rules.parse(body.rules)
        if check_plain or not rules.is_plain:
            check_variant_cost(row, rules, table=table)
        return row, rules

    def row_and_line(body: Any) -> tuple[list[Value], str]:
        """The body's coins (at most ``analyze_coins``) and the line of its ``moves`` (O(n))."""
        row = row_of(body.coins, limits.analyze_coins)
        return row, Game(row, body.moves).line

    @api_post(
        "/api/solve",
        "Solve a row",
        models.SolveResponse,
        bodies.solve,
    )
    def solve_endpoint(body: Any) -> JSONResponse:
        """Solve a row: exactly what ``coinrow solve --json`` prints (``--rules R``: the
        variant's JSON; the pizza adds ``starts``, the margin of each first slice). O(n) for
        the plain game, misere and stone-game-vii; O(n^2) (times K or P) for the others."""
        row, rules = row_and_rules(body, limits.solve_coins, check_plain=False)
        solution = solve(row, rules=rules, max_seconds=request_seconds())
        data = solution.to_dict(None if body.full else PER_COIN_LIMIT)
        data["first_move_info"] = move_info(row, rules, data["first_moves"])
        return JSONResponse(data)

    @api_post(
        "/api/table",
        "Every subgame, as data and as the SVG triangle",
        models.TableResponse | models.VariantTableResponse,
        bodies.table,
        tag="pictures",
    )
    def table_endpoint(body: Any) -> JSONResponse:
        """Every subgame as data (``coinrow table --json``) and the SVG triangle. O(n^2).
        Other ``rules`` (interval variants) give ``coinrow table --rules R --json``, without
        the picture (``view`` and ``highlight`` are the plain game's): O(n^2), O(n^2 K) for
        ``take:K``."""
        view = check_view(body.view)
        row, rules = row_and_rules(body, limits.table_coins, table=True, check_plain=False)
        if not rules.is_plain:
            if body.highlight not in (None, "best"):  # checked, though only drawn for plain
                try:
                    Game(row, body.highlight, rules=rules)
                except CoinrowError as error:
                    raise InvalidOptionError(f"highlight: {error}") from None
            return JSONResponse(variant_table(row, rules).to_dict())
        table = Table(row, max_seconds=request_seconds())
        highlight = table.line if body.highlight == "best" else body.highlight or None
        data = table_data(table)
        data["svg"] = str(triangle(table, view=view, highlight=highlight))
        return JSONResponse(data)

    @api_post(
        "/api/steps",
        "The bottom-up fill and the memoised recursion, step by step",
        models.StepsResponse,
        bodies.steps,
        tag="pictures",
    )
    def steps_endpoint(body: Any) -> JSONResponse:
        """The bottom-up fill, cell by cell, and the memoised recursion's calls. O(n^2)."""
        row, seconds = row_of(body.coins, limits.steps_coins), request_seconds()
        return JSONResponse(
            {
                "coins": [json_value(coin) for coin in row],
                "fill": [step.to_dict() for step in fill_steps(row, max_seconds=seconds)],
                "memo": memo_calls(row, max_seconds=seconds).to_dict(),
            }
        )

    @api_post(
        "/api/move",
        "The strategy's move, the best moves and the totals of a position",
        models.MoveResponse,
        bodies.move,
    )
    def move_endpoint(body: Any) -> JSONResponse:
        """The strategy's next move, the best moves and the totals after ``moves``.

        Stateless: send the whole game each time. A random strategy's choice depends on
        ``seed`` and the number of moves played, so a position replays the same way.
        O(n^2) for rows up to 512 coins (the table of subgames), O(n) per query beyond.
        """
        row = row_of(body.coins, limits.play_coins)
        game = Game(row, body.moves)
        rest = row[game.position.lo : game.position.hi + 1]  # the library prices the move
        what = f"the {body.strategy.partition(':')[0]} strategy's move on {len(rest):,} coins"
        check_seconds(move_seconds(body.strategy, rest), what)
        seed = None if body.seed is None else body.seed * 1_000_003 + len(game.moves)
        strategy = get(body.strategy, seed=seed, allow_user=False)  # never imports user code
        return JSONResponse(position_data(game, strategy))

    @api_post(
        "/api/play",
        "A game under any rules: the position, legal and optimal moves, totals",
        models.PlayResponse,
        bodies.play,
    )
    def play_endpoint(body: Any) -> JSONResponse:
        """The position after ``moves`` under ``rules`` (``Game(coins, moves, rules=...)``):
        the mover's seat, every legal move and the coins it takes, the optimal moves (the
        first is the computer's move), and every player's totals so far and with best play
        from here. Stateless: send the whole game each time. O(n^2) for the interval variants
        (their table), O(n^2) (times P) for the pizza before its first slice, ``reply`` and
        ``players``."""
        row, rules = row_and_rules(body, limits.play_coins)
        # moves may be written apart ("L R") under every rules, as the schema says
        moves = body.moves.replace(" ", "") if rules.is_plain else body.moves
        game = Game(row, moves, rules=rules)
        return JSONResponse(play_data(game, PlayValues(row, rules)))

    @api_post(
        "/api/analyze", "Move-by-move analysis of a game", models.AnalyzeResponse, bodies.analyze
    )
    def analyze_endpoint(body: Any) -> JSONResponse:
        """Move-by-move analysis of a game, finished or not (one game of ``coinrow analyze
        --json``). O(n^2) for rows up to 512 coins, and for int rows up to 8,000."""
        row, line = row_and_line(body)
        return JSONResponse(analyze(row, line, max_seconds=request_seconds()).to_dict())

    @api_get("/api/random", "A random row", models.RandomResponse)
    def random_endpoint(
        n: int = Query(10, ge=1, le=limits.random_coins, description="Number of coins."),
        values: str = Query(
            "1-9",
            max_length=200,
            json_schema_extra={"pattern": models.VALUES_PATTERN},
            description='A range such as "1-9" or a list "1,2,5".',
        ),
        seed: int | None = Query(None, ge=0, le=2**32 - 1, description="Random seed."),
    ) -> JSONResponse:
        """A random row of ``n`` coins, each within the coin limits. O(n)."""
        spec = ValueSpec.parse(values)
        if spec.choices:
            _check_digits(list(spec.choices), limits.coin_digits)
        else:
            _check_digits([spec.low, spec.high], limits.coin_digits)
        widest = max(len(str(value)) for value in (*spec.choices, spec.low, spec.high))
        check_seconds(n * (widest + 10) * 50e-9, f"a random row of {n:,} coins")
        coins = spec.row(n, random.Random(seed))
        return JSONResponse(
            {"n": n, "values": values, "seed": seed, "coins": [json_value(c) for c in coins]}
        )

    @api_get("/api/strategies", "The built-in strategies", models.StrategiesResponse, errors=False)
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

    @api_get("/api/rules", "The rules coinrow plays", models.RulesResponse, tag="game")
    def rules_endpoint(
        rules: str | None = Query(
            None,
            max_length=128,
            pattern=models.RULES_PATTERN,
            description="One rules' text form (take:2); without it, every rule (defaults).",
        ),
    ) -> JSONResponse:
        """Every rule coinrow plays, each with its default parameters, or the ``rules`` asked
        for: title, description, the moves' notation in words (``coinrow.Rules.to_dict``) and
        the text form's syntax, for the page's help and move words. O(rules)."""
        chosen = [Rules.parse(rules)] if rules is not None else [rule() for rule in RULES.values()]
        return JSONResponse({"rules": [{**r.to_dict(), "syntax": r.syntax} for r in chosen]})

    @api_get(
        "/api/limits", "The server's limits", models.LimitsResponse, errors=False, tag="server"
    )
    def limits_endpoint() -> JSONResponse:
        """The server's limits. O(1)."""
        return JSONResponse(asdict(limits))

    @api_post(
        "/api/review",
        "A game's analysis and its evaluation after every move",
        models.ReviewResponse,
        page_bodies.review,
    )
    def review_endpoint(body: Any) -> JSONResponse:
        """The analysis of a game (as ``/api/analyze``) and, for its chart, each player's
        guaranteed total and the margin before the first move and after every move. O(n^2)."""
        row, line = row_and_line(body)
        return JSONResponse(
            {
                "analysis": analyze(row, line, max_seconds=request_seconds()).to_dict(),
                "series": [
                    point.to_dict()
                    for point in evaluation(row, line, max_seconds=request_seconds())
                ],
            }
        )

    @api_post(
        "/api/record",
        "A game as a record in coinrow's text format",
        models.RecordResponse,
        page_bodies.record,
    )
    def record_endpoint(body: Any) -> JSONResponse:
        """The record of a game (``Record.to_text``), with a ``players`` header if given and
        today's date (UTC). O(n)."""
        row = row_of(body.coins, limits.analyze_coins)
        headers = {"date": datetime.datetime.now(datetime.UTC).date().isoformat()}
        if body.players:
            headers["players"] = body.players
        return JSONResponse({"text": Record(row, body.moves, headers).to_text()})

    @api_post(
        "/api/record/read",
        "Read a record (text format or JSON)",
        models.RecordReadResponse,
        page_bodies.record_read,
    )
    def record_read_endpoint(body: Any) -> JSONResponse:
        """The first record of a text (``load_records``); a text without a good record is
        refused with the reader's first error. O(len(text))."""
        read = load_records(body.text)
        if not read.records:
            reason = str(read.errors[0]) if read.errors else "the text holds no record"
            raise InvalidRowError(f"cannot read a record: {reason}")
        record = read.records[0]
        row = row_of([json_value(coin) for coin in record.coins], limits.analyze_coins)
        return JSONResponse(
            {
                "coins": [json_value(coin) for coin in row],
                "coins_text": " ".join(str(json_value(coin)) for coin in row),
                "moves": record.moves,
                "headers": dict(record.headers),
                "records": len(read.records),
            }
        )

    @api_post(
        "/api/duel",
        "A whole game between two built-in strategies",
        models.DuelResponse,
        page_bodies.duel,
    )
    def duel_endpoint(body: Any) -> JSONResponse:
        """``strategies.play``: the line and totals of a game between two built-ins (the page
        shows greedy and odd/even losing to perfect play this way). O(n^2)."""
        row = row_of(body.coins, limits.analyze_coins)
        what = f"a game between two strategies on {len(row):,} coins"
        check_cost(row, "table", max_seconds=request_seconds(), what=what)  # optimal's table
        check_seconds(game_seconds(row, body.first, body.second), what)  # the library's price
        first = get(body.first, seed=body.seed, allow_user=False)
        second = get(body.second, seed=body.seed, allow_user=False)
        game = play(row, first, second)
        first_total, second_total = game.totals
        return JSONResponse(
            {
                "line": game.line,
                "first_total": json_value(first_total),
                "second_total": json_value(second_total),
            }
        )

    levels_cache: list[dict[str, Any]] = []

    @api_get(
        "/api/levels",
        "The opponent levels and their measured strength",
        models.LevelsResponse,
        errors=False,
    )
    def levels_endpoint() -> JSONResponse:
        """The opponent levels, weakest first, each with its strength measured by play
        against perfect play (``coinrow.levels.level_table``: about 0.15 s, computed once per
        process and kept with the app). O(1) after the first call."""
        if not levels_cache:
            levels_cache.extend(level_table())
        return JSONResponse({"levels": levels_cache})

    @api_get(
        "/api/puzzle", "A puzzle: the daily one (by UTC date) or one by seed", models.PuzzleResponse
    )
    def puzzle_endpoint(
        date: Annotated[
            str | None,
            Query(
                max_length=10,
                pattern=r"^\d{4}-\d{2}-\d{2}$",
                json_schema_extra={"format": "date"},
                description="The day (YYYY-MM-DD) of the daily puzzle.",
            ),
        ] = None,
        seed: int | None = Query(None, ge=0, le=2**32 - 1, description="A puzzle by seed."),
    ) -> JSONResponse:
        """``coinrow.puzzles``: the daily puzzle of ``date`` (default: today, UTC), or the
        puzzle of ``seed``. O(tries x n^2), a few milliseconds."""
        if seed is not None:
            return JSONResponse(puzzle(seed).to_dict())
        day = None
        if date is not None:
            try:
                day = datetime.date.fromisoformat(date)
            except ValueError:
                raise InvalidOptionError(
                    f"date: {date!r} is not a date such as 2026-11-23"
                ) from None
        return JSONResponse(daily_puzzle(day).to_dict())

    app.include_router(learning.router(_ExactRoute, ERRORS))  # puzzles of several moves, rating

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(DOCS_PAGE)

    # Swagger UI 5 (OpenAPI 3.1) as shipped inside the fastapi-offline package.
    swagger = Path(fastapi_offline.__file__).parent / "static"
    app.mount("/swagger", StaticFiles(directory=swagger), name="swagger")

    page = (STATIC / "index.html").read_text(encoding="utf-8")
    page_tag = '"' + hashlib.sha256(page.encode()).hexdigest()[:32] + '"'

    @app.get("/", include_in_schema=False)
    def index(request: Request) -> Response:
        """The page, with an ETag: a browser's revalidation gets 304 (O(len(page)))."""
        tags = request.headers.get("if-none-match", "")
        if page_tag in (tag.strip().removeprefix("W/") for tag in tags.split(",")):
            return Response(status_code=304, headers={"etag": page_tag})
        return HTMLResponse(page, headers={"etag": page_tag})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


#: The API's documentation page: Swagger UI started by a script file, not inline (the
#: Content-Security-Policy of :mod:`coinrow.web.guard` allows no inline script).
DOCS_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="swagger/swagger-ui.css">
<link rel="icon" href="swagger/favicon.png">
<title>coinrow API</title>
</head>
<body>
<div id="swagger-ui"></div>
<script src="swagger/swagger-ui-bundle.js"></script>
<script src="static/js/swagger.js"></script>
</body>
</html>
"""


class Compress:
    """Starlette's gzip for clients that accept it (responses of 1,000 bytes or more); other
    requests (API clients, the load benchmark) go straight to the app, paying nothing (O(1))."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1000)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"accept-encoding" and b"gzip" in value:
                    await self.gzip(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class StaticCache:
    """ASGI middleware giving the page's files a cache header: browsers keep them and ask
    again with their ETag (answered 304 Not Modified) rather than loading them anew (O(1))."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not (path == "/" or path.startswith(("/static/", "/swagger/"))):
            await self.app(scope, receive, send)
            return

        async def send_with_cache(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k != b"cache-control"]
                headers.append((b"cache-control", b"no-cache"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cache)


F = TypeVar("F", bound=Callable[..., Any])


def _with_body(endpoint: F, model: type[BaseModel]) -> F:
    """``endpoint`` with its ``body`` parameter declared as ``model`` (built at run time, with
    the app's limits, so it cannot be written in the annotation)."""
    endpoint.__annotations__ = {**endpoint.__annotations__, "body": model}
    return endpoint


def position_data(game: Game, strategy: Callable[..., Any]) -> dict[str, Any]:
    """The current position of ``game`` for ``/api/move`` (O(n^2) for the table of up to 512
    coins, then O(1); O(n) per query for longer rows)."""
    position = game.position
    lo, hi = position.lo, position.hi
    first, second = game.totals
    subgames = Subgames(game.coins, max_seconds=request_seconds())
    if isinstance(strategy, Optimal):
        strategy.attach(subgames)  # the same table: built once, within the same limits
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
        "best_moves": [] if finished else list(subgames.moves_of(lo, hi)),
        "value": json_value(value),
        "first_total": json_value(first),
        "second_total": json_value(second),
        "first_guaranteed": json_value(guaranteed[0]),
        "second_guaranteed": json_value(guaranteed[1]),
        "leader": "first" if first > second else "second" if second > first else "tie",
    }


def _taken(row: Sequence[Value], rules: Rules, move: str) -> list[int]:
    """The coins a first move takes from the whole row, by its side and count (O(count))."""
    side, count = rules.side_count(move)
    n = len(row)
    if side == 2:
        return [0, n - 1]
    return list(range(count)) if side == 0 else list(range(n - count, n))


def move_info(row: Sequence[Value], rules: Rules, moves: Sequence[str]) -> list[dict[str, Any]]:
    """Each of ``moves`` (first moves of ``row`` under ``rules``) for people: its text, its
    words (:meth:`~coinrow.rules.Rules.move_words`), the coins it takes (0-based indices)
    and their values (O(coins taken)).

    >>> move_info([4, 9, 1, 7], Rules.parse("take:2"), ["L2"])
    [{'move': 'L2', 'words': 'take 2 coins from the left', 'indices': [0, 1], 'coins': [4, 9]}]
    """
    try:
        start: Position | None = Position.start(row, rules=rules)
    except UnsupportedRulesError:  # rules without positions yet (stone-game-ii): from the row
        start = None
    result = []
    for move in moves:
        indices = list(start.indices_of(move)) if start is not None else _taken(row, rules, move)
        result.append(
            {
                "move": move,
                "words": rules.move_words(move),
                "indices": indices,
                "coins": [json_value(row[index]) for index in indices],
            }
        )
    return result


def play_data(game: Game, values: PlayValues) -> dict[str, Any]:
    """The position of a game under any rules for ``/api/play`` (O(moves + legal moves) after
    the library's queries, whose costs ``/api/play`` states)."""
    position = game.position
    finished = position.is_over
    best = () if finished else game.best_moves(values=values)
    return {
        "rules": str(game.rules),
        "coins": [json_value(coin) for coin in game.coins],
        "players": game.rules.players,
        "moves": list(game.moves),
        "line": game.line,
        "finished": finished,
        "seat": None if finished else position.seat,
        "legal": [
            {
                "move": move,
                "indices": list(position.indices_of(move)),
                "words": game.rules.move_words(move),
            }
            for move in position.legal_moves()
        ],
        "best_moves": list(best),
        "move": best[0] if best else None,
        "totals": [json_value(total) for total in game.totals],
        "best_totals": [json_value(total) for total in game.best_totals(values=values)],
        "played": [
            {
                "seat": row.seat,
                "player": row.player,
                "move": row.move,
                "indices": list(row.indices),
                "gain": json_value(row.gain),
                "totals": [json_value(total) for total in row.totals],
            }
            for row in game.transcript()
        ],
        "remaining": list(position.remaining_indices()),
        "first_slice": position.first_slice,
        "winners": list(game.rules.winners(game.totals)) if finished else None,
        "review": analyze(
            game.coins, game.moves, rules=game.rules, values=values, max_seconds=request_seconds()
        ).to_dict()["moves"]
        if finished
        else None,
    }
