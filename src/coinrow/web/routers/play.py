"""Play: ``/api/play`` (a game under any rules), ``/api/move`` (the plain game's position and
a strategy's move), ``/api/analyze`` and ``/api/review`` (a game's analysis and evaluation),
``/api/record`` and ``/api/record/read`` (records), ``/api/levels`` (the opponent levels)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...analysis import GameAnalysis, analysis_seconds, analyze
from ...engines.table import Table
from ...engines.variants import position_solves_cost
from ...errors import InvalidOptionError, InvalidRowError, UnsupportedRulesError
from ...game import Game, seat_name
from ...levels import level_table, levels_for
from ...numbers import json_value
from ...play_values import PlayValues
from ...record import Record, load_records
from ...review import evaluation
from ...solution import solve
from ...strategies import Optimal, answer, get, move_seconds
from ...subgames import Subgames
from ...svg import drawing_seconds, ring, triangle, variant_triangle
from ...tables import variant_table
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
        "A game under any rules: one call per move, with the computer's answer",
        models.PlayResponse,
        api.bodies.play,
    )
    def play_endpoint(body: Any) -> JSONResponse:
        """The game ``moves`` under ``rules``, shown after its first ``ply`` moves (default:
        all): the mover's seat, every legal move and the coins it takes, the optimal moves,
        every player's totals so far and with best play from there, every move played with
        its review label, the evaluation after every move, and the library's picture of the
        position (the triangle of subgames, or the pizza's ring, up to ``table_coins``).

        With ``seat`` (the person's seat) and ``ply`` at the end of the line, the computer
        (``opponent``, a built-in strategy that plays the rules) first answers for every other
        seat until the person is to move or the game is over (``replies``); without ``seat``
        people sit at every seat. Stateless: send the whole game each time; a random
        opponent's choice depends on ``seed`` and the moves played, so a game replays the same
        way. O(n^2) for the table of the interval rules (times K under ``take:K``), O(n^2)
        per move for ``reply`` and ``players``; plus the opponent's moves
        (:func:`coinrow.strategies.move_seconds`)."""
        row, rules = api.row_and_rules(body, api.limits.play_coins)
        # moves may be written apart ("L R") under every rules, as the schema says
        game = Game(row, body.moves.replace(" ", "") if rules.is_plain else body.moves, rules=rules)
        picture_coins = api.limits.table_coins if body.picture else 0
        seconds = play_seconds(game, picture_coins=picture_coins)
        check_seconds(seconds, f"a game of {len(row):,} coins under {rules}")
        ply = len(game.moves) if body.ply is None else body.ply
        if ply > len(game.moves):
            raise InvalidOptionError(f"ply {ply} is beyond the {len(game.moves)} moves given")
        values = PlayValues(row, rules)
        replies: tuple[str, ...] = ()
        if body.seat is not None and body.seat >= rules.players:
            raise InvalidOptionError(f"seat {body.seat}: the rules {rules} seat {rules.players}")
        if body.seat is not None and ply == len(game.moves):
            rest = game.position.remaining
            what = f"the {body.opponent.partition(':')[0]} strategy's moves on {len(rest):,} coins"
            check_seconds(move_seconds(body.opponent, rest) * (rules.players - 1), what)
            seed = None if body.seed is None else body.seed * 1_000_003 + len(game.moves)
            strategy = get(body.opponent, seed=seed, allow_user=False, rules=rules)
            if isinstance(strategy, Optimal) and not rules.is_plain:
                strategy.attach_values(values)  # the same values: built once
            replies = answer(game, strategy, seat=body.seat)
            ply = len(game.moves)
        data = play_data(game, ply, values, picture_coins, seat=body.seat)
        data["replies"] = list(replies)
        return JSONResponse(data)

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
        record = Record(row, body.moves, headers, rules=body.rules)
        return JSONResponse({"text": record.to_text()})

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
                "rules": str(record.rules),
            }
        )

    levels_cache: list[dict[str, Any]] = []

    @api.get(
        "/api/levels",
        "The opponent levels and their measured strength",
        models.LevelsResponse,
    )
    def levels_endpoint(
        rules: str | None = Query(
            None,
            max_length=128,
            pattern=models.PLAY_RULES_PATTERN,
            description="Only the levels that play these rules (coinrow.levels.levels_for).",
        ),
    ) -> JSONResponse:
        """The opponent levels, weakest first, each with its strength measured by play
        against perfect play in the plain game (``coinrow.levels.level_table``: about 0.15 s,
        computed once per process and kept with the app); with ``rules``, the levels that play
        them. O(1) after the first call."""
        if not levels_cache:
            levels_cache.extend(level_table())
        keys = {level.key for level in levels_for(rules)}
        return JSONResponse({"levels": [row for row in levels_cache if row["key"] in keys]})

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


def play_seconds(game: Game, *, picture_coins: int = 0) -> float:
    """Estimated seconds of :func:`play_data` beyond the rules' table, which ``/api/play``
    prices first: the review and evaluation of every move played
    (:func:`coinrow.analysis.analysis_seconds`), the picture of a row of at most
    ``picture_coins`` (:func:`coinrow.svg.drawing_seconds`) and, under ``reply`` and
    ``players``, one solve of the coins left (the library's price,
    :func:`coinrow.engines.variants.position_solves_cost`) (O(n))."""
    position, rules, limit = game.position, game.rules, request_seconds()
    n = len(game.coins)
    review = analysis_seconds(game.coins, len(game.moves), rules, limit=limit)
    if n <= picture_coins:
        review += drawing_seconds(n, ring=rules.circle)
    if position.is_over:
        return review
    left = position.hi - position.lo + 1
    return review + position_solves_cost(game.coins, rules, [left], limit=limit)


def play_data(
    game: Game, ply: int, values: PlayValues, picture_coins: int, *, seat: int | None = None
) -> dict[str, Any]:
    """The game for ``/api/play``, shown after ``ply`` of its moves (O(n^2) for the
    evaluation and review of every move, as :func:`coinrow.review.evaluation` and
    :func:`coinrow.analysis.analyze` state; the picture O(n^2) up to ``picture_coins``).
    ``seat`` is the person's seat against the computer (None: people at every seat), which
    names the players of the summary's sentences."""
    rules, row = game.rules, game.coins
    before = game.moves[:ply]
    shown = Game(row, "".join(before) if rules.is_plain else before, rules=rules)
    position = shown.position
    finished = position.is_over
    best = () if finished else shown.best_moves(values=values)
    seconds = request_seconds()
    moves = game.line if rules.is_plain else game.moves
    extra = {} if rules.is_plain else {"rules": rules, "values": values}
    series = evaluation(row, moves, max_seconds=seconds, **extra)  # type: ignore[arg-type]
    analysis = analyze(row, moves, max_seconds=seconds, **extra)  # type: ignore[arg-type]
    picture, note = position_picture(shown, picture_coins)
    return {
        "rules": str(rules),
        "coins": [json_value(coin) for coin in row],
        "players": rules.players,
        "moves": list(game.moves),
        "line": game.line,
        "ply": ply,
        "finished": finished,
        "over": game.position.is_over,
        "seat": None if finished else position.seat,
        "legal": [
            {
                "move": move,
                "indices": list(position.indices_of(move)),
                "words": rules.move_words(move),
            }
            for move in position.legal_moves()
        ],
        "best_moves": list(best),
        "move": best[0] if best else None,
        "totals": [json_value(total) for total in shown.totals],
        "best_totals": [json_value(total) for total in shown.best_totals(values=values)],
        "played": [
            {
                "seat": step.seat,
                "player": step.player,
                "move": step.move,
                "words": rules.move_words(step.move),
                "indices": list(step.indices),
                "gain": json_value(step.gain),
                "totals": [json_value(total) for total in step.totals],
            }
            for step in game.transcript()
        ],
        "remaining": list(position.remaining_indices()),
        "first_slice": position.first_slice,
        "cell": None if finished or not rules.interval else [position.lo, position.hi],
        "winners": list(rules.winners(shown.totals)) if finished else None,
        "evaluation": [
            {
                "ply": point.ply,
                "totals": [json_value(t) for t in (point.totals or (point.first, point.second))],
                "margin": json_value(point.margin) if rules.two_player else None,
            }
            for point in series
        ],
        "review": [move.to_dict() for move in analysis.moves],
        "summary": analysis.to_dict()["summary"],
        "summary_words": summary_words(analysis, game, seat),
        "svg": picture,
        "picture_note": note,
    }


def summary_words(analysis: GameAnalysis, game: Game, seat: int | None) -> list[str]:
    """Every player's game in words (:meth:`coinrow.analysis.PlayerSummary.sentence`), first
    seat first: "You" and "Computer" against the computer, else each seat's name; once the
    game is over, a player who did not win is told whether the row, not their play, lost it
    (O(p))."""
    players = game.rules.players
    over = game.position.is_over
    winners = set(game.rules.winners(game.totals)) if over else set()
    words = []
    for index, summary in enumerate(analysis.summaries):
        if seat is None:
            name = seat_name(index, players).capitalize() + ("" if players > 2 else " player")
        elif index == seat:
            name = "You"
        else:
            name = "Computer" if players == 2 else f"Computer ({seat_name(index, players)})"
        lost = over and index not in winners
        words.append(summary.sentence(name, you=index == seat, lost=lost))
    return words


def position_picture(game: Game, most: int) -> tuple[str | None, str]:
    """The library's picture of a game's position and, without one, why (O(n^2)): the
    triangle of subgames with the moves played highlighted (the rules with a table of
    subgames), the pizza's ring (the circle), at most ``most`` coins."""
    rules, row = game.rules, game.coins
    if most == 0:
        return None, ""  # not asked for
    if len(row) > most:
        return None, f"The picture is drawn for rows of up to {most} coins."
    if rules.is_plain:
        table = Table(row, max_seconds=request_seconds())
        return str(triangle(table, highlight=game.line or None)), ""
    if rules.circle:
        return str(ring(solve(row, rules=rules, max_seconds=request_seconds()))), ""
    try:
        intervals = variant_table(row, rules)
    except UnsupportedRulesError as error:
        return None, str(error)
    return str(variant_triangle(intervals, highlight=game.line or None)), ""
