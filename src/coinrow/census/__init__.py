"""Censuses: every row of a family solved, counted and checked against strategies, from a
laptop to a Dask cluster (the ``census`` extra: NumPy, Numba, pyarrow, Dask distributed).

>>> from coinrow.census import Census, Compositions
>>> result = Census(Compositions.of(6), ["greedy"]).run(workers=0)
>>> result.rows, result.outcomes["tie"], result.strategies[0].counterexamples
(32, 11, 1)

Importing this package imports no NumPy, Numba, Dask or pyarrow; running a census does.
See ``docs/census.md``.
"""

from __future__ import annotations

from .compiled import COMPILE_SECONDS, VARIANT_COMPILE_SECONDS
from .families import (
    Compositions,
    Family,
    RandomRows,
    Shard,
    Words,
    WordsUpTo,
    composition,
    family_from_dict,
)
from .run import (
    ROWS_LIMIT,
    Census,
    CensusResult,
    StrategySummary,
    kernels_warm,
    require_extra,
    warm_up,
)
from .shards import Example, Job, ShardResult, StrategyTally, run_shard

__all__ = [
    "COMPILE_SECONDS",
    "ROWS_LIMIT",
    "VARIANT_COMPILE_SECONDS",
    "Census",
    "CensusResult",
    "Compositions",
    "Example",
    "Family",
    "Job",
    "RandomRows",
    "Shard",
    "ShardResult",
    "StrategySummary",
    "StrategyTally",
    "Words",
    "WordsUpTo",
    "composition",
    "family_from_dict",
    "kernels_warm",
    "require_extra",
    "run_shard",
    "warm_up",
]
