"""Solving a row under other rules: :func:`solve_variant` and :class:`VariantSolution`
(docs/variants.md). ``coinrow.solve(coins, rules=...)`` calls it for every rules but the
plain game's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .engines import ENGINES, MAX_SECONDS
from .engines import variants as kernels
from .engines.table import MEMORY_BUDGET
from .errors import UnknownEngineError, UnsupportedRulesError
from .game import Position
from .numbers import Value, coerce_coins, exact_arithmetic, format_value, json_value
from .play_values import check_opponent
from .rules import Rules, coerce_rules

#: Engines per rules kind: the fast path (used for ``engine="reduction"``) and the general DP.
FAST_PATHS = {"misere": "reduction", "stone-game-vii": "reduction", "circular": "reduction"}

#: A strategy of the studies layer: a function of a :class:`~coinrow.game.Position`.
PositionStrategy = Callable[[Position], str]


class VariantSolution:
    """A row solved under other rules: every player's total, who wins, the optimal first
    moves and one optimal line (all exact; immutable).

    ``totals`` lists the players' totals (coins taken, or Stone Game VII's points) along
    ``line``, first player first; ``margin`` is the first player's total minus the second's
    (None for more than two players); ``objective`` the first player's margin in what the
    rules make them maximise (the misère game: the second's total minus the first's). Moves
    are texts (``L``, ``R``, ``B``, ``L2``; the pizza's first move is its first slice's
    0-based index); ``line`` and ``first_moves`` run one-letter moves together and separate
    longer ones by spaces.

    >>> s = solve_variant([5, 3, 1, 4, 2], "stone-game-vii")
    >>> s.margin, s.first_moves, s.line, s.totals
    (6, 'R', 'RLLLL', (18, 12))
    >>> s
    <VariantSolution of 5 coins under stone-game-vii by reduction: first 18, second 12, first wins by 6>
    """  # noqa: E501

    __slots__ = (
        "coins",
        "engine",
        "first_moves",
        "moves",
        "n",
        "objective",
        "rules",
        "starts",
        "totals",
    )

    coins: tuple[Value, ...]
    rules: Rules
    engine: str
    totals: tuple[Value, ...]
    objective: Value | None
    moves: tuple[str, ...]
    first_moves: str
    n: int
    #: The pizza: the first player's margin after each first slice (slice 0 first); else None.
    starts: tuple[Value, ...] | None

    def __init__(
        self, coins: Sequence[Value], rules: Rules, result: kernels.VariantResult, engine_name: str
    ) -> None:
        values = {
            "coins": tuple(coins),
            "rules": rules,
            "engine": engine_name,
            "totals": result.totals,
            "objective": result.objective,
            "moves": result.moves,
            "first_moves": kernels.join_moves(result.first_moves),
            "n": len(coins),
            "starts": result.starts,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"VariantSolution is immutable: cannot set {name!r}")

    def __len__(self) -> int:
        return self.n

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VariantSolution):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    def __hash__(self) -> int:
        return hash((str(self.rules), self.totals, self.moves))

    @property
    def line(self) -> str:
        """One optimal line (O(n))."""
        return kernels.join_moves(self.moves)

    @property
    def first_total(self) -> Value:
        """The first player's total along :attr:`line` (O(1))."""
        return self.totals[0]

    @property
    def second_total(self) -> Value:
        """The second player's total along :attr:`line` (O(1))."""
        return self.totals[1]

    @property
    def margin(self) -> Value | None:
        """The first player's total minus the second's; None for more than two players (O(1))."""
        if not self.rules.two_player:
            return None
        with exact_arithmetic():
            return self.totals[0] - self.totals[1]

    @property
    def winners(self) -> tuple[int, ...]:
        """0-based seats of the winners (the smallest total in the misère game) (O(p))."""
        pick = min if self.rules.kind == "misere" else max
        best = pick(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)

    @property
    def outcome(self) -> str:
        """``"first"``, ``"second"`` or ``"tie"``; with more than two players ``"player K"``
        (1-based) or ``"tie"`` (O(p))."""
        winners = self.winners
        if len(winners) > 1:
            return "tie"
        if self.rules.two_player:
            return ("first", "second")[winners[0]]
        return f"player {winners[0] + 1}"

    @property
    def start(self) -> int | None:
        """The pizza's first slice (0-based), None under other rules (O(1))."""
        return int(self.moves[0]) if self.rules.kind == "circular" and self.moves else None

    def _repr_svg_(self) -> str | None:
        """Jupyter: the pizza as a ring (:func:`coinrow.svg.ring`); None under other rules
        or over 40 slices (O(n))."""
        from .svg import repr_variant_svg

        return repr_variant_svg(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n)): ``rules``, ``n``, ``coins``, ``engine``, ``totals``,
        ``first_total``, ``second_total``, ``margin`` (null for more than two players),
        ``objective``, ``outcome``, ``winners``, ``line``, ``moves``, ``first_moves``,
        ``start`` (the pizza's first slice, else null), ``starts`` (the pizza: the first
        player's margin after each first slice, slice 0 first; else null) and ``tie_break``
        (``players`` only, else null).

        >>> solve_variant([1, 2, 3, 4], "take:any").to_dict()["moves"]
        ['L4']
        >>> solve_variant([1, 2, 3, 4], "circular").to_dict()["starts"]
        [-2, 2, 0, 2]
        """

        def exact(value: Value | None) -> int | str | None:
            return None if value is None else json_value(value)

        return {
            "rules": str(self.rules),
            "n": self.n,
            "coins": [json_value(coin) for coin in self.coins],
            "engine": self.engine,
            "totals": [json_value(total) for total in self.totals],
            "first_total": exact(self.first_total),
            "second_total": exact(self.second_total),
            "margin": exact(self.margin),
            "objective": exact(self.objective),
            "outcome": self.outcome,
            "winners": list(self.winners),
            "line": self.line,
            "moves": list(self.moves),
            "first_moves": self.first_moves,
            "start": self.start,
            "starts": None if self.starts is None else [json_value(m) for m in self.starts],
            "tie_break": self.rules.tie_break if self.rules.kind == "players" else None,
        }

    def __repr__(self) -> str:
        head = f"<VariantSolution of {self.n} coins under {self.rules} by {self.engine}: "
        if not self.rules.two_player:
            totals = ", ".join(format_value(total) for total in self.totals)
            return head + f"totals {totals}; {self.outcome}>"
        body = f"first {format_value(self.totals[0])}, second {format_value(self.totals[1])}, "
        if self.outcome == "tie":
            return head + body + "a tie>"
        margin = self.margin
        assert margin is not None
        return head + body + f"{self.outcome} wins by {format_value(abs(margin))}>"


def variant_work(n: int, rules: Rules) -> int:
    """Subgames (times the players for ``players:p``) the quadratic engine of the rules
    fills (O(1)); 0 for the O(n) fast paths.

    >>> variant_work(1000, Rules.parse("take:3")), variant_work(1000, Rules.parse("misere"))
    (500500, 0)
    """
    if rules.kind in ("misere", "stone-game-vii"):
        return 0
    cells = n * (n + 1) // 2
    if rules.kind == "players":
        return cells * rules.players
    return cells


def solve_variant(
    coins: Sequence[object],
    rules: Rules | str,
    *,
    engine_name: str = "reduction",
    opponent: PositionStrategy | None = None,
    max_seconds: float | None = MAX_SECONDS,
    memory_budget: int | None = None,
) -> VariantSolution:
    """Solve a row under the rules (see docs/variants.md for each algorithm).

    Complexity: O(n) for ``misere`` and ``stone-game-vii`` (the reduction on negated values);
    O(n^2) for ``circular`` (one O(n) reduction per first slice, O(n) memory), ``both-ends``,
    ``take:K`` and ``take:any`` (window maxima), ``reply`` (one opponent call per state it
    moves in); O(n^2 p) for ``players:p``. ``engine_name`` ``"reduction"`` (the default)
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

    >>> solve_variant([1] * 10_000, "take:any", max_seconds=5)
    Traceback (most recent call last):
    ...
    coinrow.errors.CostLimitError: solving 10,000 coins under take:any would take about 26 seconds, over the limit of 5 seconds

    >>> solve_variant([3, 2, 10, 4], "reply:greedy").margin
    7
    >>> solve_variant([1, 2, 3, 4, 5], "players:3").totals
    (7, 5, 3)
    """  # noqa: E501
    chosen = coerce_rules(rules)
    if engine_name not in ENGINES:
        raise UnknownEngineError(
            f"unknown engine {engine_name!r}; choose one of: {', '.join(ENGINES)}"
        )
    row = coerce_coins(coins)
    if chosen.kind == "reply" and opponent is not None:
        check_opponent(opponent, chosen)
    fast = engine_name == "reduction" and chosen.kind in FAST_PATHS
    seconds, needed = kernels.variant_cost(
        row, chosen, fast=fast, opponent=opponent is not None, limit=max_seconds
    )
    what = f"solving {len(row):,} coins under {chosen}"
    kernels.check_variant_bytes(
        needed, MEMORY_BUDGET if memory_budget is None else memory_budget, what
    )
    kernels.check_variant_seconds(seconds, max_seconds, what)
    with exact_arithmetic():
        result, name = _run(row, chosen, fast, opponent)
    return VariantSolution(row, chosen, result, name)


def _run(
    row: list[Value], rules: Rules, fast: bool, opponent: PositionStrategy | None
) -> tuple[kernels.VariantResult, str]:
    kind = rules.kind
    if kind == "plain":
        return kernels.interval_solve(row, rules), "interval-dp"
    if fast and kind == "misere":
        return kernels.misere_solve(row), "reduction"
    if fast and kind == "stone-game-vii":
        return kernels.stone_game_vii_solve(row), "reduction"
    if kind == "circular":
        return kernels.circular_solve(row, fast=fast), "reduction" if fast else "doubled-row-dp"
    if kind == "reply" and opponent is None and rules.strategy == "greedy":
        return kernels.reply_greedy_solve(row), "reply-dp"
    if kind == "reply":
        return kernels.reply_solve(row, _opponent(row, rules, opponent)), "reply-dp"
    if kind == "players":
        return kernels.players_solve(row, rules.players, rules.tie_break), "players-dp"
    return kernels.interval_solve(row, rules), "interval-dp"


def _opponent(
    row: list[Value], rules: Rules, opponent: PositionStrategy | None
) -> kernels.Opponent:
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
