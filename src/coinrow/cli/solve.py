"""``coinrow solve``: totals, margin, winner, the optimal line and who takes which coins."""

from __future__ import annotations

from pathlib import Path

import typer
from rich import box
from rich.console import Console

from ..engines import ENGINES
from ..engines.dispatch import compile_notice
from ..errors import CostLimitError, RowTooLongError, TableTooLargeError
from ..numbers import Row, format_value
from ..rules import Rules
from ..solution import Solution, solve
from ..strategies import reply_opponent
from ..svg import ring
from ..text import ring as text_ring
from .common import (
    MAX_SECONDS,
    CoinsArgument,
    FileOption,
    app,
    check_engine_time,
    check_output_path,
    fail,
    fitted_table,
    json_option,
    print_json,
    read_coins,
    read_row,
    rules_option,
)

#: Longest row whose transcript is printed move by move.
TRANSCRIPT_LIMIT = 100

#: Longest row whose per-coin lists go into ``--json`` without ``--full``.
JSON_LIMIT = 10_000

#: Moves of the line shown in the text output of a longer row.
LINE_SHOWN = 200


@app.command("solve")
def solve_command(
    coins: CoinsArgument = None,
    file: FileOption = None,
    engine: str = typer.Option(
        "reduction",
        "--engine",
        "-e",
        help=f"One of: {', '.join(ENGINES)}. A run estimated to take over a minute (the O(n^2) "
        "engines on long rows) is refused up front.",
    ),
    as_json: bool = json_option(),
    rules: str = rules_option(
        "The rules of the game: plain, circular, misere, stone-game-vii, take:K, "
        "take:any, both-ends, reply:STRATEGY, players:P[:left|:right|:spite] (docs/variants.md).",
    ),
    full: bool = typer.Option(
        False,
        "--full",
        help=f"With --json, keep the per-coin keys (coins, line, first_coins, second_coins) "
        f"for rows over {JSON_LIMIT:,} coins too.",
    ),
    svg: Path | None = typer.Option(
        None,
        "--svg",
        help="With --rules circular: write the pizza as a ring to FILE (each slice's value, "
        "the first player's margin when it is eaten first, the best first slice outlined; "
        "at most 40 slices). The triangle of other rules: coinrow table --rules R --svg FILE.",
    ),
    no_limit: bool = typer.Option(
        False,
        "--no-limit",
        help=f"Run even when the work is estimated over {MAX_SECONDS:.0f} seconds (long rows "
        "of Fractions with many denominators, Decimals with far-apart exponents, a slow "
        "--engine, a quadratic --rules on a long row); stop it with Ctrl-C.",
    ),
) -> None:
    """Solve a row: both totals, the winner and an optimal line.

    The most each player can make sure of, who wins and by how much, the best first
    move(s), an optimal line of moves, and (up to 100 coins) the game move by move.

    JSON keys: n, coins, engine, first_total, second_total, margin, outcome, line,
    first_moves, first_coins, second_coins (the positions of the coins each player takes,
    counted from 0, as in the text and in Python). Over 10,000 coins the per-coin keys are
    left out unless --full, and "omitted" lists them.
    """
    if engine not in ENGINES:
        fail(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    chosen = Rules.parse(rules)
    if svg is not None and not chosen.circle:
        fail(
            f"--svg draws the pizza's ring (--rules circular), not rules {chosen}; "
            "coinrow table --svg FILE draws the triangle of subgames"
        )
    if not chosen.is_plain:
        values = read_coins(coins, file)
        if svg is not None:
            check_output_path(svg, "--svg")
            if len(values) > RING_LIMIT:
                fail(f"--svg draws at most {RING_LIMIT} slices; this pizza has {len(values)}")
        solve_rules(values, chosen, engine, as_json, no_limit=no_limit, svg=svg)
        return
    row = read_row(coins, file)
    if not no_limit and engine != "reduction":  # the default's cost: checked by the library
        check_engine_time(engine, row)
    notice = compile_notice(row, engine)
    if notice:
        typer.echo(notice, err=True)
    try:
        solution = solve(row, engine=engine, max_seconds=None if no_limit else MAX_SECONDS)
    except TableTooLargeError as error:  # the table's or the memo's memory budget
        fail(f"--engine {engine}: {str(error).partition('; use')[0]}; use the default engine")
    except CostLimitError as error:
        fail(f"{error}; --no-limit runs it anyway")
    if as_json:
        print_json(solution.to_dict(per_coin_limit=None if full else JSON_LIMIT))
    else:
        print_solution(solution, Console(highlight=False))


#: Most slices the pizza's ring shows (the pictures' limit).
RING_LIMIT = 40


def solve_rules(
    row: Row,
    rules: Rules,
    engine: str,
    as_json: bool,
    *,
    no_limit: bool = False,
    svg: Path | None = None,
) -> None:
    """``solve --rules``: the solution under the rules as text or JSON (Solution.to_dict),
    refused up front when estimated over a minute (unless ``--no-limit``) or over the
    memory budget."""
    opponent = reply_opponent(rules, allow_user=True)
    try:
        solution = solve(
            row,
            engine,
            rules=rules,
            opponent=opponent,
            max_seconds=None if no_limit else MAX_SECONDS,
        )
    except RowTooLongError as error:
        fail(str(error))
    except CostLimitError as error:
        fail(f"{error}; --no-limit runs it anyway")
    if svg is not None:
        try:
            svg.write_text(ring(solution), encoding="utf-8")
        except OSError as error:
            fail(f"cannot write {svg}: {error.strerror}")
    if as_json:
        print_json(solution.to_dict())
        return
    if svg is not None:
        typer.echo(f"wrote SVG to {svg}")
    console = Console(highlight=False)
    totals = ", ".join(
        f"{name} {format_value(total)}"
        for name, total in zip(_seats(len(solution.totals)), solution.totals, strict=True)
    )
    console.print(f"{solution.n} coins under {rules}: {totals}; {_verdict(solution)}.")
    if solution.start is not None:
        console.print(f"Best first slice: {' or '.join(solution.first_moves)} (0-based).")
        if solution.n <= RING_LIMIT:
            console.print(text_ring(solution), soft_wrap=True)
    else:
        console.print(f"Best first move: {' or '.join(solution.first_moves) or 'none'}.")
    line = solution.line
    shown = (
        line
        if len(line) <= LINE_SHOWN
        else f"{line[:LINE_SHOWN]}... ({len(solution.moves):,} moves)"
    )
    console.print(f"Optimal line: {shown or '(empty)'}")


def _seats(count: int) -> list[str]:
    return ["first", "second"] if count == 2 else [f"player {k}" for k in range(1, count + 1)]


def _verdict(solution: Solution) -> str:
    if solution.outcome == "tie":
        return "a tie"
    if not solution.rules.two_player:
        return f"{solution.outcome} has the most"
    margin = format_value(abs(solution.margin))
    if solution.rules.lowest_wins:
        return f"the {solution.outcome} player wins with {margin} less"
    return f"the {solution.outcome} player wins by {margin}"


def print_solution(solution: Solution, console: Console) -> None:
    """Rich summary, transcript and coins taken."""
    n = len(solution.coins)
    first, second = format_value(solution.first_total), format_value(solution.second_total)
    verdict = {
        "first": f"the first player wins by {format_value(solution.margin)}",
        "second": f"the second player wins by {format_value(-solution.margin)}",
        "tie": "the game is a tie",
    }[solution.outcome]
    console.print(f"{n} coins: first player {first}, second player {second}; {verdict}.")
    best = " or ".join(sorted(solution.first_moves)) or "none"
    line = solution.line if n <= LINE_SHOWN else f"{solution.line[:LINE_SHOWN]}... ({n:,} moves)"
    console.print(f"Best first move: {best}.  Optimal line: {line or '(empty)'}")
    if n > TRANSCRIPT_LIMIT:
        console.print(f"(transcript omitted for more than {TRANSCRIPT_LIMIT} coins; use --json)")
        return
    table = fitted_table(
        ("#", "Coins left", "Player", "Move", "Takes", "First", "Second"),
        text=("Coins left", "Player", "Move"),
        title="Optimal play",
        box=box.HEAVY_HEAD,
        collapse_padding=False,
        pad_edge=True,
    )
    for row in solution.transcript():
        table.add_row(
            str(row.step),
            str(row.before),
            row.player,
            row.move,
            format_value(row.coin),
            format_value(row.first_total),
            format_value(row.second_total),
        )
    console.print(table)
    for label, indices in (("First", solution.first_coins), ("Second", solution.second_coins)):
        taken = ", ".join(format_value(solution.coins[i]) for i in indices)
        word = "position" if len(indices) == 1 else "positions"
        where = f" ({word} {', '.join(map(str, indices))})" if indices else ""
        console.print(f"{label} player takes: {taken or 'nothing'}{where}")
    console.print("Positions count from 0, the left end, as in --json.")
