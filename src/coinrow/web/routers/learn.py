"""Learn and Puzzles: ``/api/steps`` (the bottom-up fill and the memoised recursion, step by
step) and ``/api/puzzle`` (the daily puzzle, or one by seed)."""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...errors import InvalidOptionError
from ...numbers import json_value
from ...puzzles import daily_puzzle, puzzle
from ...steps import fill_steps, memo_calls
from .. import models
from ..limits import request_seconds
from . import Api

#: The ``date`` query of a daily puzzle, declared once for ``/api/puzzle`` and
#: ``/api/puzzles/puzzle``.
DateQuery = Annotated[
    str | None,
    Query(
        max_length=10,
        pattern=r"^\d{4}-\d{2}-\d{2}$",
        json_schema_extra={"format": "date"},
        description="The day (YYYY-MM-DD) of the daily puzzle (default: today, UTC).",
    ),
]


def day_of(date: str | None) -> datetime.date | None:
    """The day of a ``date`` query, None when not given (O(1)); a day that does not exist
    (2026-02-30) is an :class:`~coinrow.errors.InvalidOptionError`."""
    if date is None:
        return None
    try:
        return datetime.date.fromisoformat(date)
    except ValueError:
        raise InvalidOptionError(f"date: {date!r} is not a date such as 2026-11-23") from None


def router(api: Api) -> APIRouter:
    """The router of these endpoints, with ``api``'s limits and bodies (O(1))."""

    @api.post(
        "/api/steps",
        "The bottom-up fill and the memoised recursion, step by step",
        models.StepsResponse,
        api.bodies.steps,
        tag="pictures",
    )
    def steps_endpoint(body: Any) -> JSONResponse:
        """The bottom-up fill, cell by cell, and the memoised recursion's calls. O(n^2)."""
        row, seconds = api.row(body.coins, api.limits.steps_coins), request_seconds()
        return JSONResponse(
            {
                "coins": [json_value(coin) for coin in row],
                "fill": [step.to_dict() for step in fill_steps(row, max_seconds=seconds)],
                "memo": memo_calls(row, max_seconds=seconds).to_dict(),
            }
        )

    @api.get(
        "/api/puzzle", "A puzzle: the daily one (by UTC date) or one by seed", models.PuzzleResponse
    )
    def puzzle_endpoint(
        date: DateQuery = None,
        seed: int | None = Query(None, ge=0, le=2**32 - 1, description="A puzzle by seed."),
    ) -> JSONResponse:
        """``coinrow.puzzles``: the daily puzzle of ``date`` (default: today, UTC), or the
        puzzle of ``seed``. O(tries x n^2), a few milliseconds."""
        if seed is not None:
            return JSONResponse(puzzle(seed).to_dict())
        return JSONResponse(daily_puzzle(day_of(date)).to_dict())

    return api.router
