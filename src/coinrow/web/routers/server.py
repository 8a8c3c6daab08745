"""What the page asks of the server besides a game: ``/api/random`` (a random row),
``/api/strategies``, ``/api/rules``, ``/api/limits`` and ``/api/duel`` (a whole game between two
built-in strategies)."""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...engines import check_cost
from ...numbers import ValueSpec, json_value
from ...rules import RULES, Rules
from ...strategies import BUILTINS, game_seconds, get, play
from .. import models
from ..inputs import check_digits
from ..limits import check_seconds, request_seconds
from . import Api


def router(api: Api) -> APIRouter:
    """The router of these endpoints, with ``api``'s limits and bodies (O(1))."""

    @api.get("/api/random", "A random row", models.RandomResponse)
    def random_endpoint(
        n: int = Query(10, ge=1, le=api.limits.random_coins, description="Number of coins."),
        values: str = Query(
            "1-9",
            max_length=200,
            json_schema_extra={"pattern": models.VALUES_PATTERN},
            description='A range such as "1-9" or a list "1,2,5".',
        ),
        seed: int | None = Query(None, ge=0, le=2**32 - 1, description="Random seed."),
    ) -> JSONResponse:
        """A random row of ``n`` coins, each within the coin api.limits. O(n)."""
        spec = ValueSpec.parse(values)
        if spec.choices:
            check_digits(list(spec.choices), api.limits.coin_digits)
        else:
            check_digits([spec.low, spec.high], api.limits.coin_digits)
        check_seconds(spec.row_seconds(n), f"a random row of {n:,} coins")  # the library's
        coins = spec.row(n, random.Random(seed))
        return JSONResponse(
            {"n": n, "values": values, "seed": seed, "coins": [json_value(c) for c in coins]}
        )

    @api.get("/api/strategies", "The built-in strategies", models.StrategiesResponse, errors=False)
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

    @api.get("/api/rules", "The rules coinrow plays", models.RulesResponse, tag="game")
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
        return JSONResponse(
            {
                "rules": [
                    {**r.to_dict(), "syntax": r.syntax, "pattern": r.served or r.pattern}
                    for r in chosen
                ]
            }
        )

    @api.get(
        "/api/limits", "The server's limits", models.LimitsResponse, errors=False, tag="server"
    )
    def limits_endpoint() -> JSONResponse:
        """The server's api.limits. O(1)."""
        return JSONResponse(asdict(api.limits))

    @api.post(
        "/api/duel",
        "A whole game between two built-in strategies",
        models.DuelResponse,
        api.page_bodies.duel,
    )
    def duel_endpoint(body: Any) -> JSONResponse:
        """``strategies.play``: the line and totals of a game between two built-ins (the page
        shows greedy and odd/even losing to perfect play this way). O(n^2)."""
        row = api.row(body.coins, api.limits.analyze_coins)
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

    return api.router
