"""Grading a folder of submissions with a rubric: a grade sheet (CSV, JSON) and an HTML
report per student.

A rubric is a TOML file::

    title = "Coins in a line: implementation"
    answer = "total"          # optional: total, margin, wins, wins-or-ties
    size = 2000               # optional: n for the "memoised" check (default 2,000)

    [[item]]
    name = "Implementation - Memoization"
    check = "memoised"
    marks = 6

    [[item]]
    name = "Implementation - Bottom-up"
    check = "bottom_up"
    marks = 6

An item gets its marks when its check passes, else 0. The checks are :data:`CHECKS`.
Each submission is a ``.py`` file or a folder holding one (``solution.py``, ``main.py`` or
its only ``.py`` file); one that cannot be loaded gets a row saying why and 0 marks, and the
batch goes on.
"""

from __future__ import annotations

import csv
import html
import io
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CheckTargetError, CoinrowError, RubricError
from .core import ANSWERS, CheckResult, Options, check, html_report
from .loading import parse_target

#: What each rubric check asks of a check's result.
CHECKS: dict[str, str] = {
    "correct": "every stage passed",
    "seeds": "the seeds' worked examples",
    "edge": "the edge cases",
    "exhaustive": "every small row",
    "random": "random rows up to where the budget ended",
    "memoised": "correct, and right on one random row of the rubric's size within the time limit",
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
    """A parsed rubric."""

    title: str
    items: tuple[Item, ...]
    answer: str | None = None
    size: int = 2000

    @property
    def total(self) -> float:
        """The most marks (O(items))."""
        return sum(item.marks for item in self.items)

    @property
    def needs_growth(self) -> bool:
        """True when an item needs the growth fit (O(items))."""
        return any(item.check in ("polynomial", "linear") for item in self.items)


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
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RubricError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RubricError(f"{path}: cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise RubricError(f"{path}: not valid TOML ({error})") from None
    return parse_rubric(data, str(path))


def parse_rubric(data: dict[str, Any], where: str = "rubric") -> Rubric:
    """A :class:`Rubric` from TOML data (O(items))."""
    known = {"title", "answer", "size", "item"}
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
    items = []
    for number, entry in enumerate(raw, 1):
        if not isinstance(entry, dict):
            raise RubricError(f"{where}: item {number} is not a table")
        name = entry.get("name", f"item {number}")
        check_name = entry.get("check")
        marks = entry.get("marks")
        if check_name not in CHECKS:
            raise RubricError(
                f"{where}: item {number} ({name!r}): unknown check {check_name!r}; "
                f"checks are: {', '.join(CHECKS)}"
            )
        if not isinstance(marks, (int, float)) or isinstance(marks, bool) or marks < 0:
            raise RubricError(f"{where}: item {number} ({name!r}): marks must be a number >= 0")
        extra = sorted(set(entry) - {"name", "check", "marks"})
        if extra:
            raise RubricError(f"{where}: item {number} ({name!r}): unknown key {extra[0]!r}")
        items.append(Item(str(name), check_name, float(marks)))
    return Rubric(str(data.get("title", "coinrow check")), tuple(items), answer, size)


def passes(check_name: str, result: CheckResult, rubric: Rubric) -> bool:
    """Whether a check's result meets a rubric check (O(1))."""
    correct = result.passed
    if check_name == "correct":
        return correct
    if check_name in ("seeds", "edge", "exhaustive", "random"):
        return result.stage(check_name).status in ("passed", "stopped")
    if check_name == "memoised":
        return correct and result.sizes.get(rubric.size) == "passed"
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


@dataclass
class Grade:
    """One submission's row: its name, the check's result (None when it could not be
    loaded: ``error`` says why), the marks per item and in total."""

    student: str
    path: Path
    result: CheckResult | None
    error: str = ""
    marks: list[float] = field(default_factory=list)

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


def grade_one(path: Path, rubric: Rubric, options: Options) -> Grade:
    """Check one submission and mark it (O(budget)); never raises for the submission's own
    problems: they go into the row."""
    student = path.stem if path.is_file() else path.name
    try:
        target = str(path)
        if path.is_dir():
            parse_target(target)  # a folder without a usable file fails here
        result = check(target, answer=rubric.answer, options=options)
    except CoinrowError as error:
        return Grade(student, path, None, str(error), [0.0] * len(rubric.items))
    marks = [item.marks if passes(item.check, result, rubric) else 0.0 for item in rubric.items]
    return Grade(student, path, result, "", marks)


def grade(folder: Path, rubric: Rubric, options: Options) -> Iterator[Grade]:
    """Grade every submission of a folder in turn (O(submissions x budget)); yields each
    :class:`Grade` as it is done, so a caller can show progress."""
    size = (rubric.size,) if any(i.check == "memoised" for i in rubric.items) else ()
    settings = Options(
        **{
            **options.__dict__,
            "sizes": size,
            "complexity": options.complexity or rubric.needs_growth,
        }
    )
    for path in submissions(folder):
        yield grade_one(path, rubric, settings)


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
        for item, marks in zip(rubric.items, g.marks, strict=True):
            row[item.name] = _number(marks)
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
    columns = [*FIRST_COLUMNS, *(item.name for item in rubric.items), *LAST_COLUMNS]
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(sheet_rows(grades, rubric))
    return out.getvalue()


def report_dict(grades: list[Grade], rubric: Rubric) -> dict[str, Any]:
    """The JSON report: the rubric and, per student, the marks and the whole check result
    (O(size))."""
    return {
        "title": rubric.title,
        "out_of": rubric.total,
        "items": [{"name": i.name, "check": i.check, "marks": i.marks} for i in rubric.items],
        "students": [
            {
                "student": g.student,
                "path": str(g.path),
                "status": g.status,
                "marks": g.marks,
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
        f"<td>{_number(m)} / {_number(item.marks)}</td></tr>"
        for item, m in zip(rubric.items, grade_row.marks, strict=True)
    )
    table = (
        "<table><thead><tr><th>item</th><th>what it asks</th><th>marks</th></tr></thead>"
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
    """A file name for a student's report.

    >>> safe_name("ann smith/../x")
    'ann_smith_.._x'
    """
    return re.sub(r"[^\w.-]", "_", student) or "student"
