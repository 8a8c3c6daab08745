"""Studying strategies: tournaments over random rows, and counterexample search.

:func:`tournament` plays every pair of strategies on the same random rows in both seat orders
and reports win/tie/loss rates, mean margins and mean regret (the points a strategy's own moves
gave away, from :func:`~coinrow.analysis.analyze`). :func:`refute` searches every row over an
alphabet, shortest first, for rows where a strategy playing first against an optimal opponent
ends below the optimal first total; :func:`check_row` checks one row.
"""

from __future__ import annotations

import itertools
import random
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .analysis import analyze, subgames_of
from .engines import reduction
from .errors import CoinrowError, IllegalMoveError, InvalidOptionError
from .game import MOVES, Position
from .numbers import Value, coerce_coins, exact_arithmetic, json_value, parse_coins
from .strategies import Strategy, get, play

#: Most rows :func:`refute` searches; longer searches are cut at a shorter maximum length.
MAX_SEARCH_ROWS = 1_000_000

_RANGE = re.compile(r"\s*([+-]?\d+)\s*(?:-|\.\.)\s*([+-]?\d+)\s*")

Progress = Callable[[int], None]


@dataclass(frozen=True)
class ValueSpec:
    """How random coins are drawn: uniform integers ``low..high``, or uniform over ``choices``.

    >>> ValueSpec.parse("1-9"), ValueSpec.parse("1,2,5").choices
    (ValueSpec(text='1-9', low=1, high=9, choices=()), (1, 2, 5))
    """

    text: str
    low: int = 0
    high: int = 0
    choices: tuple[Value, ...] = ()

    @classmethod
    def parse(cls, text: str) -> ValueSpec:
        """Parse ``"A-B"`` or ``"A..B"`` (integers, inclusive) or a list ``"1,2,3.5"`` (O(len))."""
        match = _RANGE.fullmatch(text)
        if match:
            low, high = int(match[1]), int(match[2])
            if low > high:
                raise InvalidOptionError(f"empty value range {text!r}: {low} > {high}")
            return cls(text, low, high)
        try:
            choices = tuple(parse_coins(text))
        except CoinrowError as error:
            raise InvalidOptionError(
                f"values {text!r}: give a range such as 1-9 or a list such as 1,2,3,5 ({error})"
            ) from None
        if not choices:
            raise InvalidOptionError("no coin values given: use a range such as 1-9 or a list")
        return cls(text, choices=choices)

    def row(self, n: int, rng: random.Random) -> list[Value]:
        """A random row of ``n`` coins (O(n)).

        >>> ValueSpec.parse("1-9").row(5, random.Random(0))
        [7, 7, 1, 5, 9]
        """
        if self.choices:
            return coerce_coins(rng.choice(self.choices) for _ in range(n))
        return [rng.randint(self.low, self.high) for _ in range(n)]


def random_row(n: int, values: str = "1-9", seed: int | None = None) -> list[Value]:
    """A random row of ``n`` coins drawn by a :class:`ValueSpec` text (O(n)).

    >>> random_row(6, "1-9", seed=1)
    [3, 2, 5, 2, 8, 8]
    """
    if n < 0:
        raise InvalidOptionError(f"the number of coins must be >= 0, got {n}")
    return ValueSpec.parse(values).row(n, random.Random(seed))


@dataclass
class PairResult:
    """Games between ``strategy`` and ``opponent`` (both seat orders), seen from ``strategy``.

    Sums are exact; the means and rates are floats for reporting."""

    strategy: str
    opponent: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    margin_sum: Value = 0
    regret_sum: Value = 0
    opponent_regret_sum: Value = 0

    def _mean(self, total: Value) -> float:
        return float(Fraction(total) / self.games) if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        """Mean of (strategy's total - opponent's total) (O(1))."""
        return self._mean(self.margin_sum)

    @property
    def mean_regret(self) -> float:
        """Mean points the strategy's own moves gave away against optimal play (O(1))."""
        return self._mean(self.regret_sum)

    @property
    def opponent_mean_regret(self) -> float:
        """Mean points the opponent's own moves gave away (O(1))."""
        return self._mean(self.opponent_regret_sum)

    def rate(self, count: int) -> float:
        """``count`` as a share of the games (O(1))."""
        return count / self.games if self.games else 0.0

    def add(self, margin: Value, regret: Value, opponent_regret: Value) -> None:
        """Count one game (O(1))."""
        self.games += 1
        if margin > 0:
            self.wins += 1
        elif margin < 0:
            self.losses += 1
        else:
            self.ties += 1
        with exact_arithmetic():
            self.margin_sum += margin
            self.regret_sum += regret
            self.opponent_regret_sum += opponent_regret

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1)); ``opponent`` is absent from a standings row."""
        data: dict[str, Any] = {"strategy": self.strategy}
        if self.opponent:
            data["opponent"] = self.opponent
        data.update(
            games=self.games,
            wins=self.wins,
            ties=self.ties,
            losses=self.losses,
            win_rate=self.rate(self.wins),
            tie_rate=self.rate(self.ties),
            loss_rate=self.rate(self.losses),
            mean_margin=self.mean_margin,
            mean_regret=self.mean_regret,
        )
        if self.opponent:
            data["opponent_mean_regret"] = self.opponent_mean_regret
        return data


@dataclass
class TournamentResult:
    """Every pair's results and each strategy's standing over all its games."""

    strategies: list[str]
    rows: int
    n: int
    values: str
    seed: int
    pairs: list[PairResult]
    standings: list[PairResult]
    rows_played: int = 0
    interrupted: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(pairs))."""
        return {
            "strategies": self.strategies,
            "games_per_pair": 2 * self.rows_played,
            "rows": self.rows_played,
            "n": self.n,
            "values": self.values,
            "seed": self.seed,
            "interrupted": self.interrupted,
            "pairs": [pair.to_dict() for pair in self.pairs],
            "standings": [standing.to_dict() for standing in self.standings],
        }


def _stable_seed(*parts: object) -> int:
    """A seed from text, the same in every process (unlike ``hash``)."""
    return zlib.crc32(":".join(map(str, parts)).encode())


def tournament(
    names: Sequence[str],
    rows: int = 100,
    n: int = 10,
    values: str = "1-9",
    seed: int = 0,
    progress: Progress | None = None,
) -> TournamentResult:
    """Play every pair of the named strategies on ``rows`` random rows of ``n`` coins, each
    row in both seat orders (so ``2 * rows`` games per pair).

    Every pair meets on the same rows. Each (pair, seat order) gets fresh strategy objects
    seeded from ``seed`` and the names, so results are reproducible and do not depend on which
    other strategies take part. Regret is the total loss of a player's own moves
    (:func:`~coinrow.analysis.analyze`). ``progress`` is called with 1 after each row.
    Ctrl-C stops after the last finished row and marks the result ``interrupted``.

    Complexity: rows x pairs x 2 games, each O(n) strategy calls plus an O(n) analysis after
    one O(n^2) table per row (n <= 512, int rows n <= 8000; longer rows: O(n) per move,
    O(n^2) per game).

    >>> result = tournament(["optimal", "greedy"], rows=20, n=6, seed=1)
    >>> pair = result.pairs[0]
    >>> pair.games, pair.wins, pair.ties, pair.losses, pair.mean_regret, pair.opponent_mean_regret
    (40, 19, 4, 17, 0.0, 0.125)
    """
    names = [name.strip() for name in names]
    if len(names) < 2:
        raise InvalidOptionError("compare needs at least two strategies")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise InvalidOptionError(f"strategy given twice: {', '.join(repeated)}")
    if rows < 1:
        raise InvalidOptionError(f"the number of games must be >= 1, got {rows}")
    if n < 1:
        raise InvalidOptionError(f"the number of coins must be >= 1, got {n}")
    spec = ValueSpec.parse(values)
    for name in names:
        get(name, seed=0)  # fail early on unknown names
    pairs = [PairResult(a, b) for a, b in itertools.combinations(names, 2)]
    result = TournamentResult(names, rows, n, values, seed, pairs, [])
    rng = random.Random(seed)
    try:
        for row_index in range(rows):
            coins = tuple(spec.row(n, rng))
            outcomes = [_meet(coins, pair, seed, row_index) for pair in pairs]
            for pair, games in zip(pairs, outcomes, strict=True):
                for game in games:
                    pair.add(*game)
            result.rows_played += 1
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        result.interrupted = True
    result.standings = _standings(names, pairs)
    return result


def _meet(
    coins: tuple[Value, ...], pair: PairResult, seed: int, row_index: int
) -> list[tuple[Value, Value, Value]]:
    """Both seat orders of one pair on one row: (margin, regret, opponent regret) for
    ``pair.strategy``."""
    subgames = subgames_of(coins)
    games = []
    for seat, (first, second) in enumerate(
        ((pair.strategy, pair.opponent), (pair.opponent, pair.strategy))
    ):
        seeds = [
            _stable_seed(seed, row_index, pair.strategy, pair.opponent, seat, k) for k in (0, 1)
        ]
        game = play(coins, get(first, seed=seeds[0]), get(second, seed=seeds[1]))
        analysis = analyze(coins, game.line, subgames)
        first_total, second_total = game.totals()
        with exact_arithmetic():
            margin = first_total - second_total
        regrets = (analysis.first.total_loss, analysis.second.total_loss)
        if seat == 0:
            games.append((margin, regrets[0], regrets[1]))
        else:
            games.append((-margin, regrets[1], regrets[0]))
    return games


def _standings(names: Sequence[str], pairs: Sequence[PairResult]) -> list[PairResult]:
    """Each strategy's results over all its games."""
    standings = []
    for name in names:
        total = PairResult(name, "")
        for pair in pairs:
            if name not in (pair.strategy, pair.opponent):
                continue
            own = pair.strategy == name
            total.games += pair.games
            total.wins += pair.wins if own else pair.losses
            total.losses += pair.losses if own else pair.wins
            total.ties += pair.ties
            with exact_arithmetic():
                total.margin_sum += pair.margin_sum if own else -pair.margin_sum
                total.regret_sum += pair.regret_sum if own else pair.opponent_regret_sum
                total.opponent_regret_sum += pair.opponent_regret_sum if own else pair.regret_sum
        standings.append(total)
    return standings


@dataclass(frozen=True)
class Counterexample:
    """A row where the strategy, first against an optimal opponent, ends below the optimum."""

    coins: tuple[Value, ...]
    strategy_total: Value
    optimal_total: Value
    strategy_line: str
    optimal_line: str

    @property
    def loss(self) -> Value:
        """How much below the optimal first total the strategy ended (O(1))."""
        with exact_arithmetic():
            return self.optimal_total - self.strategy_total

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n))."""
        return {
            "coins": [json_value(coin) for coin in self.coins],
            "strategy_total": json_value(self.strategy_total),
            "optimal_total": json_value(self.optimal_total),
            "loss": json_value(self.loss),
            "strategy_line": self.strategy_line,
            "optimal_line": self.optimal_line,
        }


def worst_line(coins: Sequence[object], strategy: Strategy) -> tuple[Value, str]:
    """The strategy's total and line, playing first, against the optimal opponent that hurts
    it most: the opponent only makes optimal moves, and where several are optimal every one
    is tried. O(r) strategy calls and table look-ups for the r reachable positions (at most
    O(n^2)); no recursion, so long rows work.

    >>> worst_line([3, 2, 2, 3, 1, 2], get("greedy"))
    (7, 'LLLLRL')
    """
    sub = subgames_of(tuple(coerce_coins(coins)))
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
            moves = _strategy_move(strategy, row, lo, hi) if strategy_turn else sub.moves(lo, hi)
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


def strays(coins: tuple[Value, ...], strategy: Strategy) -> bool:
    """True when the strategy, first against some optimal opponent, makes a non-optimal move.

    Exactly when :func:`worst_line` ends below the optimal first total: optimal moves keep
    both players' guarantees, and after a losing move the optimal opponent holds the strategy
    below its new guarantee. A quick filter: each reachable position is visited once and the
    search stops at the first stray move (O(r) for the r reachable positions).

    >>> strays((3, 2, 2, 3, 1, 2), get("greedy")), strays((3, 2, 2, 3, 1, 2), get("optimal"))
    (True, False)
    """
    sub = subgames_of(coins)
    row, n = sub.coins, len(sub.coins)
    seen: set[tuple[int, int]] = set()
    stack = [(0, n - 1)]
    while stack:
        lo, hi = stack.pop()
        if lo > hi or (lo, hi) in seen:
            continue
        seen.add((lo, hi))
        moves = sub.moves(lo, hi)
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


def check_row(coins: Sequence[object], strategy: Strategy) -> Counterexample | None:
    """The counterexample this row gives, or None when the strategy gets the optimal first
    total against every optimal opponent (:func:`strays`, then :func:`worst_line` for the
    report).

    >>> check_row([2, 1, 2, 3, 3, 3], get("thibault")).strategy_total
    7
    >>> check_row([2, 1, 2, 3, 3, 3], get("optimal")) is None
    True
    """
    row = tuple(coerce_coins(coins))
    if not row or not strays(row, strategy):
        return None
    total, line = worst_line(row, strategy)
    sub = subgames_of(row)
    optimal_total = sub.value(0, len(row) - 1)
    if total >= optimal_total:
        return None
    with exact_arithmetic():
        optimal_line = sub.table.line() if sub.table else reduction.optimal_line(row)
    return Counterexample(row, total, optimal_total, line, optimal_line)


@dataclass
class RefuteResult:
    """What :func:`refute` searched and found."""

    strategy: str
    alphabet: tuple[Value, ...]
    max_length: int
    requested_length: int
    searched: int = 0
    counterexamples: list[Counterexample] = field(default_factory=list)
    interrupted: bool = False

    @property
    def capped(self) -> bool:
        """True when the search was cut to a shorter maximum length (O(1))."""
        return self.max_length < self.requested_length

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``strategy``, ``searched``, ``counterexamples`` and the bounds."""
        return {
            "strategy": self.strategy,
            "searched": self.searched,
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
    """The longest length <= ``length`` whose search stays within ``cap`` rows (O(length)).

    >>> search_length(3, 12), search_length(3, 13), search_length(10, 8)
    (12, 12, 5)
    """
    best = 0
    for k in range(1, length + 1):
        if rows_up_to(size, k) > cap:
            break
        best = k
    return best


def refute(
    strategy: str,
    alphabet: Sequence[object],
    max_length: int,
    limit: int = 1,
    progress: Progress | None = None,
    cap: int = MAX_SEARCH_ROWS,
) -> RefuteResult:
    """Search every row over ``alphabet``, by length then lexicographically by value, for the
    first ``limit`` counterexamples (``limit=0``: all of them) to ``strategy`` playing first.

    The search stops at the longest length within ``cap`` rows (see ``capped``). ``progress``
    is called with the number of rows checked since its last call. Ctrl-C stops the search
    and keeps what was found (``interrupted``). Complexity: the rows searched, each
    O(n^2) for its table plus :func:`worst_line`.

    >>> result = refute("greedy", [1, 2, 3, 5], 6)
    >>> [result.counterexamples[0].coins, result.searched]
    [(1, 1, 3, 2), 94]
    """
    if max_length < 1:
        raise InvalidOptionError(f"--max-length must be >= 1, got {max_length}")
    if limit < 0:
        raise InvalidOptionError(f"--limit must be >= 0, got {limit}")
    values = tuple(sorted(set(coerce_coins(alphabet))))
    if not values:
        raise InvalidOptionError("the alphabet is empty: give values such as 1,2,3")
    chosen = get(strategy, seed=0)
    length = search_length(len(values), max_length, cap)
    if length == 0:
        raise InvalidOptionError(
            f"even rows of length 1 over {len(values)} values exceed the cap of {cap} rows"
        )
    result = RefuteResult(strategy, values, length, max_length)
    pending = 0
    try:
        for size in range(1, length + 1):
            for row in itertools.product(values, repeat=size):
                result.searched += 1
                pending += 1
                example = check_row(row, chosen)
                if example is not None:
                    result.counterexamples.append(example)
                    if len(result.counterexamples) == limit:
                        return result
                if progress is not None and pending == 1000:
                    pending = 0
                    progress(1000)
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        if progress is not None and pending:
            progress(pending)
    return result
