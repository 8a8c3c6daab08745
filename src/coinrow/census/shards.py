"""Running one shard: the task a worker (or the calling process) executes.

:func:`run_shard` takes a :class:`Job` and a :class:`~coinrow.census.families.Shard` and
returns a :class:`ShardResult`: plain data, picklable, independent of which worker ran it.
Margins, outcomes, first moves and the compiled strategies come from one pass of a kernel
(:mod:`coinrow.census.kernels`); other strategies are then played through Python on each row
(:func:`coinrow.counterexamples.strays`, then :func:`coinrow.counterexamples.worst_line`
where it strays).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from ..counterexamples import Counterexample, check_row, strays, worst_line
from ..engines import reduction
from ..errors import InvalidOptionError
from ..numbers import exact_arithmetic, json_fields
from ..rules import PLAIN, Rules
from ..strategies import get
from ..subgames import Subgames
from .compiled import COOPERATIVE, LOOKAHEAD, PARITY, CompiledStrategy, compiled
from .families import Compositions, Family, RandomRows, Shard, Words, WordsUpTo, family_from_dict
from .variants import VariantTally, _compiled_shard, _python_shard, compiled_path

#: Version of the census's files (the manifest and the shard files); part of every job.
#: 2: a set of first moves is written as its move texts separated by spaces (``L R``, not
#: ``LR``), in the rows files and the variant tallies.
FORMAT_VERSION = 2

#: Default rows per shard: stack scans (no strategy), column scans (compiled strategies),
#: strategies played through Python, and per-row output. Each is a few tenths of a second
#: to a few seconds of one core, so progress stays smooth and little is lost to a crash.
SHARD_ROWS = {"stack": 1 << 24, "columns": 1 << 20, "python": 1 << 11, "rows": 1 << 16}

#: Fewest shards a family is cut into when it is large enough (so every worker gets work).
MIN_SHARDS = 64

#: Margins of a dense histogram (an array indexed by the margin) at most; families with
#: larger margins record each row's margin and count them after the pass.
DENSE_MARGINS = 1 << 22


def version() -> str:
    """coinrow's version (O(1)). The package is imported before any of its modules, so this
    reads its attribute rather than importing the facade from below it."""
    package: str = import_module(__name__.split(".")[0]).__version__
    return package


@dataclass(frozen=True, kw_only=True)
class Job:
    """What a census computes: the family, the strategies, how many counterexamples to keep
    per strategy, whether to keep every row's result, the shard size, and the rules of the
    game (their text form; part of the job's identity, so of every shard file's)."""

    family: Family = field(kw_only=False)
    strategies: tuple[str, ...] = ()
    examples: int = 3
    rows: bool = False
    shard_rows: int = 0
    version: str = field(default_factory=version)
    rules: str = str(PLAIN)

    @property
    def plain(self) -> bool:
        """True when the job counts the plain game (O(len(rules)))."""
        return Rules.parse(self.rules).is_plain

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, as the manifest records it (O(strategies))."""
        return json_fields(
            self,
            omit={"version", "rules"},
            format_version=FORMAT_VERSION,
            coinrow=self.version,
            rules=self.rules,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        """Rebuild a job from :meth:`to_dict` (O(strategies))."""
        return cls(
            family_from_dict(data["family"]),
            strategies=tuple(data["strategies"]),
            examples=int(data["examples"]),
            rows=bool(data["rows"]),
            shard_rows=int(data["shard_rows"]),
            rules=str(data.get("rules", str(PLAIN))),
        )

    def fingerprint(self) -> str:
        """A SHA-256 of :meth:`to_dict`: two jobs with the same fingerprint compute the same
        shards the same way (O(strategies)). Every shard file records it."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def compiled_strategies(self) -> list[CompiledStrategy | None]:
        """Each strategy's compiled form, or None for the Python path (O(strategies))."""
        return [compiled(name, self.family.max_length) for name in self.strategies]

    def shards(self) -> Iterator[Shard]:
        """The shards in family order, built lazily (O(1) memory; refused beyond
        :data:`~coinrow.census.families.MAX_SHARDS` before any is built)."""
        return self.family.shards(self.shard_rows)

    def plan(self) -> list[Shard]:
        """The shards as a list, in family order (O(shards) time and memory)."""
        return list(self.shards())


def default_shard_rows(
    family: Family, strategies: list[CompiledStrategy | None], rows: bool
) -> int:
    """Rows per shard when none is given: the path's target size, but small enough to give
    :data:`MIN_SHARDS` shards when the family allows (O(1)).

    >>> from coinrow.census.families import Words
    >>> default_shard_rows(Words.of("1,2", 32), [], False), default_shard_rows(Words.of("1,2", 12), [], False)
    (16777216, 1024)
    """  # noqa: E501
    path = "rows" if rows else "stack"
    if any(strategy is None for strategy in strategies):
        path = "python"
    elif strategies and not rows:
        path = "columns"
    target = SHARD_ROWS[path]
    spread = 1 << max((family.rows // MIN_SHARDS).bit_length() - 1, 0)
    return max(min(target, spread), 1 << 10)


@dataclass(frozen=True, kw_only=True)
class Example:
    """A counterexample with its number in the family order and its reported label."""

    index: int
    label: int
    counterexample: Counterexample


@dataclass(kw_only=True)
class StrategyTally:
    """One strategy's results over some rows: rows where it gets the optimal first total
    against the worst optimal opponent, its regret (optimal first total minus its total)
    summed and at worst, and its first counterexamples in family order."""

    name: str = field(kw_only=False)
    compiled: bool
    optimal: int = 0
    regret_total: int = 0
    worst_regret: int = 0
    examples: list[Example] = field(default_factory=list)


@dataclass(kw_only=True)
class ShardResult:
    """Everything a shard found; ``first_moves`` is None when the kernel counted only the
    rows where R is optimal (the family then gives the rest by reversal). Under other rules
    than the plain game's, ``variant`` holds the rest of the tally
    (:class:`~coinrow.census.variants.VariantTally`) and ``first_moves`` is empty."""

    key: str
    start: int
    rows: int
    histogram: dict[int, int]
    right_optimal: int
    first_moves: dict[str, int] | None
    strategies: list[StrategyTally]
    seconds: float = 0.0
    table: Any = None  # per-row results (a pyarrow Table) when the job keeps rows
    variant: VariantTally | None = None  # the tally under other rules (None: plain game)


def run_variant_shard(job: Job, shard: Shard) -> ShardResult:
    """One shard of a census under other rules (the Dask task): compiled where
    :func:`compiled_path` says (O(rows * n^2); take:K O(rows * n^2 K), take:any O(rows *
    n^3)), else :func:`coinrow.solve` per row (its complexity per row)."""
    started = time.perf_counter()
    rules = Rules.parse(job.rules)
    family = job.family
    if compiled_path(family, rules):
        histogram, tally = _compiled_shard(family, shard, rules, job.examples)
    else:
        histogram, tally = _python_shard(family, shard, rules, job.examples)
    return ShardResult(
        key=shard.key,
        start=shard.start,
        rows=shard.count,
        histogram=histogram,
        right_optimal=0,
        first_moves={},
        strategies=[],
        seconds=time.perf_counter() - started,
        variant=tally,
    )


def run_shard(job: Job, shard: Shard, *, examples: Sequence[int] | None = None) -> ShardResult:
    """Compute one shard (the Dask task). O(rows) kernel work (see
    :mod:`coinrow.census.kernels`) plus, for strategies played through Python, O(r) strategy
    calls per row for its r reachable positions.

    ``examples`` caps, per strategy, how many of the shard's first counterexamples are
    rebuilt (through Python, lines included; default ``job.examples`` each): a caller that
    already holds enough earlier ones asks for fewer. Counts and regrets are whole either
    way."""
    started = time.perf_counter()
    if job.version != version():
        raise InvalidOptionError(
            f"a worker runs coinrow {version()}, the census was started with {job.version}"
        )
    if not job.plain:
        return run_variant_shard(job, shard)
    strategies = job.compiled_strategies()
    family = job.family
    family.check_int64()
    fast = [strategy for strategy in strategies if strategy is not None]
    direct_left = job.rows or not family.closed_under_reversal
    scan = _scan(family, shard, fast, job.examples, job.rows, direct_left)
    tallies = []
    found = iter(scan.strategies)
    wanted = [job.examples] * len(strategies) if examples is None else list(examples)
    if len(wanted) != len(strategies):
        raise InvalidOptionError(
            f"examples takes one count per strategy ({len(strategies)}), got {len(wanted)}",
            parameter="examples",
        )
    for name, strategy, keep in zip(job.strategies, strategies, wanted, strict=True):
        keep = max(min(keep, job.examples), 0)
        if strategy is not None:
            kernel = next(found)
            tally = StrategyTally(
                name,
                compiled=True,
                optimal=kernel.optimal,
                regret_total=kernel.regret_total,
                worst_regret=kernel.worst_regret,
                examples=_examples(family, shard, name, kernel.indices[:keep]),
            )
        else:
            tally = _python_tally(family, shard, name, keep)
        tallies.append(tally)
    return ShardResult(
        key=shard.key,
        start=shard.start,
        rows=shard.count,
        histogram=scan.histogram,
        right_optimal=scan.right_optimal,
        first_moves=scan.first_moves,
        strategies=tallies,
        seconds=time.perf_counter() - started,
        table=scan.table,
    )


def _examples(family: Family, shard: Shard, name: str, indices: list[int]) -> list[Example]:
    """The counterexamples the kernel found, rebuilt (lines included) by
    :func:`coinrow.counterexamples.check_row`, which must agree."""
    strategy = get(name, seed=0)
    out = []
    for index in indices:
        row = family.row(index)
        example = check_row(row, strategy)
        if example is None:  # pragma: no cover - the tests check the kernels exhaustively
            raise RuntimeError(f"census kernel and refute disagree on {name} for row {row}")
        out.append(Example(index=index, label=family.label(index), counterexample=example))
    return out


def _python_tally(family: Family, shard: Shard, name: str, keep: int) -> StrategyTally:
    """A strategy played through Python on each row of the shard (O(r) calls per row)."""
    strategy = get(name, seed=0)
    tally = StrategyTally(name, compiled=False)
    with exact_arithmetic():
        for offset, row in enumerate(family.rows_of(shard)):
            subgames = Subgames(row)
            if not strays(row, strategy, subgames):
                tally.optimal += 1
                continue
            total, line = worst_line(row, strategy, subgames)
            best = subgames.value_of(0, len(row) - 1)
            regret = int(best - total)
            if regret == 0:
                tally.optimal += 1
                continue
            tally.regret_total += regret
            tally.worst_regret = max(tally.worst_regret, regret)
            if len(tally.examples) < keep:
                line_best = subgames.table.line if subgames.table else None
                if line_best is None:  # pragma: no cover - census rows are short
                    line_best = reduction.optimal_line(row)
                index = shard.start + offset
                example = Counterexample(row, total, best, line, line_best)
                label = family.label(index)
                tally.examples.append(Example(index=index, label=label, counterexample=example))
    return tally


@dataclass(frozen=True, kw_only=True)
class KernelTally:
    """A compiled strategy's results from one kernel pass: rows where it is optimal, its
    regret summed and at worst, and the family indices of its first counterexamples."""

    optimal: int
    regret_total: int
    worst_regret: int
    indices: list[int]


@dataclass(frozen=True, kw_only=True)
class Scan:
    """What one kernel pass over a shard found: the margin histogram, the rows where R is
    optimal, the first moves (None when only ``right_optimal`` was counted), each compiled
    strategy's tally, and the per-row table (a pyarrow Table, or None)."""

    histogram: dict[int, int]
    right_optimal: int
    first_moves: dict[str, int] | None
    strategies: list[KernelTally]
    table: Any = None


def _scan(
    family: Family,
    shard: Shard,
    strategies: list[CompiledStrategy],
    keep: int,
    rows_mode: bool,
    direct_left: bool,
) -> Scan:
    """One kernel pass over the shard: histogram, first moves, compiled strategies and the
    per-row table."""
    import numpy as np

    from . import kernels as k

    n = shard.length
    columns = bool(strategies)
    lookahead = max(
        (s.parameter for s in strategies if s.code == LOOKAHEAD and s.parameter >= 2), default=0
    )
    slot_rows: list[tuple[int, int]] = []
    chosen_rows: list[tuple[int, int]] = []
    for strategy in strategies:
        chosen_rows.append((len(slot_rows), int(strategy.code == PARITY)))
        if strategy.code == PARITY:
            slot_rows += [(PARITY, 0), (PARITY, 1)]
        else:
            slot_rows.append((strategy.code, strategy.parameter))
    slots = np.array(slot_rows, np.int64).reshape(-1, 2).T.copy()
    chosen = np.array(chosen_rows, np.int64).reshape(-1, 2).T.copy()
    tables = k.FIXED_TABLES + max(lookahead - 1, 0) + 2 * len(slot_rows)
    row, stack, sizes, undo, table_array = k.work_arrays(n, columns, tables)
    bound = family.margin_bound
    dense = 2 * bound + 1 <= DENSE_MARGINS
    flags = np.zeros(k.FLAGS, np.int64)
    flags[k.FLAG_COLUMNS] = columns
    flags[k.FLAG_DIRECT_LEFT] = direct_left
    flags[k.FLAG_DENSE] = dense
    flags[k.FLAG_OFFSET] = bound
    flags[k.FLAG_ROWS] = rows_mode
    flags[k.FLAG_LOOKAHEAD] = lookahead
    flags[k.FLAG_COOPERATIVE] = any(s.code == COOPERATIVE for s in strategies)
    count = shard.count
    stats = np.zeros((len(strategies), k.STRATEGY_STATS), np.int64)
    examples = np.zeros((len(strategies), min(keep, count)), np.int64)
    counts = np.zeros(k.COUNTS, np.int64)
    hist = np.zeros(2 * bound + 1 if dense else 1, np.int64)
    margins = np.zeros(0 if dense else count, np.int64)
    kept = count if rows_mode else 0
    out_margin = np.zeros(kept, np.int64)
    out_moves = np.zeros(kept, np.uint8)
    out_offsets = np.zeros(kept + 1, np.int64)
    out_values = np.zeros(kept * n, np.int64)
    common = (
        flags,
        row,
        stack,
        sizes,
        undo,
        table_array,
        slots,
        chosen,
        stats,
        examples,
        counts,
        hist,
        margins,
        out_margin,
        out_moves,
        out_offsets,
        out_values,
    )
    first = np.array(shard.first, np.int64)
    if isinstance(family, Words | WordsUpTo):
        k.scan_words(np.array(family.alphabet, np.int64), n, first, count, *common)
    elif isinstance(family, Compositions):
        k.scan_compositions(n, first, count, *common)
    elif isinstance(family, RandomRows):
        k.scan_rows(family.block(shard.first[0]), *common)
    else:  # pragma: no cover - every family kind is listed above
        raise InvalidOptionError(f"no kernel for {family.describe()}")
    if int(counts[k.ROWS]) != count:  # pragma: no cover - a kernel bug, never data
        raise RuntimeError(f"shard {shard.key}: {int(counts[k.ROWS])} rows for {count}")
    if dense:
        histogram = {int(m) - bound: int(hist[m]) for m in np.flatnonzero(hist)}
    else:
        values, numbers = np.unique(margins, return_counts=True)
        histogram = dict(zip(map(int, values), map(int, numbers), strict=True))
    first_moves = None
    if columns or direct_left:
        first_moves = {
            "L": int(counts[k.LEFT_ONLY]),
            "R": int(counts[k.RIGHT_ONLY]),
            "LR": int(counts[k.BOTH]),
        }
    found = []
    for r in range(len(strategies)):
        regret = int(stats[r, k.REGRET_LO]) + (int(stats[r, k.REGRET_HI]) << 32)
        indices = [shard.start + int(i) for i in examples[r, : int(stats[r, k.FOUND])]]
        found.append(
            KernelTally(
                optimal=int(stats[r, k.OPTIMAL]),
                regret_total=regret,
                worst_regret=int(stats[r, k.WORST]),
                indices=indices,
            )
        )
    table = None
    if rows_mode:
        table = _rows_table(family, shard, out_margin, out_moves, out_offsets, out_values)
    return Scan(
        histogram=histogram,
        right_optimal=int(counts[k.RIGHT_OPTIMAL]),
        first_moves=first_moves,
        strategies=found,
        table=table,
    )


#: A row's set of optimal first moves in the rows files, by the kernel's move code: the move
#: texts separated by spaces (:func:`~coinrow.rules.moves_text`).
MOVE_NAMES = ("", "L", "R", "L R")


def _rows_table(
    family: Family, shard: Shard, margins: Any, moves: Any, offsets: Any, values: Any
) -> Any:
    """Every row's result: index (the family's label), row, first total, margin, first
    moves."""
    import numpy as np
    import pyarrow as pa

    sums = np.add.reduceat(values[: offsets[-1]], offsets[:-1]) if len(margins) else margins
    indices = np.arange(shard.start, shard.start + shard.count, dtype=np.int64)
    labels = indices + (family.label(0) - 0)
    names = pa.array(np.array(MOVE_NAMES, dtype=object)[moves], pa.string())
    return pa.table(
        {
            "index": pa.array(labels, pa.int64()),
            "row": pa.ListArray.from_arrays(
                pa.array(offsets, pa.int64()), pa.array(values[: offsets[-1]], pa.int64())
            ),
            "first_total": pa.array((sums + margins) // 2, pa.int64()),
            "margin": pa.array(margins, pa.int64()),
            "first_moves": names.dictionary_encode(),
        }
    )
