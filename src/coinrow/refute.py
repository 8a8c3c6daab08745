"""Counterexample search: the smallest rows on which a strategy is not optimal.

:func:`refute` searches every row over an alphabet, shortest first, for rows where a strategy
playing first against an optimal opponent ends below the optimal first total;
:func:`check_row` checks one row. :class:`Search` runs the same search in steps, so a caller
can show progress and stop with what was found so far.

Built-in strategies with a compiled version (see :mod:`coinrow.census.compiled`) over int
alphabets search with the census machinery: the rows, shortest first, are the census family
:class:`~coinrow.census.WordsUpTo`, searched shard by shard by the compiled column scans
(each counterexample is then rebuilt, lines included, by :func:`check_row`). Other
strategies, and alphabets of other numbers, are played through Python, row by row. How long a
search may get follows from the measured speed of its path: :data:`SEARCH_SECONDS` of one
core at :data:`ROWS_PER_SECOND`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engines import reduction
from .engines.variants import join_moves
from .errors import IllegalMoveError, InvalidOptionError
from .game import MOVES, Game, Position
from .numbers import Value, coerce_coins, exact_arithmetic, json_value, parse_coins, zero_like
from .play_values import PlayValues
from .rules import PLAIN, Rules, coerce_rules
from .strategies import Strategy, get, play_values
from .subgames import Subgames

#: Seconds of one core a search may take: longer searches are cut at a shorter maximum
#: length, from the measured speed of the search's path.
SEARCH_SECONDS = 120

#: Rows per second of one core, measured on this project's machine kind (docs/census.md):
#: the compiled census path (one built-in strategy, rows of up to 20 coins, prefix-shared
#: column scans) and the Python path (rows of about 12 coins).
#: Searches under other rules run through Python at about 900 (take:2) to 1,500 (reply)
#: rows of up to 6 or 7 coins per second.
ROWS_PER_SECOND = {"compiled": 3_000_000, "python": 7_000, "rules": 1_000}

#: Most rows a search played through Python covers (SEARCH_SECONDS at its measured speed).
MAX_SEARCH_ROWS = SEARCH_SECONDS * ROWS_PER_SECOND["python"]

#: Longest rows a search tries (the census's limit too): over one or two values the row
#: count alone would allow rows of millions of coins, each costing far more than the
#: measured rows/s assume.
MAX_SEARCH_LENGTH = 512

#: Rows of one compiled shard (a kernel call) of a search.
COMPILED_SHARD_ROWS = 1 << 16

#: Most counterexamples a search keeps (each is rebuilt, lines included, through Python,
#: so keeping them all could cost far more than the search): a search for all of them
#: (``limit=0``) counts every one and keeps the first ones; ``limit`` is at most this.
MAX_KEPT = 1000

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Counterexample:
    """A row where the strategy, first against an optimal opponent, ends below the optimum.

    Under other ``rules`` the totals are what the rules score (Stone Game VII's points) and
    ``shortfall`` is what the strategy lost in what it plays for (:attr:`loss`): its total,
    its excess in the misère game, its points margin in Stone Game VII."""

    coins: tuple[Value, ...]
    strategy_total: Value
    optimal_total: Value
    strategy_line: str
    optimal_line: str
    rules: Rules = field(default=PLAIN, kw_only=True, repr=False)
    shortfall: Value | None = field(default=None, kw_only=True, repr=False)

    @property
    def loss(self) -> Value:
        """How much below the optimal first total the strategy ended (O(1))."""
        if self.shortfall is not None:
            return self.shortfall
        with exact_arithmetic():
            return self.optimal_total - self.strategy_total

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n)); under other rules also ``rules``."""
        extra = {} if self.rules.is_plain else {"rules": str(self.rules)}
        return {
            **extra,
            "coins": [json_value(coin) for coin in self.coins],
            "strategy_total": json_value(self.strategy_total),
            "optimal_total": json_value(self.optimal_total),
            "loss": json_value(self.loss),
            "strategy_line": self.strategy_line,
            "optimal_line": self.optimal_line,
        }


def worst_line(
    coins: Sequence[object], strategy: Strategy, subgames: Subgames | None = None
) -> tuple[Value, str]:
    """The strategy's total and line, playing first, against the optimal opponent that hurts
    it most: the opponent only makes optimal moves, and where several are optimal every one
    is tried. O(r) strategy calls and table look-ups for the r reachable positions (at most
    O(n^2)); no recursion, so long rows work.

    >>> worst_line([3, 2, 2, 3, 1, 2], get("greedy"))
    (7, 'LLLLRL')
    """
    sub = subgames if subgames is not None else Subgames(coins)
    row, n = sub.coins, len(sub.coins)
    # best[(lo, hi)]: the strategy's total from the coins lo..hi, and the move made there.
    best: dict[tuple[int, int], tuple[Value, str]] = {}
    stack = [(0, n - 1)]
    with exact_arithmetic():
        while stack:
            lo, hi = stack[-1]
            if (lo, hi) in best:
                stack.pop()
                continue
            if lo > hi:
                best[lo, hi] = (sub.zero, "")
                stack.pop()
                continue
            strategy_turn = (n - (hi - lo + 1)) % 2 == 0
            moves = _strategy_move(strategy, row, lo, hi) if strategy_turn else sub.moves_of(lo, hi)
            children = [(lo + 1, hi) if move == "L" else (lo, hi - 1) for move in moves]
            missing = [child for child in children if child not in best]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            if strategy_turn:
                coin = row[lo] if moves == "L" else row[hi]
                best[lo, hi] = (coin + best[children[0]][0], moves)
            else:
                totals = [best[child][0] for child in children]
                choice = totals.index(min(totals))
                best[lo, hi] = (totals[choice], moves[choice])
    line, lo, hi = [], 0, n - 1
    while lo <= hi:
        move = best[lo, hi][1]
        line.append(move)
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
    return best[0, n - 1][0], "".join(line)


def _strategy_move(strategy: Strategy, row: tuple[Value, ...], lo: int, hi: int) -> str:
    move = strategy(Position(row, lo, hi))
    if move not in MOVES:
        raise IllegalMoveError(f"the strategy returned {move!r}; a strategy returns 'L' or 'R'")
    return move


def strays(coins: Sequence[object], strategy: Strategy, subgames: Subgames | None = None) -> bool:
    """True when the strategy, first against some optimal opponent, makes a non-optimal move.

    Exactly when :func:`worst_line` ends below the optimal first total: optimal moves keep
    both players' guarantees, and after a losing move the optimal opponent holds the strategy
    below its new guarantee. A quick filter: each reachable position is visited once and the
    search stops at the first stray move (O(r) for the r reachable positions).

    >>> strays((3, 2, 2, 3, 1, 2), get("greedy")), strays((3, 2, 2, 3, 1, 2), get("optimal"))
    (True, False)
    """
    sub = subgames if subgames is not None else Subgames(coins)
    row, n = sub.coins, len(sub.coins)
    seen: set[tuple[int, int]] = set()
    stack = [(0, n - 1)]
    while stack:
        lo, hi = stack.pop()
        if lo > hi or (lo, hi) in seen:
            continue
        seen.add((lo, hi))
        moves = sub.moves_of(lo, hi)
        if (n - (hi - lo + 1)) % 2 == 0:  # the strategy's turn
            move = _strategy_move(strategy, row, lo, hi)
            if move not in moves:
                return True
            moves = move
        if "L" in moves:
            stack.append((lo + 1, hi))
        if "R" in moves:
            stack.append((lo, hi - 1))
    return False


def check_row(
    coins: Sequence[object], strategy: Strategy, *, rules: Rules | str | None = None
) -> Counterexample | None:
    """The counterexample this row gives, or None when the strategy gets the optimal first
    total against every optimal opponent (:func:`strays`, then :func:`worst_line` for the
    report).

    >>> check_row([2, 1, 2, 3, 3, 3], get("thibault")).strategy_total
    7
    >>> check_row([2, 1, 2, 3, 3, 3], get("optimal")) is None
    True

    Under other ``rules`` (Python, by :func:`worst_line_under`): the strategy plays the
    first seat against opponents who make only optimal moves (every one tried; under
    ``reply:S`` the second seat is S, under ``players:P`` the other seats play best).

    >>> example = check_row([2, 1, 2, 2], get("greedy", rules="misere"), rules="misere")
    >>> example.strategy_total, example.optimal_total, example.loss, example.strategy_line
    (4, 3, 1, 'LLLL')
    """
    chosen = coerce_rules(rules)
    if not chosen.is_plain:
        return _check_row_under(coins, strategy, chosen)
    row = tuple(coerce_coins(coins))
    if not row:
        return None
    sub = Subgames(row)
    if not strays(row, strategy, sub):
        return None
    total, line = worst_line(row, strategy, sub)
    optimal_total = sub.value_of(0, len(row) - 1)
    if total >= optimal_total:
        return None
    with exact_arithmetic():
        optimal_line = sub.table.line if sub.table else reduction.optimal_line(row)
    return Counterexample(row, total, optimal_total, line, optimal_line)


def _aim(rules: Rules, totals: Sequence[Value]) -> Value:
    """What the first seat plays for, from everyone's totals."""
    if rules.kind == "misere":
        return -totals[0]
    if rules.kind == "stone-game-vii":
        return totals[0] - totals[1]
    return totals[0]


def worst_line_under(
    coins: Sequence[object], strategy: Strategy, rules: Rules | str, values: PlayValues
) -> tuple[tuple[Value, ...], tuple[str, ...]]:
    """Every player's totals and the line when the strategy plays the first seat under the
    rules and the others make only optimal moves, the ones that hurt it most
    (:meth:`~coinrow.game.Position.best_moves`, every one tried). O(r) strategy calls and
    value queries for the r reachable positions; no recursion.

    >>> from coinrow.strategies import play_values
    >>> worst_line_under([1, 2, 3, 4], get("greedy", rules="take:2"), "take:2",
    ...                  play_values([1, 2, 3, 4], "take:2"))
    ((7, 3), ('R2', 'L2'))
    """
    chosen = coerce_rules(rules)
    start = Position.start(coins, rules=chosen)
    row = start.coins
    zero = zero_like(list(row[:1]))
    best: dict[Position, tuple[tuple[Value, ...], str, Position | None]] = {}
    stack = [start]
    with exact_arithmetic():
        while stack:
            position = stack[-1]
            if position in best:
                stack.pop()
                continue
            if position.is_over:
                best[position] = ((zero,) * chosen.players, "", None)
                stack.pop()
                continue
            if position.seat == 0:
                moves: tuple[str, ...] = (_legal(position, strategy(position)),)
            else:
                moves = position.best_moves(values=values)
            children = [position.play(move) for move in moves]
            missing = [child for child in children if child not in best]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            options = []
            for move, child in zip(moves, children, strict=True):
                if chosen.kind == "stone-game-vii":
                    gain = sum(child.remaining, zero)
                else:
                    gain = sum((row[index] for index in position.indices_of(move)), zero)
                totals = list(best[child][0])
                totals[position.seat] += gain
                options.append((tuple(totals), move, child))
            best[position] = min(options, key=lambda option: _aim(chosen, option[0]))
    line, here = [], best[start]
    while here[2] is not None:
        line.append(here[1])
        here = best[here[2]]
    return best[start][0], tuple(line)


def _legal(position: Position, move: str) -> str:
    try:
        return position.move_text(move)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"the strategy returned an illegal move: {error}") from None


def _check_row_under(
    coins: Sequence[object], strategy: Strategy, rules: Rules
) -> Counterexample | None:
    row = tuple(coerce_coins(coins))
    if not row:
        return None
    values = play_values(row, rules)
    totals, line = worst_line_under(row, strategy, rules, values)
    optimal = Position.start(row, rules=rules).best_totals(values=values)
    with exact_arithmetic():
        shortfall = _aim(rules, optimal) - _aim(rules, totals)
    if shortfall <= 0:
        return None
    game = Game(row, rules=rules)
    while not game.position.is_over:
        game.push(game.best_moves(values=values)[0])
    return Counterexample(
        row,
        totals[0],
        optimal[0],
        join_moves(line),
        game.line,
        rules=rules,
        shortfall=shortfall,
    )


@dataclass
class RefuteResult:
    """What a search found: the rows searched so far, how many of them are counterexamples
    (``found``), and the first of those (``counterexamples``, at most :data:`MAX_KEPT`)."""

    strategy: str
    alphabet: tuple[Value, ...]
    max_length: int
    requested_length: int
    searched: int = 0
    counterexamples: list[Counterexample] = field(default_factory=list)
    complete: bool = False
    found: int = 0
    rules: Rules = PLAIN

    @property
    def capped(self) -> bool:
        """True when the search was cut to a shorter maximum length (O(1))."""
        return self.max_length < self.requested_length

    @property
    def interrupted(self) -> bool:
        """True when the search stopped before its end (O(1))."""
        return not self.complete

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``strategy``, ``searched``, ``found`` (counterexamples counted),
        ``counterexamples`` (the first ones kept) and the bounds; under other rules also
        ``rules``."""
        extra = {} if self.rules.is_plain else {"rules": str(self.rules)}
        return {
            **extra,
            "strategy": self.strategy,
            "searched": self.searched,
            "found": self.found,
            "counterexamples": [example.to_dict() for example in self.counterexamples],
            "alphabet": [json_value(value) for value in self.alphabet],
            "max_length": self.max_length,
            "requested_length": self.requested_length,
            "capped": self.capped,
            "interrupted": self.interrupted,
        }


def parse_alphabet(text: str) -> tuple[Value, ...]:
    """Distinct coin values of an alphabet such as ``"1,2,3"``, sorted (O(k log k)).

    >>> parse_alphabet("3, 1,2,1")
    (1, 2, 3)
    """
    values = tuple(sorted(set(parse_coins(text))))
    if not values:
        raise InvalidOptionError("the alphabet is empty: give values such as 1,2,3")
    return values


def rows_up_to(size: int, length: int) -> int:
    """Number of rows of length 1..length over an alphabet of ``size`` values (O(length)).

    >>> rows_up_to(4, 6)
    5460
    """
    return sum(size**k for k in range(1, length + 1))


def search_length(size: int, length: int, cap: int = MAX_SEARCH_ROWS) -> int:
    """The longest length <= ``length`` (and <= :data:`MAX_SEARCH_LENGTH`) whose search
    stays within ``cap`` rows (O(min(length, MAX_SEARCH_LENGTH))).

    >>> search_length(3, 12), search_length(3, 13), search_length(10, 8), search_length(1, 10**9)
    (12, 12, 5, 512)
    """
    best, rows, power = 0, 0, 1
    for k in range(1, min(length, MAX_SEARCH_LENGTH) + 1):
        power *= size
        rows += power
        if rows > cap:
            break
        best = k
    return best


class Search:
    """A counterexample search run in steps: :meth:`run` yields the number of rows checked
    since its last yield (every 1000 rows), and :attr:`result` always holds what was found
    so far.

    Rows are searched by length, then lexicographically by value, for the first ``limit``
    counterexamples (at most :data:`MAX_KEPT`; ``limit=0``: all of them, every one counted
    in :attr:`RefuteResult.found` and the first :data:`MAX_KEPT` kept) to ``strategy``
    playing first. The search stops
    at the longest length within ``cap`` rows (see :attr:`RefuteResult.capped`); by default
    the rows :data:`SEARCH_SECONDS` of one core check on the search's path (``compiled``:
    a built-in strategy with a compiled version, int values, the ``fast`` extra installed).

    >>> search = Search("greedy", [1, 2, 3, 5], 6)
    >>> sum(search.run()), search.result.counterexamples[0].coins
    (94, (1, 1, 3, 2))

    Under other ``rules`` (keyword-only) the search runs through Python (:func:`check_row`
    with the rules), whatever the strategy, at the measured ``ROWS_PER_SECOND["rules"]``.

    >>> search = Search("greedy", [0, 1, 2], 5, rules="both-ends")
    >>> sum(search.run()), search.result.counterexamples[0].coins
    (47, (0, 0, 2, 1))
    """

    def __init__(
        self,
        strategy: str,
        alphabet: Sequence[object],
        max_length: int,
        limit: int = 1,
        cap: int | None = None,
        *,
        rules: Rules | str | None = None,
    ) -> None:
        if max_length < 1:
            raise InvalidOptionError(f"the longest row searched must be >= 1, got {max_length}")
        if not 0 <= limit <= MAX_KEPT:
            raise InvalidOptionError(
                f"a search stops after 1 to {MAX_KEPT:,} counterexamples (0: counts them all "
                f"and keeps the first {MAX_KEPT:,}), got {limit:,}"
            )
        values = tuple(sorted(set(coerce_coins(alphabet))))
        if not values:
            raise InvalidOptionError("the alphabet is empty: give values such as 1,2,3")
        self.name = strategy
        self.rules = coerce_rules(rules)
        self.strategy = get(strategy, seed=0, rules=self.rules)
        self.limit = limit
        plain = self.rules.is_plain
        self.compiled = plain and _compiled_search(strategy, values, max_length)
        if cap is None:
            cap = search_cap(self.compiled) if plain else SEARCH_SECONDS * ROWS_PER_SECOND["rules"]
        self.cap = cap
        length = search_length(len(values), max_length, self.cap)
        if length == 0:
            raise InvalidOptionError(
                f"even rows of length 1 over {len(values)} values exceed the cap of {self.cap} rows"
            )
        self.result = RefuteResult(strategy, values, length, max_length, rules=self.rules)

    @property
    def total_rows(self) -> int:
        """Rows the whole search covers (O(length))."""
        return rows_up_to(len(self.result.alphabet), self.result.max_length)

    def run(self, batch: int = 1000) -> Iterator[int]:
        """Search, yielding the rows checked every ``batch`` rows and at the end (compiled:
        O(n) amortised per row of n coins, see :mod:`coinrow.census.kernels`; Python: O(n^2)
        per row for its table plus :func:`worst_line`)."""
        if self.compiled:
            yield from self._run_compiled(batch)
            return
        result, pending = self.result, 0
        for size in range(1, result.max_length + 1):
            for row in itertools.product(result.alphabet, repeat=size):
                result.searched += 1
                pending += 1
                example = check_row(row, self.strategy, rules=self.rules)
                if example is not None:
                    result.found += 1
                    if len(result.counterexamples) < MAX_KEPT:
                        result.counterexamples.append(example)
                    if self.limit and result.found == self.limit:
                        result.complete = True
                        yield pending
                        return
                if pending == batch:
                    yield pending
                    pending = 0
        result.complete = True
        if pending:
            yield pending

    def _run_compiled(self, batch: int) -> Iterator[int]:
        """The same search (same rows, order, counts and yields) by the census kernels, in
        shards of :data:`COMPILED_SHARD_ROWS` rows of one length."""
        from .census.families import Shard, Words, WordsUpTo
        from .census.shards import Job, run_shard

        result = self.result
        family = WordsUpTo.of(result.alphabet, result.max_length)
        self._pending = 0
        start = 0
        for length in range(1, result.max_length + 1):
            words = Words(family.alphabet, length)
            for shard in words.shards(COMPILED_SHARD_ROWS, start):
                wanted = (self.limit or MAX_KEPT) - len(result.counterexamples)
                job = Job(family, (self.name,), wanted, False, COMPILED_SHARD_ROWS)
                tally = run_shard(
                    job, Shard(shard.key, shard.start, shard.count, length, shard.first)
                ).strategies[0]
                if not self.limit:  # every counterexample of the shard counts
                    result.found += shard.count - tally.optimal
                cursor = shard.start
                for example in tally.examples:
                    yield from self._advance(example.index - cursor, batch)
                    cursor = example.index + 1
                    result.searched += 1
                    self._pending += 1
                    result.counterexamples.append(example.counterexample)
                    if self.limit:
                        result.found += 1
                    if self.limit and result.found == self.limit:
                        result.complete = True
                        yield self._pending
                        return
                    if self._pending == batch:
                        yield self._pending
                        self._pending = 0
                yield from self._advance(shard.start + shard.count - cursor, batch)
            start += words.rows
        result.complete = True
        if self._pending:
            yield self._pending

    def _advance(self, rows: int, batch: int) -> Iterator[int]:
        """Count ``rows`` more rows checked, yielding every ``batch``."""
        while rows > 0:
            step = min(rows, batch - self._pending)
            self.result.searched += step
            self._pending += step
            rows -= step
            if self._pending == batch:
                yield self._pending
                self._pending = 0


def _compiled_search(strategy: str, values: tuple[Value, ...], max_length: int) -> bool:
    """True when the search can run on the census kernels (O(1))."""
    from .engines.dispatch import kernels_available

    if not all(type(value) is int for value in values) or not kernels_available():
        return False
    from .census.compiled import compiled
    from .census.families import INT64_SAFE_LIMIT

    if max(abs(value) for value in values) * max_length >= INT64_SAFE_LIMIT:
        return False
    return compiled(strategy, max_length) is not None


def search_cap(compiled: bool) -> int:
    """Most rows a search checks by default: :data:`SEARCH_SECONDS` of one core at the
    measured speed of its path (O(1)).

    >>> search_cap(False) == MAX_SEARCH_ROWS, search_cap(True) > 100 * MAX_SEARCH_ROWS
    (True, True)
    """
    return int(SEARCH_SECONDS * ROWS_PER_SECOND["compiled" if compiled else "python"])


def refute(
    strategy: str,
    alphabet: Sequence[object],
    max_length: int,
    limit: int = 1,
    progress: Progress | None = None,
    cap: int | None = None,
    *,
    rules: Rules | str | None = None,
) -> RefuteResult:
    """Run a whole :class:`Search` and return its result; ``progress`` is called with the
    number of rows checked since its last call. Complexity: the rows searched, each O(n)
    amortised on the compiled path, O(n^2) for its table plus :func:`worst_line` on the
    Python path.

    >>> result = refute("greedy", [1, 2, 3, 5], 6)
    >>> [result.counterexamples[0].coins, result.searched]
    [(1, 1, 3, 2), 94]
    """
    search = Search(strategy, alphabet, max_length, limit, cap, rules=rules)
    for checked in search.run():
        if progress is not None:
            progress(checked)
    return search.result
