"""Checks shared by the tests: is every move of a line optimal?"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

from coinrow import Table
from coinrow.numbers import Value


def assert_line_optimal(coins: Sequence[Value], line: str, table: Table | None = None) -> None:
    """Every move of ``line`` is one of the optimal moves of its position."""
    table = table or Table(coins)
    assert len(line) == len(coins)
    lo, hi = 0, len(coins) - 1
    for step, move in enumerate(line):
        assert move in table.moves_of(lo, hi), (list(coins), line, step)
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)


def modules_loaded_after(code: str, modules: Sequence[str]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has imported after running ``code``."""
    probe = f"import sys\n{code}\nprint(sorted(m for m in {list(modules)!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return eval(out.stdout)  # type: ignore[no-any-return]  # our own printed list
