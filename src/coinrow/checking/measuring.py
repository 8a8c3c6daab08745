"""What is measured of a solver that passed: whether it recurses, extra sizes, growth and
calls."""

from __future__ import annotations

import math

from .answers import expected_answer, judge
from .growth import Growth, calls_note, name_exponential, name_power
from .results import CheckResult
from .run import CheckRun

# ---------------------------------------------------------------------------------------
# Recursion, sizes and growth


def probe_recursion(run: CheckRun, result: CheckResult) -> None:
    got = run.runner.count_calls(run.random_row(12))
    if isinstance(got, tuple):
        result.recursive = got[1] >= 2


def probe_sizes(run: CheckRun, result: CheckResult) -> None:
    for n in run.options.sizes:
        row = run.random_row(n)
        outcome = run.runner.run([row])[0]
        kind = judge(outcome, expected_answer(row, run.answer), run.answer)
        result.sizes[n] = "passed" if kind is None else kind


#: The longest row the growth fit times.
MAX_GROWTH_N = 1 << 21


#: Timed calls per size of the growth fit while a call is short (the fastest counts).
REPEATS = 5


def measure_growth(run: CheckRun, result: CheckResult) -> Growth:
    opts = run.options
    deadline = max(run.mark(0.95), run.now() + max(opts.budget / 4, 2.0))
    cap = min(0.25, max(0.01, opts.budget / 60), opts.time_limit / 4)
    points: list[tuple[int, float]] = []
    exponential = False
    n = 8
    if not opts.complexity:  # only the calls are counted
        growth = Growth("not measured", math.nan, math.nan, math.nan, [], "timing off")
        n = MAX_GROWTH_N + 1
    while n <= MAX_GROWTH_N and run.now() < deadline:
        row = run.random_row(n)
        outcome = run.runner.time_call(row)
        if outcome.kind != "ok":
            break
        t = max(outcome.seconds, 1e-7)
        for _ in range(REPEATS - 1 if t < cap / 8 else 0):  # one call's time is noisy:
            again = run.runner.time_call(row)  # the best of a few, as timeit does
            if again.kind == "ok":
                t = min(t, max(again.seconds, 1e-7))
        if points and n <= 64 and t > 32 * points[-1][1] and t > 2e-4:
            exponential = True
            break
        points.append((n, t))
        if t > cap or run.now() + 8 * t * 4 > deadline:
            break
        n *= 2
    if exponential:
        points = []
        n = 4
        deadline = max(deadline, run.now() + 1.0)
        while run.now() < deadline:
            outcome = run.runner.time_call(run.random_row(n))
            if outcome.kind != "ok":
                break
            points.append((n, max(outcome.seconds, 1e-7)))
            if outcome.seconds > cap / 4:
                break
            n += 2
        usable = [p for p in points if p[1] >= 5e-5] or points
        growth = (
            name_exponential(usable[-8:])
            if len(usable) >= 3
            else Growth("exponential", math.nan, math.nan, math.nan, points, "few points")
        )
    elif opts.complexity:
        usable = [p for p in points if p[1] >= 5e-5][-6:]
        if len(usable) < 3:
            usable = points[-4:]
        if len(usable) < 3:
            growth = Growth("unknown", math.nan, math.nan, math.nan, points, "too few sizes")
        else:
            growth = name_power(usable)
            growth.points = points
    growth.calls, growth.calls_note = result.calls, result.calls_note
    growth.recursive = result.recursive
    return growth


def count_calls(run: CheckRun, result: CheckResult) -> None:
    """Count the solver's calls on growing rows (``result.calls``, ``result.calls_note``):
    deterministic, so a rubric can judge memoisation by it whatever the machine's load."""
    run.progress("counting calls")
    deadline = run.now() + max(run.options.budget * 0.1, 1.0)
    counts: list[tuple[int, int]] = []
    recursive = False
    for n in (8, 10, 12, 14, 16, 32, 64):
        if run.now() > deadline:
            break
        if n == 32 and len(counts) >= 2:
            note = calls_note(counts[-2:], recursive)
            if "missing" in note or not recursive:
                break
        got = run.runner.count_calls(run.random_row(n))
        if not isinstance(got, tuple):
            break
        counts.append((n, got[0]))
        recursive = recursive or got[1] >= 2
    result.calls = counts
    if len(counts) >= 2:
        result.calls_note = calls_note(counts[-2:], recursive)
