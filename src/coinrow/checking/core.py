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
import shlex
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import CheckTargetError, InvalidOptionError
from .answers import ANSWERS, expected_answer, judge
from .isolation import Runner
from .loading import ANSWER_OF_NAME, Target, parse_target
from .measuring import count_calls, measure_growth, probe_recursion, probe_sizes
from .profiles import PROFILES, Profile, judge_says, profile_named
from .programs import COMPILERS, compile_program
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
    solver: Callable[..., Any] | str | Target | None = None,
    *,
    answer: str | None = None,
    problem: str | None = None,
    command: str | Sequence[str] | None = None,
    options: Options | None = None,
    progress: Callable[[str], None] | None = None,
    **settings: Any,
) -> CheckResult:
    """Check a solver for the coins game: ``solver`` is a function (or a method's class
    instance-free function), or the text ``FILE.py[:FUNCTION]`` / ``module:function``, or a
    C/C++ file (a program: needs ``problem``); ``command``: a program already built, run
    as it is. ``answer``: one of :data:`ANSWERS` (default: the problem's, else from the
    function's name, else ``"total"``). ``problem``: a profile of
    :data:`~coinrow.checking.profiles.PROFILES` (the site's answer, input format, limits on n
    and on the coins, and time limit; the result says what its judge would say).
    ``settings`` are :class:`Options` fields (``budget=5``, ``time_limit=1``). Runs in a
    child process within the budget (CPU seconds): O(budget). ``progress``, when given, is
    called with a few words at each step (``"stage seeds"``, ``"shrinking"``...).

    Raises :class:`coinrow.CheckTargetError` when the solver cannot be loaded or takes the
    wrong arguments.

    >>> def total(coins):
    ...     return max(coins) if len(coins) == 1 else max(
    ...         coins[0] + sum(coins[1:]) - total(coins[1:]),
    ...         coins[-1] + sum(coins[:-1]) - total(coins[:-1]))
    >>> result = check(total, budget=3, max_length=4, complexity=False, max_n=100)
    >>> result.passed, result.function, [s.status for s in result.stages][:3]
    (True, 'total', ['passed', 'passed', 'passed'])
    """
    if options is not None and settings:
        raise InvalidOptionError("give either options or settings, not both")
    opts = options if options is not None else Options(**settings)
    if answer is not None and answer not in ANSWERS:
        raise InvalidOptionError(f"unknown answer {answer!r}; choose one of: {', '.join(ANSWERS)}")
    profile = profile_named(problem or opts.problem) if (problem or opts.problem) else None
    if profile is not None:
        opts = replace(
            opts,
            problem=profile.name,
            max_n=profile.max_n,
            depth_n=profile.max_n,
            alphabet=profile.alphabet,
            time_limit=opts.time_limit
            if options is not None or "time_limit" in settings
            else profile.seconds,
        )
    with tempfile.TemporaryDirectory(prefix="coinrow-check-") as folder:
        target = _target(solver, command, profile, answer, Path(folder))
        if target.program == "command":
            opts = replace(opts, max_length=min(opts.max_length, 6))  # a process per row
        return _check(target, answer, profile, opts, progress)


def _target(
    solver: Callable[..., Any] | str | Target | None,
    command: str | Sequence[str] | None,
    profile: Profile | None,
    answer: str | None,
    folder: Path,
) -> Target:
    """What to run: a function, a file's function, or a program (compiled here if need be)."""
    chosen = answer or (profile.answer if profile is not None else "total")
    if command is not None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise InvalidOptionError("the command is empty")
        if profile is None or profile.input == "function":
            raise InvalidOptionError("a program needs a problem that reads standard input")
        label = command if isinstance(command, str) else shlex.join(argv)
        return Target(label=label, program="command", command=tuple(argv), answer=chosen)
    if isinstance(solver, Target):
        target = solver
    elif isinstance(solver, str):
        target = parse_target(solver)
    else:
        if not callable(solver):
            raise InvalidOptionError("the solver must be a function or 'FILE.py[:FUNCTION]'")
        label = getattr(solver, "__qualname__", getattr(solver, "__name__", repr(solver)))
        return Target(label=label, function=solver)
    path = target.path
    if path is None or target.program:
        return target
    reads_input = profile is not None and profile.input != "function"
    if path.suffix in COMPILERS:
        if not reads_input:
            shown = ", ".join(p for p, f in PROFILES.items() if f.input != "function")
            raise CheckTargetError(
                f"{path}: a program needs a problem that says its input format ({shown})"
            )
        binary = compile_program(path, folder)
        return replace(target, program="command", command=(str(binary),), answer=chosen)
    if reads_input and not target.name:
        return replace(target, program="python", answer=chosen)
    return target


def _check(
    target: Target,
    answer: str | None,
    profile: Profile | None,
    opts: Options,
    progress: Callable[[str], None] | None,
) -> CheckResult:
    with Runner(target, time_limit=opts.time_limit, memory_limit=opts.memory_limit) as runner:
        loaded = runner.loaded
        assert loaded is not None
        short = loaded.function.rpartition(".")[2]
        if answer is not None:
            chosen, source = answer, "given"
        elif profile is not None:
            chosen, source = profile.answer, f"from the problem {profile.name}"
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
            problem=profile.name if profile is not None else "",
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
        if profile is not None:
            f = result.failure
            reached = max(s.largest_n for s in result.stages)
            result.judge_says = judge_says(
                profile,
                kind=f.kind if f else None,
                n=len(f.coins) if f else 0,
                error=f.error if f else "",
                reached=reached,
                slow_at=run.slow_at,
            )
        result.seconds = time.monotonic() - run.start
        result.cpu_seconds = run.now() if not run.backstop else math.nan
    return result
