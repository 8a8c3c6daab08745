"""Solve and Explore: ``/api/solve`` (a row's totals, line and best first moves, under any
rules) and ``/api/table`` (every subgame, as data and as the library's SVG)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...diagram import check_view, table_data
from ...engines.costs import replay_seconds
from ...engines.table import Table
from ...errors import CoinrowError, InvalidOptionError, UnsupportedRulesError
from ...game import Game, Position
from ...numbers import Row, Value, json_value
from ...rules import Rules
from ...solution import solve
from ...svg import drawing_seconds, ring, triangle, variant_triangle
from ...tables import variant_table
from .. import models
from ..limits import PER_COIN_LIMIT, request_seconds
from . import Api


def router(api: Api) -> APIRouter:
    """The router of these endpoints, with ``api``'s limits and bodies (O(1))."""

    @api.post(
        "/api/solve",
        "Solve a row",
        models.SolveResponse,
        api.bodies.solve,
    )
    def solve_endpoint(body: Any) -> JSONResponse:
        """Solve a row: exactly what ``coinrow solve --json`` prints (``--rules R``: the
        variant's JSON; the pizza adds ``starts``, the margin of each first slice). O(n) for
        the plain game, misere and stone-game-vii; O(n^2) (times K or P) for the others."""

        def answer_seconds(row: Row, rules: Rules) -> float:
            """The moves replayed for the coins taken, and the pizza's ring."""
            moves = 0.0 if rules.is_plain else replay_seconds(len(row))
            drawn = rules.circle and len(row) <= api.limits.table_coins
            return moves + (drawing_seconds(len(row), ring=True) if drawn else 0.0)

        row, rules = api.row_and_rules(
            body, api.limits.solve_coins, check_plain=False, answer_seconds=answer_seconds
        )
        solution = solve(row, rules=rules, max_seconds=request_seconds())
        data = solution.to_dict(None if body.full else PER_COIN_LIMIT)
        data["first_move_info"] = move_info(row, rules, data["first_moves"])
        if rules.circle and len(row) <= api.limits.table_coins:  # the library's ring
            data["svg"] = str(ring(solution))
        return JSONResponse(data)

    @api.post(
        "/api/table",
        "Every subgame, as data and as the SVG triangle",
        models.TableResponse | models.VariantTableResponse,
        api.bodies.table,
        tag="pictures",
    )
    def table_endpoint(body: Any) -> JSONResponse:
        """Every subgame as data (``coinrow table --json``) and the SVG triangle. O(n^2).
        Other ``rules`` (interval variants) give ``coinrow table --rules R --json`` and the
        library's variant triangle (``view`` is the plain game's): O(n^2), O(n^2 K) for
        ``take:K``."""
        view = check_view(body.view)
        row, rules = api.row_and_rules(
            body,
            api.limits.table_coins,
            table=True,
            check_plain=False,
            answer_seconds=lambda row, rules: drawing_seconds(len(row)),
        )
        if not rules.is_plain:
            if body.highlight not in (None, "best"):  # checked, though only drawn for plain
                try:
                    Game(row, body.highlight, rules=rules)
                except CoinrowError as error:
                    raise InvalidOptionError(f"highlight: {error}") from None
            intervals = variant_table(row, rules)
            data = intervals.to_dict()
            shown = intervals.line if body.highlight == "best" else body.highlight or None
            data["svg"] = str(variant_triangle(intervals, highlight=shown, on_demand=True))
            return JSONResponse(data)
        table = Table(row, max_seconds=request_seconds())
        highlight = table.line if body.highlight == "best" else body.highlight or None
        data = table_data(table)
        # Explore's picture: the labels and arrows its classroom shows on demand
        data["svg"] = str(triangle(table, view=view, highlight=highlight, on_demand=True))
        return JSONResponse(data)

    return api.router


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
