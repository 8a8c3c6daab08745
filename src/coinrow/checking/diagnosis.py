"""The diagnosis: what a failure is, in words, from more calls (never from the source)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..numbers import Value
from ..solution import solve
from ..strategies import greedy_total
from .isolation import Outcome
from .plain import Unsendable
from .results import Diagnosis, Failure
from .rows import BIG, family
from .run import CheckRun


def _hypotheses() -> list[tuple[str, str, Callable[[tuple[Value, ...]], Value]]]:
    """Wrong answers a solver may give: (code, words, the first player's "total" it seems to
    return)."""

    def optimal(row: tuple[Value, ...]) -> Value:
        return solve(list(row)).first_total if row else 0

    return [
        ("greedy", "takes the larger end (greedy)", _both_greedy),
        ("greedy", "takes the larger end (greedy) against an optimal opponent", greedy_total),
        (
            "parity",
            "adds up the odd or the even positions (the parity strategy guarantees a tie or "
            "better, not the most)",
            lambda row: max(sum(row[0::2]), sum(row[1::2])),
        ),
        (
            "without_last",
            "answers for the row without its last coin (an off-by-one in the table's bounds)",
            lambda row: optimal(row[:-1]),
        ),
        (
            "without_first",
            "answers for the row without its first coin (an off-by-one in the table's bounds)",
            lambda row: optimal(row[1:]),
        ),
        ("sum", "returns the sum of all coins", lambda row: sum(row)),
    ]


def _both_greedy(row: tuple[Value, ...]) -> Value:
    """The first player's total when both take the larger end (left on equality)."""
    lo, hi, turn = 0, len(row) - 1, 0
    values: list[Any] = [0, 0]
    while lo <= hi:
        if row[lo] >= row[hi]:
            coin, lo = row[lo], lo + 1
        else:
            coin, hi = row[hi], hi - 1
        values[turn] = values[turn] + coin
        turn = 1 - turn
    result: Value = values[0]
    return result


def diagnose(run: CheckRun, failure: Failure, outcome: Outcome, deadline: float) -> list[Diagnosis]:
    found: list[Diagnosis] = []
    n = len(failure.coins)
    kind = failure.kind
    limit = run.options.time_limit
    if kind == "mutated":
        found.append(Diagnosis("mutates_input", "changes its input (the list of coins)"))
    elif kind == "raised" and failure.error == "RecursionError":
        found.append(Diagnosis("recursion", f"recursion depth exceeded at n = {n:,}"))
    elif kind == "raised":
        found.append(Diagnosis("raises", f"raises {failure.error} on {_coins(n)}"))
    elif kind == "timeout":
        found.append(Diagnosis("timeout", f"does not return within {limit:g} s on {_coins(n)}"))
    elif kind == "crash":
        found.append(Diagnosis("crash", f"its process died on {_coins(n)}"))
    elif kind == "memory":
        size = run.options.memory_limit / 2**20
        found.append(Diagnosis("memory", f"runs out of memory ({size:,.0f} MiB) on {_coins(n)}"))
    elif kind == "wrong_type":
        wanted = "True or False" if run.answer in ("wins", "wins-or-ties") else "a number"
        found.append(Diagnosis("wrong_type", f"returns {failure.got_text}, not {wanted}"))
    if kind in ("timeout", "crash", "memory"):
        return found
    observations = _probe(run, failure, deadline)
    found += _explain(run.answer, observations, failure)
    if not found:
        found.append(
            Diagnosis("unexplained", "no simple pattern found: compare with the optimal line")
        )
    return found


def _coins(n: int) -> str:
    return f"{n:,} coin" + "s" * (n != 1)


def _probe_rows(run: CheckRun, failure: Failure) -> list[tuple[Value, ...]]:
    rng = random.Random(1)
    profile = run.profile
    rows: list[tuple[Value, ...]] = [failure.coins]
    rows += list(family(run.options.alphabet, min(5, run.options.max_length)))
    rows += [tuple(rng.randint(-5, 9) for _ in range(rng.randint(1, 7))) for _ in range(80)]
    rows += [tuple(rng.randint(0, 9) * BIG for _ in range(rng.randint(1, 5))) for _ in range(10)]
    if profile is not None:
        rows += [tuple(profile.random_row(rng, rng.randint(1, 7))) for _ in range(80)]
        rows = [row for row in rows if profile.valid(row)]
    if run.runner.target.program == "command":  # a process per row: fewer probes
        rows = rows[:1] + rows[1::5]
    if profile is not None:  # rows whose answers need 32 bits or more, and some that do not
        high, low = profile.high, max(profile.low, 1)
        big = [(high - k, low) * k + (high,) * odd for k in range(1, 6) for odd in (0, 1)]
        rows += [row for row in big if profile.valid(row)]
    return rows


def _probe(
    run: CheckRun, failure: Failure, deadline: float
) -> list[tuple[tuple[Value, ...], Outcome, str | None]]:
    observations = []
    for row, outcome, kind in run.outcomes(_probe_rows(run, failure), deadline, chunk=256):
        observations.append((row, outcome, kind))
        if outcome.kind in ("timeout", "crash", "memory"):
            break
    return observations


def _explain(
    answer: str,
    observations: list[tuple[tuple[Value, ...], Outcome, str | None]],
    failure: Failure,
) -> list[Diagnosis]:
    found: list[Diagnosis] = []
    answered = [(row, o.value) for row, o, _ in observations if o.kind == "ok" and row]
    failing = [row for row, _, kind in observations if kind is not None]
    passing = [row for row, _, kind in observations if kind is None]
    if any(isinstance(value, float) for _, value in answered):
        big = any(abs(c) > 2**53 for row in failing for c in row)
        found.append(
            Diagnosis(
                "float",
                "returns floats, which lose precision on large ints"
                + (" (beyond 2^53)" if big else ""),
            )
        )
    elif len(failing) >= 2 and all(any(abs(c) > 2**53 for c in row) for row in failing):
        found.append(Diagnosis("large_ints", "fails only on large ints (beyond 2^53)"))
    elif _overflows(failing, passing):
        found.append(
            Diagnosis(
                "overflow",
                "fails only where the coins add up to 2^31 or more (a 32-bit int overflows?)",
            )
        )
    found += _convention(answer, answered)
    if answer in ("total", "margin"):
        found += _numeric_hypotheses(answer, answered)
    else:
        found += _boolean_hypotheses(answer, answered)
    others = [row for row in failing if row != failure.coins]
    if len(others) >= 2 and passing:
        if all(len(row) % 2 for row in others) and any(len(row) % 2 == 0 for row in passing):
            found.append(Diagnosis("odd_lengths", "fails only on odd lengths"))
        elif all(len(row) % 2 == 0 for row in others) and any(len(r) % 2 for r in passing):
            found.append(Diagnosis("even_lengths", "fails only on even lengths"))
        if all(min(row) < 0 for row in others) and any(min(r) >= 0 for r in passing):
            found.append(
                Diagnosis(
                    "negative_coins",
                    "assumes non-negative coins (fails only on rows with a negative coin)",
                )
            )
    codes: set[str] = set()
    unique = []
    for d in found:
        if d.code not in codes:
            codes.add(d.code)
            unique.append(d)
    return unique


def _overflows(failing: list[tuple[Value, ...]], passing: list[tuple[Value, ...]]) -> bool:
    """Every failing row (at least two) has coins adding up to 2^31 or more, some passing
    rows do not: what a 32-bit int overflowing looks like."""

    def large(row: tuple[Value, ...]) -> bool:
        return bool(sum(abs(c) for c in row) >= 2**31)

    return len(failing) >= 2 and all(map(large, failing)) and not all(map(large, passing))


def _convention(answer: str, answered: list[tuple[tuple[Value, ...], Any]]) -> list[Diagnosis]:
    """A hint when the answers' type is another convention's: True/False where a number is
    asked, or a margin or total where True/False is asked."""
    if not answered:
        return []
    solved = {row: solve(list(row)) for row, _ in answered if len(row) <= 64}
    pairs = [(row, value) for row, value in answered if row in solved]
    if answer in ("total", "margin") and all(isinstance(v, bool) for _, v in pairs):
        for other, ties in (("wins", False), ("wins-or-ties", True)):
            if all(
                v == (solved[r].margin > 0 or (ties and solved[r].margin == 0)) for r, v in pairs
            ):
                return [
                    Diagnosis(
                        "convention",
                        f"answers True or False as the {other} convention does: check it with "
                        f"that answer",
                    )
                ]
        return []
    numbers = [v for _, v in pairs if not isinstance(v, bool) and isinstance(v, int)]
    if answer in ("wins", "wins-or-ties") and numbers and any(v not in (0, 1) for v in numbers):
        for other, words in (("margin", "the margin"), ("total", "the first player's total")):
            if all(
                getattr(solved[r], "margin" if other == "margin" else "first_total") == v
                for r, v in pairs
            ):
                return [
                    Diagnosis(
                        "margin_not_bool" if other == "margin" else "total_not_bool",
                        f"returns {words} where True or False is asked: check it with the "
                        f"{other} answer",
                    )
                ]
    return []


def _numeric_hypotheses(
    answer: str, answered: list[tuple[tuple[Value, ...], Any]]
) -> list[Diagnosis]:
    found: list[Diagnosis] = []
    pairs = [(row, value) for row, value in answered if not isinstance(value, (bool, Unsendable))]
    if not pairs:
        return found
    solved = {row: solve(list(row)) for row, _ in pairs}

    def matches(predict: Callable[[tuple[Value, ...]], Any]) -> bool:
        differs = False
        for row, value in pairs:
            if not 2 <= len(row) <= 64:  # one coin is often a special case; long rows cost
                continue
            guess = predict(row)
            try:
                if value != guess:
                    return False
            except (TypeError, ArithmeticError):
                return False
            right = solved[row].first_total if answer == "total" else solved[row].margin
            differs = differs or guess != right
        return differs

    def as_answer(
        total: Callable[[tuple[Value, ...]], Value],
    ) -> Callable[[tuple[Value, ...]], Any]:
        if answer == "total":
            return total
        return lambda row: 2 * total(row) - sum(row)

    if answer == "total" and matches(lambda row: solved[row].margin):
        found.append(Diagnosis("margin_not_total", "returns the margin, not the total"))
    if answer == "margin" and matches(lambda row: solved[row].first_total):
        found.append(
            Diagnosis("total_not_margin", "returns the first player's total, not the margin")
        )
    if matches(as_answer(lambda row: solved[row].second_total)):
        found.append(Diagnosis("second_total", "returns the second player's total"))
    if answer == "total" and matches(
        lambda row: max(solved[row].first_total, solved[row].second_total)
    ):
        found.append(Diagnosis("winner_total", "returns the winner's score (the larger total)"))
    for code, words, total in _hypotheses():
        if matches(as_answer(total)):
            found.append(Diagnosis(code, words))
    return found


def _boolean_hypotheses(
    answer: str, answered: list[tuple[tuple[Value, ...], Any]]
) -> list[Diagnosis]:
    pairs = [(row, bool(v)) for row, v in answered if isinstance(v, bool) or v in (0, 1)]
    if not pairs:
        return []
    margins = {row: solve(list(row)).margin for row, _ in pairs}
    found = []
    if all(value for _, value in pairs):
        found.append(Diagnosis("always_true", "always answers True"))
    elif answer == "wins" and all(v == (margins[r] >= 0) for r, v in pairs):
        found.append(Diagnosis("tie_as_win", "counts a tie as a win (that is wins-or-ties)"))
    elif answer == "wins-or-ties" and all(v == (margins[r] > 0) for r, v in pairs):
        found.append(Diagnosis("tie_as_loss", "counts a tie as a loss (that is wins)"))
    return found
