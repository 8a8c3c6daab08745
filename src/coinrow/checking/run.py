"""One check in progress: the runner, the answer convention and the clock."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence

from ..numbers import Value
from .answers import expected_answer, judge
from .isolation import Outcome, Runner
from .profiles import PROFILES
from .results import Options
from .rows import random_row

#: A check whose wall-clock time passes this many times its budget (plus
#: :data:`WALL_EXTRA` seconds) stops where it is, and says so: the machine is too busy for
#: its CPU-time budget to be met in reasonable time.
WALL_FACTOR = 4.0
WALL_EXTRA = 10.0


class CheckRun:
    """One check in progress: the runner, the answer convention and the clock.

    The clock is **CPU time**: the checker's own and the solver's processes', so that the
    same check covers the same rows on a quiet and on a loaded machine. ``now()`` is the CPU
    time used so far, ``mark(share)`` the CPU time at which a share of the budget is spent;
    a wall-clock backstop (``WALL_FACTOR`` times the budget) makes ``now()`` infinite and
    sets ``backstop``.
    """

    def __init__(
        self,
        runner: Runner,
        answer: str,
        options: Options,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.progress = progress or (lambda text: None)
        self.runner = runner
        self.answer = answer
        self.options = options
        self.start = time.monotonic()
        self._cpu = time.process_time()
        self._child_cpu = runner.cpu
        self.rng = random.Random(options.seed)
        self.backstop = False
        self.profile = PROFILES.get(options.problem)
        self.slow_at = 0  # the first n over the time limit per call (0: none)

    def valid(self, row: Sequence[Value]) -> bool:
        """Whether a row is an input of the problem (any row without a profile)."""
        return self.profile is None or self.profile.valid(row)

    def random_row(self, n: int) -> list[int]:
        """A random row of about n coins (the problem's coins when it has a profile)."""
        if self.profile is not None:
            return self.profile.random_row(self.rng, n)
        return random_row(self.rng, n)

    def now(self) -> float:
        """CPU seconds used by the check so far (infinite past the wall-clock backstop)."""
        if time.monotonic() - self.start > WALL_FACTOR * self.options.budget + WALL_EXTRA:
            self.backstop = True
            return math.inf
        return time.process_time() - self._cpu + self.runner.cpu - self._child_cpu

    def mark(self, share: float) -> float:
        """The CPU time at which ``share`` of the budget is spent."""
        return share * self.options.budget

    def left(self) -> float:
        """CPU seconds of the budget left."""
        return self.options.budget - self.now()

    def outcomes(
        self,
        rows: Iterable[Sequence[Value]],
        until: float,
        chunk: int = 1024,
        *,
        limit: float | None = None,
    ) -> Iterator[tuple[tuple[Value, ...], Outcome, str | None]]:
        """(row, outcome, failure kind) for each row tried, until the clock reaches
        ``until`` (also inside a chunk of rows: the child stops when its share is spent)."""
        iterator = iter(rows)
        while self.now() < until:
            batch = [tuple(row) for row in itertools.islice(iterator, chunk)]
            if not batch:
                return
            position = 0
            while position < len(batch):
                left = until - self.now()
                if left <= 0:
                    return
                got = self.runner.run(batch[position:], limit=limit, cpu_budget=left)
                for row, outcome in zip(batch[position:], got, strict=False):
                    yield (
                        row,
                        outcome,
                        judge(outcome, expected_answer(row, self.answer), self.answer),
                    )
                if not got:
                    return
                position += len(got)

    def fails(
        self, row: Sequence[Value], *, limit: float | None = None
    ) -> tuple[Outcome, str] | None:
        """The outcome and failure kind of one row, or None when the solver gets it right."""
        outcome = self.runner.run([row], limit=limit)[0]
        kind = judge(outcome, expected_answer(row, self.answer), self.answer)
        return None if kind is None else (outcome, kind)
