"""The analysis board: ``/api/analysis``, a line (a game or a variation) shown after any of
its moves, with its review, its evaluation and a lesson for every move that was not the best
(the library's :func:`coinrow.analysis.lessons`). Read-only: nothing is played for anyone."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...analysis import SYMBOLS, lessons, lessons_seconds, seat_words
from ...errors import InvalidOptionError
from ...game import Game
from ...play_values import PlayValues
from .. import models
from ..limits import check_seconds, request_seconds
from . import Api
from .play import play_data, play_seconds


def router(api: Api) -> APIRouter:
    """The router of the analysis board's endpoint (O(1))."""
    body_model = models.board_request_model(api.limits.play_coins)

    @api.post(
        "/api/analysis",
        "A line on the analysis board: the position after any move, the review and lessons",
        models.AnalysisResponse,
        body_model,
    )
    def analysis_endpoint(body: Any) -> JSONResponse:
        """The line ``moves`` under ``rules`` shown after its first ``ply`` moves (default:
        all), as ``/api/play`` shows a game but never answering for anyone, and for every move
        of the line that was not the best a lesson (``coinrow.analysis.lessons``): the other
        seats' best answers, the best line instead and a sentence (``seat``: the person's
        seat, named "you"). One call gives the whole line's analysis. O(n^2) as ``/api/play``,
        plus up to 4 positions per lesson (priced first under ``reply`` and ``players``)."""
        row, rules = api.row_and_rules(body, api.limits.play_coins)
        game = Game(row, body.moves.replace(" ", "") if rules.is_plain else body.moves, rules=rules)
        picture_coins = api.limits.table_coins if body.picture else 0
        seconds = play_seconds(game, picture_coins=picture_coins)
        seconds += lessons_seconds(row, len(game.moves), rules)
        check_seconds(seconds, f"the analysis of a game of {len(row):,} coins under {rules}")
        ply = len(game.moves) if body.ply is None else body.ply
        if ply > len(game.moves):
            raise InvalidOptionError(f"ply {ply} is beyond the {len(game.moves)} moves given")
        if body.seat is not None and body.seat >= rules.players:
            raise InvalidOptionError(f"seat {body.seat}: the rules {rules} seat {rules.players}")
        values = PlayValues(row, rules)
        data = play_data(game, ply, values, picture_coins)
        found = lessons(
            row,
            game.line if rules.is_plain else game.moves,
            rules=rules,
            you=body.seat,
            values=values,
            max_seconds=request_seconds(),
        )
        data["replies"] = []
        data["lessons"] = [lesson.to_dict() for lesson in found]
        data["symbols"] = dict(SYMBOLS)
        data["names"] = [
            seat_words(seat, rules.players, body.seat) for seat in range(rules.players)
        ]
        return JSONResponse(data)

    return api.router
