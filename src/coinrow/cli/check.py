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
    write_atomically,
)
from ..checking.profiles import PROFILES
from ..checking.results import short_line
from ..numbers import Value, format_value
from ..text import triangle
from .common import app, fail, json_option, print_json

#: Longest failing row whose triangle is printed.
TRIANGLE_LIMIT = 24


@app.command("check")
def check_command(
    target: str = typer.Argument(
        "",
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
    problem: str = typer.Option(
        None,
        "--problem",
        help=f"The site's version: {', '.join(PROFILES)} (its answer, input, limits, time "
        "limit; says what its judge would say).",
    ),
    cmd: str = typer.Option(
        None, "--cmd", help="With --problem: run this command as the program (one per row)."
    ),
    budget: float = typer.Option(
        60.0, "--budget", help="CPU seconds for the whole check (checker and solver)."
    ),
    time_limit: float = typer.Option(
        None,
        "--time-limit",
        help="CPU seconds per call.",
        show_default="2, or the --problem's time limit",
    ),
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
    if problem is not None and problem not in PROFILES:
        fail(f"unknown --problem {problem!r}; choose one of: {', '.join(PROFILES)}")
    if not target and cmd is None:
        fail("give the solver to check: FILE.py[:FUNCTION], module:function or a folder")
    if cmd is not None and problem is None:
        fail("--cmd needs --problem (the input format of the program)")
    if time_limit is None:
        time_limit = PROFILES[problem].seconds if problem else 2.0
    try:
        options = Options(
            problem=problem or "",
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
    solver, command = (None, cmd) if cmd is not None else (target, None)
    if as_json or not err.is_terminal:
        result = check(solver, answer=answer, command=command, options=options)
    else:
        shown = escape(target)
        with err.status(f"checking {shown} (budget {budget:g} s)") as status:
            result = check(
                solver,
                answer=answer,
                command=command,
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
    del picked
    console.print(
        f"[bold]{escape(result.target)}[/]: {escape(result.found_text())}; answer "
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
        console.print(
            f"[bold red]Smallest failing row[/] ({escape(failure.origin)}): {escape(coins)}"
        )
        console.print(
            f"  expected {escape(format_value_any(failure.expected))}, got "
            f"{escape(failure.got_text)}"
        )
        if failure.optimal_line:
            console.print(f"  one optimal line: {short_line(failure.optimal_line)}")
        if len(failure.coins) <= TRIANGLE_LIMIT:
            picture = triangle(list(failure.coins), highlight=failure.optimal_line or None)
            if console.is_terminal:
                console.print(picture)
            else:  # no colours: no colour legend
                lines = str(picture).splitlines()
                console.print(
                    escape("\n".join(line for line in lines if not line.startswith("blue:")))
                )
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
    if not result.passed:
        verdict = "[bold red]FAILED[/]"
    elif result.complete:
        verdict = "[bold green]PASSED[/]"
    else:
        verdict = f"[bold yellow]{escape(result.verdict)}[/]"
    console.print(f"{verdict} in {result.cpu_seconds:.1f} s of CPU ({result.seconds:.1f} s)")
    if result.judge_says:
        console.print(f"[bold]Judge:[/] {escape(result.judge_says)}")


def format_value_any(value: Value | bool) -> str:
    if isinstance(value, bool):
        return str(value)
    return format_value(value)


def _batch(
    folder: Path, rubric_path: Path, out: Path, options: Options, as_json: bool, console: Console
) -> None:
    rubric = read_rubric(rubric_path)
    _claim_folder(out)  # before any grading: a batch is never lost to a bad --out
    grades: list[Grade] = []
    err = Console(stderr=True, highlight=False)
    for row in grade(folder, rubric, options):
        grades.append(row)
        if not as_json:
            err.print(f"graded {escape(row.student)}: {row.total:g} / {rubric.total:g}")
    import json

    report = report_dict(grades, rubric)
    files = [(out / "grades.csv", csv_text(grades, rubric))]
    files.append((out / "report.json", json.dumps(report, indent=2) + "\n"))
    files += [(out / f"{safe_name(row.student)}.html", student_html(row, rubric)) for row in grades]
    for path, text in files:
        try:
            write_atomically(path, text)
        except OSError as error:
            fail(f"cannot write {path}: {error.strerror or error}")
    if as_json:
        print_json(report)
        return
    table = RichTable(width=min(console.width, 80))
    table.add_column("student", max_width=20, no_wrap=True, overflow="ellipsis")
    table.add_column("status", min_width=6, no_wrap=True)
    table.add_column("marks", no_wrap=True)
    table.add_column("total", no_wrap=True)
    table.add_column("note", ratio=1, no_wrap=True, overflow="ellipsis")
    for row in grades:
        note = row.error or ("; ".join(d.text for d in row.result.diagnosis) if row.result else "")
        table.add_row(
            escape(row.student),
            row.status,
            " ".join(f"{m:g}" for m in row.marks),
            f"{row.total:g}/{rubric.total:g}",
            escape(note),
        )
    console.print(table)
    console.print(
        "marks: " + escape(", ".join(item.name for item in rubric.items)), overflow="fold"
    )
    console.print(
        f"Wrote {out / 'grades.csv'}, {out / 'report.json'} and {len(grades)} HTML reports "
        "(each mark's reason is in them)."
    )


def _claim_folder(out: Path) -> None:
    """Make the output folder and prove it can be written, or stop with one line."""
    if out.exists() and not out.is_dir():
        fail(f"--out {out}: is a file; give a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_atomically(out / ".coinrow-probe", "")
        (out / ".coinrow-probe").unlink()
    except OSError as error:
        fail(f"--out {out}: cannot write there ({error.strerror or error})")
