"""The game model: moves, positions, games and their transcripts.

A :class:`Position` is a subgame ``lo..hi`` of a row together with whose turn it is; a
:class:`Game` is a row and the moves played so far (with undo). Text forms: a move is ``"L"``
or ``"R"``; a line of moves is a string such as ``"LLRRL"``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import IllegalMoveError, SubgameError
from .numbers import Value, coerce_coins, exact_arithmetic, format_value, row_repr, zero_like
from .subgames import SubgameQueries, Subgames

Move = Literal["L", "R"]
Player = Literal["first", "second"]
MOVES: tuple[Move, Move] = ("L", "R")


def parse_moves(text: str) -> str:
    """Validate a line of moves; spaces and commas are ignored, case is folded (O(len)).

    >>> parse_moves("l r, L")
    'LRL'
    >>> parse_moves("LXR")
    Traceback (most recent call last):
    ...
    coinrow.errors.IllegalMoveError: move 2 is 'X'; moves are L (take the left coin) or R
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"moves must be text such as 'LRL', not {type(text).__name__}")
    line = "".join(text.split()).replace(",", "").upper()
    for index, move in enumerate(line):
        if move not in MOVES:
            raise IllegalMoveError(
                f"move {index + 1} is {move!r}; moves are L (take the left coin) or R"
            )
    return line


def taken_indices(n: int, line: str) -> list[int]:
    """Index of the coin each move of ``line`` takes from a row of ``n`` coins (O(len)).

    >>> taken_indices(4, "RLLL")
    [3, 0, 1, 2]
    """
    lo, hi, indices = 0, n - 1, []
    for move in line:
        if lo > hi:
            raise IllegalMoveError(f"the line has {len(line)} moves for a row of {n} coins")
        if move == "L":
            indices.append(lo)
            lo += 1
        elif move == "R":
            indices.append(hi)
            hi -= 1
        else:
            raise IllegalMoveError(f"{move!r} is not a move; moves are L or R")
    return indices


def split_by_player(indices: list[int]) -> tuple[list[int], list[int]]:
    """Split the coins taken in order into the first player's and the second's (O(n)).

    >>> split_by_player([3, 0, 1, 2])
    ([3, 1], [0, 2])
    """
    return indices[0::2], indices[1::2]


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
    """

    coins: tuple[Value, ...]
    lo: int
    hi: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "coins", tuple(coerce_coins(self.coins)))
        n = len(self.coins)
        for name in ("lo", "hi"):
            bound = getattr(self, name)
            if isinstance(bound, bool) or not isinstance(bound, int):
                raise SubgameError(f"{name} must be an int, not {bound!r}")
        if not 0 <= self.lo <= self.hi + 1 <= n:
            raise SubgameError(
                f"position {self.lo}..{self.hi} is not in a row of {n} coins "
                f"(need 0 <= lo <= hi + 1 <= {n})"
            )

    @classmethod
    def _unchecked(cls, coins: tuple[Value, ...], lo: int, hi: int) -> Position:
        """A position of an already validated row and bounds (O(1))."""
        position = object.__new__(cls)
        object.__setattr__(position, "coins", coins)
        object.__setattr__(position, "lo", lo)
        object.__setattr__(position, "hi", hi)
        return position

    @classmethod
    def start(cls, coins: Sequence[object]) -> Position:
        """The starting position of a row (O(n) to validate the coins)."""
        row = tuple(coerce_coins(coins))
        return cls._unchecked(row, 0, len(row) - 1)

    @property
    def taken(self) -> int:
        """Number of moves played so far (O(1))."""
        return self.lo + (len(self.coins) - 1 - self.hi)

    @property
    def turn(self) -> Player:
        """Whose move it is (O(1))."""
        return "first" if self.taken % 2 == 0 else "second"

    @property
    def is_over(self) -> bool:
        """True when no coin is left (O(1))."""
        return self.lo > self.hi

    @property
    def remaining(self) -> tuple[Value, ...]:
        """The coins still on the table (O(n))."""
        return self.coins[self.lo : self.hi + 1]

    def coin_index(self, move: str) -> int:
        """Index in the row of the coin that ``move`` takes (O(1))."""
        if self.is_over:
            raise IllegalMoveError("the game is over: no coin is left to take")
        if move not in MOVES:
            raise IllegalMoveError(f"{move!r} is not a move; moves are L or R")
        return self.lo if move == "L" else self.hi

    def play(self, move: str) -> Position:
        """The position after ``move`` (O(1)).

        >>> Position.start([1, 2]).play("R").remaining
        (1,)
        """
        self.coin_index(move)
        if move == "L":
            return Position._unchecked(self.coins, self.lo + 1, self.hi)
        return Position._unchecked(self.coins, self.lo, self.hi - 1)

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
        coins).

        >>> p = Position.start([3, 2, 2, 3, 1, 2]).play("L")
        >>> p.turn, p.guaranteed(), p.guaranteed((3, 0))
        ('second', (5, 5), (8, 5))
        """
        queries = Subgames(self.coins) if subgames is None else subgames
        value = queries.value_of(self.lo, self.hi)
        zero = zero_like(list(self.coins))
        first, second = (zero, zero) if taken is None else taken
        with exact_arithmetic():
            rest = queries.total_of(self.lo, self.hi) - value
            if self.turn == "first":
                return first + value, second + rest
            return first + rest, second + value

    def __str__(self) -> str:
        return " ".join(map(format_value, self.remaining))

    def __repr__(self) -> str:
        return f"Position({row_repr(self.coins)}, {self.lo}, {self.hi})"

    def _repr_svg_(self) -> str | None:
        """Jupyter: the row's triangle with this subgame's cell highlighted (None over 40)."""
        from .svg import repr_svg

        return repr_svg(self.coins, highlight=self._cells())

    def _repr_html_(self) -> str:
        """Jupyter: the triangle with this subgame highlighted, or a note over 40 coins."""
        from .svg import repr_html

        return repr_html(self, self.coins, highlight=self._cells())

    def _cells(self) -> list[tuple[int, int]]:
        return [] if self.is_over else [(self.lo, self.hi)]


@dataclass(frozen=True)
class TranscriptRow:
    """One move of a transcript: the position before it, who moved and what they took."""

    step: int
    before: Position
    player: Player
    move: Move
    index: int
    coin: Value
    first_total: Value
    second_total: Value


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
    """

    def __init__(self, coins: Sequence[object], moves: str = "") -> None:
        self.start = Position.start(coins)
        self._positions = [self.start]
        self.moves: list[Move] = []
        if not isinstance(moves, str):
            raise IllegalMoveError(f"moves must be text such as 'LRL', not {type(moves).__name__}")
        for move in moves:
            self.push(move)

    @property
    def coins(self) -> tuple[Value, ...]:
        return self.start.coins

    @property
    def position(self) -> Position:
        """The current position (O(1))."""
        return self._positions[-1]

    def push(self, move: str) -> None:
        """Play a move (O(1))."""
        self._positions.append(self.position.play(move))
        self.moves.append(move)  # type: ignore[arg-type]

    def pop(self) -> Move:
        """Undo the last move and return it (O(1))."""
        if not self.moves:
            raise IllegalMoveError("no move to undo")
        self._positions.pop()
        return self.moves.pop()

    @property
    def line(self) -> str:
        """The moves played, as text (O(n))."""
        return "".join(self.moves)

    @property
    def coins_taken(self) -> tuple[list[int], list[int]]:
        """Indices of the coins each player has taken, in order (O(n)).

        >>> Game([3, 2, 2, 3, 1, 2], "LLLRRL").coins_taken
        ([0, 2, 4], [1, 5, 3])
        """
        return split_by_player(taken_indices(len(self.coins), self.line))

    @property
    def totals(self) -> tuple[Value, Value]:
        """Totals of the first and second player so far (O(n))."""
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
        return self.position.guaranteed(self.totals, subgames=subgames)

    def transcript(self) -> list[TranscriptRow]:
        """Every move with the position before it and the running totals (O(n)).

        >>> [(r.player, r.move, r.coin, r.first_total, r.second_total)
        ...  for r in Game([8, 15, 3, 7], "RLLL").transcript()][:2]
        [('first', 'R', 7, 7, 0), ('second', 'L', 8, 7, 8)]
        """
        rows = []
        totals = [zero_like(list(self.coins))] * 2
        for step, (position, move) in enumerate(self.iter_moves()):
            index = position.coin_index(move)
            with exact_arithmetic():
                totals[step % 2] = totals[step % 2] + self.coins[index]
            rows.append(
                TranscriptRow(
                    step + 1, position, position.turn, move, index, self.coins[index], *totals
                )
            )
        return rows

    def iter_moves(self) -> Iterator[tuple[Position, Move]]:
        """Each move with the position it was played from (O(1) each)."""
        return zip(self._positions, self.moves, strict=False)  # one more position than moves

    def __repr__(self) -> str:
        return f"Game({row_repr(self.coins)}, {self.line!r})"

    def _repr_svg_(self) -> str | None:
        """Jupyter: the triangle with the moves played highlighted, ending at the current
        subgame (None over 40 coins)."""
        from .svg import repr_svg

        return repr_svg(self.coins, highlight=self.line)

    def _repr_html_(self) -> str:
        """Jupyter: the triangle with the moves played highlighted, or a note over 40 coins."""
        from .svg import repr_html

        return repr_html(self, self.coins, highlight=self.line)
