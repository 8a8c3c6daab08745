"""``coinrow check``: judge a solver (``FILE.py[:FUNCTION]``, ``module:function``) or grade
a folder of submissions with ``--rubric``."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from ..checking.core import ANSWERS, CheckResult, Options, check, row_text
from ..checking.grading import (
    Grade,
    csv_text,
    grade,
    read_rubric,
    report_dict,
    safe_name,
    student_html,
)
from ..numbers import Value, format_value
from . import app, fail, json_option, print_json

#: Longest failing row whose triangle is printed.
TRIANGLE_LIMIT = 24


@app.command("check")
def check_command(
    target: str = typer.Argument(
        ...,
        help="FILE.py[:FUNCTION], module:function, a submission folder, or with --rubric a "
        "folder of submissions.",
    ),
    answer: str = typer.Option(
        None,
        "--answer",
        help=f"What the function returns: {', '.join(ANSWERS)}.",
        show_default="from its name, else total",
    ),
    as_json: bool = json_option("Print the result as JSON."),
    budget: float = typer.Option(60.0, "--budget", help="Seconds for the whole check."),
    time_limit: float = typer.Option(2.0, "--time-limit", help="Seconds per call."),
    memory: int = typer.Option(1024, "--memory", help="MiB the solver's process may add."),
    max_length: int = typer.Option(
        8, "--max-length", "-m", help="Every row over 0..3 up to this length (1 to 12)."
    ),
    max_n: int = typer.Option(1_000_000, "--max-n", help="Longest random row."),
    exact: bool = typer.Option(False, "--exact", help="Also Decimal and Fraction rows."),
    complexity: bool = typer.Option(
        True, "--complexity/--no-complexity", help="Time the solver and name its growth."
    ),
    count_calls: bool = typer.Option(
        False, "--count-calls", help="Count the solver's calls (memoised or plain recursion)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the random rows."),
    rubric: Path = typer.Option(
        None, "--rubric", help="Grade every submission of the folder TARGET with this TOML."
    ),
    out: Path = typer.Option(
        Path("grades"),
        "--out",
        help="With --rubric: the folder for grades.csv, report.json and one HTML per student.",
    ),
) -> None:
    """Check a solver of the coins game: seeds' examples, edge cases, every small row,
    random rows up to 10^6 coins against coinrow's O(n) answer; the smallest failing row,
    a diagnosis and the growth of its time. The solver runs in a child process with time and
    memory limits: a guard against mistakes, not a sandbox for hostile code.

    Exit status: 0 every check passed (or a batch was graded), 1 a check failed, 2 bad input.
    JSON keys (one solver): target, function, picked, answer, answer_from, passed, stages,
    failure, diagnosis, growth, recursive, sizes, seconds (docs/check.md).
    """
    if answer is not None and answer not in ANSWERS:
        fail(f"unknown --answer {answer!r}; choose one of: {', '.join(ANSWERS)}")
    try:
        options = Options(
            time_limit=time_limit,
            memory_limit=memory * 2**20,
            budget=budget,
            max_length=max_length,
            max_n=max_n,
            exact=exact,
            complexity=complexity,
            count_calls=count_calls,
            seed=seed,
        )
    except ValueError as error:
        fail(f"{error} (--time-limit, --budget, --memory, --max-length, --max-n)")
    console = Console(highlight=False)
    if rubric is not None:
        if not Path(target).is_dir():
            fail(f"--rubric grades a folder of submissions; {target} is not a folder")
        _batch(Path(target), rubric, out, options, as_json, console)
        return
    err = Console(stderr=True)
    if as_json or not err.is_terminal:
        result = check(target, answer=answer, options=options)
    else:
        shown = escape(target)
        with err.status(f"checking {shown} (budget {budget:g} s)") as status:
            result = check(
                target,
                answer=answer,
                options=options,
                progress=lambda text: status.update(f"checking {shown}: {text}"),
            )
    if as_json:
        print_json(result.to_dict())
    else:
        print_result(result, console)
    if not result.passed:
        raise typer.Exit(1)


def print_result(result: CheckResult, console: Console) -> None:
    """The Rich report of one check."""
    picked = " (found by its name)" if result.picked else ""
    console.print(
        f"[bold]{escape(result.target)}[/]: {escape(result.function)}{picked}; answer "
        f"{result.answer} ({escape(result.answer_from)})"
    )
    table = RichTable("stage", "status", "rows", "largest n", "note")
    colours = {"passed": "green", "failed": "red", "stopped": "yellow", "skipped": "dim"}
    for stage in result.stages:
        table.add_row(
            stage.name,
            f"[{colours[stage.status]}]{stage.status}[/]",
            f"{stage.rows:,}",
            f"{stage.largest_n:,}",
            escape(stage.note),
        )
    console.print(table)
    failure = result.failure
    if failure is not None:
        coins = row_text(failure.coins)
        console.print(f"[bold red]Smallest failing row[/] ({failure.stage}): {escape(coins)}")
        console.print(
            f"  expected {escape(format_value_any(failure.expected))}, got "
            f"{escape(failure.got_text)}"
        )
        if failure.optimal_line:
            console.print(f"  one optimal line: {failure.optimal_line}")
        if len(failure.coins) <= TRIANGLE_LIMIT:
            from ..text import triangle

            console.print(triangle(list(failure.coins), highlight=failure.optimal_line or None))
    for diagnosis in result.diagnosis:
        console.print(f"[bold]Diagnosis:[/] {escape(diagnosis.text)}")
    if result.growth is not None:
        console.print(f"Growth: {escape(result.growth.text())}")
        if result.growth.calls_note:
            console.print(f"Calls: {escape(result.growth.calls_note)}")
        if result.growth.growth == "exponential":
            console.print(
                "[bold yellow]Flag:[/] exponential time: right, but unusable beyond a few "
                "dozen coins (memoise the recursion or fill a table)"
            )
    verdict = "[bold green]PASSED[/]" if result.passed else "[bold red]FAILED[/]"
    console.print(f"{verdict} in {result.seconds:.1f} s")


def format_value_any(value: Value | bool) -> str:
    if isinstance(value, bool):
        return str(value)
    return format_value(value)


def _batch(
    folder: Path, rubric_path: Path, out: Path, options: Options, as_json: bool, console: Console
) -> None:
    rubric = read_rubric(rubric_path)
    if out.exists() and not out.is_dir():
        fail(f"--out {out}: is a file; give a folder")
    out.mkdir(parents=True, exist_ok=True)
    grades: list[Grade] = []
    err = Console(stderr=True, highlight=False)
    for row in grade(folder, rubric, options):
        grades.append(row)
        if not as_json:
            err.print(f"graded {escape(row.student)}: {row.total:g} / {rubric.total:g}")
    (out / "grades.csv").write_text(csv_text(grades, rubric), encoding="utf-8")
    import json

    report = report_dict(grades, rubric)
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for row in grades:
        (out / f"{safe_name(row.student)}.html").write_text(
            student_html(row, rubric), encoding="utf-8"
        )
    if as_json:
        print_json(report)
        return
    table = RichTable("student", "status", *(item.name for item in rubric.items), "total", "note")
    for row in grades:
        note = row.error or ("; ".join(d.text for d in row.result.diagnosis) if row.result else "")
        table.add_row(
            escape(row.student),
            row.status,
            *(f"{m:g}" for m in row.marks),
            f"{row.total:g} / {rubric.total:g}",
            escape(note),
        )
    console.print(table)
    console.print(
        f"Wrote {out / 'grades.csv'}, {out / 'report.json'} and {len(grades)} HTML reports."
    )
