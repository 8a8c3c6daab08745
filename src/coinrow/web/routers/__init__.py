"""The API's endpoints, one router per area of the page: :mod:`.solve` (Solve and Explore),
:mod:`.play` (Play: a game, its review and records), :mod:`.learn` (Learn and Puzzles) and
:mod:`.server` (rows, strategies, rules, limits, duels).

Each module's ``router(api)`` declares its endpoints on an :class:`Api`: the server's limits,
the request bodies built with them, and the steps every endpoint shares (read the row and the
rules, refuse work over the request's time). Endpoints parse, call the library and serialise
its ``to_dict()`` documents; no game logic lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from fastapi import APIRouter
from pydantic import BaseModel

from ...engines.variants import variant_cost
from ...game import Game
from ...numbers import Row, Value
from ...rules import Rules
from .. import models
from ..inputs import ExactRoute, read_row
from ..limits import Limits, check_seconds, request_seconds

F = TypeVar("F", bound=Callable[..., Any])

#: The error responses every endpoint documents.
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


def check_variant_cost(
    row: Sequence[Value], rules: Rules, *, table: bool = False, answer_seconds: float = 0.0
) -> None:
    """Refuse a variant solve or table (``table``) estimated over :func:`request_seconds`
    (inline, that sends it to a worker process), by the engines' own cost model
    (:func:`coinrow.engines.variants.variant_cost`, O(n)) plus ``answer_seconds``, the
    library's price of the answer built from it (its pictures, its moves replayed)."""
    seconds, _ = variant_cost(row, rules, table=table, limit=request_seconds())
    check_seconds(seconds + answer_seconds, f"rules {rules} on {len(row):,} coins")


def _with_body(endpoint: F, model: type[BaseModel]) -> F:
    """``endpoint`` with its ``body`` parameter declared as ``model`` (built at run time, with
    the app's limits, so it cannot be written in the annotation)."""
    endpoint.__annotations__ = {**endpoint.__annotations__, "body": model}
    return endpoint


class Api:
    """One router's endpoints with the server's ``limits`` and the request bodies built with
    them (O(1) to make)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.bodies = models.request_models(
            limits.solve_coins,
            limits.table_coins,
            limits.steps_coins,
            limits.play_coins,
            limits.analyze_coins,
        )
        self.page_bodies = models.page_request_models(limits.analyze_coins)
        self.router = APIRouter(route_class=ExactRoute)

    def area(self) -> Api:
        """The same limits and bodies with a router of its own, for one area (O(1))."""
        other = object.__new__(Api)
        other.__dict__.update(self.__dict__)
        other.router = APIRouter(route_class=ExactRoute)
        return other

    def post(
        self, path: str, summary: str, response: Any, body: type[BaseModel], *, tag: str = "game"
    ) -> Callable[[F], F]:
        """Declare a POST endpoint of the API taking a ``body`` and answering ``response``."""
        route = self.router.post(
            path, summary=summary, response_model=response, responses=ERRORS, tags=[tag]
        )

        def declare(endpoint: F) -> F:
            return route(_with_body(endpoint, body))

        return declare

    def get(
        self, path: str, summary: str, response: Any, *, errors: bool = True, tag: str = "game"
    ) -> Callable[[F], F]:
        """Declare a GET endpoint of the API answering ``response`` (``errors``: and the
        error responses)."""
        return self.router.get(
            path,
            summary=summary,
            response_model=response,
            responses=ERRORS if errors else None,
            tags=[tag],
        )

    def row(self, items: Any, limit: int) -> Row:
        """The row of a request, at most ``limit`` coins (O(n))."""
        return read_row(items, limit, self.limits.coin_digits)

    def row_and_rules(
        self,
        body: Any,
        limit: int,
        *,
        table: bool = False,
        check_plain: bool = True,
        answer_seconds: Callable[[Row, Rules], float] | None = None,
    ) -> tuple[Row, Rules]:
        """The body's coins (at most ``limit``) and rules, refusing work estimated over the
        request's time by :func:`check_variant_cost` (``check_plain``: also for the plain game,
        whose ``solve`` and ``Table`` otherwise check their own cost), with the price of the
        answer from ``answer_seconds`` added (O(n))."""
        row, rules = self.row(body.coins, limit), Rules.parse(body.rules)
        extra = 0.0 if answer_seconds is None else answer_seconds(row, rules)
        if check_plain or not rules.is_plain:
            check_variant_cost(row, rules, table=table, answer_seconds=extra)
        else:
            check_seconds(extra, f"the answer for {len(row):,} coins")
        return row, rules

    def row_and_line(self, body: Any) -> tuple[Row, str]:
        """The body's coins (at most ``analyze_coins``) and the line of its ``moves`` (O(n))."""
        row = self.row(body.coins, self.limits.analyze_coins)
        return row, Game(row, body.moves).line
