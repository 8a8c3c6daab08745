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

import html
import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..engines import reduction
from ..errors import InvalidOptionError
from ..numbers import Value, format_value, json_fields, json_value
from ..solution import solve
from ..strategies import greedy_total
from .growth import Growth, calls_note, name_exponential, name_power
from .isolation import ANSWER_OF_NAME, Outcome, Runner, Target, Unsendable, parse_target

#: The answer conventions: the first player's optimal total (GeeksforGeeks, the tutorials),
#: the margin first minus second (EDPC L), "does the first player win" (LeetCode 877) and
#: "does the first player win or tie" (LeetCode 486).
ANSWERS = ("total", "margin", "wins", "wins-or-ties")

#: The stages, in order.
STAGES = ("seeds", "edge", "exhaustive", "random")


@dataclass(frozen=True)
class Seed:
    """A worked example from the seed documents and where it comes from."""

    coins: tuple[int, ...]
    source: str


#: The seeds' worked examples (the first player's optimal totals are 15, 22, 8, 5 and 7).
SEEDS = (
    Seed((5, 3, 7, 10), "the graded notebook and GeeksforGeeks: 15"),
    Seed((8, 15, 3, 7), "the graded notebook and GeeksforGeeks: 22, not greedy's 15"),
    Seed((3, 2, 2, 3, 1, 2), "'Coins in a Line': 8, more than the parity strategy's 7"),
    Seed((1, 2, 4, 3), "the triangle tutorial: 5"),
    Seed((1, 2, 2, 1, 2, 1, 1, 2), "the triangle tutorial's tie counterexample 12212112"),
)

BIG = 2**64 + 1

#: Edge rows, in the order tried.
EDGE_ROWS: tuple[tuple[Value, ...], ...] = (
    (7,),
    (0,),
    (2, 9),
    (9, 2),
    (4, 4),
    (5, 5, 5),
    (3, 3, 3, 3),
    (0, 0, 0),
    (1, 5, 2),
    (4, 1, 8, 2, 6),
    (-3,),
    (-2, -7),
    (5, -1, 3),
    (-4, 2, -6, 1),
    (BIG, 3),
    (3, 2**63, 2**63 - 1, 1),
    (10**30, 10**30 + 7, 1, 10**20),
)

#: Edge rows tried with ``exact``: Decimal and Fraction coins.
EXACT_ROWS: tuple[tuple[Value, ...], ...] = (
    (Decimal("0.1"), Decimal("0.2"), Decimal("0.3")),
    (Decimal("2.5"), Decimal("-1.25"), Decimal("3"), Decimal("0.75")),
    (Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)),
)

#: Random-stage sizes and rows per size.
RANDOM_SIZES = (10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)


def _rows_per_size(n: int) -> int:
    return 20 if n <= 100 else 2 if n <= 100_000 else 1


@dataclass(frozen=True)
class Options:
    """How hard to check. ``time_limit``: seconds per call; ``memory_limit``: bytes the
    child may add; ``budget``: seconds for the whole check (stages share it: exhaustive up to
    25 %, random up to 50 %, growth up to 95 % and at least a quarter of it or 2 s;
    shrinking and diagnosis may use what is left, and at least a fifth); ``alphabet`` and
    ``max_length``: the exhaustive family;
    ``max_n``: the longest random row; ``exact``: also Decimal and Fraction rows;
    ``complexity``: fit the growth; ``count_calls``: count the solver's calls too;
    ``sizes``: also try one random row of each of these lengths (the rubric's "memoised");
    ``seed``: the random rows' seed."""

    time_limit: float = 2.0
    memory_limit: int = 1 << 30
    budget: float = 60.0
    alphabet: tuple[int, ...] = (0, 1, 2, 3)
    max_length: int = 8
    max_n: int = 1_000_000
    exact: bool = False
    complexity: bool = True
    count_calls: bool = False
    sizes: tuple[int, ...] = ()
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.time_limit <= 3600:
            raise InvalidOptionError("the time limit per call must be over 0 and at most 3600 s")
        if not 0 < self.budget <= 86400:
            raise InvalidOptionError("the budget must be over 0 and at most 86400 s")
        if self.memory_limit < 1 << 24:
            raise InvalidOptionError("the memory limit must be at least 16 MiB")
        if not 1 <= self.max_length <= 12 or not self.alphabet:
            raise InvalidOptionError(
                "the exhaustive length must be 1 to 12, the alphabet not empty"
            )
        if not 10 <= self.max_n <= 10_000_000:
            raise InvalidOptionError("the longest random row must be 10 to 10,000,000 coins")


@dataclass
class StageResult:
    """One stage: ``status`` is ``passed``, ``failed``, ``stopped`` (its budget or the time
    limit ended it; what ran passed) or ``skipped``; ``rows`` tried; ``largest_n``."""

    name: str
    status: str = "skipped"
    rows: int = 0
    largest_n: int = 0
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1))."""
        return json_fields(self)


@dataclass
class Failure:
    """The smallest failing row found: what was expected, what came back.

    ``kind``: ``wrong`` (a wrong answer), ``wrong_type``, ``raised``, ``timeout``, ``crash``,
    ``memory``, ``mutated`` (changed its input). ``found_n``: the length of the row the
    stage failed on, before shrinking."""

    stage: str
    kind: str
    coins: tuple[Value, ...]
    expected: Value | bool
    got: Any
    error: str
    message: str
    optimal_line: str
    found_n: int

    @property
    def got_text(self) -> str:
        """The function's answer as text (O(size))."""
        if self.kind in ("raised", "memory"):
            return f"raised {self.error}" + (f": {self.message}" if self.message else "")
        if self.kind in ("timeout", "crash"):
            return {"timeout": "no answer (time limit)", "crash": self.message}[self.kind]
        return _value_text(self.got)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n))."""
        return {
            "stage": self.stage,
            "kind": self.kind,
            "coins": [json_value(coin) for coin in self.coins],
            "n": len(self.coins),
            "expected": _json_answer(self.expected),
            "got": _json_answer(self.got) if self.kind in ("wrong", "mutated") else None,
            "got_text": self.got_text,
            "error": self.error,
            "message": self.message,
            "optimal_line": self.optimal_line,
            "found_n": self.found_n,
        }


def row_text(coins: Sequence[Value], shown: int = 20) -> str:
    """A row as ``[1, 2, 3]``, or its first and last coins and its length when long (O(1)).

    >>> row_text([1, 2, 3]), row_text(range(100), 4)
    ('[1, 2, 3]', '[0, 1, ..., 98, 99] (100 coins)')
    """
    if len(coins) <= shown:
        return "[" + ", ".join(format_value(c) for c in coins) + "]"
    half = shown // 2
    head = ", ".join(format_value(c) for c in coins[:half])
    tail = ", ".join(format_value(c) for c in coins[-half:])
    return f"[{head}, ..., {tail}] ({len(coins):,} coins)"


def _value_text(value: Any) -> str:
    if isinstance(value, Unsendable):
        return f"a {value.type_name} (cannot be shown)"
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, (int, Decimal, Fraction)):
        return format_value(value)
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _json_answer(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, Decimal, Fraction)):
        return json_value(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return _value_text(value)


@dataclass(frozen=True)
class Diagnosis:
    """One finding in words, with a stable ``code``."""

    code: str
    text: str

    def to_dict(self) -> dict[str, str]:
        """JSON-ready form (O(1))."""
        return json_fields(self)


@dataclass
class CheckResult:
    """Everything a check found. ``passed``: every stage passed (a growth is reported, not
    judged). ``function``: the function checked; ``picked``: it was found by its name among
    the usual ones; ``answer``: the convention judged, ``answer_from``: ``"given"``,
    ``"default"`` or the function's name. ``recursive``: the solver's own functions recursed
    on 12 coins (None when not measured). ``sizes``: outcome per extra size tried."""

    target: str
    function: str
    picked: bool
    answer: str
    answer_from: str
    stages: list[StageResult]
    failure: Failure | None = None
    diagnosis: list[Diagnosis] = field(default_factory=list)
    growth: Growth | None = None
    recursive: bool | None = None
    sizes: dict[int, str] = field(default_factory=dict)
    seconds: float = 0.0
    options: Options = field(default_factory=Options)

    @property
    def passed(self) -> bool:
        """True when no stage failed (O(1))."""
        return self.failure is None

    def stage(self, name: str) -> StageResult:
        """The stage called ``name`` (O(1))."""
        return next(stage for stage in self.stages if stage.name == name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with the keys documented in docs/check.md (O(size))."""
        return {
            "target": self.target,
            "function": self.function,
            "picked": self.picked,
            "answer": self.answer,
            "answer_from": self.answer_from,
            "passed": self.passed,
            "stages": [stage.to_dict() for stage in self.stages],
            "failure": self.failure.to_dict() if self.failure else None,
            "diagnosis": [d.to_dict() for d in self.diagnosis],
            "growth": self.growth.to_dict() if self.growth else None,
            "recursive": self.recursive,
            "sizes": {str(n): status for n, status in self.sizes.items()},
            "seconds": round(self.seconds, 3),
        }

    def summary(self) -> str:
        """One line: ``solve passed (O(n^2))`` or ``solve failed on [8, 15]: ...`` (O(n))."""
        if self.failure is None:
            growth = f" ({self.growth.growth})" if self.growth else ""
            return f"{self.function} passed{growth}"
        f = self.failure
        coins = row_text(f.coins)
        words = "; ".join(d.text for d in self.diagnosis)
        return (
            f"{self.function} failed on {coins}: expected {_value_text(f.expected)}, "
            f"got {f.got_text}" + (f" ({words})" if words else "")
        )

    def text(self) -> str:
        """The report as plain text (O(n^2) for the triangle of the failing row)."""
        lines = [
            f"{self.target}: {self.function}"
            + (" (found by its name)" if self.picked else "")
            + f", answer {self.answer} ({self.answer_from})"
        ]
        for stage in self.stages:
            lines.append(
                f"  {stage.name:<11} {stage.status:<8} {stage.rows:>7,} rows, "
                f"up to n = {stage.largest_n:,}" + (f"  {stage.note}" if stage.note else "")
            )
        if self.failure is not None:
            f = self.failure
            lines.append(f"smallest failing row: {row_text(f.coins)}")
            lines.append(f"  expected {_value_text(f.expected)}, got {f.got_text}")
            if f.optimal_line:
                lines.append(f"  one optimal line: {f.optimal_line}")
        lines += [f"diagnosis: {d.text}" for d in self.diagnosis]
        if self.growth is not None:
            lines.append(f"growth: {self.growth.text()}")
            if self.growth.calls_note:
                lines.append(f"calls: {self.growth.calls_note}")
        lines.append("PASSED" if self.passed else "FAILED")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<CheckResult: {self.summary()}>"

    def _repr_html_(self) -> str:
        return html_report(self)


def html_report(result: CheckResult, extra: str = "") -> str:
    """The report as an HTML fragment with the failing row's triangle (O(n^2))."""
    from ..svg import repr_html

    e = html.escape
    verdict = "passed" if result.passed else "failed"
    colour = "#1a7f37" if result.passed else "#b3261e"
    parts = [
        f'<div class="coinrow-check"><p><strong>{e(result.function)}</strong> '
        f'(answer: {e(result.answer)}): <strong style="color:{colour}">{verdict}</strong></p>',
        "<table><thead><tr><th>stage</th><th>status</th><th>rows</th><th>largest n</th>"
        "<th>note</th></tr></thead><tbody>",
    ]
    for s in result.stages:
        parts.append(
            f"<tr><td>{e(s.name)}</td><td>{e(s.status)}</td><td>{s.rows:,}</td>"
            f"<td>{s.largest_n:,}</td><td>{e(s.note)}</td></tr>"
        )
    parts.append("</tbody></table>")
    f = result.failure
    if f is not None:
        parts.append(
            f"<p>Smallest failing row: <code>{e(row_text(f.coins))}</code>; expected "
            f"<code>{e(_value_text(f.expected))}</code>, got <code>{e(f.got_text)}</code>"
            + (f"; one optimal line <code>{e(f.optimal_line)}</code>" if f.optimal_line else "")
            + "</p>"
        )
        parts.append(repr_html(row_text(f.coins), f.coins, highlight=f.optimal_line or None))
    if result.diagnosis:
        parts.append("<ul>" + "".join(f"<li>{e(d.text)}</li>" for d in result.diagnosis))
        parts.append("</ul>")
    if result.growth is not None:
        parts.append(f"<p>Growth: {e(result.growth.text())}</p>")
        if result.growth.calls_note:
            parts.append(f"<p>Calls: {e(result.growth.calls_note)}</p>")
    parts.append(extra + "</div>")
    return "".join(parts)


# ---------------------------------------------------------------------------------------
# Answers


def expected_answer(coins: Sequence[Value], answer: str) -> Value | bool:
    """Coinrow's answer in a convention (O(n)).

    >>> [expected_answer([8, 15, 3, 7], a) for a in ANSWERS]
    [22, 11, True, True]
    """
    row = list(coins)
    if row and all(type(c) is int for c in row):
        margin: Value = reduction.margin(row)
        first: Value = (sum(row) + margin) // 2
    else:
        solution = solve(row)
        margin, first = solution.margin, solution.first_total
    return _convert(first, margin, answer)


def _convert(first: Value, margin: Value, answer: str) -> Value | bool:
    if answer == "total":
        return first
    if answer == "margin":
        return margin
    if answer == "wins":
        return margin > 0
    return margin >= 0


def judge(outcome: Outcome, expected: Value | bool, answer: str) -> str | None:
    """The failure kind of an outcome, or None when it is right (O(1)).

    >>> judge(Outcome("ok", 22.0), 22, "total"), judge(Outcome("ok", True), 22, "total")
    (None, 'wrong_type')
    """
    if outcome.kind != "ok":
        return outcome.kind
    if outcome.mutated:
        return "mutated"
    value = outcome.value
    if answer in ("wins", "wins-or-ties"):
        if isinstance(value, bool) or (type(value) is int and value in (0, 1)):
            return None if bool(value) == expected else "wrong"
        return "wrong_type"
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, Fraction)):
        return "wrong_type"
    try:
        return None if value == expected else "wrong"
    except (TypeError, ArithmeticError):
        return "wrong"


# ---------------------------------------------------------------------------------------
# The run


class _Run:
    """One check in progress: the runner, the answer convention and the clock."""

    def __init__(
        self,
        runner: Runner,
        answer: str,
        options: Options,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.progress = progress or (lambda text: None)
        self.runner = runner
        self.answer = answer
        self.options = options
        self.start = time.monotonic()
        self.rng = random.Random(options.seed)

    def until(self, share: float) -> float:
        return self.start + share * self.options.budget

    def left(self) -> float:
        return self.start + self.options.budget - time.monotonic()

    def outcomes(
        self, rows: Iterable[Sequence[Value]], deadline: float, chunk: int = 1024
    ) -> Iterator[tuple[tuple[Value, ...], Outcome, str | None]]:
        """(row, outcome, failure kind) for each row tried, until the deadline."""
        iterator = iter(rows)
        while time.monotonic() < deadline:
            batch = [tuple(row) for row in itertools.islice(iterator, chunk)]
            if not batch:
                return
            position = 0
            while position < len(batch):
                got = self.runner.run(batch[position:])
                for row, outcome in zip(batch[position:], got, strict=False):
                    yield (
                        row,
                        outcome,
                        judge(outcome, expected_answer(row, self.answer), self.answer),
                    )
                position += len(got)

    def fails(self, row: Sequence[Value]) -> tuple[Outcome, str] | None:
        outcome = self.runner.run([row])[0]
        kind = judge(outcome, expected_answer(row, self.answer), self.answer)
        return None if kind is None else (outcome, kind)


def family(alphabet: Sequence[int], max_length: int) -> Iterator[tuple[int, ...]]:
    """Every row over ``alphabet``, by length 1, 2, ... then lexicographically: refute's
    family order (O(1) per row).

    >>> list(family([0, 1], 2))
    [(0,), (1,), (0, 0), (0, 1), (1, 0), (1, 1)]
    """
    for length in range(1, max_length + 1):
        yield from itertools.product(sorted(alphabet), repeat=length)


def check(
    solver: Callable[..., Any] | str,
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
    if isinstance(solver, str):
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
        )
        run = _Run(runner, chosen, opts, progress)
        _stages(run, result)
        if result.failure is None:
            _probe_recursion(run, result)
            _probe_sizes(run, result)
            if opts.complexity or opts.count_calls:
                run.progress("timing on growing rows")
                result.growth = _growth(run, result)
        result.seconds = time.monotonic() - run.start
    return result


def _stages(run: _Run, result: CheckResult) -> None:
    opts = run.options
    sources: list[tuple[str, Iterable[Sequence[Value]], float]] = [
        ("seeds", [seed.coins for seed in SEEDS], math.inf),
        ("edge", [*EDGE_ROWS, *(EXACT_ROWS if opts.exact else ())], math.inf),
        ("exhaustive", family(opts.alphabet, opts.max_length), run.until(0.25)),
    ]
    for name, rows, deadline in sources:
        run.progress(f"stage {name}")
        stage = result.stage(name)
        stage.status = "passed"
        for row, outcome, kind in run.outcomes(rows, deadline):
            stage.rows += 1
            stage.largest_n = max(stage.largest_n, len(row))
            if kind is not None:
                stage.status = "failed"
                _fail(run, result, name, row, outcome, kind)
                return
        if name == "exhaustive" and time.monotonic() >= deadline:
            stage.status = "stopped"
            stage.note = f"budget ended during length {stage.largest_n}"
    _random_stage(run, result)


def _random_row(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(-1_000_000, 1_000_000) for _ in range(n)]


def _random_stage(run: _Run, result: CheckResult) -> None:
    run.progress("stage random")
    stage = result.stage("random")
    stage.status = "passed"
    deadline = run.until(0.5)
    times: list[tuple[int, float]] = []
    for n in RANDOM_SIZES:
        if n > run.options.max_n:
            break
        guess = _next_time(times, n)
        count = _rows_per_size(n)
        if guess > run.options.time_limit / 2:
            stage.status = "stopped"
            stage.note = f"not tried at n = {n:,}: a call would take about {guess:.1f} s"
            return
        if time.monotonic() + guess * count * 2 > deadline:  # wall time on a busy machine
            stage.status = "stopped"
            stage.note = f"budget ended before n = {n:,}"
            return
        slowest = 0.0
        for _ in range(count):
            row = _random_row(run.rng, n)
            outcome = run.runner.run([row])[0]
            if outcome.kind in ("timeout", "memory") and n > 100:
                stage.status = "stopped"
                limit = "time" if outcome.kind == "timeout" else "memory"
                stage.note = f"stopped at n = {n:,}: over the {limit} limit per call"
                return
            if outcome.kind == "timeout":
                stage.status = "stopped"
                stage.note = f"stopped at n = {n:,}: over the time limit per call (slow)"
                return
            stage.rows += 1
            stage.largest_n = n
            kind = judge(outcome, expected_answer(row, run.answer), run.answer)
            if kind is not None:
                stage.status = "failed"
                _fail(run, result, "random", tuple(row), outcome, kind)
                return
            slowest = max(slowest, outcome.seconds)
        times.append((n, slowest))


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


def _fail(
    run: _Run,
    result: CheckResult,
    stage: str,
    row: tuple[Value, ...],
    outcome: Outcome,
    kind: str,
) -> None:
    for later in result.stages[STAGES.index(stage) + 1 :]:
        later.status = "skipped"
    run.progress("shrinking the failing row and diagnosing")
    deadline = time.monotonic() + max(run.left(), run.options.budget / 5)
    found_n = len(row)
    smallest, outcome, kind = _shrink(run, stage, row, outcome, kind, deadline)
    expected = expected_answer(smallest, run.answer)
    line = solve(list(smallest)).line if len(smallest) <= 10_000 else ""
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
    )
    result.diagnosis = _diagnose(run, result.failure, outcome, deadline)


def _shrink(
    run: _Run,
    stage: str,
    row: tuple[Value, ...],
    outcome: Outcome,
    kind: str,
    deadline: float,
) -> tuple[tuple[Value, ...], Outcome, str]:
    """The first failing row of the exhaustive family up to this row's length (unless the
    exhaustive stage already passed that far), else the row cut and its coins lowered while
    it still fails."""
    best: tuple[tuple[Value, ...], Outcome, str] = (row, outcome, kind)
    if stage in ("seeds", "edge"):
        length = min(len(row), run.options.max_length)
        for candidate, got, failed in run.outcomes(family(run.options.alphabet, length), deadline):
            if failed is not None:
                return candidate, got, failed
    if stage == "exhaustive":
        return best

    def still(candidate: tuple[Value, ...]) -> bool:
        nonlocal best
        if not candidate or time.monotonic() > deadline:
            return False
        found = run.fails(candidate)
        if found is None or found[1] != kind or found[0].error != outcome.error:
            return False  # passes, or fails another way (a timeout while shrinking...)
        best = (candidate, found[0], found[1])
        return True

    current = row
    if len(current) > 16 and still(tuple(0 * coin for coin in current)):
        current = best[0]  # a long row of zeros: its length is what fails
    # Long rows: the shortest failing prefix by bisection.
    if len(current) > 64:
        low, high = 1, len(current)
        while low < high and time.monotonic() < deadline:
            middle = (low + high) // 2
            if still(current[:middle]):
                high = middle
            else:
                low = middle + 1
        current = best[0]
    if len(current) <= 64:
        chunk = max(1, len(current) // 2)
        while chunk >= 1 and time.monotonic() < deadline:
            i = 0
            while i < len(current) and time.monotonic() < deadline:
                candidate = current[:i] + current[i + chunk :]
                if still(candidate):
                    current = candidate
                else:
                    i += chunk
            chunk //= 2
    if len(current) <= 16:
        changed = True
        while changed and time.monotonic() < deadline:
            changed = False
            for i, coin in enumerate(current):
                for smaller in _smaller(coin):
                    candidate = (*current[:i], smaller, *current[i + 1 :])
                    if still(candidate):
                        current, changed = candidate, True
                        break
    return best


def _smaller(coin: Value) -> list[Value]:
    """Simpler coins to try in place of ``coin``, simplest first."""
    options: list[Value] = [0, 1, -1, 2, 3]
    if isinstance(coin, int) and abs(coin) > 2**53 + 1:
        options.append(2**53 + 1 if coin > 0 else -(2**53) - 1)
    if isinstance(coin, int):
        options.append(coin // 2 if coin >= 0 else -((-coin) // 2))
    seen: list[Value] = []
    for option in options:
        if (abs(option), option < 0) < (abs(coin), coin < 0) and option not in seen:
            seen.append(option)
    return seen


def _hypotheses() -> list[tuple[str, str, Callable[[tuple[Value, ...]], Value]]]:
    """Wrong answers a solver may give: (code, words, the first player's "total" it seems to
    return)."""

    def optimal(row: tuple[Value, ...]) -> Value:
        return solve(list(row)).first_total if row else 0

    return [
        ("greedy", "takes the larger end (greedy)", _both_greedy),
        ("greedy", "takes the larger end (greedy) against an optimal opponent", greedy_total),
        (
            "parity",
            "adds up the odd or the even positions (the parity strategy guarantees a tie or "
            "better, not the most)",
            lambda row: max(sum(row[0::2]), sum(row[1::2])),
        ),
        (
            "without_last",
            "answers for the row without its last coin (an off-by-one in the table's bounds)",
            lambda row: optimal(row[:-1]),
        ),
        (
            "without_first",
            "answers for the row without its first coin (an off-by-one in the table's bounds)",
            lambda row: optimal(row[1:]),
        ),
        ("sum", "returns the sum of all coins", lambda row: sum(row)),
    ]


def _both_greedy(row: tuple[Value, ...]) -> Value:
    """The first player's total when both take the larger end (left on equality)."""
    lo, hi, turn = 0, len(row) - 1, 0
    values: list[Any] = [0, 0]
    while lo <= hi:
        if row[lo] >= row[hi]:
            coin, lo = row[lo], lo + 1
        else:
            coin, hi = row[hi], hi - 1
        values[turn] = values[turn] + coin
        turn = 1 - turn
    result: Value = values[0]
    return result


def _diagnose(run: _Run, failure: Failure, outcome: Outcome, deadline: float) -> list[Diagnosis]:
    found: list[Diagnosis] = []
    n = len(failure.coins)
    kind = failure.kind
    limit = run.options.time_limit
    if kind == "mutated":
        found.append(Diagnosis("mutates_input", "changes its input (the list of coins)"))
    elif kind == "raised" and failure.error == "RecursionError":
        found.append(Diagnosis("recursion", f"recursion depth exceeded at n = {n:,}"))
    elif kind == "raised":
        found.append(Diagnosis("raises", f"raises {failure.error} on {_coins(n)}"))
    elif kind == "timeout":
        found.append(Diagnosis("timeout", f"does not return within {limit:g} s on {_coins(n)}"))
    elif kind == "crash":
        found.append(Diagnosis("crash", f"its process died on {_coins(n)}"))
    elif kind == "memory":
        size = run.options.memory_limit / 2**20
        found.append(Diagnosis("memory", f"runs out of memory ({size:,.0f} MiB) on {_coins(n)}"))
    elif kind == "wrong_type":
        wanted = "True or False" if run.answer in ("wins", "wins-or-ties") else "a number"
        found.append(Diagnosis("wrong_type", f"returns {failure.got_text}, not {wanted}"))
    if kind in ("timeout", "crash", "memory"):
        return found
    observations = _probe(run, failure, deadline)
    found += _explain(run.answer, observations, failure)
    if not found:
        found.append(
            Diagnosis("unexplained", "no simple pattern found: compare with the optimal line")
        )
    return found


def _coins(n: int) -> str:
    return f"{n:,} coin" + "s" * (n != 1)


def _probe_rows(run: _Run, failure: Failure) -> list[tuple[Value, ...]]:
    rng = random.Random(1)
    rows: list[tuple[Value, ...]] = [failure.coins]
    rows += list(family(run.options.alphabet, min(5, run.options.max_length)))
    rows += [tuple(rng.randint(-5, 9) for _ in range(rng.randint(1, 7))) for _ in range(80)]
    rows += [tuple(rng.randint(0, 9) * BIG for _ in range(rng.randint(1, 5))) for _ in range(10)]
    return rows


def _probe(
    run: _Run, failure: Failure, deadline: float
) -> list[tuple[tuple[Value, ...], Outcome, str | None]]:
    observations = []
    for row, outcome, kind in run.outcomes(_probe_rows(run, failure), deadline, chunk=256):
        observations.append((row, outcome, kind))
        if outcome.kind in ("timeout", "crash", "memory"):
            break
    return observations


def _explain(
    answer: str,
    observations: list[tuple[tuple[Value, ...], Outcome, str | None]],
    failure: Failure,
) -> list[Diagnosis]:
    found: list[Diagnosis] = []
    answered = [(row, o.value) for row, o, _ in observations if o.kind == "ok" and row]
    failing = [row for row, _, kind in observations if kind is not None]
    passing = [row for row, _, kind in observations if kind is None]
    if any(isinstance(value, float) for _, value in answered):
        big = any(abs(c) > 2**53 for row in failing for c in row)
        found.append(
            Diagnosis(
                "float",
                "returns floats, which lose precision on large ints"
                + (" (beyond 2^53)" if big else ""),
            )
        )
    elif len(failing) >= 2 and all(any(abs(c) > 2**53 for c in row) for row in failing):
        found.append(Diagnosis("large_ints", "fails only on large ints (beyond 2^53)"))
    if answer in ("total", "margin"):
        found += _numeric_hypotheses(answer, answered)
    else:
        found += _boolean_hypotheses(answer, answered)
    others = [row for row in failing if row != failure.coins]
    if len(others) >= 2 and passing:
        if all(len(row) % 2 for row in others) and any(len(row) % 2 == 0 for row in passing):
            found.append(Diagnosis("odd_lengths", "fails only on odd lengths"))
        elif all(len(row) % 2 == 0 for row in others) and any(len(r) % 2 for r in passing):
            found.append(Diagnosis("even_lengths", "fails only on even lengths"))
        if all(min(row) < 0 for row in others) and any(min(r) >= 0 for r in passing):
            found.append(
                Diagnosis(
                    "negative_coins",
                    "assumes non-negative coins (fails only on rows with a negative coin)",
                )
            )
    codes: set[str] = set()
    unique = []
    for d in found:
        if d.code not in codes:
            codes.add(d.code)
            unique.append(d)
    return unique


def _numeric_hypotheses(
    answer: str, answered: list[tuple[tuple[Value, ...], Any]]
) -> list[Diagnosis]:
    found: list[Diagnosis] = []
    pairs = [(row, value) for row, value in answered if not isinstance(value, (bool, Unsendable))]
    if not pairs:
        return found
    solved = {row: solve(list(row)) for row, _ in pairs}

    def matches(predict: Callable[[tuple[Value, ...]], Any]) -> bool:
        differs = False
        for row, value in pairs:
            if not 2 <= len(row) <= 64:  # one coin is often a special case; long rows cost
                continue
            guess = predict(row)
            try:
                if value != guess:
                    return False
            except (TypeError, ArithmeticError):
                return False
            right = solved[row].first_total if answer == "total" else solved[row].margin
            differs = differs or guess != right
        return differs

    def as_answer(
        total: Callable[[tuple[Value, ...]], Value],
    ) -> Callable[[tuple[Value, ...]], Any]:
        if answer == "total":
            return total
        return lambda row: 2 * total(row) - sum(row)

    if answer == "total" and matches(lambda row: solved[row].margin):
        found.append(Diagnosis("margin_not_total", "returns the margin, not the total"))
    if answer == "margin" and matches(lambda row: solved[row].first_total):
        found.append(
            Diagnosis("total_not_margin", "returns the first player's total, not the margin")
        )
    if matches(as_answer(lambda row: solved[row].second_total)):
        found.append(Diagnosis("second_total", "returns the second player's total"))
    for code, words, total in _hypotheses():
        if matches(as_answer(total)):
            found.append(Diagnosis(code, words))
    return found


def _boolean_hypotheses(
    answer: str, answered: list[tuple[tuple[Value, ...], Any]]
) -> list[Diagnosis]:
    pairs = [(row, bool(v)) for row, v in answered if isinstance(v, bool) or v in (0, 1)]
    if not pairs:
        return []
    margins = {row: solve(list(row)).margin for row, _ in pairs}
    found = []
    if all(value for _, value in pairs):
        found.append(Diagnosis("always_true", "always answers True"))
    elif answer == "wins" and all(v == (margins[r] >= 0) for r, v in pairs):
        found.append(Diagnosis("tie_as_win", "counts a tie as a win (that is wins-or-ties)"))
    elif answer == "wins-or-ties" and all(v == (margins[r] > 0) for r, v in pairs):
        found.append(Diagnosis("tie_as_loss", "counts a tie as a loss (that is wins)"))
    return found


# ---------------------------------------------------------------------------------------
# Recursion, sizes and growth


def _probe_recursion(run: _Run, result: CheckResult) -> None:
    got = run.runner.count_calls(_random_row(run.rng, 12))
    if isinstance(got, tuple):
        result.recursive = got[1] >= 2


def _probe_sizes(run: _Run, result: CheckResult) -> None:
    for n in run.options.sizes:
        row = _random_row(run.rng, n)
        outcome = run.runner.run([row])[0]
        kind = judge(outcome, expected_answer(row, run.answer), run.answer)
        result.sizes[n] = "passed" if kind is None else kind


#: The longest row the growth fit times.
MAX_GROWTH_N = 1 << 21


def _growth(run: _Run, result: CheckResult) -> Growth:
    opts = run.options
    deadline = max(run.until(0.95), time.monotonic() + max(opts.budget / 4, 2.0))
    cap = min(0.25, max(0.01, opts.budget / 60), opts.time_limit / 4)
    points: list[tuple[int, float]] = []
    exponential = False
    n = 8
    if not opts.complexity:  # only the calls are counted
        growth = Growth("not measured", math.nan, math.nan, math.nan, [], "timing off")
        n = MAX_GROWTH_N + 1
    while n <= MAX_GROWTH_N and time.monotonic() < deadline:
        outcome = run.runner.time_call(_random_row(run.rng, n))
        if outcome.kind != "ok":
            break
        t = max(outcome.seconds, 1e-7)
        if points and n <= 64 and t > 32 * points[-1][1] and t > 2e-4:
            exponential = True
            break
        points.append((n, t))
        if t > cap or time.monotonic() + 8 * t * 4 > deadline:
            break
        n *= 2
    if exponential:
        points = []
        n = 4
        deadline = max(deadline, time.monotonic() + 1.0)
        while time.monotonic() < deadline:
            outcome = run.runner.time_call(_random_row(run.rng, n))
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
    if opts.count_calls:
        run.progress("counting calls")
        _count_calls(run, growth, time.monotonic() + max(opts.budget * 0.1, 1.0))
    growth.recursive = result.recursive
    return growth


def _count_calls(run: _Run, growth: Growth, deadline: float) -> None:
    counts: list[tuple[int, int]] = []
    recursive = False
    for n in (8, 10, 12, 14, 16, 32, 64):
        if time.monotonic() > deadline:
            break
        if n == 32 and len(counts) >= 2:
            note = calls_note(counts[-2:], recursive)
            if "missing" in note or not recursive:
                break
        got = run.runner.count_calls(_random_row(run.rng, n))
        if not isinstance(got, tuple):
            break
        counts.append((n, got[0]))
        recursive = recursive or got[1] >= 2
    growth.calls = counts
    if len(counts) >= 2:
        growth.calls_note = calls_note(counts[-2:], recursive)
