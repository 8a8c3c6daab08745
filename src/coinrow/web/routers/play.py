"""Play: ``/api/play`` (a game under any rules), ``/api/move`` (the plain game's position and
a strategy's move), ``/api/analyze`` and ``/api/review`` (a game's analysis and evaluation),
``/api/record`` and ``/api/record/read`` (records), ``/api/levels`` (the opponent levels)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...analysis import analyze
from ...errors import InvalidRowError
from ...game import Game
from ...levels import level_table
from ...numbers import json_value
from ...play_values import PlayValues
from ...record import Record, load_records
from ...review import evaluation
from ...strategies import Optimal, get, move_seconds
from ...subgames import Subgames
from .. import models
from ..limits import check_seconds, request_seconds
from . import Api


def router(api: Api) -> APIRouter:
    """The router of these endpoints, with ``api``'s limits and bodies (O(1))."""

    @api.post(
        "/api/move",
        "The strategy's move, the best moves and the totals of a position",
        models.MoveResponse,
        api.bodies.move,
    )
    def move_endpoint(body: Any) -> JSONResponse:
        """The strategy's next move, the best moves and the totals after ``moves``.

        Stateless: send the whole game each time. A random strategy's choice depends on
        ``seed`` and the number of moves played, so a position replays the same way.
        O(n^2) for rows up to 512 coins (the table of subgames), O(n) per query beyond.
        """
        row = api.row(body.coins, api.limits.play_coins)
        game = Game(row, body.moves)
        rest = row[game.position.lo : game.position.hi + 1]  # the library prices the move
        what = f"the {body.strategy.partition(':')[0]} strategy's move on {len(rest):,} coins"
        check_seconds(move_seconds(body.strategy, rest), what)
        seed = None if body.seed is None else body.seed * 1_000_003 + len(game.moves)
        strategy = get(body.strategy, seed=seed, allow_user=False)  # never imports user code
        return JSONResponse(position_data(game, strategy))

    @api.post(
        "/api/play",
        "A game under any rules: the position, legal and optimal moves, totals",
        models.PlayResponse,
        api.bodies.play,
    )
    def play_endpoint(body: Any) -> JSONResponse:
        """The position after ``moves`` under ``rules`` (``Game(coins, moves, rules=...)``):
        the mover's seat, every legal move and the coins it takes, the optimal moves (the
        first is the computer's move), and every player's totals so far and with best play
        from here. Stateless: send the whole game each time. O(n^2) for the interval variants
        (their table), O(n^2) (times P) for the pizza before its first slice, ``reply`` and
        ``players``."""
        row, rules = api.row_and_rules(body, api.limits.play_coins)
        # moves may be written apart ("L R") under every rules, as the schema says
        moves = body.moves.replace(" ", "") if rules.is_plain else body.moves
        game = Game(row, moves, rules=rules)
        return JSONResponse(play_data(game, PlayValues(row, rules)))

    @api.post(
        "/api/analyze",
        "Move-by-move analysis of a game",
        models.AnalyzeResponse,
        api.bodies.analyze,
    )
    def analyze_endpoint(body: Any) -> JSONResponse:
        """Move-by-move analysis of a game, finished or not (one game of ``coinrow analyze
        --json``). O(n^2) for rows up to 512 coins, and for int rows up to 8,000."""
        row, line = api.row_and_line(body)
        return JSONResponse(analyze(row, line, max_seconds=request_seconds()).to_dict())

    @api.post(
        "/api/review",
        "A game's analysis and its evaluation after every move",
        models.ReviewResponse,
        api.page_bodies.review,
    )
    def review_endpoint(body: Any) -> JSONResponse:
        """The analysis of a game (as ``/api/analyze``) and, for its chart, each player's
        guaranteed total and the margin before the first move and after every move. O(n^2)."""
        row, line = api.row_and_line(body)
        return JSONResponse(
            {
                "analysis": analyze(row, line, max_seconds=request_seconds()).to_dict(),
                "series": [
                    point.to_dict()
                    for point in evaluation(row, line, max_seconds=request_seconds())
                ],
            }
        )

    @api.post(
        "/api/record",
        "A game as a record in coinrow's text format",
        models.RecordResponse,
        api.page_bodies.record,
    )
    def record_endpoint(body: Any) -> JSONResponse:
        """The record of a game (``Record.to_text``), with a ``players`` header if given and
        today's date (UTC). O(n)."""
        row = api.row(body.coins, api.limits.analyze_coins)
        headers = {"date": datetime.datetime.now(datetime.UTC).date().isoformat()}
        if body.players:
            headers["players"] = body.players
        return JSONResponse({"text": Record(row, body.moves, headers).to_text()})

    @api.post(
        "/api/record/read",
        "Read a record (text format or JSON)",
        models.RecordReadResponse,
        api.page_bodies.record_read,
    )
    def record_read_endpoint(body: Any) -> JSONResponse:
        """The first record of a text (``load_records``); a text without a good record is
        refused with the reader's first error. O(len(text))."""
        read = load_records(body.text)
        if not read.records:
            reason = str(read.errors[0]) if read.errors else "the text holds no record"
            raise InvalidRowError(f"cannot read a record: {reason}")
        record = read.records[0]
        row = api.row([json_value(coin) for coin in record.coins], api.limits.analyze_coins)
        return JSONResponse(
            {
                "coins": [json_value(coin) for coin in row],
                "coins_text": " ".join(str(json_value(coin)) for coin in row),
                "moves": record.moves,
                "headers": dict(record.headers),
                "records": len(read.records),
            }
        )

    levels_cache: list[dict[str, Any]] = []

    @api.get(
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

    return api.router


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
