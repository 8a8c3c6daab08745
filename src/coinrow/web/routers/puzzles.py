"""The API of the page's puzzles of several moves and of the learner's puzzle rating:
``GET /api/puzzles/themes``, ``GET /api/puzzles/puzzle`` (by theme and seed, or the daily
one by date) and ``POST /api/puzzles/rate`` (Glicko-2, :mod:`coinrow.rating`). A thin shell:
the library finds the puzzles, explains the wrong moves and computes the ratings.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from ...puzzles import PUZZLE_RD, THEMES, daily_themed_puzzle, themed_puzzle
from ...rating import LOWEST_RD, START_RD, Rating, update
from ..models import Exact
from . import Api
from .learn import DateQuery, day_of

ThemeName = Literal["greedy-trap", "parity-trap", "endgame", "variant-rules"]


def _no_bool(value: Any) -> Any:
    """JSON true/false is no number (Pydantic would read it as 1/0)."""
    if isinstance(value, bool):
        raise ValueError("a number, not true or false")
    return value


class ThemeData(BaseModel):
    """A kind of puzzle."""

    name: ThemeName
    title: str
    about: str
    tempting: str
    rules: str
    coins: int
    moves: int


class ThemesResponse(BaseModel):
    """The puzzle themes, in the order the daily puzzle takes them."""

    themes: list[ThemeData]


class PuzzleStepData(BaseModel):
    """A move the solver must find (the only best one) and the computer's answer."""

    ply: int = Field(description="Moves played before this one.")
    best: str
    tempting: str = Field(description="The tempting strategy's move here.")
    reply: str | None = Field(description="The computer's answer; null after the last move.")
    why: dict[str, str] = Field(description="For every other legal move, why it is worse.")


class LinePuzzleResponse(BaseModel):
    """A puzzle of several moves (``coinrow.puzzles.themed_puzzle``)."""

    id: str
    theme: ThemeName
    seed: int
    rules: str
    coins: list[Exact]
    tempting: str
    steps: list[PuzzleStepData]
    loss: Exact
    grade: Literal["inaccuracy", "mistake", "blunder"]
    best_total: Exact
    rating: int
    theme_title: str
    theme_about: str
    tempting_rule: str
    plain: bool = Field(description="Whether the puzzle is under the plain game's rules.")
    rules_words: str = Field(description="The rules in words (empty for the plain game).")
    line: list[str]
    explanation: str = Field(description="Why the tempting move loses, in words.")


class RateRequest(BaseModel):
    """A learner's rating and the result of one attempt at a puzzle of a given rating."""

    model_config = ConfigDict(extra="forbid")

    rating: Annotated[
        float,
        Field(ge=0, le=4000, description="The learner's rating (Glicko scale)."),
        BeforeValidator(_no_bool),
    ] = 1500.0
    rd: Annotated[
        float,
        Field(ge=LOWEST_RD, le=START_RD, description="Its rating deviation."),
        BeforeValidator(_no_bool),
    ] = START_RD
    volatility: Annotated[
        float, Field(ge=0.001, le=0.5, description="Its volatility."), BeforeValidator(_no_bool)
    ] = 0.06
    puzzle: Annotated[
        int, Field(ge=0, le=4000, description="The puzzle's rating."), BeforeValidator(_no_bool)
    ]
    solved: StrictBool


class RateResponse(BaseModel):
    """The learner's new rating after the attempt (Glicko-2, one rating period)."""

    rating: float
    rd: float
    volatility: float
    change: float


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
