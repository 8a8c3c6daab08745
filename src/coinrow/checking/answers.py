"""The answer conventions and the judging of one outcome against coinrow's exact answer."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from ..engines import reduction
from ..numbers import Value
from ..solution import solve
from .isolation import Outcome

#: The answer conventions: the first player's optimal total (GeeksforGeeks, the tutorials),
#: the margin first minus second (EDPC L), "does the first player win" (LeetCode 877) and
#: "does the first player win or tie" (LeetCode 486).
ANSWERS = ("total", "margin", "wins", "wins-or-ties")

# ---------------------------------------------------------------------------------------
# Answers


def expected_answer(coins: Sequence[Value], answer: str) -> Value | bool:
    """Coinrow's answer in a convention (O(n)).

    >>> [expected_answer([8, 15, 3, 7], a) for a in ANSWERS]
    [22, 11, True, True]
    """
    row = list(coins)
    if row and all(type(c) is int for c in row):
        margin: Value = reduction.margin(row)
        first: Value = (sum(row) + margin) // 2
    else:
        solution = solve(row)
        margin, first = solution.margin, solution.first_total
    return _convert(first, margin, answer)


def _convert(first: Value, margin: Value, answer: str) -> Value | bool:
    if answer == "total":
        return first
    if answer == "margin":
        return margin
    if answer == "wins":
        return margin > 0
    return margin >= 0


def judge(outcome: Outcome, expected: Value | bool, answer: str) -> str | None:
    """The failure kind of an outcome, or None when it is right (O(1)).

    >>> judge(Outcome("ok", 22.0), 22, "total"), judge(Outcome("ok", True), 22, "total")
    (None, 'wrong_type')
    """
    if outcome.kind != "ok":
        return outcome.kind
    if outcome.mutated:
        return "mutated"
    value = outcome.value
    if answer in ("wins", "wins-or-ties"):
        if isinstance(value, bool) or (type(value) is int and value in (0, 1)):
            return None if bool(value) == expected else "wrong"
        return "wrong_type"
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, Fraction)):
        return "wrong_type"
    try:
        return None if value == expected else "wrong"
    except (TypeError, ArithmeticError):
        return "wrong"
