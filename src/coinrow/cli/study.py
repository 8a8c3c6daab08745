"""``coinrow compare`` (tournaments between strategies) and ``coinrow refute`` (the smallest
rows on which a strategy is not optimal)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from ..errors import MissingExtraError
from ..numbers import ValueSpec, format_value
from ..refute import (
    MAX_KEPT,
    MAX_SEARCH_LENGTH,
    ROWS_PER_SECOND,
    SEARCH_SECONDS,
    Counterexample,
    RefuteResult,
    Search,
    check_row,
    parse_alphabet,
    rows_up_to,
)
from ..rules import Rules
from ..strategies import get, names
from ..tournament import MAX_COINS, MAX_ROWS, Tournament, TournamentResult
from .common import (
    alphabet_text,
    app,
    check_output_path,
    fail,
    fitted_table,
    given_option,
    json_option,
    print_json,
    read_coins,
    rules_option,
    run_steps,
)

STRATEGY_HELP = f"Built-ins: {', '.join(names())}; or module:function."


@app.command("compare")
def compare_command(
    strategies: list[str] = typer.Argument(..., help=f"Two or more strategies. {STRATEGY_HELP}"),
    games: int = typer.Option(
        100,
        "--games",
        "-g",
        help=f"Random rows (1 to {MAX_ROWS:,}); each is played in both seat orders by each pair.",
    ),
    n: int = typer.Option(10, "--length", "-n", help=f"Coins per row (1 to {MAX_COINS:,})."),
    values: str = typer.Option(
        "1..9",
        "--values",
        help="Coin values: a range LO..HI or a list such as 1,2,3,5 (totals up to 1e300).",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the rows and of random strategies."),
    plot: Path | None = typer.Option(
        None,
        "--plot",
        help="Also draw each strategy's win/tie/loss rates to this image file (.png, .svg or "
        ".pdf; needs the plot extra, matplotlib). Checked before the tournament starts.",
    ),
    as_json: bool = json_option(
        "Print JSON: strategies, rows, games_per_pair, n, values, seed, interrupted, pairs "
        "(strategy, opponent, games, wins, ties, losses, win_rate, tie_rate, loss_rate, "
        "mean_margin, mean_regret, opponent_mean_regret) and standings (the same per strategy); "
        "under other rules also rules.",
    ),
    rules_text: str = rules_option(
        "The rules of the games: plain, circular, misere, stone-game-vii, take:K, "
        "take:any, both-ends (two seats that both choose; docs/variants.md).",
    ),
) -> None:
    """Tournament: every pair of strategies on the same random rows.

    Both seat orders are played; reports win, tie and loss rates, mean margin and mean regret
    (points a strategy's own moves gave away against optimal play). Standings are ranked by
    mean margin."""
    played = Tournament(strategies, games, n, values, seed, rules=Rules.parse(rules_text))
    _check_float_range(played.spec, n)
    if plot is not None:
        _check_plot(plot)
    run_steps(played.play(), "Playing", games, as_json)
    result = played.result
    if result.interrupted:
        sys.stderr.write(f"coinrow: interrupted: results of the first {result.rows_played} rows\n")
    if plot is not None:
        _plot(result, plot)
    if as_json:
        print_json(result.to_dict())
    else:
        _print_tournament(result, Console(highlight=False))
    if result.interrupted:
        raise typer.Exit(130)


def _print_tournament(result: TournamentResult, console: Console) -> None:
    console.print(
        f"{result.rows_played} random rows of {result.n} coins"
        f"{'' if result.rules.is_plain else f' under {result.rules}'} (values {result.values}, "
        f"seed {result.seed}), each played in both seat orders: "
        f"{2 * result.rows_played} games per pair. Regret: points a strategy's own moves gave "
        "away against optimal play, per game."
    )
    pairs = fitted_table(
        ("Strategy", "Opponent", "Win", "Tie", "Loss", "Mean margin", "Mean regret",
         "Opp regret"),
        text=("Strategy", "Opponent"),
        title="Pairs (seen from the first strategy)",
    )  # fmt: skip
    for pair in result.pairs:
        pairs.add_row(
            escape(pair.strategy),
            escape(pair.opponent),
            f"{pair.rate(pair.wins):.1%}",
            f"{pair.rate(pair.ties):.1%}",
            f"{pair.rate(pair.losses):.1%}",
            f"{pair.mean_margin:+.2f}",
            f"{pair.mean_regret:.2f}",
            f"{pair.opponent_mean_regret:.2f}",
        )
    console.print(pairs)
    standings = fitted_table(
        ("Strategy", "Games", "Win", "Tie", "Loss", "Mean margin", "Mean regret"),
        text=("Strategy",),
        title="Standings (all games of each strategy, by mean margin)",
    )
    for row in sorted(result.standings, key=lambda standing: -standing.mean_margin):
        standings.add_row(
            escape(row.strategy),
            str(row.games),
            f"{row.rate(row.wins):.1%}",
            f"{row.rate(row.ties):.1%}",
            f"{row.rate(row.losses):.1%}",
            f"{row.mean_margin:+.2f}",
            f"{row.mean_regret:.2f}",
        )
    console.print(standings)


#: Largest margin a tournament can report: its means and rates are floats.
FLOAT_LIMIT = 1e300


def _check_float_range(spec: ValueSpec, n: int) -> None:
    """Refuse coin values whose totals would overflow the tournament's float means."""
    values = spec.text
    largest = max((abs(value) for value in spec.choices), default=max(-spec.low, spec.high))
    if largest * n > FLOAT_LIMIT:
        shown = values if len(values) <= 40 else f"{values[:20]}...{values[-10:]}"
        fail(f"--values {shown}: totals up to {FLOAT_LIMIT:g} only (means are reported as floats)")


def _check_plot(path: Path) -> None:
    """Refuse a --plot that cannot be drawn before the tournament runs."""
    import importlib.util

    from ..plot import FORMATS

    if path.suffix.lower() not in FORMATS:
        fail(f"--plot {path.name}: use one of the suffixes {', '.join(FORMATS)}")
    check_output_path(path, "--plot")
    if importlib.util.find_spec("matplotlib") is None:
        raise MissingExtraError("drawing a chart needs matplotlib", "plot")  # as plot.py says


def _plot(result: TournamentResult, path: Path) -> None:
    from ..plot import grouped_bar_chart

    standings = result.standings
    grouped_bar_chart(
        path,
        f"{result.rows_played} rows of {result.n} coins, both seat orders",
        [row.strategy for row in standings],
        {
            "win rate": [row.rate(row.wins) for row in standings],
            "tie rate": [row.rate(row.ties) for row in standings],
            "loss rate": [row.rate(row.losses) for row in standings],
        },
        "share of games",
    )


@app.command("refute")
def refute_command(
    ctx: typer.Context,
    strategy: str = typer.Argument(
        ..., metavar="STRATEGY", help=f"The strategy to test. {STRATEGY_HELP}"
    ),
    coins: list[str] | None = typer.Argument(
        None,
        metavar="COINS",
        help="Check this one row instead of searching (coins as in every command: 2 1 2 3).",
        show_default=False,
    ),
    values: str = typer.Option(
        "1,2,3",
        "--values",
        help="Coin values to search over: a list such as 1,2,3 or a range LO..HI.",
    ),
    max_length: int = typer.Option(8, "--max-length", "-m", help="Longest row searched."),
    examples: int = typer.Option(
        1,
        "--examples",
        "-k",
        help=f"Stop after K counterexamples (at most {MAX_KEPT:,}); 0 counts all within the "
        f"bounds and keeps the first {MAX_KEPT:,}.",
    ),
    rules_text: str = rules_option(
        "The rules of the game (docs/variants.md); under other rules than plain the "
        "strategy plays the first seat, the search runs through Python, and the opponents "
        "make only optimal moves.",
    ),
    as_json: bool = json_option(
        "Print JSON: strategy, searched (rows tried), found (counterexamples counted), "
        "counterexamples (the first ones kept: coins, "
        "strategy_total, optimal_total, loss, strategy_line, optimal_line), alphabet (the "
        "values searched), max_length, requested_length, capped, interrupted.",
    ),
) -> None:
    """Find the smallest rows on which a strategy is not optimal.

    Rows are searched by length, then by values: a counterexample is a row on which STRATEGY,
    playing first against an optimal opponent, ends below the optimal first total. Where the
    opponent has several optimal moves, every one is tried. Given COINS, only that row is
    checked."""
    rules = Rules.parse(rules_text)
    if coins:
        given = [flag for flag in ("--values", "--max-length") if given_option(ctx, flag)]
        if given:
            fail(f"coins check one row; {' and '.join(given)} only apply to a search")
        result = _check_one(strategy, coins, rules)
    else:
        result = _search(
            strategy, alphabet_text(values, "--values"), max_length, examples, as_json, rules
        )
    if as_json:
        print_json(result.to_dict())
    else:
        _print_refutation(result, bool(coins), Console(highlight=False))
    if result.interrupted:
        raise typer.Exit(130)


def _check_one(strategy: str, tokens: list[str], rules: Rules) -> RefuteResult:
    coins = tuple(read_coins(tokens, None))
    result = RefuteResult(
        strategy, (), len(coins), len(coins), searched=1, complete=True, rules=rules
    )
    example = check_row(coins, get(strategy, seed=0, rules=rules), rules=rules)
    if example is not None:
        result.counterexamples.append(example)
        result.found = 1
    return result


def _search(
    strategy: str, alphabet: str, max_length: int, limit: int, quiet: bool, rules: Rules
) -> RefuteResult:
    values = parse_alphabet(alphabet)
    search = Search(strategy, values, max_length, limit, rules=rules)
    length = search.result.max_length
    if length < max_length:
        path = "compiled" if search.compiled else "Python" if rules.is_plain else "rules"
        reason = (
            f"rows of at most {MAX_SEARCH_LENGTH} coins are searched"
            if length == MAX_SEARCH_LENGTH
            else f"longer rows would take more than about {SEARCH_SECONDS} s of one core at "
            f"the {path} path's {ROWS_PER_SECOND[path.lower()]:,} rows/s"
        )
        sys.stderr.write(
            f"coinrow: note: --max-length {max_length:,}: searching lengths up to {length} "
            f"({rows_up_to(len(values), length):,} rows); {reason}\n"
        )
    total = rows_up_to(len(values), length)
    run_steps(search.run(), f"Searching {strategy}", total, quiet)
    result = search.result
    if result.interrupted:
        sys.stderr.write(f"coinrow: interrupted after {result.searched:,} rows\n")
    return result


def _print_refutation(result: RefuteResult, one_row: bool, console: Console) -> None:
    name = escape(result.strategy)
    for example in result.counterexamples:
        _print_counterexample(name, example, console)
    if one_row:
        if not result.counterexamples:
            console.print(f"{name} gets the optimal first total on this row, whatever optimal "
                          "moves the opponent makes.")  # fmt: skip
        return
    alphabet = ", ".join(format_value(value) for value in result.alphabet)
    found, kept = result.found, len(result.counterexamples)
    console.print(
        f"Searched {result.searched:,} rows of length 1 to {result.max_length} over {{{alphabet}}}"
        f": {f'{found:,}' if found else 'no'} counterexample{'s' if found != 1 else ''}"
        + (f" (the first {kept:,} shown)." if kept < found else ".")
    )


def _print_counterexample(name: str, example: Counterexample, console: Console) -> None:
    coins = " ".join(format_value(coin) for coin in example.coins)
    if not example.rules.is_plain:
        coins += f" under {example.rules}"
    console.print(
        f"[bold]{coins}[/]: {name} gets {format_value(example.strategy_total)} playing first; "
        f"the optimum is {format_value(example.optimal_total)} "
        f"(loss {format_value(example.loss)})."
    )
    console.print(f"  {name} line: {example.strategy_line}")
    console.print(f"  optimal line: {example.optimal_line}")
