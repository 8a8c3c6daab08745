"""The values of play under any rules: :class:`PlayValues`, every player's final totals with
best play and the optimal moves from any position of one row (docs/variants.md, "Playing
under other rules").

One object per row and rules, owned by its caller (a game, an analysis, a strategy), like
:class:`~coinrow.subgames.Subgames` for the plain game, which it uses for the plain game
and for the pizza after its first slice. Interval variants (``misere``, ``stone-game-vii``,
``take``, ``both-ends``) fill one :class:`~coinrow.engines.variants.IntervalTable`; the pizza
before its first slice, ``reply:S`` and ``players:p`` run their engines on the coins left
(memoised per position in the object); rules whose positions keep a state (Stone Game II)
share one :class:`~coinrow.engines.variants.SearchValues` over every state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .engines import variants as engines
from .errors import UnsupportedRulesError
from .numbers import Row, Value, exact_arithmetic, zero_like
from .rules import Moves, Rules, as_moves, coerce_rules
from .subgames import Subgames
from .tables import variant_table

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Position

    #: The second player of ``reply``, as a strategy of a plain position.
    Opponent = Callable[[Position], str]


#: The second players a ``reply`` accepts, for messages (coinrow.strategies.is_deterministic).
DETERMINISTIC_OPPONENTS = (
    "optimal[:left|:right], greedy, parity, lookahead[:DEPTH], cooperative, thibault, "
    "thibault3, erring:0, erring:100, or a user strategy declaring deterministic = True"
)


def check_opponent(opponent: object, rules: Rules) -> None:
    """Refuse a second player of ``reply:S`` that does not declare itself deterministic
    (a ``deterministic`` attribute that is True: its move a function of the position
    alone, see :func:`coinrow.strategies.is_deterministic`) with an
    :class:`~coinrow.errors.UnsupportedRulesError` (O(1)): the engines ask it once per
    position, so an opponent whose move can vary would give a different "exact" answer on
    each run.
    """
    if getattr(opponent, "deterministic", False) is not True:
        raise UnsupportedRulesError(
            f"rules {rules}: the opponent must be deterministic (the engines ask it once per "
            "position, so an opponent whose move can vary gives no exact answer), and "
            f"{rules.strategy} is not; reply accepts {DETERMINISTIC_OPPONENTS}"
        )


class PlayValues:
    """Every player's final totals with best play and the optimal moves, from any position
    of one row under one rules.

    ``opponent`` is the second player of ``reply:S`` as a strategy of a plain
    :class:`~coinrow.game.Position` (``coinrow.strategies.get(S)``); without it only the
    engines' own opponents (``greedy``) are known and other ``reply`` rules raise
    :class:`~coinrow.errors.UnsupportedRulesError`. Building is O(n^2) for the interval
    variants (a table) and the plain game up to 512 coins, O(1) otherwise (Stone Game II's
    search is filled on the first query, O(n^3) at most, refused over a minute's estimate
    when built); the cost of each query is given at :meth:`~coinrow.game.Position.best_totals`.

    >>> from coinrow.game import Position
    >>> values = PlayValues([1, 2, 3, 4], "take:2")
    >>> start = Position.start([1, 2, 3, 4], rules="take:2")
    >>> values.totals_of(start), values.moves_of(start)
    ((7, 3), ('R2',))
    """

    def __init__(
        self,
        coins: Sequence[object],
        rules: Rules | str | None = None,
        *,
        opponent: Opponent | None = None,
    ) -> None:
        self.coins = Row.of(coins)
        self.rules = coerce_rules(rules)
        self.zero: Value = zero_like(list(self.coins[:1]))
        self._opponent = opponent
        self._seen: tuple[Value, ...] | None = None
        self._position_class: type[Position] | None = None
        self._memo: dict[
            tuple[int, int, int | None, int, tuple[int, ...] | None],
            tuple[tuple[Value, ...], tuple[str, ...]],
        ]
        self._memo = {}
        self._subgames: dict[int | None, Subgames] = {}
        self._table = (
            variant_table(self.coins, self.rules)
            if self.rules.interval and not self.rules.is_plain
            else None
        )
        self._search = (
            engines.search_values(self.coins, self.rules) if self.rules.stateful else None
        )
        if self.rules.known_opponent:
            if opponent is not None:
                check_opponent(opponent, self.rules)
            self._reply = self._reply_opponent()

    @property
    def opponent(self) -> Opponent | None:
        """The second player of ``reply:S`` as given (None: the engines' own) (O(1))."""
        return self._opponent

    def _reply_opponent(self) -> engines.Opponent:
        if self._opponent is not None:
            strategy = self._opponent
            return lambda lo, hi: strategy(self._plain_position(lo, hi))
        name = self.rules.strategy or ""
        if name not in engines.OPPONENTS:
            raise UnsupportedRulesError(
                f"rules {self.rules}: the strategy {name!r} is not one the engines know "
                f"({', '.join(engines.OPPONENTS)}); pass it as a strategy"
            )
        return engines.OPPONENTS[name](self.coins)

    def _plain_position(self, lo: int, hi: int) -> Position:
        """The plain position lo..hi of the row, of the queried positions' class (the model's
        Position: this module sits below it and does not import it) (O(1))."""
        assert self._position_class is not None  # a query checks its position first
        return self._position_class._unchecked(self.coins, lo, hi)

    def _check(self, position: Position) -> None:
        if position.coins is self._seen and position.rules is self.rules:
            return  # the row object last checked: O(1) for every position of one game
        if position.coins != self.coins or position.rules != self.rules:
            raise UnsupportedRulesError(
                f"these values are of a row of {len(self.coins)} coins under {self.rules}, "
                f"not of this position under {position.rules}"
            )
        self._seen = position.coins
        self._position_class = type(position)
        self.rules = position.rules  # equal rules: keep the positions' object for the check

    def totals_of(self, position: Position) -> tuple[Value, ...]:
        """Every player's total from ``position`` on along an optimal line, first seat first
        (what is still to come, not what was taken; see
        :meth:`~coinrow.game.Position.best_totals` for the cost)."""
        return self._solve(position)[0]

    def moves_of(self, position: Position) -> Moves:
        """Every optimal move of ``position`` in the engines' order, a tuple of
        :class:`~coinrow.rules.Move` (empty when it is over; see
        :meth:`~coinrow.game.Position.best_moves`)."""
        return as_moves(self._solve(position)[1])

    def _solve(self, position: Position) -> tuple[tuple[Value, ...], tuple[str, ...]]:
        self._check(position)
        players = self.rules.players
        if position.is_over:
            return (self.zero,) * players, ()
        key = (position.lo, position.hi, position.first_slice, position.seat, position.state)
        if key not in self._memo:
            with exact_arithmetic():
                ahead, moves = self._ahead(position)
            seat = position.seat  # ahead lists the mover first: rotate to seat order
            totals = tuple(ahead[(k - seat) % players] for k in range(players))
            if self._table is None and self._search is None and not self.rules.circle:
                self._memo[key] = (totals, moves)
            else:
                return totals, moves  # O(1) or O(n) from the table: not worth memory
        return self._memo[key]

    def _ahead(self, position: Position) -> tuple[tuple[Value, ...], tuple[str, ...]]:
        """The totals from here of the mover and the players after them, and the moves."""
        lo, hi, rules = position.lo, position.hi, self.rules
        if rules.circle and position.first_slice is None:
            result = engines.circular_solve(self.coins)
            return result.totals, result.first_moves
        if rules.is_plain or rules.circle:  # the pizza plays the plain game once opened
            sub = self._plain(position.first_slice, position.row)
            value = sub.value_of(lo, hi)
            return (value, sub.total_of(lo, hi) - value), tuple(sub.moves_of(lo, hi))
        if self._table is not None:
            return self._interval(lo, hi)
        if self._search is not None and position.state is not None:
            return self._search.line_of(position.state)[1], self._search.best_moves_of(
                position.state
            )
        left = self.coins[lo : hi + 1]
        if rules.engine == "players-dp":
            result = engines.players_solve(left, self.rules.players, self.rules.tie_break)
            chosen = result.moves[0]  # the tie-break's move first: it is the line's
            others = tuple(move for move in result.first_moves if move != chosen)
            return result.totals, (chosen, *others)
        # reply: the first seat's best reply, or the known opponent's move
        total = sum(left, self.zero)
        if position.seat == 1:
            move = self._reply(lo, hi)
            child = position.play(move)
            first = self._solve(child)[0][0] if not child.is_over else self.zero
            return (total - first, first), (move,)
        result = engines.reply_solve(left, lambda i, j: self._reply(i + lo, j + lo))
        return (result.totals[0], total - result.totals[0]), result.first_moves

    def _plain(self, first_slice: int | None, row: tuple[Value, ...]) -> Subgames:
        if first_slice not in self._subgames:
            self._subgames[first_slice] = Subgames(row)
        return self._subgames[first_slice]

    def _interval(self, lo: int, hi: int) -> tuple[tuple[Value, ...], tuple[str, ...]]:
        table = self._table
        assert table is not None
        moves = table.optimal_moves_of(lo, hi)
        if not self.rules.scores_left:
            value = table.value_of(lo, hi)
            return (value, table.total_of(lo, hi) - value), moves
        points = [self.zero, self.zero]  # Stone Game VII: points follow the line
        turn = 0
        while lo <= hi:
            code = table.codes[hi - lo][lo]
            lo, hi = engines.advance(lo, hi, code % 3, code // 3)
            points[turn] += table.prefix[hi + 1] - table.prefix[lo] if lo <= hi else self.zero
            turn ^= 1
        return (points[0], points[1]), moves
