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

from .analysis import analyze, label_for, typical_coin
from .errors import InvalidOptionError
from .game import Position
from .numbers import Value, exact_arithmetic, json_fields, json_value, random_row
from .play_values import PlayValues
from .refute import check_row
from .rules import PLAIN, Misere, Moves, Rules
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


# Puzzles of several moves, by theme ---------------------------------------------------------


@dataclass(frozen=True)
class Theme:
    """A kind of puzzle: the tempting strategy it traps, the rules, the row's size, the moves
    the solver must find, and its words for people."""

    name: str
    title: str
    about: str
    tempting: str
    rules: str
    coins: int
    moves: int
    bonus: int  # added to a puzzle's rating (how hard the theme is to see)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1))."""
        return json_fields(self, omit={"bonus"})


#: The themes, in the order the daily puzzle cycles through them.
THEMES: dict[str, Theme] = {
    theme.name: theme
    for theme in (
        Theme("greedy-trap", "Greedy trap", "The larger end coin uncovers a better one for "
              "the opponent: find the move that does not.", "greedy", PLAIN.name, 8, 2, 0),
        Theme("parity-trap", "Parity trap", "Taking all the odd or all the even places "
              "never loses, but it is not the best: find better.", "parity", PLAIN.name, 8, 2, 150),
        Theme("endgame", "Endgame", "A few coins left: play them out perfectly, every move.",
              "greedy", PLAIN.name, 5, 2, 50),
        Theme("variant-rules", "Variant rules: misère", "Under misère the smaller total wins: "
              "taking the smaller end is tempting, and not always right.", "greedy", Misere.name,
              6, 2, 200),
    )
}  # fmt: skip

#: A puzzle's rating before its grade: a one-move blunder of the easiest theme.
BASE_RATING = 1100
#: Rating added per move to find beyond the first, and by the grade of the tempting move (a
#: small loss is harder to see than a blunder).
MOVE_RATING = 150
GRADE_RATING = {"blunder": 0, "mistake": 150, "inaccuracy": 300}
#: A puzzle's rating deviation (its rating is set, not measured: a fixed, fairly sure one).
PUZZLE_RD = 60.0


@dataclass(frozen=True)
class PuzzleStep:
    """One move the solver must find: ``ply`` moves were played before it, ``best`` is the
    only optimal move, ``tempting`` the tempting strategy's move there, ``reply`` the
    computer's answer (None after the solver's last move), and ``why`` says, for every other
    legal move, why it is worse."""

    ply: int
    best: str
    tempting: str
    reply: str | None
    why: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(moves)): ``why`` as an object from move to sentence."""
        return json_fields(self, why=dict(self.why))


@dataclass(frozen=True)
class LinePuzzle:
    """A puzzle of several moves: the solver moves first on ``coins`` under ``rules`` and must
    find every move of ``steps`` (each the only best one), the computer answering in between.
    ``loss`` and ``grade`` are those of the tempting move at the first step where it is not
    the best; ``best_total`` is the solver's final total with best play; ``rating`` the
    puzzle's rating (:func:`puzzle_rating`)."""

    theme: str
    seed: int
    rules: str
    coins: tuple[Value, ...]
    tempting: str
    steps: tuple[PuzzleStep, ...]
    loss: Value
    grade: str
    best_total: Value
    rating: int

    @property
    def id(self) -> str:
        """The puzzle's name, ``theme:seed`` (O(1))."""
        return f"{self.theme}:{self.seed}"

    @property
    def line(self) -> tuple[str, ...]:
        """The solution: the solver's moves and the computer's answers, in order (O(moves))."""
        moves: list[str] = []
        for step in self.steps:
            moves.append(step.best)
            if step.reply is not None:
                moves.append(step.reply)
        return tuple(moves)

    @property
    def explanation(self) -> str:
        """Why the tempting move loses, at the first step where it is not the best (O(1))."""
        for step in self.steps:
            if step.tempting != step.best:
                return dict(step.why)[step.tempting]
        return ""  # never: a puzzle has such a step

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n + moves))."""
        theme = THEMES[self.theme]
        rules = Rules.parse(self.rules)
        return json_fields(
            self,
            order=("id", "theme", "seed"),
            id=self.id,
            theme_title=theme.title,
            theme_about=theme.about,
            tempting_rule=TEMPTING_WORDS[self.tempting, self.rules],
            plain=rules.is_plain,
            rules_words="" if rules.is_plain else f"{rules.title}: {rules.describe()}",
            line=self.line,
            explanation=self.explanation,
        )


#: The tempting strategies in words, under the rules of the themes.
TEMPTING_WORDS: dict[tuple[str, str], str] = {
    ("greedy", PLAIN.name): TEMPTING["greedy"],
    ("parity", PLAIN.name): TEMPTING["parity"],
    ("greedy", Misere.name): "take the smaller end coin",
}


def puzzle_rating(*, moves: int, grade: str, theme: str) -> int:
    """A puzzle's rating: :data:`BASE_RATING`, plus :data:`MOVE_RATING` per move to find
    beyond the first, :data:`GRADE_RATING` of the tempting move's grade and the theme's
    bonus (O(1)). Set by rule, not measured: a longer line, a subtler loss and less familiar
    rules make a harder puzzle.

    >>> puzzle_rating(moves=2, grade="inaccuracy", theme="variant-rules")
    1750
    """
    return BASE_RATING + MOVE_RATING * (moves - 1) + GRADE_RATING[grade] + THEMES[theme].bonus


def themed_puzzle(theme: str, seed: int) -> LinePuzzle:
    """The puzzle of ``theme`` and ``seed``: the first row drawn from a generator seeded by
    both where the solver (moving first) has exactly one best move at each of the theme's
    moves, against the computer's best answers, and the tempting strategy misses at least one
    of them. O(tries x n^2), tries bounded by :data:`MAX_TRIES` (a few hundred in practice).

    >>> p = themed_puzzle("greedy-trap", 1)
    >>> p.id, len(p.steps), any(step.best != step.tempting for step in p.steps)
    ('greedy-trap:1', 2, True)
    >>> themed_puzzle("greedy-trap", 1) == p
    True
    """
    if theme not in THEMES:
        raise InvalidOptionError(f"theme: {theme!r} is not one of {', '.join(THEMES)}")
    if seed < 0:
        raise InvalidOptionError(f"a puzzle's seed is >= 0, got {seed}")
    kind = THEMES[theme]
    rng = random.Random(f"{theme}:{seed}")
    for _ in range(MAX_TRIES):
        row = tuple(random_row(kind.coins, PUZZLE_VALUES, rng.randrange(2**32)))
        found = _line_puzzle(kind, seed, row)
        if found is not None:
            return found
    raise InvalidOptionError(f"no {theme} puzzle among {MAX_TRIES:,} rows: try another seed")


def _line_puzzle(kind: Theme, seed: int, row: tuple[Value, ...]) -> LinePuzzle | None:
    values = PlayValues(row, kind.rules)
    strategy = get(kind.tempting)
    position = Position.start(row, rules=kind.rules)
    lowest = position.rules.lowest_wins
    typical = typical_coin(row)
    steps: list[PuzzleStep] = []
    first_miss: tuple[Value, str] | None = None
    best_total: Value = 0
    mine: Value = 0  # what the solver took so far
    for number in range(kind.moves):
        best = values.moves_of(position)
        legal = position.legal_moves()
        if len(best) != 1 or len(legal) < 2:
            return None  # each move to find is the only best one, among a real choice
        tempting = str(strategy(position))
        finals = {move: _final_total(values, position, move, mine) for move in legal}
        why = tuple((move, _why(position, values, move, best[0], finals)) for move in legal
                    if move != best[0])  # fmt: skip
        if tempting != best[0] and kind.tempting == "greedy" and _equal_ends(position):
            return None  # equal ends tempt neither way
        if first_miss is None and tempting != best[0]:
            with exact_arithmetic():
                worse, better = finals[tempting], finals[best[0]]
                loss = worse - better if lowest else better - worse
            first_miss = (loss, label_for(loss, typical))
        best_total = finals[best[0]]
        after = position.play(best[0])
        last = number == kind.moves - 1 or after.is_over
        reply = None if last or after.is_over else str(values.moves_of(after)[0])
        steps.append(PuzzleStep(_ply(position), str(best[0]), tempting, reply, why))
        if reply is None:
            break
        with exact_arithmetic():
            mine = mine + sum(row[k] for k in position.indices_of(best[0]))
        position = after.play(reply)
    if first_miss is None or len(steps) < kind.moves or first_miss[1] == "best":
        return None
    loss, grade = first_miss
    rating = puzzle_rating(moves=len(steps), grade=grade, theme=kind.name)
    return LinePuzzle(kind.name, seed, kind.rules, row, kind.tempting, tuple(steps), loss,
                      grade, best_total, rating)  # fmt: skip


def _equal_ends(position: Position) -> bool:
    return bool(position.coins[position.lo] == position.coins[position.hi])


def _ply(position: Position) -> int:
    """Moves played to reach a position of single-coin moves (O(1))."""
    return len(position.coins) - len(position.remaining)


def _final_total(values: PlayValues, position: Position, move: str, mine: Value) -> Value:
    """The solver's final total after ``move``: what they took before (``mine``), the move's
    coins, then best play by both (O(1) after the values' table)."""
    after = position.play(move)
    with exact_arithmetic():
        total = mine + sum(position.coins[k] for k in position.indices_of(move))
        return total if after.is_over else total + values.totals_of(after)[position.seat]


def _coin_words(position: Position, move: str) -> str:
    """ "the 8 (left)": the coins a move takes, and from which end."""
    coins = " ".join(str(json_value(position.coins[k])) for k in position.indices_of(move))
    side = {"L": "left", "R": "right"}.get(move, move)
    return f"the {coins} ({side})"


def _why(
    position: Position, values: PlayValues, move: str, best: str, finals: dict[str, Value]
) -> str:
    """Why ``move`` is worse than ``best`` here, in words: the computer's best answer to it,
    and the solver's final totals after each (O(1) after the values' table)."""
    after = position.play(move)
    total, better = json_value(finals[move]), json_value(finals[best])
    lowest = position.rules.lowest_wins
    if after.is_over:
        answer = ""
    else:
        reply = values.moves_of(after)[0]
        answer = f" lets the computer take {_coin_words(after, reply)}, and"
    if lowest:
        return (
            f"Taking {_coin_words(position, move)}{answer} you end with {total} at least, "
            f"against {better} after taking {_coin_words(position, best)} (under misère the "
            f"smaller total wins)."
        )
    return (
        f"Taking {_coin_words(position, move)}{answer} you finish with {total} at best, "
        f"against {better} after taking {_coin_words(position, best)}."
    )


def daily_themed_puzzle(day: datetime.date | None = None) -> LinePuzzle:
    """The daily puzzle of several moves (default: today in UTC), the same for everyone: the
    themes take turns by day, the seed is :func:`daily_seed` (O(puzzle)).

    >>> daily_themed_puzzle(datetime.date(2026, 11, 23)).id
    'variant-rules:20261123'
    """
    if day is None:
        day = datetime.datetime.now(datetime.UTC).date()
    names = list(THEMES)
    return themed_puzzle(names[day.toordinal() % len(names)], daily_seed(day))
