"""``coinrow.testing.assert_solver``: one line in a pytest suite checks a solver for the
coins game with :func:`coinrow.check` and fails with the smallest counterexample.

>>> from coinrow.testing import assert_solver
>>> def greedy(coins):
...     coins, total, turn = list(coins), 0, 0
...     while coins:
...         coin = coins.pop(0) if coins[0] >= coins[-1] else coins.pop()
...         total, turn = total + coin * (turn == 0), 1 - turn
...     return total
>>> assert_solver(greedy, budget=3, complexity=False)
Traceback (most recent call last):
...
AssertionError: greedy failed on [0, 0, 2, 1]: expected 2, got 1 (takes the larger end (greedy))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .checking.core import CheckResult, check


def assert_solver(
    solver: Callable[..., Any] | str, answer: str = "total", **settings: Any
) -> CheckResult:
    """Check ``solver`` (a function or ``FILE.py[:FUNCTION]``) and raise one
    ``AssertionError`` naming the smallest failing row, the expected answer, the solver's
    and the diagnosis; return the :class:`~coinrow.checking.CheckResult` when it passes.
    ``settings`` are :class:`~coinrow.checking.Options` fields (default budget 20 s, no
    growth fit). O(budget).
    """
    settings.setdefault("budget", 20.0)
    settings.setdefault("complexity", False)
    result = check(solver, answer=answer, **settings)
    if not result.passed:
        raise AssertionError(result.summary())
    return result
