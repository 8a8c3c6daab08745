"""Judging a solver: the stages, the smallest failing row, the diagnosis, the growth.

:func:`check` runs someone's solver (a function, ``FILE.py[:FUNCTION]`` or
``module:function``) in a child process (:mod:`coinrow.checking.isolation`) and compares its
answers with coinrow's exact O(n) solve, stage by stage, stopping at the first failure:

1. ``seeds``: the worked examples of the tutorials the project grew from;
2. ``edge``: one coin, two coins, equal coins, zeros, odd lengths, negatives, ints beyond
   2^63 (and Decimal and Fraction rows when ``exact``);
3. ``exhaustive``: every row over a small alphabet (``0..3``), shortest first, up to a length;
4. ``random``: random rows of growing length (10, 30, 100, ... up to ``max_n``) until the
   stage's share of the budget or the per-call time limit ends it (a call over the limit
   here ends the stage: it is slow, not wrong).

A failure is shrunk to the smallest failing row (the first in the exhaustive family's order
if one fails there, else by cutting the row and lowering its coins), then diagnosed in words
from more calls (never from the source). A passing solver is then timed on doubling n and
its growth named (:mod:`coinrow.checking.growth`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from ..errors import InvalidOptionError
from .answers import ANSWERS, expected_answer, judge
from .isolation import Runner
from .loading import ANSWER_OF_NAME, Target, parse_target
from .measuring import count_calls, measure_growth, probe_recursion, probe_sizes
from .results import (
    STAGES,
    CheckResult,
    Diagnosis,
    Failure,
    Options,
    StageResult,
    html_report,
    row_text,
)
from .rows import SEEDS, family
from .run import CheckRun
from .stages import run_stages

__all__ = [
    "ANSWERS",
    "SEEDS",
    "STAGES",
    "CheckResult",
    "Diagnosis",
    "Failure",
    "Options",
    "StageResult",
    "check",
    "expected_answer",
    "family",
    "html_report",
    "judge",
    "row_text",
]


def check(
    solver: Callable[..., Any] | str | Target,
    *,
    answer: str | None = None,
    options: Options | None = None,
    progress: Callable[[str], None] | None = None,
    **settings: Any,
) -> CheckResult:
    """Check a solver for the coins game: ``solver`` is a function (or a method's class
    instance-free function), or the text ``FILE.py[:FUNCTION]`` / ``module:function``.
    ``answer``: one of :data:`ANSWERS` (default: from the function's name, else
    ``"total"``). ``settings`` are :class:`Options` fields (``budget=5``, ``time_limit=1``).
    Runs in a child process within the budget: O(budget). ``progress``, when given, is
    called with a few words at each step (``"stage seeds"``, ``"shrinking"``...).

    Raises :class:`coinrow.CheckTargetError` when the solver cannot be loaded or takes the
    wrong arguments.

    >>> def total(coins):
    ...     return max(coins) if len(coins) == 1 else max(
    ...         coins[0] + sum(coins[1:]) - total(coins[1:]),
    ...         coins[-1] + sum(coins[:-1]) - total(coins[:-1]))
    >>> result = check(total, budget=3, max_length=4, complexity=False)
    >>> result.passed, result.function, [s.status for s in result.stages][:3]
    (True, 'total', ['passed', 'passed', 'passed'])
    """
    opts = options if options is not None else Options(**settings)
    if options is not None and settings:
        raise InvalidOptionError("give either options or settings, not both")
    if answer is not None and answer not in ANSWERS:
        raise InvalidOptionError(f"unknown answer {answer!r}; choose one of: {', '.join(ANSWERS)}")
    if isinstance(solver, Target):
        target = solver
    elif isinstance(solver, str):
        target = parse_target(solver)
    else:
        if not callable(solver):
            raise InvalidOptionError("the solver must be a function or 'FILE.py[:FUNCTION]'")
        label = getattr(solver, "__qualname__", getattr(solver, "__name__", repr(solver)))
        target = Target(label=label, function=solver)
    with Runner(target, time_limit=opts.time_limit, memory_limit=opts.memory_limit) as runner:
        loaded = runner.loaded
        assert loaded is not None
        short = loaded.function.rpartition(".")[2]
        if answer is not None:
            chosen, source = answer, "given"
        elif short in ANSWER_OF_NAME:
            chosen, source = ANSWER_OF_NAME[short], f"from the name {short}"
        else:
            chosen, source = "total", "default"
        result = CheckResult(
            target=target.label,
            function=loaded.function,
            picked=loaded.picked,
            answer=chosen,
            answer_from=source,
            stages=[StageResult(name) for name in STAGES],
            options=opts,
            call=loaded.call,
            others=loaded.others,
            provided=loaded.provided,
        )
        run = CheckRun(runner, chosen, opts, progress)
        run_stages(run, result)
        failure = result.failure
        if failure is None or failure.stage in ("depth", "random"):  # right on small rows
            probe_recursion(run, result)
            if opts.count_calls:
                count_calls(run, result)
        if result.failure is None:
            probe_sizes(run, result)
            if opts.complexity or opts.count_calls:
                run.progress("timing on growing rows")
                result.growth = measure_growth(run, result)
        result.seconds = time.monotonic() - run.start
        result.cpu_seconds = run.now() if not run.backstop else math.nan
    return result
