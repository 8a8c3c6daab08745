"""Planning and running a census: shards in this process, on a local Dask cluster, or on an
existing Dask scheduler; results combined into a :class:`CensusResult`."""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError, MissingExtraError, SchedulerError
from .families import Family, Shard
from .shards import Example, Job, ShardResult, default_shard_rows, run_shard
from .store import Store

#: Most rows a census keeps one result for (``rows=True``, ``coinrow census --rows``).
ROWS_LIMIT = 1 << 24

#: Rows per second of one core (measured by benchmarks/test_census_bench.py; see
#: docs/census.md), used only to decide when a census is small enough to run in this
#: process rather than start a cluster, and by refute to size its searches.
RATES = {"stack": 6e7, "columns": 3e6, "python": 7e3}

#: Work (seconds of one core) below which ``workers=None`` runs in this process.
INLINE_SECONDS = 2.0

#: Seconds to wait for an existing scheduler.
CONNECT_TIMEOUT = 10

_EXTRA = ("numpy", "numba", "pyarrow", "distributed")

Progress = Callable[[ShardResult], None]


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


@dataclass
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
        return {
            "compiled": self.compiled,
            "optimal": self.optimal,
            "optimal_rate": self.optimal_rate,
            "counterexamples": self.counterexamples,
            "regret_total": self.regret_total,
            "mean_regret": self.mean_regret,
            "worst_regret": self.worst_regret,
            "examples": [
                {"index": example.label, **example.counterexample.to_dict()}
                for example in self.examples
            ],
        }


@dataclass
class CensusResult:
    """A whole family's census. ``histogram`` maps each margin (first player's total minus
    the second's, optimal play) to its number of rows; ``first_moves`` counts the rows where
    only L, only R, or both first moves are optimal (``first_moves_by`` says whether they
    were counted row by row or, for families closed under reversal, from the rows where R is
    optimal: as many rows have only L as only R)."""

    family: Family
    rows: int
    histogram: dict[int, int]
    first_moves: dict[str, int]
    first_moves_by: str
    strategies: list[StrategySummary]
    shards: int
    computed: int
    reused: int
    seconds: float
    rows_computed: int
    out: Path | None = None

    @property
    def outcomes(self) -> dict[str, int]:
        """Rows the first player wins, ties and loses under optimal play (O(histogram))."""
        return {
            "first": sum(c for m, c in self.histogram.items() if m > 0),
            "tie": self.histogram.get(0, 0),
            "second": sum(c for m, c in self.histogram.items() if m < 0),
        }

    @property
    def rows_per_second(self) -> float:
        """Rows computed in this run per second of wall time (O(1))."""
        return self.rows_computed / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: family, rows, outcomes, margin_histogram ({"<margin>": rows}),
        first_moves, strategies (by name), shards, seconds, rows_per_second, out
        (O(histogram + examples))."""
        return {
            "family": {**self.family.to_dict(), "description": self.family.describe()},
            "rows": self.rows,
            "outcomes": self.outcomes,
            "margin_histogram": {str(m): self.histogram[m] for m in sorted(self.histogram)},
            "first_moves": self.first_moves,
            "first_moves_by": self.first_moves_by,
            "strategies": {s.name: s.to_dict() for s in self.strategies},
            "shards": {"total": self.shards, "computed": self.computed, "reused": self.reused},
            "seconds": self.seconds,
            "rows_per_second": self.rows_per_second,
            "out": None if self.out is None else str(self.out),
        }


def combine(
    job: Job, results: Sequence[ShardResult]
) -> tuple[dict[int, int], dict[str, int], str, list[StrategySummary]]:
    """The family's histogram, first moves (and how they were counted) and strategies from
    its shards' results, in any order (O(shards * (histogram + strategies)))."""
    rows = sum(result.rows for result in results)
    histogram: dict[int, int] = {}
    for result in results:
        for margin, count in result.histogram.items():
            histogram[margin] = histogram.get(margin, 0) + count
    if all(result.first_moves is not None for result in results):
        first_moves = {"L": 0, "R": 0, "LR": 0}
        for result in results:
            for move, count in (result.first_moves or {}).items():
                first_moves[move] += count
        by = "rows"
    else:
        right = sum(result.right_optimal for result in results)
        first_moves = {"L": rows - right, "R": rows - right, "LR": 2 * right - rows}
        by = "reversal"
    summaries = []
    for r, name in enumerate(job.strategies):
        tallies = [result.strategies[r] for result in results]
        examples = sorted((e for t in tallies for e in t.examples), key=lambda e: e.index)
        summaries.append(
            StrategySummary(
                name,
                all(t.compiled for t in tallies) if tallies else True,
                rows,
                sum(t.optimal for t in tallies),
                sum(t.regret_total for t in tallies),
                max((t.worst_regret for t in tallies), default=0),
                examples[: job.examples],
            )
        )
    return dict(sorted(histogram.items())), first_moves, by, summaries


class Census:
    """A census planned and ready to run: the family cut into shards, and, with ``out``, the
    folder that records them (``resume=True`` continues the census recorded there: only the
    shards missing from its manifest are computed).

    ``strategies`` are strategy names (compiled when built in, else played through Python);
    ``examples`` how many counterexamples to keep per strategy, first in family order;
    ``rows`` keeps every row's result in ``out`` (families up to :data:`ROWS_LIMIT` rows);
    ``shard_rows`` the rows per shard (default: :func:`default_shard_rows`).

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
    ) -> None:
        require_extra()
        names = tuple(name.strip() for name in strategies)
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise InvalidOptionError(f"strategy given twice: {', '.join(repeated)}")
        if examples < 0:
            raise InvalidOptionError(f"the number of examples must be >= 0, got {examples}")
        if shard_rows is not None and shard_rows < 1:
            raise InvalidOptionError(f"shards need at least 1 row, got {shard_rows}")
        family.check_int64()
        if rows:
            if out is None:
                raise InvalidOptionError("keeping every row's result needs an output folder")
            if family.rows > ROWS_LIMIT:
                raise InvalidOptionError(
                    f"{family.describe()} has {family.rows:,} rows; every row's result is kept "
                    f"for families of at most {ROWS_LIMIT:,} rows"
                )
        probe = Job(family, names, examples, rows)
        shard_rows = shard_rows or default_shard_rows(family, probe.compiled_strategies(), rows)
        self.job = Job(family, names, examples, rows, shard_rows)
        self.shards: list[Shard] = self.job.plan()
        self.store = None if out is None else Store(Path(out), self.job, resume)
        done = self.store.done() if self.store is not None else {}
        self.done = [shard for shard in self.shards if shard.key in done]
        self.missing = [shard for shard in self.shards if shard.key not in done]

    @property
    def rows(self) -> int:
        """Rows of the family (O(1))."""
        return sum(shard.count for shard in self.shards)

    @property
    def done_rows(self) -> int:
        """Rows already recorded in the output folder (O(shards))."""
        return sum(shard.count for shard in self.done)

    def estimated_seconds(self) -> float:
        """Seconds of one core the missing shards need, from :data:`RATES` (O(shards))."""
        strategies = self.job.compiled_strategies()
        rows = sum(shard.count for shard in self.missing)
        seconds = rows / RATES["columns" if strategies else "stack"]
        python = sum(1 for strategy in strategies if strategy is None)
        return seconds + python * rows / RATES["python"]

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
        :data:`INLINE_SECONDS`). ``progress`` is called with each finished shard's result;
        ``timeout`` is how long to try reaching ``scheduler`` (seconds).
        Complexity: see :func:`~coinrow.census.shards.run_shard`, over all missing shards."""
        if workers is not None and workers < 0:
            raise InvalidOptionError(f"the number of workers must be >= 0, got {workers}")
        started = time.perf_counter()
        results = [self.store.load(shard.key) for shard in self.done] if self.store else []
        if self.store is not None:
            self.store.start_run(len(self.shards), len(self.missing))
        computed = 0
        for result in self._execute(scheduler, workers, timeout):
            if self.store is not None:
                self.store.write(result)
                result.table = None
            results.append(result)
            computed += result.rows
            if progress is not None:
                progress(result)
        histogram, first_moves, by, strategies = combine(self.job, results)
        return CensusResult(
            self.job.family,
            sum(result.rows for result in results),
            histogram,
            first_moves,
            by,
            strategies,
            len(self.shards),
            len(self.missing),
            len(self.done),
            time.perf_counter() - started,
            computed,
            None if self.store is None else self.store.directory,
        )

    def _execute(
        self, scheduler: str | None, workers: int | None, timeout: float
    ) -> Iterator[ShardResult]:
        """Each missing shard's result, as they finish."""
        if not self.missing:
            return
        inline = workers == 0 or (
            workers is None
            and (len(self.missing) == 1 or self.estimated_seconds() < INLINE_SECONDS)
        )
        if scheduler is None and inline:
            for shard in self.missing:
                yield run_shard(self.job, shard)
            return
        from distributed import as_completed

        with _client(scheduler, workers, timeout) as client:
            futures = [
                client.submit(
                    run_shard, self.job, shard, key=f"census-{shard.key}-{id(self)}", pure=False
                )
                for shard in self.missing
            ]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()


@contextlib.contextmanager
def _client(scheduler: str | None, workers: int | None, timeout: float) -> Iterator[Any]:
    """A Dask client of the scheduler at ``scheduler``, or of a new local cluster of
    ``workers`` processes (one thread each) bound to 127.0.0.1."""
    from distributed import Client, LocalCluster

    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        if scheduler is not None:
            try:
                client = Client(scheduler, timeout=timeout)  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError, ValueError, TypeError) as error:
                raise SchedulerError(
                    f"cannot reach the Dask scheduler at {scheduler}: {error}"
                ) from None
            with client:
                yield client
            return
        count = workers or os.cpu_count() or 1
        dashboard = "127.0.0.1:0" if importlib.util.find_spec("bokeh") else None
        with (
            LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=count,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=dashboard,
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            yield client
    finally:
        quiet.setLevel(level)
