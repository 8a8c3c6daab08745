"""The game model: moves, positions, games and their transcripts.

A :class:`Position` is a subgame ``lo..hi`` of a row together with whose turn it is; a
:class:`Game` is a row and the moves played so far (with undo). Text forms: a move is ``"L"``
or ``"R"``; a line of moves is a string such as ``"LLRRL"``.

Both take ``rules`` (a :class:`~coinrow.rules.Rules` or its text; the plain game by default):
under other rules a move is a text of the engines (``L``, ``R``, ``B``, ``L2``, the pizza's
first slice ``3``), :meth:`Position.legal_moves` lists them, :meth:`Position.best_totals` and
:meth:`Position.best_moves` give every player's final totals with best play and the optimal
moves (docs/variants.md, "Playing under other rules").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .engines import variants as variant_engines
from .errors import IllegalMoveError, SubgameError, UnsupportedRulesError
from .numbers import Row, Value, exact_arithmetic, format_value, row_repr, zero_like
from .play_values import PlayValues
from .rules import (
    PLAIN,
    Moves,
    Player,
    Rules,
    coerce_rules,
    join_moves,
    split_by_player,
    taken_indices,
)
from .rules import parse_moves as parse_moves  # re-exported: the plain game's line notation
from .subgames import SubgameQueries, Subgames

Move = Literal["L", "R"]
MOVES: tuple[Move, Move] = ("L", "R")


def _check_positions(rules: Rules) -> None:
    """Refuse rules whose positions a :class:`Position` cannot hold (O(1))."""
    if not rules.positions:
        raise UnsupportedRulesError(
            f"rules {rules}: a position keeps more than the coins left and the moves "
            "played, so play and analysis do not take them yet; solve() does"
        )


@dataclass(frozen=True)
class Position:
    """The coins ``lo..hi`` still on the table of a row (``lo = hi + 1`` when the game is
    over). The row is validated (O(n)) and the bounds must lie in it: ``0 <= lo <= hi + 1 <=
    n``. Positions are immutable and hashable.

    >>> p = Position.start([3, 2, 2, 3, 1, 2]).play("L").play("R")
    >>> p.remaining, p.turn, p.taken
    ((2, 2, 3, 1), 'first', 2)
    >>> p
    Position([3, 2, 2, 3, 1, 2], 1, 4)

    Under other ``rules`` (keyword-only; the plain game by default) a position also knows
    what it cannot derive from its bounds: ``ply``, the moves played, under ``take`` and
    ``both-ends`` (where a move takes several coins), and ``first_slice``, the pizza's first slice
    (None before it; then ``lo..hi`` index the row the slice opens,
    :func:`~coinrow.engines.variants.opened`), and ``state``, the rules' state where a position
    is more than its coins (:attr:`~coinrow.rules.Rules.stateful`: Stone Game II's piles gone
    and M; the coins left are those after the state's first item). Its repr reads back:

    >>> q = Position.start([1, 2, 3, 4], rules="take:2").play("L2")
    >>> q, q.legal_moves(), q.seat
    (Position([1, 2, 3, 4], 2, 3, rules='take:2', ply=1), ('L1', 'L2', 'R1', 'R2'), 1)
    >>> c = Position.start([1, 2, 3, 4], rules="circular")
    >>> c.legal_moves(), c.play("1"), c.play("1").remaining
    (('0', '1', '2', '3'), Position([1, 2, 3, 4], 0, 2, rules='circular', first_slice=1), (3, 4, 1))
    >>> s = Position.start([2, 7, 9, 4, 4], rules="stone-game-ii").play("L2")
    >>> s
    Position([2, 7, 9, 4, 4], 2, 4, rules='stone-game-ii', ply=1, state=(2, 2))
    >>> s.legal_moves()
    ('L1', 'L2', 'L3')
    """

    coins: tuple[Value, ...]
    lo: int
    hi: int
    rules: Rules = field(default=PLAIN, kw_only=True)
    ply: int | None = field(default=None, kw_only=True)
    first_slice: int | None = field(default=None, kw_only=True)
    state: tuple[int, ...] | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "coins", Row.of(self.coins))
        rules = coerce_rules(self.rules)
        _check_positions(rules)
        object.__setattr__(self, "rules", PLAIN if rules.is_plain else rules)
        n = len(self.coins)
        for name in ("lo", "hi"):
            bound = getattr(self, name)
            if isinstance(bound, bool) or not isinstance(bound, int):
                raise SubgameError(f"{name} must be an int, not {bound!r}")
        for name in ("ply", "first_slice"):
            extra = getattr(self, name)
            if extra is not None and (isinstance(extra, bool) or not isinstance(extra, int)):
                raise SubgameError(f"{name} must be an int or None, not {extra!r}")
        self._check_state(n)
        if self.rules.circle:
            self._check_circle(n)
            return
        if self.first_slice is not None:
            raise SubgameError(f"only the pizza (circular) has a first slice, not {self.rules}")
        if not 0 <= self.lo <= self.hi + 1 <= n:
            raise SubgameError(
                f"position {self.lo}..{self.hi} is not in a row of {n} coins "
                f"(need 0 <= lo <= hi + 1 <= {n})"
            )
        taken = self.lo + (n - 1 - self.hi)
        if self.rules.single_coin_moves:
            if self.ply is not None:
                raise SubgameError(f"under {self.rules} the moves played follow from lo and hi")
            return
        if self.ply is None:
            raise SubgameError(f"under {self.rules} a position needs ply, the moves played")
        most = self.rules.most_per_move or max(taken, 1)
        if not -(-taken // most) <= self.ply <= taken:
            raise SubgameError(f"{self.ply} moves cannot take {taken} coins under {self.rules}")

    def _check_state(self, n: int) -> None:
        if not self.rules.stateful:
            if self.state is not None:
                raise SubgameError(f"rules {self.rules} keep no state besides lo and hi")
            return
        problem = self.rules.state_problem(self.state, n)
        if problem is not None:
            raise SubgameError(problem)
        assert self.state is not None
        if (self.lo, self.hi) != (self.state[0], n - 1):
            raise SubgameError(
                f"under {self.rules} the coins left are those after the state's first item: "
                f"lo {self.state[0]} and hi {n - 1}, not {self.lo} and {self.hi}"
            )

    def _check_circle(self, n: int) -> None:
        if self.ply is not None:
            raise SubgameError("under circular the moves played follow from lo and hi")
        if self.first_slice is None:
            if (self.lo, self.hi) != (0, n - 1):
                raise SubgameError(
                    f"before the pizza's first slice the position is the whole circle 0..{n - 1}"
                )
        elif not 0 <= self.first_slice < n or not 0 <= self.lo <= self.hi + 1 <= n - 1:
            raise SubgameError(
                f"pizza position {self.lo}..{self.hi} after slice {self.first_slice} is not in the "
                f"row of {n - 1} slices the first slice of {n} leaves"
            )

    @classmethod
    def _unchecked(cls, coins: tuple[Value, ...], lo: int, hi: int) -> Position:
        """A plain position of an already validated row and bounds (O(1))."""
        position = object.__new__(cls)
        object.__setattr__(position, "coins", coins)
        object.__setattr__(position, "lo", lo)
        object.__setattr__(position, "hi", hi)
        return position

    def _with(
        self,
        lo: int,
        hi: int,
        ply: int | None,
        first_slice: int | None,
        state: tuple[int, ...] | None = None,
    ) -> Position:
        """A position of the same row and rules, already validated (O(1))."""
        position = Position._unchecked(self.coins, lo, hi)
        object.__setattr__(position, "rules", self.rules)
        object.__setattr__(position, "ply", ply)
        object.__setattr__(position, "first_slice", first_slice)
        object.__setattr__(position, "state", state)
        return position

    @classmethod
    def start(cls, coins: Sequence[object], *, rules: Rules | str | None = None) -> Position:
        """The starting position of a row under the rules (plain by default; O(n) to validate
        the coins).

        >>> Position.start([1, 2, 3], rules="misere")
        Position([1, 2, 3], 0, 2, rules='misere')
        """
        row = Row.of(coins)
        position = cls._unchecked(row, 0, len(row) - 1)
        chosen = coerce_rules(rules)
        if chosen.is_plain:
            return position
        return position._start_under(chosen)

    def _start_under(self, rules: Rules) -> Position:
        _check_positions(rules)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "ply", None if rules.single_coin_moves else 0)
        if rules.stateful:
            object.__setattr__(self, "state", rules.start_state())
        return self

    @property
    def row(self) -> tuple[Value, ...]:
        """The row the moves act on: the coins, or the row the pizza's first slice opens
        (O(1); O(n) for the opened pizza).

        >>> Position.start([1, 2, 3, 4], rules="circular").play("2").row
        (4, 1, 2)
        """
        if self.rules.circle and self.first_slice is not None:
            return tuple(variant_engines.opened(self.coins, self.first_slice))
        return self.coins

    def index_in_coins(self, index: int) -> int:
        """The index in :attr:`coins` of coin ``index`` of :attr:`row` (O(1)).

        >>> Position.start([1, 2, 3, 4], rules="circular").play("2").index_in_coins(1)
        0
        """
        if self.rules.circle and self.first_slice is not None:
            return (self.first_slice + 1 + index) % len(self.coins)
        return index

    @property
    def taken(self) -> int:
        """Number of moves played so far (O(1)).

        >>> Position.start([1, 2, 3], rules="both-ends").play("B").taken
        1
        """
        if self.rules is PLAIN:
            return self.lo + (len(self.coins) - 1 - self.hi)
        if self.ply is not None:
            return self.ply
        if self.rules.circle:
            if self.first_slice is None:
                return 0
            return 1 + self.lo + (len(self.coins) - 2 - self.hi)
        return self.lo + (len(self.coins) - 1 - self.hi)

    @property
    def seat(self) -> int:
        """The mover's 0-based seat: 0 the first player, 1 the second, ... (O(1)).

        >>> Position.start([1, 2, 3, 4], rules="players:3").play("L").play("R").seat
        2
        """
        return self.taken % self.rules.players

    @property
    def turn(self) -> Player:
        """Whose move it is, of two players (O(1)); more players have a :attr:`seat` only."""
        if self.rules is PLAIN:
            return "first" if (self.lo + len(self.coins) - 1 - self.hi) % 2 == 0 else "second"
        if not self.rules.two_player:
            raise UnsupportedRulesError(
                f"rules {self.rules} seat {self.rules.players} players: use the seat (0-based)"
            )
        return "first" if self.taken % 2 == 0 else "second"

    @property
    def is_over(self) -> bool:
        """True when no coin is left (O(1)); the whole circle before the pizza's first
        slice is 0..n-1, over only when empty."""
        return self.lo > self.hi

    @property
    def remaining(self) -> tuple[Value, ...]:
        """The coins still on the table (O(n)); the pizza's in clockwise order from the slice
        after the eaten arc."""
        if self.rules.circle and self.first_slice is not None:
            return self.row[self.lo : self.hi + 1]
        return self.coins[self.lo : self.hi + 1]

    def remaining_indices(self) -> tuple[int, ...]:
        """Indices in :attr:`coins` of the coins still on the table, in the order of
        :attr:`remaining` (O(n)).

        >>> Position.start([1, 2, 3, 4], rules="circular").play("2").play("L").remaining_indices()
        (0, 1)
        """
        if self.is_over:
            return ()
        if self.rules.circle and self.first_slice is None:
            return tuple(range(len(self.coins)))
        return tuple(self.index_in_coins(index) for index in range(self.lo, self.hi + 1))

    def legal_moves(self) -> tuple[str, ...]:
        """Every legal move, in the engines' order (L before R before B, fewer coins first;
        the pizza's first slices by index); empty when the game is over (O(moves)).

        >>> Position.start([1, 2, 3]).legal_moves(), Position.start([1, 2], rules="both-ends").legal_moves()
        (('L', 'R'), ('L', 'R', 'B'))
        """  # noqa: E501
        if self.is_over:
            return ()
        if self.rules.circle and self.first_slice is None:
            return tuple(str(index) for index in range(len(self.coins)))
        if self.state is not None:
            return tuple(move for move, _, _ in self.rules.state_moves(self.state, len(self.coins)))
        return self.rules.legal_moves(self.lo, self.hi)

    def _parse(self, move: str) -> tuple[int, int]:
        """(side, count) of a legal move under the rules, else IllegalMoveError (O(len))."""
        if self.is_over:
            raise IllegalMoveError("the game is over: no coin is left to take")
        if not isinstance(move, str):
            raise IllegalMoveError(f"a move is text such as 'L', not {type(move).__name__}")
        try:
            side, count = self.rules.side_count(move)
        except UnsupportedRulesError:
            raise IllegalMoveError(
                f"{move!r} is not a move of the rules {self.rules}; legal: "
                f"{' '.join(self.legal_moves()[:12])}{' ...' * (len(self.legal_moves()) > 12)}"
            ) from None
        if count > self.hi - self.lo + 1:
            raise IllegalMoveError(f"{move!r} takes {count} coins; {self.hi - self.lo + 1} left")
        if self.state is not None and self.rules.move(side, count) not in self.legal_moves():
            raise IllegalMoveError(
                f"{move!r} is not legal here under {self.rules}; legal: "
                f"{' '.join(self.legal_moves())}"
            )
        return side, count

    def coin_index(self, move: str) -> int:
        """Index in the row of the coin that ``move`` takes (O(1)); a move that takes several
        coins gives the first of them (see :meth:`indices_of`)."""
        if self.rules is not PLAIN:
            return self.indices_of(move)[0]
        if self.is_over:
            raise IllegalMoveError("the game is over: no coin is left to take")
        if move not in MOVES:
            raise IllegalMoveError(f"{move!r} is not a move; moves are L or R")
        return self.lo if move == "L" else self.hi

    def indices_of(self, move: str) -> tuple[int, ...]:
        """Indices in :attr:`coins` of the coins ``move`` takes, outside in (O(coins taken)).

        >>> Position.start([1, 2, 3, 4], rules="take:3").indices_of("R2")
        (3, 2)
        """
        if self.rules.circle and self.first_slice is None:
            return (self._slice(move),)
        if self.rules is PLAIN:
            return (self.coin_index(move),)
        side, count = self._parse(move)
        if side == 0:
            taken = range(self.lo, self.lo + count)
        elif side == 1:
            taken = range(self.hi, self.hi - count, -1)
        else:
            taken = range(self.lo, self.hi + 1, self.hi - self.lo)
        return tuple(self.index_in_coins(index) for index in taken)

    def _slice(self, move: str) -> int:
        if self.is_over:
            raise IllegalMoveError("the game is over: no coin is left to take")
        n = len(self.coins)
        if not isinstance(move, str) or not move.isdigit() or int(move) >= n:
            raise IllegalMoveError(
                f"{move!r} is not a first slice: the pizza's first move is a slice's "
                f"0-based index, 0 to {n - 1}"
            )
        return int(move)

    def play(self, move: str) -> Position:
        """The position after ``move`` (O(1)).

        >>> Position.start([1, 2]).play("R").remaining
        (1,)
        >>> Position.start([1, 2, 3], rules="both-ends").play("b").remaining
        (2,)
        """
        if self.rules is not PLAIN:
            return self._play_under_rules(move)
        if self.lo > self.hi:
            raise IllegalMoveError("the game is over: no coin is left to take")
        if move == "L":
            return Position._unchecked(self.coins, self.lo + 1, self.hi)
        if move == "R":
            return Position._unchecked(self.coins, self.lo, self.hi - 1)
        raise IllegalMoveError(f"{move!r} is not a move; moves are L or R")

    def _play_under_rules(self, move: str) -> Position:
        if self.rules.circle and self.first_slice is None:
            return self._with(0, len(self.coins) - 2, None, self._slice(move))
        side, count = self._parse(move)
        ply = None if self.ply is None else self.ply + 1
        if self.state is not None:
            text, n = self.rules.move(side, count), len(self.coins)
            moves = self.rules.state_moves(self.state, n)
            state = next(after for legal, _, after in moves if legal == text)
            return self._with(state[0], self.hi, ply, None, state)
        lo, hi = variant_engines.advance(self.lo, self.hi, side, count)
        return self._with(lo, hi, ply, self.first_slice)

    def move_text(self, move: str) -> str:
        """The canonical text of a legal move (``b`` -> ``B``, ``l02`` -> ``L2``) (O(len)).

        >>> Position.start([1, 2, 3], rules="take:any").move_text("r02")
        'R2'
        """
        if self.rules.circle and self.first_slice is None:
            return str(self._slice(move))
        if self.rules is PLAIN:
            self.coin_index(move)
            return move
        side, count = self._parse(move)
        return self.rules.move(side, count)

    def guaranteed(
        self, taken: tuple[Value, Value] | None = None, *, subgames: SubgameQueries | None = None
    ) -> tuple[Value, Value]:
        """The first and the second player's final totals when both play optimally from here:
        what each has ``taken`` so far (zero by default) plus their share of the coins left,
        the value of this subgame for the mover and the rest for the other. The mover's
        number is what a hint shows and what the analysis calls a move's guaranteed total.

        ``subgames`` is the row's :class:`~coinrow.subgames.Subgames` or
        :class:`~coinrow.Table` (anything with the
        :class:`~coinrow.subgames.SubgameQueries` contract) when the caller holds one:
        O(1) from a table, O(n) by reductions; without it one is built (O(n^2) up to 512
        coins). Under other rules of two players this is :meth:`best_totals` (``subgames``
        must then be None); :meth:`best_totals` serves every rules.

        >>> p = Position.start([3, 2, 2, 3, 1, 2]).play("L")
        >>> p.turn, p.guaranteed(), p.guaranteed((3, 0))
        ('second', (5, 5), (8, 5))
        """
        if self.rules is not PLAIN:
            if not self.rules.two_player or subgames is not None:
                raise UnsupportedRulesError(
                    f"rules {self.rules}: use best_totals (every player, any rules)"
                )
            first, second = self.best_totals(taken)
            return first, second
        queries = Subgames(self.coins) if subgames is None else subgames
        value = queries.value_of(self.lo, self.hi)
        zero = zero_like(list(self.coins))
        first, second = (zero, zero) if taken is None else taken
        with exact_arithmetic():
            rest = queries.total_of(self.lo, self.hi) - value
            if self.turn == "first":
                return first + value, second + rest
            return first + rest, second + value

    def best_totals(
        self, taken: Sequence[Value] | None = None, *, values: PlayValues | None = None
    ) -> tuple[Value, ...]:
        """Every player's final total, first seat first, when everyone plays optimally from
        here under the rules: what each has ``taken`` so far (zero by default) plus what
        the rest of the game gives them along an optimal line (coins; Stone Game VII's
        points; under ``reply:S`` the second seat plays S and the first its best reply).

        ``values`` is the row's :class:`~coinrow.play_values.PlayValues` when the caller holds
        one (a game, an analysis, a strategy: built once per row); without it one is built.
        Its cost per query: O(1) (plain, up to 512 coins; ``misere``, ``take``,
        ``both-ends``; the pizza after its first slice), O(n) (Stone Game VII: the line),
        O(n^2) (the pizza's first move, ``reply``), O(n^2 p) (``players:p``), after an O(n^2)
        table where the rules have one.

        >>> Position.start([1, 5, 2], rules="misere").best_totals()
        (6, 2)
        >>> Position.start([1, 2, 3, 4, 5], rules="players:3").play("R").best_totals((5, 0, 0))
        (7, 5, 3)
        """
        queries = PlayValues(self.coins, self.rules) if values is None else values
        rest = queries.totals_of(self)
        if taken is None:
            return rest
        if len(taken) != len(rest):
            raise UnsupportedRulesError(
                f"rules {self.rules} have {len(rest)} players; taken has {len(taken)} totals"
            )
        with exact_arithmetic():
            return tuple(own + more for own, more in zip(taken, rest, strict=True))

    def best_moves(self, *, values: PlayValues | None = None) -> Moves:
        """Every optimal move from here, a tuple of :class:`~coinrow.rules.Move` in the
        engines' order (see :meth:`best_totals` for
        ``values`` and the cost): the moves that keep the mover's best objective (their
        total; the smallest in the misère game; the points margin in Stone Game VII; under
        ``players:p`` their own total, the tie-break's move first, so the first best move of
        each position plays the line :meth:`best_totals` scores); under ``reply:S`` the
        second seat's move is S's.

        >>> Position.start([1, 2, 3, 4], rules="circular").best_moves()
        ('1', '3')
        >>> Position.start([8, 15, 3, 7]).best_moves()
        ('R',)
        """
        queries = PlayValues(self.coins, self.rules) if values is None else values
        return queries.moves_of(self)

    def __str__(self) -> str:
        return " ".join(map(format_value, self.remaining))

    def __repr__(self) -> str:
        if self.rules is PLAIN:
            return f"Position({row_repr(self.coins)}, {self.lo}, {self.hi})"
        extra = "".join(
            f", {name}={value}"
            for name, value in (
                ("ply", self.ply),
                ("first_slice", self.first_slice),
                ("state", self.state),
            )
            if value is not None
        )
        return (
            f"Position({row_repr(self.coins)}, {self.lo}, {self.hi}, "
            f"rules={str(self.rules)!r}{extra})"
        )

    def _repr_svg_(self) -> str | None:
        """Jupyter: the row's triangle with this subgame's cell highlighted (None over 40;
        the plain game's picture)."""
        from .svg import repr_svg

        return repr_svg(self.coins, highlight=self._cells())

    def _repr_html_(self) -> str:
        """Jupyter: the triangle with this subgame highlighted, or a note over 40 coins."""
        from .svg import repr_html

        return repr_html(self, self.coins, highlight=self._cells())

    def _cells(self) -> list[tuple[int, int]]:
        if self.is_over or (self.rules.circle):
            return []
        return [(self.lo, self.hi)]


@dataclass(frozen=True)
class TranscriptRow:
    """One move of a transcript: the position before it, who moved and what they took.

    ``player`` is ``"first"`` or ``"second"`` (``"player K"``, 1-based, with more than two
    players); ``index`` and ``coin`` are the (first) coin the move takes, ``indices`` every
    coin it takes, ``gain`` what it scored (the coins; Stone Game VII's points), ``totals``
    every player's running total after it (``first_total`` and ``second_total`` the first
    two), ``seat`` the mover's 0-based seat (these four come from ``variant`` under other
    rules, and from the other fields in the plain game)."""

    step: int
    before: Position
    player: str
    move: str
    index: int
    coin: Value
    first_total: Value
    second_total: Value
    variant: tuple[int, tuple[int, ...], Value, tuple[Value, ...]] | None = field(
        default=None, kw_only=True, repr=False
    )

    @property
    def seat(self) -> int:
        """The mover's 0-based seat (O(1))."""
        if self.variant is None:
            return 0 if self.player == "first" else 1
        return self.variant[0]

    @property
    def indices(self) -> tuple[int, ...]:
        """Every coin the move takes, outside in (O(1))."""
        return (self.index,) if self.variant is None else self.variant[1]

    @property
    def gain(self) -> Value:
        """What the move scored: its coins, or Stone Game VII's points (O(1))."""
        return self.coin if self.variant is None else self.variant[2]

    @property
    def totals(self) -> tuple[Value, ...]:
        """Every player's running total after the move (O(1))."""
        if self.variant is None:
            return (self.first_total, self.second_total)
        return self.variant[3]


def seat_name(seat: int, players: int = 2) -> str:
    """A seat's name: ``first``/``second`` of two players, else ``player K`` (O(1)).

    >>> seat_name(1), seat_name(2, 3)
    ('second', 'player 3')
    """
    return ("first", "second")[seat] if players == 2 else f"player {seat + 1}"


_MOVE_TOKEN = re.compile(r"[LRB]\d*|\d+")


def parse_line(text: str | Sequence[str], rules: Rules | str | None = None) -> tuple[str, ...]:
    """The moves of a line under the rules, from its text (:func:`join_moves
    <coinrow.rules.join_moves>`: ``LRL``, ``L2 R1``, ``1 LLL``; case, spaces and
    commas forgiven) or a sequence of move texts (O(len)). Whether each move is legal is the
    game's to check.

    >>> parse_line("l2 r1", "take:2"), parse_line("1 LLR", "circular"), parse_line("LBR")
    (('L2', 'R1'), ('1', 'L', 'L', 'R'), ('L', 'B', 'R'))
    """
    chosen = coerce_rules(rules)
    if not isinstance(text, str):
        if not all(isinstance(move, str) for move in text):
            raise IllegalMoveError(f"moves must be texts such as 'L', not {text!r}")
        return tuple(move.strip().upper() for move in text)
    moves: list[str] = []
    for word in text.replace(",", " ").upper().split():
        if word.isdigit():
            moves.append(word)
            continue
        found = _MOVE_TOKEN.findall(word)
        if "".join(found) != word or (not chosen.counted_moves and any(len(m) > 1 for m in found)):
            raise IllegalMoveError(
                f"{word!r} is not a line of moves of the rules {chosen} (moves such as "
                f"{'L2 R1' if chosen.counted_moves else 'LRL'})"
            )
        moves.extend(found)
    return tuple(moves)


class Game:
    """A row of coins and the moves played so far, with undo. Moves are exactly ``"L"`` or
    ``"R"`` (:func:`parse_moves` reads forgiving text such as ``"l r"``).

    >>> game = Game([8, 15, 3, 7], "RL")
    >>> game.totals, game.position.turn
    ((7, 8), 'first')
    >>> game.pop(); game.totals
    'L'
    (7, 0)
    >>> game
    Game([8, 15, 3, 7], 'R')

    Under other ``rules`` moves are the engines' texts and ``moves`` may be a line's text
    (:func:`parse_line`) or a sequence of move texts; ``totals`` has one entry per player:

    >>> g = Game([1, 2, 3, 4], "L2 R1", rules="take:2")
    >>> g.totals, g.line, g.moves, g.position.seat
    ((3, 4), 'L2 R1', ['L2', 'R1'], 0)
    >>> g
    Game([1, 2, 3, 4], 'L2 R1', rules='take:2')
    """

    def __init__(
        self,
        coins: Sequence[object],
        moves: str | Sequence[str] = "",
        *,
        rules: Rules | str | None = None,
    ) -> None:
        chosen = coerce_rules(rules)
        self.start = Position.start(coins, rules=chosen)
        self.rules: Rules = self.start.rules
        self._positions = [self.start]
        self.moves: list[str] = []
        zero = zero_like(list(self.start.coins[:1]))
        self._totals: list[tuple[Value, ...]] = [(zero,) * chosen.players]
        if chosen.is_plain:
            if not isinstance(moves, str):
                raise IllegalMoveError(
                    f"moves must be text such as 'LRL', not {type(moves).__name__}"
                )
            for move in moves:
                self.push(move)
            return
        for move in parse_line(moves, chosen):
            self.push(move)

    @property
    def coins(self) -> tuple[Value, ...]:
        return self.start.coins

    @property
    def position(self) -> Position:
        """The current position (O(1))."""
        return self._positions[-1]

    def push(self, move: str) -> None:
        """Play a move (O(1); under other rules O(coins taken), Stone Game VII O(n))."""
        if self.rules is PLAIN:
            self._positions.append(self.position.play(move))
            self.moves.append(move)
            return
        before = self.position
        text = before.move_text(move)
        after = before.play(text)
        gain = self._gain(before, text, after)
        totals = list(self._totals[-1])
        with exact_arithmetic():
            totals[before.seat] = totals[before.seat] + gain
        self._positions.append(after)
        self._totals.append(tuple(totals))
        self.moves.append(text)

    def _gain(self, before: Position, move: str, after: Position) -> Value:
        zero = zero_like(list(self.coins[:1]))
        with exact_arithmetic():
            if self.rules.scores_left:
                return sum(after.remaining, zero)
            return sum((self.coins[index] for index in before.indices_of(move)), zero)

    def pop(self) -> str:
        """Undo the last move and return it (O(1))."""
        if not self.moves:
            raise IllegalMoveError("no move to undo")
        self._positions.pop()
        if self.rules is not PLAIN:
            self._totals.pop()
        return self.moves.pop()

    @property
    def line(self) -> str:
        """The moves played, as text (O(n)): see :func:`parse_line` for other rules."""
        if self.rules is PLAIN or not self.moves:
            return "".join(self.moves)
        return join_moves(self.moves)

    @property
    def coins_taken(self) -> tuple[list[int], ...]:
        """Indices of the coins each player has taken, in order, first seat first (O(n)).

        >>> Game([3, 2, 2, 3, 1, 2], "LLLRRL").coins_taken
        ([0, 2, 4], [1, 5, 3])
        """
        if self.rules is PLAIN:
            return split_by_player(taken_indices(len(self.coins), self.line))
        taken: list[list[int]] = [[] for _ in range(self.rules.players)]
        for position, move in self.iter_moves():
            taken[position.seat].extend(position.indices_of(move))
        return tuple(taken)

    @property
    def totals(self) -> tuple[Value, ...]:
        """Totals of every player so far, first seat first (O(n); O(1) under other rules):
        the coins taken, or Stone Game VII's points."""
        if self.rules is not PLAIN:
            return self._totals[-1]
        zero = zero_like(list(self.coins[:1]))
        first, second = self.coins_taken
        with exact_arithmetic():
            return (
                sum((self.coins[i] for i in first), zero),
                sum((self.coins[i] for i in second), zero),
            )

    def guaranteed(self, *, subgames: SubgameQueries | None = None) -> tuple[Value, Value]:
        """Each player's final total if both play optimally from now on: the totals so far
        plus :meth:`Position.guaranteed` of the current position (O(n), plus the query cost
        there).

        >>> Game([8, 15, 3, 7], "L").guaranteed()
        (15, 18)
        """
        first, second = self.totals[:2]
        return self.position.guaranteed((first, second), subgames=subgames)

    def best_totals(self, *, values: PlayValues | None = None) -> tuple[Value, ...]:
        """Every player's final total if everyone plays optimally from now on, under the
        rules: the totals so far plus :meth:`Position.best_totals` (its cost).

        >>> Game([5, 3, 1, 4, 2], "L", rules="stone-game-vii").best_totals()
        (15, 12)
        """
        return self.position.best_totals(self.totals, values=values)

    def best_moves(self, *, values: PlayValues | None = None) -> Moves:
        """The optimal moves of the current position (:meth:`Position.best_moves`, its cost).

        >>> Game([1, 2, 3, 4], rules="take:any").best_moves()
        ('L4', 'R4')
        """
        return self.position.best_moves(values=values)

    def transcript(self) -> list[TranscriptRow]:
        """Every move with the position before it and the running totals (O(n)).

        >>> [(r.player, r.move, r.coin, r.first_total, r.second_total)
        ...  for r in Game([8, 15, 3, 7], "RLLL").transcript()][:2]
        [('first', 'R', 7, 7, 0), ('second', 'L', 8, 7, 8)]
        >>> [(r.player, r.move, r.indices, r.gain, r.totals)
        ...  for r in Game([1, 2, 3], "RL", rules="players:3").transcript()]
        [('player 1', 'R', (2,), 3, (3, 0, 0)), ('player 2', 'L', (0,), 1, (3, 1, 0))]
        """
        if self.rules is not PLAIN:
            return self._variant_transcript()
        rows = []
        totals = [zero_like(list(self.coins))] * 2
        for step, (position, move) in enumerate(self.iter_moves()):
            index = position.coin_index(move)
            with exact_arithmetic():
                totals[step % 2] = totals[step % 2] + self.coins[index]
            rows.append(
                TranscriptRow(
                    step + 1,
                    position,
                    position.turn,
                    move,
                    index,
                    self.coins[index],
                    *totals,
                )
            )
        return rows

    def _variant_transcript(self) -> list[TranscriptRow]:
        rows = []
        for step, (position, move) in enumerate(self.iter_moves()):
            indices = position.indices_of(move)
            before, after = self._totals[step], self._totals[step + 1]
            seat = position.seat
            with exact_arithmetic():
                gain = after[seat] - before[seat]
            rows.append(
                TranscriptRow(
                    step + 1,
                    position,
                    seat_name(seat, self.rules.players),
                    move,
                    indices[0],
                    self.coins[indices[0]],
                    after[0],
                    after[1],
                    variant=(seat, indices, gain, after),
                )
            )
        return rows

    def iter_moves(self) -> Iterator[tuple[Position, str]]:
        """Each move with the position it was played from (O(1) each)."""
        return zip(self._positions, self.moves, strict=False)  # one more position than moves

    def __repr__(self) -> str:
        if self.rules is PLAIN:
            return f"Game({row_repr(self.coins)}, {self.line!r})"
        return f"Game({row_repr(self.coins)}, {self.line!r}, rules={str(self.rules)!r})"

    def _picture_line(self) -> str | None:
        """The line as L/R steps of the triangle, or None where the triangle does not
        draw it (moves of several coins, the pizza)."""
        if self.rules is PLAIN or (self.rules.single_coin_moves and not self.rules.circle):
            return self.line
        return None

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle with the moves played highlighted, ending at the current
        subgame (None over 40 coins, and under rules the triangle does not draw)."""
        from .svg import repr_svg

        line = self._picture_line()
        return None if line is None else repr_svg(self.coins, highlight=line)

    def _repr_html_(self) -> str:
        """Jupyter: the triangle with the moves played highlighted, or a note over 40 coins."""
        from .svg import repr_html

        line = self._picture_line()
        if line is None:
            import html

            return f"<pre>{html.escape(repr(self))}</pre>"
        return repr_html(self, self.coins, highlight=line)
