"""``coinrow solve-chunks``: a row stored as a folder of ``.npy`` chunks, solved on Dask."""

from __future__ import annotations

from pathlib import Path

import typer

from ..engines.dispatch import compile_notice
from .common import app, json_option, print_json


@app.command("solve-chunks")
def solve_chunks_command(
    folder: Path = typer.Argument(
        ..., help="A folder of 1-D integer .npy files: the row's coins, in file-name order."
    ),
    line_folder: Path | None = typer.Option(
        None,
        "--line-out",
        help="A new (or empty) folder: the optimal line is written there, one uint8 .npy of "
        "ASCII L/R codes per input file, same names and lengths, in move order.",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="An existing Dask scheduler (tcp://HOST:PORT)."
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Worker processes of a local cluster.",
        show_default="one per core",
    ),
    as_json: bool = json_option(),
) -> None:
    """Solve a row too large for memory, chunk by chunk on Dask.

    The row is a folder of .npy files. Each file is peak-reduced on a worker, the reduced
    stacks are reduced once more here, and the workers write the line back file by file.

    JSON keys: n, files, margin, first_total, second_total, first_moves, line_folder.
    """
    from ..chunked import solve_folder  # the census extra's part: loaded when the command runs

    notice = compile_notice(range(10**9))  # the client combines the stacks in the kernels
    if notice:
        typer.echo(notice, err=True)
    solution = solve_folder(folder, line_folder=line_folder, scheduler=scheduler, workers=workers)
    if as_json:
        print_json(solution.to_dict())
        return
    typer.echo(
        f"{solution.n:,} coins in {solution.files} files: first player {solution.first_total}, "
        f"second {solution.second_total}, margin {solution.margin}; "
        f"optimal first moves {' and '.join(solution.first_moves)}"
    )
    if solution.line_folder:
        typer.echo(f"optimal line written to {solution.line_folder}")
