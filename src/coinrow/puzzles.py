"""Puzzles: rows where the tempting move loses. The tempting moves are those of ``greedy``
(take the larger end) and ``parity`` (the odd/even rule); a row is a puzzle when
:func:`coinrow.refute.check_row` refutes the strategy on it and the strategy's very first move
is not an optimal one, so "find the best move" has an answer the tempting move misses. The
grade is the analysis label of the tempting move (how much it loses against a typical coin).
Rows are drawn from a seeded generator, so a seed (or a date, for the daily puzzle) always
gives the same puzzle.

    >>> p = puzzle(7)
    >>> p.coins, p.tempting, p.tempting_move, p.best_moves, p.loss, p.grade
    ((8, 5, 9, 6, 7, 9), 'parity', 'L', ('R',), 1, 'inaccuracy')
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

from .analysis import analyze
from .errors import InvalidOptionError
from .game import Position
from .numbers import Value, json_fields, json_value, random_row
from .refute import check_row
from .rules import Moves
from .strategies import get
from .subgames import Subgames

#: The strategies whose first move is the tempting one, and their plain words.
TEMPTING: dict[str, str] = {
    "greedy": "take the larger end coin",
    "parity": "take the coins of the richer group, odd or even places",
}

#: Puzzle rows: this many coins (even, so the odd/even rule applies) of these values.
PUZZLE_COINS, PUZZLE_VALUES = 6, "1-9"

#: Rows tried before a search gives up (a puzzle is found within a few dozen in practice).
MAX_TRIES = 10_000


@dataclass(frozen=True)
class Puzzle:
    """A row, the tempting strategy and its move, the best moves (a tuple of
    :class:`~coinrow.rules.Move`; a list of move texts in JSON), and how much the tempting
    move loses (``loss``, graded ``inaccuracy``/``mistake``/``blunder``)."""

    seed: int
    coins: tuple[Value, ...]
    tempting: str
    tempting_move: str
    best_moves: Moves
    loss: Value
    grade: str
    best_total: Value

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n))."""
        order = ("seed", "coins", "tempting", "tempting_rule")
        return json_fields(self, order=order, tempting_rule=TEMPTING[self.tempting])

    def to_text(self) -> str:
        """Two lines: the row, then the answer (O(n))."""
        coins = " ".join(str(json_value(coin)) for coin in self.coins)
        return (
            f"{coins}\n{self.tempting} ({TEMPTING[self.tempting]}) plays {self.tempting_move} "
            f"and loses {json_value(self.loss)} ({self.grade}); "
            f"best: {' or '.join(self.best_moves)}"
        )


def puzzle(seed: int, *, coins: int = PUZZLE_COINS, values: str = PUZZLE_VALUES) -> Puzzle:
    """The puzzle of ``seed``: the first row drawn from ``random.Random(seed)`` that refutes
    ``greedy`` or ``parity`` at its first move. O(tries x n^2), a few dozen tries in practice;
    refused after :data:`MAX_TRIES`.

    >>> puzzle(7) == puzzle(7), puzzle(7) != puzzle(8)
    (True, True)
    """
    if coins < 2:
        raise InvalidOptionError(f"a puzzle needs at least 2 coins, got {coins}")
    rng = random.Random(seed)
    for _ in range(MAX_TRIES):
        row = tuple(random_row(coins, values, rng.randrange(2**32)))
        for name in TEMPTING:
            found = _refuted_at_start(seed, row, name)
            if found is not None:
                return found
    raise InvalidOptionError(
        f"no puzzle among {MAX_TRIES:,} rows of {coins} coins of {values!r}: try other values"
    )


def _refuted_at_start(seed: int, row: tuple[Value, ...], name: str) -> Puzzle | None:
    if name == "parity" and len(row) % 2:
        return None
    if name == "greedy" and row[0] == row[-1]:
        return None  # equal ends tempt neither way
    strategy = get(name)
    if check_row(row, strategy) is None:  # the refute machinery: the strategy loses here
        return None
    subgames = Subgames(row)
    best = subgames.moves_of(0, len(row) - 1)
    move = strategy(Position.start(row))
    if move in best:
        return None
    judged = analyze(row, move, subgames).moves[0]
    return Puzzle(seed, row, name, move, best, judged.loss, judged.label, judged.guaranteed_before)


def daily_seed(day: datetime.date) -> int:
    """The seed of a day's puzzle: the date as the number YYYYMMDD (O(1)).

    >>> daily_seed(datetime.date(2026, 11, 23))
    20261123
    """
    return day.year * 10_000 + day.month * 100 + day.day


def daily_puzzle(day: datetime.date | None = None) -> Puzzle:
    """The puzzle of a day (default: today in UTC), the same for everyone (O(puzzle)).

    >>> daily_puzzle(datetime.date(2026, 11, 23)).seed
    20261123
    """
    if day is None:
        day = datetime.datetime.now(datetime.UTC).date()
    return puzzle(daily_seed(day))


def puzzles(count: int, seed: int = 0) -> list[Puzzle]:
    """``count`` puzzles, of seeds ``seed``, ``seed + 1``, … (O(count x puzzle)).

    >>> [p.seed for p in puzzles(2, seed=7)]
    [7, 8]
    """
    if count < 0:
        raise InvalidOptionError(f"the number of puzzles must be >= 0, got {count}")
    return [puzzle(seed + k) for k in range(count)]
