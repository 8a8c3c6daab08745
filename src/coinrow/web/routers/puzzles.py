"""The API of the page's puzzles of several moves and of the learner's puzzle rating:
``GET /api/puzzles/themes``, ``GET /api/puzzles/puzzle`` (by theme and seed, or the daily
one by date) and ``POST /api/puzzles/rate`` (Glicko-2, :mod:`coinrow.rating`). A thin shell:
the library finds the puzzles, explains the wrong moves and computes the ratings.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...puzzles import PUZZLE_RD, THEMES, daily_themed_puzzle, themed_puzzle
from ...rating import Rating, update
from ..models import LinePuzzleResponse, RateRequest, RateResponse, ThemeName, ThemesResponse
from . import Api
from .learn import DateQuery, day_of


def router(api: Api) -> APIRouter:
    """The router of these endpoints, with ``api``'s limits (O(1))."""

    @api.get("/api/puzzles/themes", "The puzzle themes", ThemesResponse, errors=False, tag="learn")
    def themes_endpoint() -> JSONResponse:
        """``coinrow.puzzles.THEMES``. O(1)."""
        return JSONResponse({"themes": [theme.to_dict() for theme in THEMES.values()]})

    @api.get(
        "/api/puzzles/puzzle",
        "A puzzle of several moves: by theme and seed, or the daily one",
        LinePuzzleResponse,
        tag="learn",
    )
    def puzzle_endpoint(
        theme: Annotated[
            ThemeName | None,
            Query(description="The theme; greedy-trap when only a seed is given."),
        ] = None,
        seed: Annotated[
            int | None, Query(ge=0, le=2**32 - 1, description="The puzzle's seed.")
        ] = None,
        date: DateQuery = None,
    ) -> JSONResponse:
        """``coinrow.puzzles.themed_puzzle(theme, seed)`` (a theme or a seed given; the date is
        then not read), or the daily puzzle of ``date`` (default: today, UTC). O(tries x n^2):
        milliseconds."""
        if theme is not None or seed is not None:
            chosen = "greedy-trap" if theme is None else theme
            return JSONResponse(themed_puzzle(chosen, 0 if seed is None else seed).to_dict())
        return JSONResponse(daily_themed_puzzle(day_of(date)).to_dict())

    @api.post(
        "/api/puzzles/rate",
        "A learner's puzzle rating after an attempt (Glicko-2)",
        RateResponse,
        RateRequest,
        tag="learn",
    )
    def rate_endpoint(body: Any) -> JSONResponse:
        """``coinrow.rating.update``: the attempt is one game against the puzzle (a win when
        solved), whose rating deviation is ``coinrow.puzzles.PUZZLE_RD``. O(1)."""
        player = Rating(body.rating, body.rd, body.volatility)
        opponent = Rating(float(body.puzzle), PUZZLE_RD)
        new = update(player, [(opponent, 1 if body.solved else 0)])
        return JSONResponse({**new.to_dict(), "change": new.rating - player.rating})

    return api.router
