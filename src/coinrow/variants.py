"""Running a rule's engine (docs/variants.md): :func:`run_variant` estimates the cost, then
runs the engine the rules' class attributes choose. ``coinrow.solve(coins, rules=...)`` calls
it for every rules but the plain game's and wraps the result in a
:class:`~coinrow.solution.Solution`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .engines import ENGINES, MAX_SECONDS
from .engines import variants as kernels
from .engines.table import MEMORY_BUDGET
from .errors import UnknownEngineError, UnsupportedRulesError
from .game import Position
from .numbers import Row, exact_arithmetic
from .play_values import check_opponent
from .rules import Rules, coerce_rules

#: A strategy of the studies layer: a function of a :class:`~coinrow.game.Position`.
PositionStrategy = Callable[[Position], str]


def variant_work(n: int, rules: Rules) -> int:
    """Subgames (times the players for ``players:p``) the quadratic engine of the rules
    fills (O(1)); 0 for the O(n) fast paths.

    >>> variant_work(1000, Rules.parse("take:3")), variant_work(1000, Rules.parse("misere"))
    (500500, 0)
    """
    if rules.fast_path and rules.interval:
        return 0
    cells = n * (n + 1) // 2
    if rules.engine == "players-dp":
        return cells * rules.players
    return cells


def run_variant(
    coins: Sequence[object],
    rules: Rules | str,
    *,
    engine_name: str = "reduction",
    opponent: PositionStrategy | None = None,
    max_seconds: float | None = MAX_SECONDS,
    memory_budget: int | None = None,
) -> tuple[Row, kernels.VariantResult, str]:
    """Solve a row under the rules (see docs/variants.md for each algorithm): the validated
    row, the engine's result and the engine's name. :func:`coinrow.solve` wraps them in a
    :class:`~coinrow.solution.Solution`.

    Complexity: O(n) for ``misere`` and ``stone-game-vii`` (the reduction on negated values);
    O(n^2) for ``circular`` (one O(n) reduction per first slice, O(n) memory), ``both-ends``,
    ``take:K`` and ``take:any`` (window maxima), ``reply`` (one opponent call per state it
    moves in, each call as costly as the opponent's move: O(n^4) for ``reply:cooperative``);
    O(n^2 p) for ``players:p``. ``engine_name`` ``"reduction"`` (the default)
    takes the fast path where there is one; any other engine of :data:`coinrow.ENGINES`
    runs the general DP. ``opponent`` is the second player of ``reply`` as a strategy of a
    :class:`~coinrow.game.Position` (``coinrow.strategies.get(name)``); without it only the
    engines' own opponents (``greedy``) are known.

    Every run is estimated first from a measured cost model per engine
    (:func:`coinrow.engines.variants.variant_cost`, O(n)): over ``max_seconds`` (default
    60; ``None`` lifts it) it is refused with :class:`~coinrow.errors.CostLimitError`, and
    when its move codes would need over ``memory_budget`` bytes (default
    :data:`coinrow.engines.table.MEMORY_BUDGET`, 4 GiB) with
    :class:`~coinrow.errors.RowTooLongError`, both naming the limit.

    >>> run_variant([1] * 10_000, "take:any", max_seconds=5)
    Traceback (most recent call last):
    ...
    coinrow.errors.CostLimitError: solving 10,000 coins under take:any would take about 26 seconds, over the limit of 5 seconds

    >>> run_variant([3, 2, 10, 4], "reply:greedy")[1].objective
    7
    >>> run_variant([1, 2, 3, 4, 5], "players:3")[1].totals
    (7, 5, 3)
    """  # noqa: E501
    chosen = coerce_rules(rules)
    if engine_name not in ENGINES:
        raise UnknownEngineError(
            f"unknown engine {engine_name!r}; choose one of: {', '.join(ENGINES)}"
        )
    row = Row.of(coins)
    if chosen.known_opponent and opponent is not None:
        check_opponent(opponent, chosen)
    fast = engine_name == "reduction" and chosen.fast_path
    seconds, needed = kernels.variant_cost(
        row,
        chosen,
        fast=fast,
        opponent=opponent is not None,
        opponent_cost=kernels.declared_cost(opponent, row) if opponent is not None else None,
        limit=max_seconds,
    )
    what = f"solving {len(row):,} coins under {chosen}"
    kernels.check_variant_bytes(
        needed, MEMORY_BUDGET if memory_budget is None else memory_budget, what
    )
    kernels.check_variant_seconds(seconds, max_seconds, what)
    with exact_arithmetic():
        result, name = _run(row, chosen, fast, opponent)
    return row, result, name


def _run(
    row: Row, rules: Rules, fast: bool, opponent: PositionStrategy | None
) -> tuple[kernels.VariantResult, str]:
    """The engine the rules' class attributes choose (python-chess style)."""
    family = rules.engine
    if family == "circle-dp":
        return kernels.circular_solve(row, fast=fast), "reduction" if fast else "doubled-row-dp"
    if family == "reply-dp":
        if opponent is None and rules.strategy == "greedy":
            return kernels.reply_greedy_solve(row), family
        return kernels.reply_solve(row, _opponent(row, rules, opponent)), family
    if family == "players-dp":
        return kernels.players_solve(row, rules.players, rules.tie_break), family
    if family == "search-dp":
        return kernels.search_solve(row, rules), family
    if fast and not rules.is_plain and rules.interval:  # the reduction on transformed coins
        if rules.scores_left:
            return kernels.stone_game_vii_solve(row), "reduction"
        if rules.lowest_wins:
            return kernels.misere_solve(row), "reduction"
    return kernels.interval_solve(row, rules), "interval-dp"


def _opponent(row: Row, rules: Rules, opponent: PositionStrategy | None) -> kernels.Opponent:
    if opponent is None:
        name = rules.strategy or ""
        if name not in kernels.OPPONENTS:
            raise UnsupportedRulesError(
                f"rules {rules}: the strategy {name!r} is not one the engines know "
                f"({', '.join(kernels.OPPONENTS)}); pass it as a strategy object"
            )
        return kernels.OPPONENTS[name](row)
    coins = tuple(row)
    return lambda lo, hi: opponent(Position._unchecked(coins, lo, hi))
