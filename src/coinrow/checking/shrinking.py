"""Shrinking a failing row to the smallest one that still fails the same way."""

from __future__ import annotations

from ..numbers import Value
from .isolation import Outcome
from .rows import family
from .run import CheckRun

#: CPU seconds a call may take while a long row is shrunk (a call over it counts as not
#: failing the same way): shrinking a recursion-depth failure stays cheap.
SHRINK_SECONDS = 0.25


def shrink(
    run: CheckRun,
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
        rows = (r for r in family(run.options.alphabet, length) if run.valid(r))
        for candidate, got, failed in run.outcomes(rows, deadline):
            if failed is not None:
                return candidate, got, failed
    if stage == "exhaustive":
        return best
    quick = SHRINK_SECONDS / 5 if outcome.error == "RecursionError" else SHRINK_SECONDS
    limit = min(run.options.time_limit, max(quick, 4 * outcome.seconds))

    def still(candidate: tuple[Value, ...]) -> bool:
        nonlocal best
        if not candidate or run.now() > deadline or not run.valid(candidate):
            return False
        found = run.fails(candidate, limit=limit if len(candidate) > 64 else None)
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
        while low < high and run.now() < deadline:
            middle = (low + high) // 2
            if still(current[:middle]):
                high = middle
            else:
                low = middle + 1
        current = best[0]
    if len(current) <= 64:
        chunk = max(1, len(current) // 2)
        while chunk >= 1 and run.now() < deadline:
            i = 0
            while i < len(current) and run.now() < deadline:
                candidate = current[:i] + current[i + chunk :]
                if still(candidate):
                    current = candidate
                else:
                    i += chunk
            chunk //= 2
    if len(current) <= 16:
        changed = True
        while changed and run.now() < deadline:
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
