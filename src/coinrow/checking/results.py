"""What a check found: options, stages, the failure, the diagnosis, the report (text, JSON,
HTML)."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..errors import InvalidOptionError
from ..game import Game
from ..numbers import Value, format_value, json_fields, json_value
from .growth import Growth
from .plain import Unsendable
from .profiles import profile_named

#: The stages, in order.
STAGES = ("seeds", "edge", "exhaustive", "depth", "random")


@dataclass(frozen=True)
class Options:
    """How hard to check. ``time_limit``: CPU seconds per call; ``memory_limit``: bytes the
    child may add; ``budget``: CPU seconds for the whole check, the checker's and the
    solver's (stages share it: exhaustive up to 25 %, random up to 50 %, growth up to 95 %
    and at least a quarter of it or 2 s; shrinking and diagnosis may use what is left, and
    at least a fifth); ``alphabet`` and ``max_length``: the exhaustive family;
    ``depth_n``: the depth stage probes every doubling of n up to this (recursion limits);
    ``max_n``: the longest random row; ``exact``: also Decimal and Fraction rows;
    ``complexity``: fit the growth; ``count_calls``: count the solver's calls too;
    ``sizes``: also try one random row of each of these lengths (the rubric's "memoised");
    ``seed``: the random rows' seed; ``problem``: a profile of :data:`PROFILES` (its rows
    only: the site's limits on n and on the coins)."""

    time_limit: float = 2.0
    memory_limit: int = 1 << 30
    budget: float = 60.0
    alphabet: tuple[int, ...] = (0, 1, 2, 3)
    max_length: int = 8
    max_n: int = 1_000_000
    depth_n: int = 5_000
    exact: bool = False
    complexity: bool = True
    count_calls: bool = False
    sizes: tuple[int, ...] = ()
    seed: int = 0
    problem: str = ""

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
        if self.problem:
            profile_named(self.problem)
        if not 0 <= self.depth_n <= 10_000_000:
            raise InvalidOptionError("the depth probes' largest n must be 0 to 10,000,000")


@dataclass
class StageResult:
    """One stage: ``status`` is ``passed``, ``failed``, ``stopped`` (the per-call time or
    memory limit, or the budget, ended it; what ran passed) or ``skipped``; ``rows`` tried;
    ``largest_n``; ``cut``: the budget (not the solver) ended it before its plan was done,
    and ``note`` says what was not covered."""

    name: str
    status: str = "skipped"
    rows: int = 0
    largest_n: int = 0
    note: str = ""
    cut: bool = False

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
    origin: str = ""
    right: bool = False

    @property
    def got_text(self) -> str:
        """The function's answer as text (O(size))."""
        if self.kind in ("raised", "memory"):
            return f"raised {self.error}" + (f": {self.message}" if self.message else "")
        if self.kind in ("timeout", "crash"):
            return {"timeout": "no answer (time limit)", "crash": self.message}[self.kind]
        if self.kind == "mutated":
            verdict = "right" if self.right else "also wrong"
            return f"{value_text(self.got)} ({verdict}), but it changes its input"
        return value_text(self.got)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n))."""
        return {
            "stage": self.stage,
            "kind": self.kind,
            "coins": [json_value(coin) for coin in self.coins],
            "n": len(self.coins),
            "expected": json_answer(self.expected),
            "got": json_answer(self.got) if self.kind in ("wrong", "mutated") else None,
            "got_text": self.got_text,
            "error": self.error,
            "message": self.message,
            "optimal_line": self.optimal_line,
            "found_n": self.found_n,
            "origin": self.origin,
        }


def short_line(line: str, shown: int = 60) -> str:
    """A long optimal line (``LRRL...``) as its ends and its length (O(shown)).

    >>> short_line("L" * 975, 10)
    'LLLLL...LLLLL (975 moves)'
    """
    if len(line) <= shown:
        return line
    half = shown // 2
    return f"{line[:half]}...{line[-half:]} ({len(line):,} moves)"


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


def value_text(value: Any) -> str:
    if isinstance(value, Unsendable):
        return f"a {value.type_name} (cannot be shown)"
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, (int, Decimal, Fraction)):
        return format_value(value)
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def json_answer(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, Decimal, Fraction)):
        return json_value(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return value_text(value)


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
    call: str = "coins"
    others: tuple[str, ...] = ()
    provided: tuple[str, ...] = ()
    cpu_seconds: float = 0.0
    problem: str = ""
    judge_says: str = ""
    calls: list[tuple[int, int]] = field(default_factory=list)
    calls_note: str = ""

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
            "cpu_seconds": round(self.cpu_seconds, 3),
            "complete": self.complete,
            "verdict": self.verdict,
            "call": self.call,
            "others": list(self.others),
            "provided": list(self.provided),
            "problem": self.problem or None,
            "judge_says": self.judge_says or None,
            "calls_note": self.calls_note or None,
        }

    def summary(self) -> str:
        """One line: ``solve passed (O(n^2))`` or ``solve failed on [8, 15]: ...`` (O(n))."""
        if self.failure is None:
            growth = f" ({self.growth.growth})" if self.growth else ""
            cut = "" if self.complete else f" ({self.verdict.partition('(')[2]}"
            return f"{self.function} passed{growth}{cut}"
        f = self.failure
        coins = row_text(f.coins)
        words = "; ".join(d.text for d in self.diagnosis)
        return (
            f"{self.function} failed on {coins}: expected {value_text(f.expected)}, "
            f"got {f.got_text}" + (f" ({words})" if words else "")
        )

    @property
    def complete(self) -> bool:
        """True when no stage was cut short by the budget (O(stages))."""
        return not any(stage.cut for stage in self.stages)

    @property
    def verdict(self) -> str:
        """``PASSED``, ``FAILED``, or ``PASSED what ran (not covered: ...)`` when the budget
        cut a stage short (O(stages))."""
        if not self.passed:
            return "FAILED"
        if self.complete:
            return "PASSED"
        cut = "; ".join(f"{s.name}: {s.note}" for s in self.stages if s.cut)
        return f"PASSED what ran (not covered: {cut})"

    def found_text(self) -> str:
        """Which function was checked and how it was found, in words (O(names))."""
        if self.call == "stdin":
            return "a program (the row on its standard input, the answer printed)"
        words = self.function
        if self.picked:
            words += " (found by its name"
            if self.others:
                words += "; also found " + ", ".join(self.others)
                words += f": name one as {self.target.partition(':')[0]}:NAME"
            words += ")"
        if self.call != "coins":
            words += f", called as ({self.call})"
        if self.provided:
            words += "; provided as LeetCode's judge does: " + ", ".join(self.provided)
        return words

    def text(self) -> str:
        """The report as plain text (O(n^2) for the triangle of the failing row)."""
        lines = [f"{self.target}: {self.found_text()}, answer {self.answer} ({self.answer_from})"]
        for stage in self.stages:
            lines.append(
                f"  {stage.name:<11} {stage.status:<8} {stage.rows:>7,} rows, "
                f"up to n = {stage.largest_n:,}" + (f"  {stage.note}" if stage.note else "")
            )
        if self.failure is not None:
            f = self.failure
            lines.append(f"smallest failing row ({f.origin}): {row_text(f.coins)}")
            lines.append(f"  expected {value_text(f.expected)}, got {f.got_text}")
            if f.optimal_line:
                lines.append(f"  one optimal line: {short_line(f.optimal_line)}")
        lines += [f"diagnosis: {d.text}" for d in self.diagnosis]
        if self.growth is not None:
            lines.append(f"growth: {self.growth.text()}")
            if self.growth.calls_note:
                lines.append(f"calls: {self.growth.calls_note}")
        lines.append(self.verdict)
        if self.judge_says:
            lines.append(self.judge_says)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<CheckResult: {self.summary()}>"

    def _repr_html_(self) -> str:
        return html_report(self)


def _row_picture(failure: Failure) -> str:
    """The failing row's triangle with its optimal line, drawn by the game model's Jupyter
    hook (the library loads pictures only there), or its text and a note over 40 coins
    (O(n^2)). The line is empty only for the empty row or over 10,000 coins (no picture)."""
    coins, line = failure.coins, failure.optimal_line
    svg = Game(coins, line)._repr_svg_() if line or not coins else None
    if svg is None:
        note = "No diagram: pictures show at most 40 coins."
        return f"<pre>{html.escape(row_text(coins))}</pre><p><em>{note}</em></p>"
    return f'<div class="coinrow-diagram" style="overflow-x: auto">{svg}</div>'


def html_report(result: CheckResult, extra: str = "") -> str:
    """The report as an HTML fragment with the failing row's triangle (O(n^2))."""
    e = html.escape
    verdict = result.verdict
    colour = "#1a7f37" if result.passed else "#b3261e"
    parts = [
        f'<div class="coinrow-check"><p><strong>{e(result.found_text())}</strong> '
        f'(answer: {e(result.answer)}): <strong style="color:{colour}">{e(verdict)}</strong></p>',
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
            f"<p>Smallest failing row ({e(f.origin)}): <code>{e(row_text(f.coins))}</code>; "
            "expected "
            f"<code>{e(value_text(f.expected))}</code>, got <code>{e(f.got_text)}</code>"
            + (
                f"; one optimal line <code>{e(short_line(f.optimal_line))}</code>"
                if f.optimal_line
                else ""
            )
            + "</p>"
        )
        parts.append(_row_picture(f))
    if result.diagnosis:
        parts.append("<ul>" + "".join(f"<li>{e(d.text)}</li>" for d in result.diagnosis))
        parts.append("</ul>")
    if result.growth is not None:
        parts.append(f"<p>Growth: {e(result.growth.text())}</p>")
        if result.growth.calls_note:
            parts.append(f"<p>Calls: {e(result.growth.calls_note)}</p>")
    parts.append(extra + "</div>")
    return "".join(parts)
