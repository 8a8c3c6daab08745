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

from .counterexamples import Counterexample, check_row, strays, worst_line
from .engines.dispatch import kernels_available
from .errors import InvalidOptionError, concerning
from .numbers import Value, coerce_coins, json_fields, parse_coins
from .rules import PLAIN, Rules, coerce_rules
from .strategies import get

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
            **json_fields(
                self,
                omit={"complete", "rules"},
                order=("strategy", "searched", "found", "counterexamples"),
                capped=self.capped,
                interrupted=self.interrupted,
            ),
        }


def parse_alphabet(text: str) -> tuple[Value, ...]:
    """Distinct coin values of an alphabet such as ``"1,2,3"``, sorted (O(k log k)).

    >>> parse_alphabet("3, 1,2,1")
    (1, 2, 3)
    """
    with concerning("alphabet"):
        values = tuple(sorted(set(parse_coins(text))))
    if not values:
        raise InvalidOptionError(
            "the alphabet is empty: give values such as 1,2,3", parameter="alphabet"
        )
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
            raise InvalidOptionError(
                f"the longest row searched must be >= 1, got {max_length}",
                parameter="max_length",
            )
        if not 0 <= limit <= MAX_KEPT:
            raise InvalidOptionError(
                f"a search stops after 1 to {MAX_KEPT:,} counterexamples (0: counts them all "
                f"and keeps the first {MAX_KEPT:,}), got {limit:,}",
                parameter="limit",
            )
        with concerning("alphabet"):
            values = tuple(sorted(set(coerce_coins(alphabet))))
        if not values:
            raise InvalidOptionError(
                "the alphabet is empty: give values such as 1,2,3", parameter="alphabet"
            )
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
                job = Job(
                    family, strategies=(self.name,), examples=wanted,
                    shard_rows=COMPILED_SHARD_ROWS,
                )  # fmt: skip
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


__all__ = [
    "COMPILED_SHARD_ROWS",
    "MAX_KEPT",
    "MAX_SEARCH_LENGTH",
    "MAX_SEARCH_ROWS",
    "ROWS_PER_SECOND",
    "SEARCH_SECONDS",
    "Counterexample",  # defined in coinrow.counterexamples, shared with the census
    "RefuteResult",
    "Search",
    "check_row",
    "parse_alphabet",
    "refute",
    "rows_up_to",
    "search_cap",
    "search_length",
    "strays",
    "worst_line",
]
