"""The main job of ``make demo``: solve the seed documents' examples and print their analysis."""

from __future__ import annotations

from rich.console import Console

from .analysis import analyze
from .cli.play import print_analysis
from .cli.solve import print_solution
from .engines.dispatch import compile_notice, kernels_available
from .numbers import format_value
from .solution import solve
from .strategies import cooperative_total, get, greedy_total, parity_total, play
from .text import triangle

#: The worked examples of the seed documents.
SEED_EXAMPLES: tuple[tuple[int, ...], ...] = (
    (5, 3, 7, 10),
    (8, 15, 3, 7),
    (3, 2, 2, 3, 1, 2),
    (1, 2, 4, 3),
    (1, 2, 2, 1, 2, 1, 1, 2),
)


def main() -> None:
    """Print every seed example solved, with the greedy, parity and cooperative totals."""
    console = Console()
    for coins in SEED_EXAMPLES:
        console.rule(" ".join(map(str, coins)))
        solution = solve(coins)
        print_solution(solution, console)
        notes = [f"greedy first player gets {format_value(greedy_total(coins))}"]
        if len(coins) % 2 == 0:
            notes.append(f"odd/even-position strategy gets {format_value(parity_total(coins))}")
        notes.append(
            f"against a cooperating opponent up to {format_value(cooperative_total(list(coins)))}"
        )
        console.print(f"Optimal {format_value(solution.first_total)}; " + "; ".join(notes) + ".")
    console.rule("every subgame of 1 2 4 3 (the seed's four-coin triangle)")
    console.print(triangle([1, 2, 4, 3]))
    for name, coins in (("parity", (3, 2, 2, 3, 1, 2)), ("greedy", (8, 15, 3, 7))):
        console.rule(f"{name} (first) against optimal play on {' '.join(map(str, coins))}")
        game = play(coins, get(name), get("optimal"))
        print_analysis(analyze(coins, game.line), console, (name, "optimal"))
    long_row(console)


def long_row(console: Console, n: int = 1_000_000) -> None:
    """Solve a long random row in the compiled kernels (the ``fast`` extra), which also
    leaves Numba's cache warm for the next large solve."""
    if not kernels_available():
        return
    import time

    import numpy as np

    console.rule(f"a random row of {n:,} coins (compiled kernels on every core)")
    coins = np.random.default_rng(2024).integers(-(10**9), 10**9, n)
    notice = compile_notice(coins)
    if notice:
        console.print(notice)
    start = time.perf_counter()
    solution = solve(coins)  # type: ignore[arg-type]  # a NumPy row is a row
    first_moves = " and ".join(solution.first_moves)
    console.print(
        f"margin {format_value(solution.margin)}, first moves {first_moves}, "
        f"line starts {solution.line[:20]}...; {time.perf_counter() - start:.2f} s"
    )


if __name__ == "__main__":
    main()
