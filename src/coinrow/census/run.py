"""Planning and running a census: shards in this process, on a local Dask cluster, or on an
existing Dask scheduler; results combined into a :class:`CensusResult`."""

from __future__ import annotations

import bisect
import contextlib
import importlib.util
import itertools
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError, MissingExtraError, SchedulerError
from ..numbers import json_fields
from ..rules import PLAIN, Moves, Rules, moves_text, plain_moves
from ..strategies import distinct
from .families import (
    Compositions,
    Family,
    RandomRows,
    Shard,
    Words,
    approximate,
    check_shards,
    work_text,
)
from .shards import Example, Job, ShardResult, StrategyTally, default_shard_rows, run_shard
from .store import Ignored, Store
from .variants import VariantTally, census_rules, check_cost, compiled_path, rows_per_second
from .variants import default_shard_rows as variant_shard_rows

#: Most rows a census keeps one result for (``rows=True``, ``coinrow census --rows``).
ROWS_LIMIT = 1 << 24

#: Rows per second of one core (measured by benchmarks/test_census_bench.py; see
#: docs/census.md), used only to decide when a census is small enough to run in this
#: process rather than start a cluster, and by refute to size its searches.
RATES = {"stack": 6e7, "columns": 3e6, "python": 7e3}

#: Work (seconds of one core) below which ``workers=None`` runs in this process.
INLINE_SECONDS = 2.0

#: Seconds to wait for an existing scheduler, by default and at most.
CONNECT_TIMEOUT = 10
MAX_CONNECT_TIMEOUT = 86_400

#: Most counterexamples kept per strategy: each is rebuilt, lines included, through Python.
MAX_EXAMPLES = 10_000

#: Shards handed to a Dask cluster at a time, per worker: the rest wait in the lazy plan,
#: so a census of millions of shards never holds millions of futures.
SHARDS_IN_FLIGHT = 4

_EXTRA = ("numpy", "numba", "pyarrow", "distributed")

#: The progress callback of long work (docs/architecture.md#long-work): called with the
#: number of rows finished since its last call.
Progress = Callable[[int], None]


def require_extra(modules: Sequence[str] = _EXTRA) -> None:
    """Raise :class:`~coinrow.errors.MissingExtraError` unless the ``census`` extra's modules
    are installed (O(1), nothing imported)."""
    missing = [name for name in modules if not _installed(name)]
    if missing:
        raise MissingExtraError(f"the census needs {', '.join(missing)}", "census")


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a module set to None, or a broken package
        return False


@dataclass(kw_only=True)
class StrategySummary:
    """One strategy over the whole family (see :class:`~coinrow.census.shards.StrategyTally`)."""

    name: str
    compiled: bool
    rows: int
    optimal: int = 0
    regret_total: int = 0
    worst_regret: int = 0
    examples: list[Example] = field(default_factory=list)

    @property
    def counterexamples(self) -> int:
        """Rows where the strategy ends below the optimal first total (O(1))."""
        return self.rows - self.optimal

    @property
    def optimal_rate(self) -> float:
        """Share of rows where it gets the optimal first total (O(1))."""
        return self.optimal / self.rows if self.rows else 0.0

    @property
    def mean_regret(self) -> float:
        """Mean regret per row (O(1))."""
        return float(Fraction(self.regret_total, self.rows)) if self.rows else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(examples))."""
        return json_fields(
            self,
            omit={"name", "rows", "examples"},
            order=(
                "compiled",
                "optimal",
                "optimal_rate",
                "counterexamples",
                "regret_total",
                "mean_regret",
            ),
            optimal_rate=self.optimal_rate,
            counterexamples=self.counterexamples,
            mean_regret=self.mean_regret,
            examples=[
                {"index": example.label, **example.counterexample.to_dict()}
                for example in self.examples
            ],
        )


@dataclass(kw_only=True)
class CensusResult:
    """A whole family's census. ``histogram`` maps each margin (first player's total minus
    the second's, optimal play) to its number of rows; ``first_moves`` counts the rows per set
    of optimal first moves, a tuple of :class:`~coinrow.rules.Move` (``("L",)``, ``("R",)``,
    ``("L", "R")``; under other rules every set that occurs; in JSON keyed by the move texts
    separated by spaces, ``"L R"``) (``first_moves_by`` says whether they
    were counted row by row or, for families closed under reversal, from the rows where R is
    optimal: as many rows have only L as only R)."""

    family: Family
    rows: int
    histogram: dict[int, int]
    first_moves: dict[Moves, int]
    first_moves_by: str
    strategies: list[StrategySummary]
    shards: int
    computed: int
    reused: int
    seconds: float
    rows_computed: int
    out: Path | None = None
    recomputed: list[dict[str, str]] = field(default_factory=list)
    ignored_lines: list[Ignored] = field(default_factory=list)
    rules: str = str(PLAIN)
    variant: VariantTally | None = None

    @property
    def outcomes(self) -> dict[str, int]:
        """Rows the first player wins, ties and loses under optimal play (O(histogram));
        in the misère game the smaller total wins."""
        sign = -1 if Rules.parse(self.rules).lowest_wins else 1
        return {
            "first": sum(c for m, c in self.histogram.items() if sign * m > 0),
            "tie": self.histogram.get(0, 0),
            "second": sum(c for m, c in self.histogram.items() if sign * m < 0),
        }

    @property
    def rows_per_second(self) -> float:
        """Rows computed in this run per second of wall time (O(1))."""
        return self.rows_computed / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: family, rows, outcomes, margin_histogram ({"<margin>": rows}),
        first_moves, strategies (by name), shards (total, computed, reused, recomputed: the
        recorded shards computed again, each ``{"shard", "reason"}``, and ignored_lines: the
        manifest lines not used, each ``{"line", "reason"}``), seconds, rows_per_second, out,
        rules (their text form) and variant (null in the plain game, else
        :meth:`VariantTally.to_dict <coinrow.census.variants.VariantTally.to_dict>`)
        (O(histogram + examples + shards reported))."""
        return {
            "rules": self.rules,
            "variant": None if self.variant is None else self.variant.to_dict(self.family),
            "family": {**self.family.to_dict(), "description": self.family.describe()},
            "rows": self.rows,
            "outcomes": self.outcomes,
            "margin_histogram": {str(m): self.histogram[m] for m in sorted(self.histogram)},
            "first_moves": {moves_text(moves): rows for moves, rows in self.first_moves.items()},
            "first_moves_by": self.first_moves_by,
            "strategies": {s.name: s.to_dict() for s in self.strategies},
            "shards": {
                "total": self.shards,
                "computed": self.computed,
                "reused": self.reused,
                "recomputed": self.recomputed,
                "ignored_lines": [line.to_dict() for line in self.ignored_lines],
            },
            "seconds": self.seconds,
            "rows_per_second": self.rows_per_second,
            "out": None if self.out is None else str(self.out),
        }


class Totals:
    """The running totals of a census: shards' results added one at a time, in any order,
    so memory stays O(histogram + strategies x examples) however many shards there are."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.rows = 0
        self.histogram: dict[int, int] = {}
        self.first_moves = {"L": 0, "R": 0, "LR": 0}
        self.by_rows = True
        self.right_optimal = 0
        self.tallies = [StrategyTally(name, compiled=True) for name in job.strategies]
        self.variant = None if job.plain else VariantTally(job.rules)

    def add(self, result: ShardResult) -> None:
        """Add one shard's result (O(histogram + examples of the shard))."""
        self.rows += result.rows
        for margin, count in result.histogram.items():
            self.histogram[margin] = self.histogram.get(margin, 0) + count
        if result.first_moves is None:
            self.by_rows = False
        else:
            for move, count in result.first_moves.items():
                self.first_moves[move] += count
        self.right_optimal += result.right_optimal
        keep = self.job.examples
        if self.variant is not None and result.variant is not None:
            self.variant.merge(result.variant, keep)
        for total, tally in zip(self.tallies, result.strategies, strict=True):
            total.compiled = total.compiled and tally.compiled
            total.optimal += tally.optimal
            total.regret_total += tally.regret_total
            total.worst_regret = max(total.worst_regret, tally.worst_regret)
            full = len(total.examples) >= keep
            if tally.examples and not (full and tally.examples[0].index > total.examples[-1].index):
                merged = sorted([*total.examples, *tally.examples], key=lambda e: e.index)
                total.examples = merged[:keep]

    def examples_wanted(self, shard: Shard) -> list[int]:
        """Per strategy, how many of the shard's first counterexamples can still be kept:
        those held before the shard in family order stay (O(strategies x log examples); the
        held ones are in family order)."""
        keep = self.job.examples
        return [
            keep - bisect.bisect_left(tally.examples, shard.start, key=_index)
            for tally in self.tallies
        ]

    def combined(self) -> tuple[dict[int, int], dict[Moves, int], str, list[StrategySummary]]:
        """The histogram, first moves (and how they were counted) and strategies (O(histogram
        + strategies))."""
        first_moves: dict[Moves, int]
        if self.variant is not None:
            ordered = sorted(self.variant.first_moves.items(), key=lambda item: moves_text(item[0]))
            first_moves, by = dict(ordered), "rows"
        elif self.by_rows:
            first_moves = {plain_moves(text): rows for text, rows in self.first_moves.items()}
            by = "rows"
        else:
            rows, right = self.rows, self.right_optimal
            counts = {"L": rows - right, "R": rows - right, "LR": 2 * right - rows}
            first_moves = {plain_moves(text): count for text, count in counts.items()}
            by = "reversal"
        summaries = [
            StrategySummary(rows=self.rows, **{**vars(tally), "examples": list(tally.examples)})
            for tally in self.tallies
        ]
        return dict(sorted(self.histogram.items())), first_moves, by, summaries


def _index(example: Example) -> int:
    return example.index


def combine(
    job: Job, results: Iterable[ShardResult]
) -> tuple[dict[int, int], dict[Moves, int], str, list[StrategySummary]]:
    """The family's histogram, first moves (and how they were counted) and strategies from
    its shards' results, in any order (O(shards * (histogram + strategies)))."""
    totals = Totals(job)
    for result in results:
        totals.add(result)
    return totals.combined()


class Census:
    """A census planned and ready to run: the family cut into shards, and, with ``out``, the
    folder that records them (``resume=True`` continues the census recorded there: only the
    shards not proven done by their files are computed, see :meth:`Store.verify
    <coinrow.census.store.Store.verify>`).

    ``strategies`` are strategy names (compiled when built in, else played through Python);
    ``examples`` how many counterexamples to keep per strategy (at most
    :data:`MAX_EXAMPLES`), first in family order; ``rows`` keeps every row's result in
    ``out`` (families up to :data:`ROWS_LIMIT` rows); ``shard_rows`` the rows per shard
    (default: :func:`default_shard_rows`); ``rules`` the rules of the game (a
    :class:`~coinrow.rules.Rules` or its text form, default the plain game: see
    :mod:`coinrow.census.variants` for what a census under other rules counts and which
    run compiled; a census through Python estimated at more than
    :data:`~coinrow.census.variants.MAX_PYTHON_SECONDS` of one core is refused).

    Planning is bounded: the shards are counted by arithmetic and a family of more than
    :data:`~coinrow.census.families.MAX_SHARDS` is refused with an estimate of its work
    before any shard is built; shards are then built lazily, one at a time. On resume, every
    recorded shard is verified and read once (O(recorded shards) time, O(1) memory each);
    the ones computed again are listed in :attr:`recomputed`, the manifest lines not used in
    :attr:`ignored_lines`.

    >>> from coinrow.census import Words
    >>> result = Census(Words.of("1,2", 4), ["greedy"]).run(workers=0)
    >>> result.rows, result.outcomes, result.strategies[0].optimal
    (16, {'first': 10, 'tie': 6, 'second': 0}, 15)
    """

    def __init__(
        self,
        family: Family,
        strategies: Sequence[str] = (),
        *,
        examples: int = 3,
        rows: bool = False,
        shard_rows: int | None = None,
        out: str | Path | None = None,
        resume: bool = False,
        rules: object = None,
    ) -> None:
        require_extra()
        names = distinct(strategies, parameter="strategies")
        chosen = census_rules(rules, names, rows)
        if not 0 <= examples <= MAX_EXAMPLES:
            raise InvalidOptionError(
                f"the number of examples kept must be 0 to {MAX_EXAMPLES:,}, got {examples:,}",
                parameter="examples",
            )
        if shard_rows is not None and shard_rows < 1:
            raise InvalidOptionError(
                f"shards need at least 1 row, got {shard_rows}", parameter="shard_rows"
            )
        family.check_int64()
        if rows:
            if out is None:
                raise InvalidOptionError(
                    "keeping every row's result needs an output folder", parameter="rows"
                )
            if family.rows > ROWS_LIMIT:
                raise InvalidOptionError(
                    f"{family.describe()} has {approximate(family.rows)} rows; every row's "
                    f"result is kept for families of at most {ROWS_LIMIT:,} rows",
                    parameter="rows",
                )
        probe = Job(family, strategies=names, examples=examples, rows=rows)
        compiled = probe.compiled_strategies()
        if chosen.is_plain:
            shard_rows = shard_rows or default_shard_rows(family, compiled, rows)
            rate = _rate(compiled)
        else:
            shard_rows = shard_rows or variant_shard_rows(family, chosen)
            rate = rows_per_second(family, chosen)
        self.job = Job(
            family,
            strategies=names,
            examples=examples,
            rows=rows,
            shard_rows=shard_rows,
            rules=str(chosen),
        )
        self.rules = chosen
        note = f" (about {work_text(family.rows, rate)} of one core at {rate:,.0f} rows/s)"
        if not chosen.is_plain:
            check_cost(family, chosen, family.rows)
        self.shard_count = check_shards(family, shard_rows, note)
        self.store = None if out is None else Store(Path(out), self.job, resume)
        self.recomputed: list[dict[str, str]] = []
        self.ignored_lines: list[Ignored] = [] if self.store is None else self.store.ignored
        self._reused = Totals(self.job)
        self._done: set[str] = set()
        self.done_rows = 0
        if self.store is not None and self.store.entries:
            self._verify_recorded(self.store)

    def _verify_recorded(self, store: Store) -> None:
        """Count the recorded shards whose files prove what they are; list the others."""
        planned = set()
        for shard in self.job.shards():
            if shard.key not in store.entries:
                continue
            planned.add(shard.key)
            result, reason = store.verify(shard)
            if result is None:
                self.recomputed.append({"shard": shard.key, "reason": reason})
                continue
            result.table = None
            self._reused.add(result)
            self._done.add(shard.key)
            self.done_rows += shard.count
        for key in sorted(set(store.entries) - planned):
            self.ignored_lines.append(Ignored(0, f"shard {key} is not a shard of this census"))

    @property
    def rows(self) -> int:
        """Rows of the family (O(1) or O(lengths))."""
        return self.job.family.rows

    @property
    def done_count(self) -> int:
        """Shards already recorded and verified in the output folder (O(1))."""
        return len(self._done)

    @property
    def missing_count(self) -> int:
        """Shards this run computes (O(1))."""
        return self.shard_count - len(self._done)

    def missing(self) -> Iterator[Shard]:
        """The shards this run computes, in family order, built lazily (O(shards) in all)."""
        return (shard for shard in self.job.shards() if shard.key not in self._done)

    def estimated_seconds(self) -> float:
        """Seconds of one core the missing shards need, from :data:`RATES` (O(strategies))."""
        if not self.rules.is_plain:
            return (self.rows - self.done_rows) / rows_per_second(self.job.family, self.rules)
        strategies = self.job.compiled_strategies()
        return (self.rows - self.done_rows) / _rate(strategies)

    def close(self) -> None:
        """Let go of the output folder's lock without running (O(1)): a census holds its
        folder from the moment it is claimed or resumed, and :meth:`run` lets go when it ends.
        Also ``with Census(...) as census:``.

        >>> census = Census(Words.of("1,2", 4))
        >>> census.close()
        """
        if self.store is not None:
            self.store.release()

    def __enter__(self) -> Census:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def run(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        progress: Progress | None = None,
        timeout: float = CONNECT_TIMEOUT,
    ) -> CensusResult:
        """Compute the missing shards and combine every shard's results.

        ``scheduler`` (``tcp://HOST:PORT``) runs the shards on an existing Dask cluster;
        otherwise ``workers`` processes of a local cluster bound to 127.0.0.1 (default: one
        per core), or ``workers=0`` in this process (the default too when the work is under
        :data:`INLINE_SECONDS`). ``progress`` is called with each finished shard's rows;
        ``timeout`` is how long to try reaching ``scheduler`` (seconds, at most
        :data:`MAX_CONNECT_TIMEOUT`). Every result is checked to be the shard it was asked
        for before it is recorded. Complexity: see :func:`~coinrow.census.shards.run_shard`,
        over all missing shards; memory O(histogram + examples + shards in flight)."""
        if scheduler is None:
            check_workers(workers)  # before any process starts
        if not (isinstance(timeout, int | float) and 0 < timeout <= MAX_CONNECT_TIMEOUT):
            raise InvalidOptionError(
                f"the connect timeout must be more than 0 and at most {MAX_CONNECT_TIMEOUT:,} "
                f"seconds, got {timeout}",
                parameter="timeout",
            )
        if self.store is None:
            return self._run(scheduler, workers, timeout, progress)
        self.store.lock()  # held since the folder was claimed or resumed; again on a 2nd run
        try:
            return self._run(scheduler, workers, timeout, progress)
        finally:
            self.store.release()

    def _run(
        self,
        scheduler: str | None,
        workers: int | None,
        timeout: float,
        progress: Progress | None,
    ) -> CensusResult:
        started = time.perf_counter()
        totals = _copy_totals(self._reused)
        if self.store is not None:
            self.store.start_run(self.shard_count, self.missing_count)
        computed = rows_computed = 0
        # Without a folder to record them in, a shard rebuilds only the counterexamples that
        # can still be kept (held ones only grow earlier, so asking early is safe).
        wanted = None if self.store is not None else totals.examples_wanted
        for shard, result in self._execute(scheduler, workers, timeout, wanted):
            if (result.key, result.start, result.rows) != (shard.key, shard.start, shard.count):
                raise RuntimeError(  # pragma: no cover - a worker bug, never data
                    f"asked for shard {shard.key}, got {result.key} ({result.rows} rows)"
                )
            if self.store is not None:
                self.store.write(result, shard)
            result.table = None
            totals.add(result)
            computed += 1
            rows_computed += result.rows
            if progress is not None:
                progress(result.rows)
        histogram, first_moves, by, strategies = totals.combined()
        return CensusResult(
            family=self.job.family,
            rows=totals.rows,
            histogram=histogram,
            first_moves=first_moves,
            first_moves_by=by,
            strategies=strategies,
            shards=self.shard_count,
            computed=computed,
            reused=len(self._done),
            seconds=time.perf_counter() - started,
            rows_computed=rows_computed,
            out=None if self.store is None else self.store.directory,
            recomputed=list(self.recomputed),
            ignored_lines=list(self.ignored_lines),
            rules=self.job.rules,
            variant=totals.variant,
        )

    def _execute(
        self,
        scheduler: str | None,
        workers: int | None,
        timeout: float,
        wanted: Callable[[Shard], list[int]] | None,
    ) -> Iterator[tuple[Shard, ShardResult]]:
        """Each missing shard with its result, as they finish; ``wanted(shard)``: how many
        counterexamples it rebuilds per strategy (None: all it keeps)."""

        def examples(shard: Shard) -> list[int] | None:
            return None if wanted is None else wanted(shard)

        if not self.missing_count:
            return
        inline = workers == 0 or (
            workers is None
            and (self.missing_count == 1 or self.estimated_seconds() < INLINE_SECONDS)
        )
        if scheduler is None and inline:
            for shard in self.missing():
                yield shard, run_shard(self.job, shard, examples=examples(shard))
            return
        from distributed import as_completed

        with (
            _cluster_loss(self._lost_text(scheduler)),
            dask_client(scheduler, workers, timeout=timeout) as client,
        ):
            planned = self.missing()
            window = SHARDS_IN_FLIGHT * max(len(client.scheduler_info()["workers"]), 1)
            asked: dict[str, Shard] = {}

            def submit(shard: Shard) -> Any:
                key = f"census-{shard.key}-{id(self)}"
                asked[key] = shard
                return client.submit(
                    run_shard, self.job, shard, examples=examples(shard), key=key, pure=False
                )

            running = as_completed(  # type: ignore[no-untyped-call]
                [submit(shard) for shard in itertools.islice(planned, window)]
            )
            for future in running:
                shard = asked.pop(future.key)
                result = future.result()
                for following in itertools.islice(planned, 1):
                    running.add(submit(following))  # type: ignore[no-untyped-call]
                yield shard, result

    def _lost_text(self, scheduler: str | None) -> Callable[[], str]:
        """What to say when the cluster goes away mid-census (told when it happens)."""

        def text() -> str:
            where = f"the Dask cluster at {scheduler}" if scheduler else "the local Dask cluster"
            if self.store is None:
                return f"{where} went away mid-census; nothing is recorded without an output folder"
            recorded = len(self.store.entries)
            return (
                f"{where} went away mid-census; {recorded:,} shards are recorded in "
                f"{self.store.directory}, and resuming the census there continues from them"
            )

        return text


@contextlib.contextmanager
def _cluster_loss(text: Callable[[], str]) -> Iterator[None]:
    """Turn the cluster's going away (its futures cancelled, its connection closed) into one
    :class:`~coinrow.errors.SchedulerError`; a shard's own error passes unchanged."""
    from concurrent.futures import CancelledError

    from distributed.comm.core import CommClosedError

    try:
        yield
    except (CancelledError, CommClosedError) as error:
        raise SchedulerError(text()) from error


def _rate(strategies: Sequence[object]) -> float:
    """Rows per second of one core for a census with these compiled strategies (None: a
    strategy played through Python), from :data:`RATES`."""
    rate = RATES["columns" if strategies else "stack"]
    python = sum(1 for strategy in strategies if strategy is None)
    return 1 / (1 / rate + python / RATES["python"])


def _copy_totals(source: Totals) -> Totals:
    """A fresh running total starting from ``source`` (so a census can run twice)."""
    import copy

    return copy.deepcopy(source)


#: Memory a local worker process is given at the least: its interpreter, NumPy, Numba's
#: kernels and a shard's scratch (measured near 200 MiB each), with room to work.
WORKER_MEMORY = 512 * 2**20


def max_workers() -> int:
    """Most worker processes a local cluster may start on this machine: one per core this
    process may run on, and no more than the available memory holds at
    :data:`WORKER_MEMORY` each (at least 1) (O(1)).

    >>> 1 <= max_workers() <= (os.cpu_count() or 1)
    True
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not on this system: cores alone
        available = (cores or 1) * WORKER_MEMORY
    return max(1, min(cores or 1, available // WORKER_MEMORY))


def check_workers(workers: int | None) -> None:
    """Refuse a number of local workers below 0 or above :func:`max_workers` with an
    :class:`~coinrow.errors.InvalidOptionError` naming ``workers`` (O(1)).

    >>> check_workers(10**6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coinrow.errors.InvalidOptionError: at most ... worker processes on this machine (...), got 1000000
    """  # noqa: E501
    if workers is None:
        return
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise InvalidOptionError(
            f"the number of workers must be >= 0, got {workers!r:.40}", parameter="workers"
        )
    most = max_workers()
    if workers > most:
        raise InvalidOptionError(
            f"at most {most} worker processes on this machine (one per core, "
            f"{WORKER_MEMORY // 2**20} MiB of available memory each), got {workers}",
            parameter="workers",
        )


@contextlib.contextmanager
def dask_client(
    scheduler: str | None,
    workers: int | None,
    *,
    timeout: float,
    memory_limit: str | int | None = None,
) -> Iterator[Any]:
    """A Dask client of the scheduler at ``scheduler`` (:class:`SchedulerError` when it
    cannot be reached within ``timeout`` seconds), or of a new local cluster of ``workers``
    processes (one thread each, each limited to ``memory_limit``, Dask's "auto" by
    default) bound to 127.0.0.1, its HTTP endpoints included. The census and chunked solves
    (:mod:`coinrow.chunked`) both run on it."""
    from distributed import Client, LocalCluster

    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        if scheduler is not None:
            # its lost connection is told in one line (_cluster_loss), not in logged tracebacks
            client_log = logging.getLogger("distributed.client")  # a level of its own
            client_level = client_log.level
            quiet.setLevel(logging.CRITICAL)
            client_log.setLevel(logging.CRITICAL)
            try:
                client = Client(scheduler, timeout=timeout)  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError, ValueError, TypeError) as error:
                raise SchedulerError(
                    f"cannot reach the Dask scheduler at {scheduler}: {error}"
                ) from None
            try:
                with client:
                    yield client
            finally:
                client_log.setLevel(client_level)
            return
        check_workers(workers)
        count = workers or max_workers()
        import dask

        with (
            # No statistical profiler in the workers: sampling every 10 ms took CPU from
            # the shards (the workers get the config from their nannies).
            dask.config.set({"distributed.worker.profile.enabled": False}),
            LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=count,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",  # with or without bokeh: loopback only
                memory_limit="auto" if memory_limit is None else memory_limit,
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            yield client
    finally:
        quiet.setLevel(level)


def kernels_warm(family: Family, rules: object = None) -> bool:
    """Whether the compiled walk that ``family`` runs on is in Numba's cache, so a census of
    it starts at once instead of compiling for about :data:`COMPILE_SECONDS` (imports NumPy
    and Numba; O(1) file reads, compiles nothing). Dask workers share the cache folder when
    they share the installation. With ``rules`` (a census under other rules), the kernel
    of that census: the pizza's over words or random rows; True when it runs through Python.

    >>> from coinrow.census import Compositions, Census
    >>> _ = Census(Compositions.of(4)).run(workers=0)
    >>> kernels_warm(Compositions.of(9))
    True
    """
    from . import kernels

    chosen = census_rules(rules)
    if not chosen.is_plain:  # ``rules``: a census under other rules (docs/census.md)
        if not compiled_path(family, chosen):
            return True  # through Python: nothing to compile
        from . import variant_kernels

        random = isinstance(family, RandomRows)
        kernel: Any = variant_kernels.interval_census
        if chosen.circle:
            kernel = variant_kernels.pizza_rows if random else variant_kernels.pizza_words
        return kernels.cached(kernel)

    walk: Any = kernels.scan_words
    if isinstance(family, Compositions):
        walk = kernels.scan_compositions
    elif isinstance(family, RandomRows):
        walk = kernels.scan_rows
    return kernels.cached(walk)


def warm_up() -> None:
    """Compile (or load) the census walk of every family kind by running a tiny census of
    each in this process (one walk serves the plain scan and the strategies): about
    2 x :data:`COMPILE_SECONDS` cold, a second or two warm. ``make demo`` runs it."""
    for family in (Words.of("1,2", 3), Compositions.of(3), RandomRows.of(2, 3, "1..3", 0)):
        Census(family, ["greedy"]).run(workers=0)
