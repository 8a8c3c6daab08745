"""Grading a folder of submissions with a rubric: a grade sheet (CSV, JSON) and an HTML
report per student.

A rubric is a TOML file::

    title = "Coins in a line: implementation"
    answer = "total"          # optional: total, margin, wins, wins-or-ties
    size = 2000               # optional: n for the "memoised" check (default 2,000)

    function = "maxCoins"     # optional: the function to check in every submission

    [functions]               # optional: the function of one submission
    "smith.py" = "best_total"

    [[item]]
    name = "Implementation - Memoization (recursive, calls polynomial)"
    check = "memoised_calls"
    marks = 6

An item gets its marks when its check passes, else 0, and the grade sheet says why in
words. The checks are :data:`CHECKS`.
Each submission is a ``.py`` file or a folder holding one (``solution.py``, ``main.py`` or
its only ``.py`` file); one that cannot be loaded gets a row saying why and 0 marks, and the
batch goes on.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import html
import io
import os
import tempfile
import tomllib
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import CheckTargetError, CoinrowError, RubricError
from .core import ANSWERS, CheckResult, Options, check, html_report
from .loading import Target, submission_file
from .profiles import PROFILES
from .results import row_text, value_text

#: What each rubric check asks of a check's result.
CHECKS: dict[str, str] = {
    "correct": "every stage passed",
    "seeds": "the seeds' worked examples",
    "edge": "the edge cases",
    "exhaustive": "every small row",
    "random": "random rows up to where the budget ended",
    "memoised": "correct, and right on one random row of the rubric's size within the time "
    "limit (a fast bottom-up table passes too: see fast_at_size)",
    "fast_at_size": "correct, and right on one random row of the rubric's size within the "
    "time limit",
    "memoised_calls": "right on every small row, its functions recurse, and its calls grow "
    "polynomially (counted on 8 to 64 coins)",
    "bottom_up": "correct, and none of its functions recurses",
    "polynomial": "correct, and its time does not grow exponentially",
    "linear": "correct, and its time grows as O(n) or O(n log n)",
    "no_mutation": "never changes its input",
}


@dataclass(frozen=True)
class Item:
    """A rubric line: its name, the check and the marks it gives."""

    name: str
    check: str
    marks: float


@dataclass(frozen=True)
class Rubric:
    """A parsed rubric: ``function`` names the function to check in every submission,
    ``functions`` the function of some (by submission name)."""

    title: str
    items: tuple[Item, ...]
    answer: str | None = None
    size: int = 2000
    function: str | None = None
    functions: dict[str, str] = field(default_factory=dict)
    problem: str = ""

    @property
    def total(self) -> float:
        """The most marks (O(items))."""
        return sum(item.marks for item in self.items)

    @property
    def needs_growth(self) -> bool:
        """True when an item needs the growth fit (O(items))."""
        return any(item.check in ("polynomial", "linear") for item in self.items)

    @property
    def needs_calls(self) -> bool:
        """True when an item needs the calls counted (O(items))."""
        return any(item.check == "memoised_calls" for item in self.items)

    @property
    def needs_size(self) -> bool:
        """True when an item needs the extra random row of ``size`` coins (O(items))."""
        return any(item.check in ("memoised", "fast_at_size") for item in self.items)


#: Largest rubric file (bytes), most marks of an item, most items.
MAX_RUBRIC_BYTES = 1 << 20
MAX_MARKS = 1e6
MAX_ITEMS = 100


def read_rubric(path: Path) -> Rubric:
    """Read and validate a rubric (O(size of the file)).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> text = '[[item]]\\nname = "x"\\ncheck = "speedy"\\nmarks = 1\\n'
    >>> _ = (folder / "r.toml").write_text(text)
    >>> read_rubric(folder / "r.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coinrow.errors.RubricError: ...r.toml: item 1 ('x'): unknown check 'speedy'; checks are: ...
    """
    try:
        if path.stat().st_size > MAX_RUBRIC_BYTES:
            raise RubricError(f"{path}: over {MAX_RUBRIC_BYTES:,} bytes: not a rubric")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RubricError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RubricError(f"{path}: cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise RubricError(f"{path}: not valid TOML ({error})") from None
    except RecursionError:
        raise RubricError(f"{path}: nested too deeply to be a rubric") from None
    return parse_rubric(data, str(path))


def parse_rubric(data: dict[str, Any], where: str = "rubric") -> Rubric:
    """A :class:`Rubric` from TOML data (O(items))."""
    known = {"title", "answer", "size", "item", "function", "functions", "problem"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RubricError(
            f"{where}: unknown key {unknown[0]!r}; keys are: {', '.join(sorted(known))}"
        )
    answer = data.get("answer")
    if answer is not None and answer not in ANSWERS:
        raise RubricError(f"{where}: unknown answer {answer!r}; answers are: {', '.join(ANSWERS)}")
    size = data.get("size", 2000)
    if not isinstance(size, int) or isinstance(size, bool) or not 10 <= size <= 100_000:
        raise RubricError(f"{where}: size must be an integer from 10 to 100,000")
    raw = data.get("item")
    if not isinstance(raw, list) or not raw:
        raise RubricError(f"{where}: no [[item]] tables")
    if len(raw) > MAX_ITEMS:
        raise RubricError(f"{where}: over {MAX_ITEMS} items")
    problem = data.get("problem", "")
    if problem and problem not in PROFILES:
        raise RubricError(
            f"{where}: unknown problem {problem!r}; problems are: {', '.join(PROFILES)}"
        )
    title = data.get("title", "coinrow check")
    if not isinstance(title, str):
        raise RubricError(f"{where}: title must be text")
    function = data.get("function")
    if function is not None and not _function_name(function):
        raise RubricError(f"{where}: function must be a name like maxCoins or Solution.stoneGame")
    functions = data.get("functions", {})
    if not isinstance(functions, dict) or not all(
        isinstance(k, str) and _function_name(v) for k, v in functions.items()
    ):
        raise RubricError(f"{where}: [functions] maps submission names to function names")
    items: list[Item] = []
    for number, entry in enumerate(raw, 1):
        if not isinstance(entry, dict):
            raise RubricError(f"{where}: item {number} is not a table")
        name = entry.get("name", f"item {number}")
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise RubricError(f"{where}: item {number}: name must be text (1 to 200 characters)")
        if name in (i.name for i in items) or name in (*FIRST_COLUMNS, *LAST_COLUMNS):
            raise RubricError(f"{where}: item {number}: the name {name!r} is used twice")
        check_name = entry.get("check")
        marks = entry.get("marks")
        if check_name not in CHECKS:
            raise RubricError(
                f"{where}: item {number} ({name!r}): unknown check {check_name!r}; "
                f"checks are: {', '.join(CHECKS)}"
            )
        if (
            not isinstance(marks, (int, float))
            or isinstance(marks, bool)
            or not 0 <= marks <= MAX_MARKS  # also refuses nan
        ):
            raise RubricError(
                f"{where}: item {number} ({name!r}): marks must be a number from 0 to "
                f"{MAX_MARKS:,.0f}"
            )
        extra = sorted(set(entry) - {"name", "check", "marks"})
        if extra:
            raise RubricError(f"{where}: item {number} ({name!r}): unknown key {extra[0]!r}")
        items.append(Item(str(name), check_name, float(marks)))
    return Rubric(title, tuple(items), answer, size, function, dict(functions), problem)


def _function_name(name: object) -> bool:
    return (
        isinstance(name, str)
        and 0 < len(name) <= 200
        and all(part.isidentifier() for part in name.split("."))
    )


def passes(check_name: str, result: CheckResult, rubric: Rubric) -> bool:
    """Whether a check's result meets a rubric check (O(1))."""
    correct = result.passed
    if check_name == "correct":
        return correct
    if check_name in ("seeds", "edge", "exhaustive", "random"):
        return result.stage(check_name).status in ("passed", "stopped")
    if check_name in ("memoised", "fast_at_size"):
        return correct and result.sizes.get(rubric.size) == "passed"
    if check_name == "memoised_calls":
        return _small_rows_right(result) and "memoised" in result.calls_note
    if check_name == "bottom_up":
        return correct and result.recursive is False
    if check_name == "polynomial":
        return correct and result.growth is not None and result.growth.growth != "exponential"
    if check_name == "linear":
        growth = result.growth.growth if result.growth else ""
        return correct and growth in ("O(1)", "O(n)", "O(n log n)")
    if check_name == "no_mutation":
        return result.failure is None or result.failure.kind != "mutated"
    raise RubricError(f"unknown check {check_name!r}")


def _small_rows_right(result: CheckResult) -> bool:
    return result.failure is None or result.failure.stage in ("depth", "random")


def reason(check_name: str, result: CheckResult | None, rubric: Rubric) -> str:
    """Why a rubric check passed or not, in words (O(1)): the exception's name and the size,
    the failing row, the growth class, the calls."""
    if result is None:
        return "could not be checked"
    f = result.failure
    failed = ""
    if f is not None and f.kind == "mutated":
        right = "right" if f.right else "wrong"
        failed = f"changes its input on {row_text(f.coins)} (its answer is {right})"
    elif f is not None:
        if f.kind in ("raised", "memory", "timeout", "crash"):
            failed = f"{f.got_text.partition(':')[0]} at n = {len(f.coins):,} ({f.stage} stage)"
        else:
            failed = (
                f"wrong on {row_text(f.coins)}: expected {value_text(f.expected)}, got "
                f"{f.got_text} ({f.stage} stage)"
            )
    if check_name == "correct":
        return failed or "every stage passed"
    if check_name in ("seeds", "edge", "exhaustive", "random"):
        stage = result.stage(check_name)
        return f"{check_name} {stage.status}" + (f": {stage.note}" if stage.note else "")
    if check_name in ("memoised", "fast_at_size"):
        if failed:
            return f"not correct: {failed}"
        got = result.sizes.get(rubric.size, "not tried")
        if got == "passed":
            return f"right on a random row of {rubric.size:,} coins within the time limit"
        return f"{got} on a random row of {rubric.size:,} coins"
    if check_name == "memoised_calls":
        if not _small_rows_right(result):
            return f"not right on small rows: {failed}"
        return result.calls_note or "calls not counted"
    if check_name == "bottom_up":
        if failed:
            return f"not correct: {failed}"
        if result.recursive is None:
            return "recursion not measured"
        return "a function of it recurses" if result.recursive else "none of its functions recurses"
    if check_name in ("polynomial", "linear"):
        if failed:
            return f"not correct: {failed}"
        return f"growth {result.growth.growth}" if result.growth else "growth not measured"
    if check_name == "no_mutation":
        if f is not None and f.kind == "mutated":
            return f"changes its input on {row_text(f.coins)}"
        return "never seen changing its input"
    return ""


@dataclass
class Grade:
    """One submission's row: its name, the check's result (None when it could not be
    loaded: ``error`` says why), the marks per item and in total."""

    student: str
    path: Path
    result: CheckResult | None
    error: str = ""
    marks: list[float] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        """Marks in total (O(items))."""
        return sum(self.marks)

    @property
    def status(self) -> str:
        """``passed``, ``failed`` or ``error`` (could not be checked) (O(1))."""
        if self.result is None:
            return "error"
        return "passed" if self.result.passed else "failed"


def submissions(folder: Path) -> list[Path]:
    """The submissions in a folder: its ``.py`` files and sub-folders, sorted by name (O(k)).
    Hidden entries and ``__pycache__`` are left out."""
    if not folder.is_dir():
        raise CheckTargetError(f"{folder}: not a folder of submissions")
    entries = [
        p
        for p in sorted(folder.iterdir())
        if not p.name.startswith((".", "_")) and (p.is_dir() or p.suffix == ".py")
    ]
    if not entries:
        raise CheckTargetError(f"{folder}: no submissions (.py files or folders) in it")
    return entries


def student_names(paths: list[Path]) -> list[str]:
    """A distinct name per submission: the file's stem, or its whole name (``x.py``,
    ``x/``) when two submissions share a stem (O(k)).

    >>> student_names([Path("a.py"), Path("b.py")])
    ['a', 'b']
    """
    stems = [p.stem if p.suffix == ".py" else p.name for p in paths]
    names = []
    for path, stem in zip(paths, stems, strict=True):
        if stems.count(stem) > 1:
            stem = path.name + ("/" if path.is_dir() else "")
        names.append(stem)
    return names


def grade_one(path: Path, rubric: Rubric, options: Options, student: str | None = None) -> Grade:
    """Check one submission and mark it (O(budget)); never raises for the submission's own
    problems: they go into the row."""
    student = student or (path.stem if path.is_file() else path.name)
    function = rubric.functions.get(student, rubric.functions.get(path.name, rubric.function))
    empty = [0.0] * len(rubric.items)
    try:
        source = submission_file(path) if path.is_dir() else path
        target = Target(label=str(path), path=source, name=function)
        result = check(target, answer=rubric.answer, options=_with_problem(options))
    except CoinrowError as error:
        why = str(error)
        if "name it as FILE.py:FUNCTION" in why or "also found" in why:
            why += f' (or in the rubric: [functions] "{student}" = "NAME")'
        return Grade(student, path, None, why, empty, ["could not be checked"] * len(empty))
    marks = [item.marks if passes(item.check, result, rubric) else 0.0 for item in rubric.items]
    reasons = [reason(item.check, result, rubric) for item in rubric.items]
    return Grade(student, path, result, "", marks, reasons)


def _with_problem(options: Options) -> Options:
    """A profile's time limit, where the options keep the default one."""
    if options.problem and options.time_limit == Options().time_limit:
        return replace(options, time_limit=PROFILES[options.problem].seconds)
    return options


def grade(folder: Path, rubric: Rubric, options: Options) -> Iterator[Grade]:
    """Grade every submission of a folder in turn (O(submissions x budget)); yields each
    :class:`Grade` as it is done, so a caller can show progress."""
    settings = Options(
        **{
            **options.__dict__,
            "sizes": (rubric.size,) if rubric.needs_size else (),
            "complexity": options.complexity or rubric.needs_growth,
            "count_calls": options.count_calls or rubric.needs_calls,
            "problem": options.problem or rubric.problem,
        }
    )
    paths = submissions(folder)
    for path, student in zip(paths, student_names(paths), strict=True):
        yield grade_one(path, rubric, settings, student)


#: The grade sheet's first columns; then one column per rubric item, then these.
FIRST_COLUMNS = ("student", "status", "function", "answer")
LAST_COLUMNS = ("total", "out_of", "failing_row", "expected", "got", "diagnosis", "growth", "error")


def sheet_rows(grades: list[Grade], rubric: Rubric) -> list[dict[str, str]]:
    """The grade sheet as rows of text (O(grades x items)): the CSV's cells."""
    rows = []
    for g in grades:
        r = g.result
        f = r.failure if r else None
        row = {
            "student": g.student,
            "status": g.status,
            "function": r.function if r else "",
            "answer": r.answer if r else "",
        }
        for item, marks, why in zip(rubric.items, g.marks, g.reasons, strict=True):
            row[item.name] = _number(marks)
            row[f"{item.name}: why"] = why
        row.update(
            {
                "total": _number(g.total),
                "out_of": _number(rubric.total),
                "failing_row": " ".join(str(c) for c in f.coins) if f else "",
                "expected": str(f.expected) if f else "",
                "got": f.got_text if f else "",
                "diagnosis": "; ".join(d.text for d in r.diagnosis) if r else "",
                "growth": r.growth.growth if r and r.growth else "",
                "error": g.error,
            }
        )
        rows.append(row)
    return rows


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def csv_text(grades: list[Grade], rubric: Rubric) -> str:
    """The grade sheet as CSV (O(grades x items))."""
    out = io.StringIO()
    items = [name for item in rubric.items for name in (item.name, f"{item.name}: why")]
    columns = [*FIRST_COLUMNS, *items, *LAST_COLUMNS]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([safe_cell(c) for c in columns])
    for row in sheet_rows(grades, rubric):
        writer.writerow([safe_cell(row[c]) for c in columns])
    return out.getvalue()


def safe_cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula: one that begins with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return gets a leading ``'`` (OWASP's rule) (O(1)).

    >>> safe_cell("=HYPERLINK(1)"), safe_cell("-2+3"), safe_cell("12")
    ("'=HYPERLINK(1)", "'-2+3", '12')
    """
    return "'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def write_atomically(path: Path, text: str) -> None:
    """Write a file whole or not at all: a temporary file in the same folder, flushed to
    disk, then renamed over ``path`` (O(size)); raises ``OSError`` (the old file stays)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".coinrow-", suffix=".tmp")
    done = False
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
        done = True
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def report_dict(grades: list[Grade], rubric: Rubric) -> dict[str, Any]:
    """The JSON report: the rubric and, per student, the marks and the whole check result
    (O(size))."""
    return {
        "title": rubric.title,
        "out_of": rubric.total,
        "items": [{"name": i.name, "check": i.check, "marks": i.marks} for i in rubric.items],
        "files": {g.student: safe_name(g.student) + ".html" for g in grades},
        "students": [
            {
                "student": g.student,
                "path": str(g.path),
                "status": g.status,
                "marks": g.marks,
                "reasons": g.reasons,
                "total": g.total,
                "error": g.error,
                "result": g.result.to_dict() if g.result else None,
            }
            for g in grades
        ],
    }


def student_html(grade_row: Grade, rubric: Rubric) -> str:
    """A standalone HTML page for one student: marks, then the check's report with the
    failing row's triangle (O(n^2))."""
    e = html.escape
    marks = "".join(
        f"<tr><td>{e(item.name)}</td><td>{e(CHECKS[item.check])}</td>"
        f"<td>{_number(m)} / {_number(item.marks)}</td><td>{e(why)}</td></tr>"
        for item, m, why in zip(rubric.items, grade_row.marks, grade_row.reasons, strict=True)
    )
    table = (
        "<table><thead><tr><th>item</th><th>what it asks</th><th>marks</th><th>why</th></tr>"
        "</thead>"
        f"<tbody>{marks}</tbody></table><p><strong>Total: {_number(grade_row.total)} / "
        f"{_number(rubric.total)}</strong></p>"
    )
    if grade_row.result is None:
        body = f"<p>Could not be checked: {e(grade_row.error)}</p>"
    else:
        body = html_report(grade_row.result)
    title = f"{rubric.title}: {grade_row.student}"
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;"
        "padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #999;"
        "padding:.2rem .5rem;text-align:left}</style></head>"
        f"<body><h1>{e(title)}</h1>{table}{body}</body></html>\n"
    )


def safe_name(student: str) -> str:
    """A file name for a student's report: distinct names give distinct file names (every
    character but letters, digits, ``_`` and ``-`` is percent-escaped) (O(len)).

    >>> safe_name("ann smith/../x"), safe_name("a_b"), safe_name("a b")
    ('ann%20smith%2F%2E%2E%2Fx', 'a_b', 'a%20b')
    """
    escaped = urllib.parse.quote(student, safe="-_").replace(".", "%2E")
    if len(escaped) > 200:  # still distinct: a digest of the whole name
        escaped = escaped[:180] + "~" + hashlib.sha256(student.encode()).hexdigest()[:16]
    return escaped or "%00"
