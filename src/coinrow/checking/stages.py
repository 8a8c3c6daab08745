"""The stages of a check, and what happens at the first failure."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..numbers import Value
from ..solution import solve
from .answers import expected_answer, judge
from .diagnosis import diagnose
from .isolation import Outcome
from .results import STAGES, CheckResult, Failure
from .rows import EDGE_ROWS, EXACT_ROWS, RANDOM_SIZES, SEEDS, family, rows_per_size
from .run import CheckRun
from .shrinking import shrink

#: CPU seconds a depth probe may take: a recursion that is too deep fails in
#: milliseconds, so a slower call means "no depth failure here", and the larger sizes are
#: left to the random stage.
DEPTH_SECONDS = 0.25


def depth_sizes(top: int) -> list[int]:
    """The depth stage's sizes: every doubling from 16 below ``top``, then ``top`` (O(log)).

    >>> depth_sizes(5000)
    [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 5000]
    """
    sizes = []
    n = 16
    while n < top:
        sizes.append(n)
        n *= 2
    return [*sizes, top] if top >= 16 else []


def run_stages(run: CheckRun, result: CheckResult) -> None:
    """Run the stages in order, stopping at the first failure (then shrink and diagnose)."""
    opts = run.options
    exhaustive = sum(1 for row in family(opts.alphabet, opts.max_length) if run.valid(row))
    sources: list[tuple[str, Iterable[Sequence[Value]], float]] = [
        ("seeds", [seed.coins for seed in SEEDS if run.valid(seed.coins)], math.inf),
        (
            "edge",
            [r for r in (*EDGE_ROWS, *(EXACT_ROWS if opts.exact else ())) if run.valid(r)],
            math.inf,
        ),
        (
            "exhaustive",
            (r for r in family(opts.alphabet, opts.max_length) if run.valid(r)),
            run.mark(0.25),
        ),
    ]
    for name, rows, until in sources:
        run.progress(f"stage {name}")
        stage = result.stage(name)
        stage.status = "passed"
        for row, outcome, kind in run.outcomes(rows, until):
            stage.rows += 1
            stage.largest_n = max(stage.largest_n, len(row))
            if kind is not None:
                stage.status = "failed"
                fail(run, result, name, row, outcome, kind)
                return
        if name == "exhaustive" and stage.rows < exhaustive:
            stage.status, stage.cut = "stopped", True
            why = "the wall-clock backstop" if run.backstop else "the budget"
            stage.note = (
                f"{why} ended it after {stage.rows:,} of {exhaustive:,} rows "
                f"(during length {stage.largest_n})"
            )
    if _depth_stage(run, result):
        return
    _random_stage(run, result)


def _depth_stage(run: CheckRun, result: CheckResult) -> bool:
    """One random row at every doubling of n up to ``depth_n``, each call limited to
    :data:`DEPTH_SECONDS` of CPU: a recursion too deep for Python's limit raises at once
    (before any long computation), so a slow size is passed over, not the end of the stage.
    True when the solver failed here."""
    run.progress("stage depth")
    stage = result.stage("depth")
    stage.status = "passed"
    sizes = [n for n in depth_sizes(run.options.depth_n) if n <= run.options.max_n]
    limit = min(run.options.time_limit, DEPTH_SECONDS)
    slow: list[int] = []
    for n in sizes:
        if run.now() > run.mark(0.5):
            stage.status, stage.cut = "stopped", True
            stage.note = f"the budget ended it before n = {n:,}"
            return False
        row = run.random_row(n)
        outcome = run.runner.run([row], limit=limit)[0]
        if outcome.kind in ("timeout", "memory"):  # slow here, not too deep: go on
            slow.append(n)
            continue
        stage.rows += 1
        stage.largest_n = n
        kind = judge(outcome, expected_answer(row, run.answer), run.answer)
        if kind is not None:
            stage.status = "failed"
            fail(run, result, "depth", tuple(row), outcome, kind)
            return True
    if slow:
        shown = ", ".join(f"{n:,}" for n in slow)
        stage.note = f"over {limit:g} s of CPU (no depth failure seen) at n = {shown}"
    return False


def _random_stage(run: CheckRun, result: CheckResult) -> None:
    run.progress("stage random")
    stage = result.stage("random")
    stage.status = "passed"
    until = run.mark(0.5)
    times: list[tuple[int, float]] = []
    top = run.options.max_n
    for n in [*(n for n in RANDOM_SIZES if n < top), top]:
        guess = _next_time(times, n)
        count = rows_per_size(n) if run.runner.target.program != "command" else 2
        if guess > run.options.time_limit / 2:
            stage.status = "stopped"
            stage.note = f"not tried at n = {n:,}: a call would take about {guess:.1f} s"
            if run.profile is not None:  # what the judge asks: does the largest n fit?
                _largest(run, result, top)
            return
        if run.now() + guess * count * 2 > until:
            stage.status, stage.cut = "stopped", True
            why = "the wall-clock backstop" if run.backstop else "the budget"
            stage.note = f"{why} ended it before n = {n:,}"
            return
        slowest = 0.0
        for _ in range(count):
            row = run.random_row(n)
            outcome = run.runner.run([row])[0]
            if outcome.kind in ("timeout", "memory") and n > 100:
                stage.status = "stopped"
                limit = "time" if outcome.kind == "timeout" else "memory"
                stage.note = f"stopped at n = {n:,}: over the {limit} limit per call"
                run.slow_at = n
                return
            if outcome.kind == "timeout":
                stage.status = "stopped"
                stage.note = f"stopped at n = {n:,}: over the time limit per call (slow)"
                run.slow_at = n
                return
            stage.rows += 1
            stage.largest_n = n
            kind = judge(outcome, expected_answer(row, run.answer), run.answer)
            if kind is not None:
                stage.status = "failed"
                fail(run, result, "random", tuple(row), outcome, kind)
                return
            slowest = max(slowest, outcome.seconds)
        times.append((n, slowest))


def _largest(run: CheckRun, result: CheckResult, top: int) -> None:
    """One row of the problem's largest n, within the time limit: a judge's verdict there."""
    stage = result.stage("random")
    row = run.random_row(top)
    outcome = run.runner.run([row])[0]
    if outcome.kind in ("timeout", "memory"):
        run.slow_at = top
        limit = "time" if outcome.kind == "timeout" else "memory"
        stage.note += f"; over the {limit} limit at n = {top:,}"
        return
    stage.rows += 1
    stage.largest_n = top
    kind = judge(outcome, expected_answer(row, run.answer), run.answer)
    if kind is not None:
        stage.status = "failed"
        fail(run, result, "random", tuple(row), outcome, kind)
        return
    stage.note += f"; right within the time limit at n = {top:,}"


def _next_time(times: list[tuple[int, float]], n: int) -> float:
    """The time of a call at n extrapolated from the last two sizes (slope at least 1)."""
    if not times:
        return 0.0
    if len(times) == 1:
        return times[-1][1] * (n / times[-1][0]) ** 2
    (n1, t1), (n2, t2) = times[-2], times[-1]
    slope = max(1.0, math.log(max(t2, 1e-6) / max(t1, 1e-6)) / math.log(n2 / n1))
    guess: float = t2 * (n / n2) ** slope
    return guess


# ---------------------------------------------------------------------------------------
# Shrinking and diagnosis


def fail(
    run: CheckRun,
    result: CheckResult,
    stage: str,
    row: tuple[Value, ...],
    outcome: Outcome,
    kind: str,
) -> None:
    for later in result.stages[STAGES.index(stage) + 1 :]:
        later.status = "skipped"
    run.progress("shrinking the failing row and diagnosing")
    deadline = run.now() + max(run.left(), run.options.budget / 5)
    found_n = len(row)
    smallest, outcome, kind = shrink(run, stage, row, outcome, kind, deadline)
    expected = expected_answer(smallest, run.answer)
    line = solve(list(smallest)).line if len(smallest) <= 10_000 else ""
    right = kind == "mutated" and judge(replace(outcome, mutated=False), expected, run.answer)
    origin = _origin(run, stage, row, smallest)
    result.failure = Failure(
        stage=stage,
        kind=kind,
        coins=smallest,
        expected=expected,
        got=outcome.value,
        error=outcome.error,
        message=outcome.message,
        optimal_line=line,
        found_n=found_n,
        origin=origin,
        right=kind == "mutated" and right is None,
    )
    result.diagnosis = diagnose(run, result.failure, outcome, deadline)


def _origin(
    run: CheckRun, stage: str, found: tuple[Value, ...], smallest: tuple[Value, ...]
) -> str:
    """Where the smallest failing row comes from, in words."""
    for seed in SEEDS:
        if seed.coins == smallest:
            return f"a worked example: {seed.source}"
    if smallest in EDGE_ROWS or smallest in EXACT_ROWS:
        return "an edge case"
    small = len(smallest) <= run.options.max_length
    if small and all(type(c) is int and c in run.options.alphabet for c in smallest):
        values = ", ".join(str(c) for c in sorted(run.options.alphabet))
        return f"the first failing row of every row over {values}"
    if smallest == found:
        return f"a random row of the {stage} stage"
    return f"shrunk from a failing row of {len(found):,} coins ({stage} stage)"
