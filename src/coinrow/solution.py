"""Solving a row: :func:`solve`, :class:`Solution` and :func:`best_moves`.

One :class:`Solution` for every rules: the plain game's O(n) reduction and every other
rule's engine (docs/variants.md) give the same type, with the same properties.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from . import engines
from .engines import reduction
from .engines import variants as rule_engines
from .engines.dispatch import KERNEL_MIN_LENGTH, kernel_row
from .errors import UnsupportedRulesError
from .game import Game, TranscriptRow
from .numbers import (
    Row,
    Value,
    exact_arithmetic,
    exact_row,
    format_value,
    halve,
    is_int_array,
    json_value,
    zero_like,
)
from .rules import (
    PLAIN,
    Moves,
    Rules,
    as_moves,
    coerce_rules,
    join_moves,
    plain_moves,
    split_by_player,
    taken_indices,
)
from .variants import PositionStrategy, run_variant

#: Keys of :meth:`Solution.to_dict` with one entry per coin.
PER_COIN_KEYS = ("coins", "line", "moves", "first_coins", "second_coins")


class Solution:
    """The solved game under its rules: every player's total, the margin, who wins, the
    optimal first moves and one optimal line. One type for every rules.

    Every value is an exact number of the row's type. ``coins`` is always a tuple; a row
    solved from a NumPy array keeps the array privately and builds the tuple (O(n), about 36
    bytes per coin) only when ``coins`` is first read, so huge rows stay compact. The plain
    game's line is kept as byte codes until it is first read. Solutions compare equal when
    their rules, row, engine, totals, first moves and line are equal; they are hashable and
    immutable.

    >>> s = solve([3, 2, 2, 3, 1, 2])
    >>> s.first_total, s.second_total, s.margin, s.outcome, s.first_moves, s.line
    (8, 5, 3, 'first', ('L',), 'LLRLLL')
    >>> s
    <Solution of 6 coins by reduction: first 8, second 5, first wins by 3>

    Under other rules ``totals`` lists the players' totals (coins taken, or Stone Game VII's
    points) along ``line``, first seat first; ``objective`` is the first player's margin in
    what the rules make them maximise (the misère game: the second's total minus the first's);
    ``margin`` and the two players' properties raise
    :class:`~coinrow.errors.UnsupportedRulesError` for more than two players.

    >>> v = solve([5, 3, 1, 4, 2], rules="stone-game-vii")
    >>> v.margin, v.first_moves, v.line, v.totals
    (6, ('R',), 'RLLLL', (18, 12))
    >>> v
    <Solution of 5 coins under stone-game-vii by reduction: first 18, second 12, first wins by 6>
    """

    __slots__ = (
        "__dict__",
        "_array",
        "_line",
        "_margin",
        "_moves",
        "_objective",
        "_row",
        "_totals",
        "engine",
        "first_moves",
        "n",
        "rules",
        "starts",
    )

    engine: str
    #: Every optimal first move, a tuple of :class:`~coinrow.rules.Move` in the engines' tie
    #: order: ``("L",)``, ``("R",)`` or ``("L", "R")`` in the plain game, ``("L2",)``,
    #: ``("1", "10")`` (the pizza's first slices) under other rules; ``()`` for no coins.
    first_moves: Moves
    n: int
    rules: Rules
    #: The pizza: the first player's margin after each first slice (slice 0 first); else None.
    starts: tuple[Value, ...] | None
    _array: Any  # the int64 NumPy row of the compiled path, else None
    _row: tuple[Value, ...] | None
    _line: Any  # the plain game: a str, or the kernel's uint8 array of ASCII codes
    _margin: Value | None
    _moves: Moves | None  # other rules: the line move by move
    _totals: tuple[Value, ...] | None  # other rules: every player's total
    _objective: Value | None

    def __init__(
        self,
        coins: Any,
        margin: Value,
        line: Any,
        first_moves: str | Sequence[str],
        engine: str = "reduction",
    ) -> None:
        """The plain game's solution from an engine's margin, line and first moves (the
        engines' text ``"L"``, ``"R"``, ``"LR"``, ``""``, or move texts) (O(1))."""
        array = is_int_array(coins)
        self._fill(
            _array=coins if array else None,
            _row=None if array else _kept(coins),
            _line=line,
            _margin=margin,
            _moves=None,
            _totals=None,
            _objective=margin,
            first_moves=plain_moves(first_moves)
            if isinstance(first_moves, str)
            else as_moves(first_moves),
            engine=engine,
            n=len(coins),
            rules=PLAIN,
            starts=None,
        )

    @classmethod
    def _of_rules(
        cls, coins: Sequence[Value], rules: Rules, result: rule_engines.VariantResult, engine: str
    ) -> Solution:
        """A solution under other rules from a rule engine's result (O(n))."""
        solution = cls.__new__(cls)
        margin = None
        if rules.two_player:
            with exact_arithmetic():
                margin = result.totals[0] - result.totals[1]
        solution._fill(
            _array=None,
            _row=_kept(coins),
            _line=None,
            _margin=margin,
            _moves=as_moves(result.moves),
            _totals=result.totals,
            _objective=result.objective,
            first_moves=as_moves(result.first_moves),
            engine=engine,
            n=len(coins),
            rules=rules,
            starts=result.starts,
        )
        return solution

    def _fill(self, **values: object) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Solution is immutable: cannot set {name!r}")

    @cached_property
    def coins(self) -> tuple[Value, ...]:
        """The row, as a tuple of exact values (O(1); O(n) on first read for an array row)."""
        return self._row if self._row is not None else tuple(self._array.tolist())

    def __len__(self) -> int:
        return self.n

    def _key(self) -> tuple[object, ...]:
        return (self.rules, self.engine, self.totals, self.first_moves, self.line)

    def __eq__(self, other: object) -> bool:
        """Same rules, row, engine, totals, first moves and line (O(n); array rows stay
        arrays)."""
        if not isinstance(other, Solution):
            return NotImplemented
        return self._key() == other._key() and self._same_row(other)

    def _same_row(self, other: Solution) -> bool:
        if self.n != other.n:
            return False
        if self._array is not None and other._array is not None:
            import numpy as np

            return bool(np.array_equal(self._array, other._array))
        return self.coins == other.coins

    def __hash__(self) -> int:
        return hash(self._key())

    def _two_players(self, what: str) -> None:
        if not self.rules.two_player:
            raise UnsupportedRulesError(
                f"a game of {self.rules.players} players under {self.rules} has no {what}; "
                "see totals and winners"
            )

    @cached_property
    def line(self) -> str:
        """One optimal line covering every coin, as text (O(n) on first read): ``L``/``R``
        moves run together, longer moves separated by spaces (:func:`~coinrow.rules.join_moves`).
        """
        if self._moves is not None:
            return join_moves(self._moves) if self._moves else ""
        line = self._line
        return line if isinstance(line, str) else str(line.data, "ascii")

    @cached_property
    def moves(self) -> Moves:
        """One optimal line, move by move, a tuple of :class:`~coinrow.rules.Move` (O(n);
        the plain game's moves are two shared values).

        >>> solve([1, 2, 3, 4], rules="take:any").moves, solve([8, 15, 3, 7]).moves
        (('L4',), ('R', 'L', 'L', 'L'))
        """
        if self._moves is not None:
            return self._moves
        left, right = plain_moves("LR")
        return tuple(left if move == "L" else right for move in self.line)

    @cached_property
    def total(self) -> Value:
        """Sum of all coins (O(n))."""
        if self._array is not None:  # int64-safe: the sum cannot overflow
            return int(self._array.sum())
        with exact_arithmetic():
            return sum(self.coins, zero_like(list(self.coins[:1])))

    @cached_property
    def totals(self) -> tuple[Value, ...]:
        """Every player's total along :attr:`line`, first seat first (O(n) on first read):
        coins taken, or Stone Game VII's points."""
        if self._totals is not None:
            return self._totals
        with exact_arithmetic():
            first = halve(self.total + self.margin)
            return (first, self.total - first)

    @property
    def first_total(self) -> Value:
        """The most the first player can guarantee: their total along :attr:`line` (O(n))."""
        return self.totals[0]

    @property
    def second_total(self) -> Value:
        """What the second player gets when both play optimally (O(n))."""
        return self.totals[1]

    @property
    def margin(self) -> Value:
        """The first player's total minus the second's (O(1)); more than two players raise
        :class:`~coinrow.errors.UnsupportedRulesError`."""
        self._two_players("margin")
        assert self._margin is not None
        return self._margin

    @property
    def objective(self) -> Value:
        """The first player's margin in what the rules make them maximise (O(1)): the
        margin, or the second's total minus the first's when the lowest total wins."""
        self._two_players("objective margin")
        assert self._objective is not None
        return self._objective

    @property
    def winners(self) -> tuple[int, ...]:
        """0-based seats of the winners (the smallest total in the misère game) (O(p))."""
        return self.rules.winners(self.totals)

    @property
    def outcome(self) -> str:
        """``"first"``, ``"second"`` or ``"tie"`` under optimal play; with more than two
        players ``"player K"`` (1-based) or ``"tie"`` (O(p))."""
        if self.rules is PLAIN:
            margin = self.margin
            return "first" if margin > 0 else "second" if margin < 0 else "tie"
        winners = self.winners
        if len(winners) > 1:
            return "tie"
        if self.rules.two_player:
            return ("first", "second")[winners[0]]
        return f"player {winners[0] + 1}"

    @property
    def start(self) -> int | None:
        """The pizza's first slice (0-based), None under other rules (O(1))."""
        return int(self.moves[0]) if self.rules.circle and self.moves else None

    @cached_property
    def _coins_taken(self) -> tuple[list[int], ...]:
        if self.rules is PLAIN:
            return split_by_player(taken_indices(self.n, self.line))
        return self.game().coins_taken

    @property
    def first_coins(self) -> list[int]:
        """0-based indices of the coins the first player takes along :attr:`line` (O(n))."""
        return self._coins_taken[0]

    @property
    def second_coins(self) -> list[int]:
        """0-based indices of the coins the second player takes along :attr:`line` (O(n))."""
        return self._coins_taken[1]

    def game(self) -> Game:
        """The optimal line as a :class:`~coinrow.game.Game` under the rules (O(n)).

        >>> solve([1, 2, 3, 4], rules="take:2").game()
        Game([1, 2, 3, 4], 'R2 L2', rules='take:2')
        """
        if self.rules is PLAIN:
            return Game(self.coins, self.line)
        return Game(self.coins, list(self.moves), rules=self.rules)

    def transcript(self) -> list[TranscriptRow]:
        """The optimal line move by move, with running totals (O(n)).

        >>> [(r.player, r.move, r.coin) for r in solve([5, 3, 7, 10]).transcript()]
        [('first', 'R', 10), ('second', 'R', 7), ('first', 'L', 5), ('second', 'L', 3)]
        """
        return self.game().transcript()

    def to_dict(self, per_coin_limit: int | None = None) -> dict[str, Any]:
        """JSON-ready form: ints as numbers, other exact values as strings (O(n)); see
        :func:`~coinrow.numbers.json_value`. Keys: ``n``, ``rules``, ``coins``, ``engine``,
        ``totals``, ``first_total``, ``second_total``, ``margin`` and ``objective`` (null
        for more than two players), ``outcome``, ``winners``, ``line``, ``moves``,
        ``first_moves``, ``start`` (the pizza's first slice, else null), ``starts`` (the
        pizza: the first player's margin after each first slice; else null), ``tie_break``
        (null but under ``players``), ``first_coins`` and ``second_coins`` (null for more
        than two players, or rules whose positions a game cannot hold).

        With ``per_coin_limit``, a row of more coins leaves out the per-coin keys
        (:data:`PER_COIN_KEYS`) and lists them under ``"omitted"``.

        >>> solve(["0.1", "0.2", "0.3"]).to_dict()["first_total"]
        '0.4'
        >>> solve([1, 2, 3]).to_dict(per_coin_limit=2)["omitted"]
        ['coins', 'line', 'moves', 'first_coins', 'second_coins']
        >>> solve([1, 2, 3, 4], rules="circular").to_dict()["starts"]
        [-2, 2, 0, 2]
        """
        full = per_coin_limit is None or self.n <= per_coin_limit
        two = self.rules.two_player
        data: dict[str, Any] = {"n": self.n, "rules": str(self.rules)}
        if full:
            data["coins"] = (
                self._array.tolist()
                if self._array is not None
                else [json_value(coin) for coin in self.coins]
            )
        data.update(
            engine=self.engine,
            totals=[json_value(total) for total in self.totals],
            first_total=json_value(self.first_total),
            second_total=json_value(self.second_total),
            margin=json_value(self.margin) if two else None,
            objective=json_value(self.objective) if two else None,
            outcome=self.outcome,
            winners=list(self.winners),
        )
        if full:
            data.update(line=self.line, moves=list(self.moves))
        data.update(
            first_moves=list(self.first_moves),
            start=self.start,
            starts=None if self.starts is None else [json_value(m) for m in self.starts],
            tie_break=self.rules.tie_break if self.rules.engine == "players-dp" else None,
        )
        if full:
            taken = two and self.rules.positions  # a game() replays the line
            data.update(
                first_coins=self.first_coins if taken else None,
                second_coins=self.second_coins if taken else None,
            )
        else:
            data["omitted"] = list(PER_COIN_KEYS)
        return data

    def __repr__(self) -> str:
        under = "" if self.rules is PLAIN else f" under {self.rules}"
        head = f"<Solution of {self.n} coins{under} by {self.engine}: "
        if not self.rules.two_player:
            totals = ", ".join(format_value(total) for total in self.totals)
            return head + f"totals {totals}; {self.outcome}>"
        if self.outcome == "tie":
            if self.rules is PLAIN:
                return head + f"tie at {format_value(self.first_total)} each>"
            body = f"first {format_value(self.totals[0])}, second {format_value(self.totals[1])}, "
            return head + body + "a tie>"
        return head + (
            f"first {format_value(self.first_total)}, second {format_value(self.second_total)}, "
            f"{self.outcome} wins by {format_value(abs(self.margin))}>"
        )

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle diagram with :attr:`line` highlighted (the plain game), the
        ring of the pizza; None over 40 coins or under other rules."""
        if self.rules is not PLAIN:
            from .svg import repr_variant_svg

            return repr_variant_svg(self)
        from .svg import repr_svg

        return repr_svg(self.coins, highlight=self.line)

    def _repr_html_(self) -> str | None:
        """Jupyter: the plain game's diagram with :attr:`line` highlighted, or a note over 40
        coins; None under other rules (the SVG or the text form shows)."""
        if self.rules is not PLAIN:
            return None
        from .svg import repr_html

        return repr_html(self, self.coins, highlight=self.line)


def solve(
    coins: Sequence[object],
    engine: str = "reduction",
    *,
    max_seconds: float | None = engines.MAX_SECONDS,
    rules: Rules | str | None = None,
    opponent: PositionStrategy | None = None,
    memory_budget: int | None = None,
) -> Solution:
    """Solve a row exactly under the rules with the chosen engine (default: the O(n)
    reduction of the plain game, or each rule's fastest engine).

    ``rules`` (a :class:`~coinrow.rules.Rules` or its text, such as ``"misere"``) solves
    another game at its cost (docs/variants.md); the result is a :class:`Solution` whatever
    the rules. ``opponent`` is the second player of ``reply`` as a strategy of a
    :class:`~coinrow.game.Position` (``coinrow.strategies.get(name)``); without it only the
    engines' own opponents (``greedy``) are known. ``memory_budget`` bounds the bytes of
    move codes a rule's engine may keep (default 4 GiB).

    Complexity: O(n) for ``reduction``; O(n^2) for ``table``, ``memo`` and ``linear``
    (O(n) memory for ``linear``); O(2^n) for ``brute`` (n <= 20); each rule's own under
    other rules (docs/variants.md). Long int rows that are int64-safe
    (:func:`coinrow.engines.dispatch.kernel_row`) run in compiled kernels, with the same
    results; NumPy int arrays then stay arrays (about 25 bytes per coin at peak). Work
    estimated over ``max_seconds`` (long Fractions with many denominators, Decimals with
    far-apart exponents, a quadratic rule's long row) is refused up front with a
    :class:`~coinrow.errors.CostLimitError` (:func:`coinrow.engines.check_cost`); ``None``
    lifts the limit.

    >>> solve([8, 15, 3, 7]).first_total, solve([5, 3, 7, 10], engine="brute").first_total
    (22, 15)
    >>> solve([5, 3, 1, 4, 2], rules="stone-game-vii").margin
    6
    >>> solve([1, 2, 3, 4, 5], rules="players:3").totals
    (7, 5, 3)
    """
    chosen = PLAIN if rules is None else coerce_rules(rules)
    if (chosen is not PLAIN and not chosen.is_plain) or opponent is not None:
        row_values, outcome, name = run_variant(
            coins,
            chosen,
            engine_name=engine,
            opponent=opponent,
            max_seconds=max_seconds,
            memory_budget=memory_budget,
        )
        return Solution._of_rules(row_values, chosen, outcome, name)
    row = kernel_row(coins, KERNEL_MIN_LENGTH.get(engine), checked=engine != "reduction")
    if row is not None and engine == "reduction":
        solved = reduction.solve_int64(row)  # checks int64 safety in its second thread
        if solved is not None:
            return Solution(row, *solved, engine)
        coins, row = row.tolist(), None
    if row is None:
        return _solve_exact(coins, engine, max_seconds)
    result = engines.run(engine, row)
    return Solution(row, result.margin, result.line, result.first_moves, engine)


def _kept(coins: Sequence[Value]) -> tuple[Value, ...]:
    """The row a solution keeps: a validated :class:`~coinrow.numbers.Row` as it is (so its
    game is not validated again), other coins as a tuple (O(1) for a Row, else O(n))."""
    return coins if isinstance(coins, Row) else tuple(coins)


@exact_row
def _solve_exact(coins: Sequence[Value], engine: str, max_seconds: float | None) -> Solution:
    if engine in engines.ENGINES:
        what = f"solving {len(coins):,} coins with the {engine} engine"
        engines.check_cost(coins, engine, max_seconds=max_seconds, what=what)
    result = engines.run(engine, coins)
    return Solution(coins, result.margin, result.line, result.first_moves, engine)


@exact_row
def best_moves(coins: Sequence[Value], lo: int = 0, hi: int | None = None) -> Moves:
    """The optimal moves in the subgame ``lo..hi``, a tuple of :class:`~coinrow.rules.Move`:
    ``("L",)``, ``("R",)`` or ``("L", "R")`` (O(n)).

    >>> best_moves([3, 2, 2, 3, 1, 2]), best_moves([3, 2, 2, 3, 1, 2], 1, 5)
    (('L',), ('L', 'R'))
    """
    return plain_moves(reduction.best_moves(coins, lo, hi))
