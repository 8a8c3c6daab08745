"""Problem profiles: the answer convention, the input format, the limits on n and on the
coins, and the time limit of each site that poses this problem, and what its judge would say.

The limits are those the sites' statements give (LeetCode 486 and 877, GeeksforGeeks'
"Optimal Strategy for a Game", AtCoder EDPC L "Deque", CSES 1097 "Removal Game"). The time
limit per call of a function (LeetCode, GeeksforGeeks: the sites state none per test) is
coinrow's choice: one second of CPU.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InvalidOptionError
from ..numbers import Value


@dataclass(frozen=True)
class Profile:
    """One site's version of the problem. ``input``: ``"function"`` (the site calls a
    function) or ``"n-then-row"`` (standard input: n on a line, then the coins); ``low`` and
    ``high`` bound the coins, ``min_n`` and ``max_n`` the length; ``even``: n is even;
    ``odd_sum``: the coins' sum is odd (no ties); ``seconds``: the time limit in CPU
    seconds."""

    name: str
    site: str
    answer: str
    input: str
    min_n: int
    max_n: int
    low: int
    high: int
    seconds: float
    even: bool = False
    odd_sum: bool = False

    def valid(self, row: Sequence[Value]) -> bool:
        """Whether a row is an input the site could give (O(n)).

        >>> PROFILES["leetcode-877"].valid([3, 4]), PROFILES["leetcode-877"].valid([3, 5])
        (True, False)
        """
        if not self.min_n <= len(row) <= self.max_n or (self.even and len(row) % 2):
            return False
        if not all(type(c) is int and self.low <= c <= self.high for c in row):
            return False
        return not self.odd_sum or sum(row) % 2 == 1

    @property
    def alphabet(self) -> tuple[int, ...]:
        """The small coins of the exhaustive rows: 0, 1, 2 where 0 is allowed, else 1, 2, 3
        (1 to 4 where the sum must be odd and n even, so that rows exist) (O(1))."""
        start = max(self.low, 0)
        return tuple(range(start, start + (4 if self.odd_sum else 3)))

    def random_row(self, rng: random.Random, n: int) -> list[int]:
        """A random valid row of n coins (n adjusted to be even where it must) (O(n))."""
        n = max(self.min_n, n + (n % 2 if self.even else 0))
        row = [rng.randint(self.low, self.high) for _ in range(n)]
        if self.odd_sum and sum(row) % 2 == 0:
            row[-1] += 1 if row[-1] < self.high else -1
        return row

    def input_text(self, row: Sequence[Value]) -> str:
        """The row as the site's standard input (O(n)).

        >>> PROFILES["cses-1097"].input_text([4, 5, 1, 3])
        '4\\n4 5 1 3\\n'
        """
        return f"{len(row)}\n{' '.join(str(c) for c in row)}\n"


PROFILES = {
    profile.name: profile
    for profile in (
        Profile("leetcode-486", "LeetCode 486", "wins-or-ties", "function", 1, 20, 0, 10**7, 1.0),
        Profile(
            "leetcode-877", "LeetCode 877", "wins", "function", 2, 500, 1, 500, 1.0, True, True
        ),
        Profile("gfg", "GeeksforGeeks", "total", "function", 2, 1000, 1, 10**6, 1.0, True),
        Profile("edpc-l", "AtCoder EDPC L", "margin", "n-then-row", 1, 3000, 1, 10**9, 2.0),
        Profile("cses-1097", "CSES 1097", "total", "n-then-row", 1, 5000, -(10**9), 10**9, 1.0),
    )
}


def profile_named(name: str) -> Profile:
    """The profile called ``name``; raises :class:`InvalidOptionError` (O(1))."""
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise InvalidOptionError(f"unknown problem {name!r}; choose one of: {known}") from None


def judge_says(
    profile: Profile, *, kind: str | None, n: int, error: str, reached: int, slow_at: int
) -> str:
    """What the site's judge would say, in its words (O(1)): ``kind`` is the failure's kind
    (None: no failure), ``n`` its row's length, ``reached`` the longest row that passed,
    ``slow_at`` the first n over the time limit (0: none).

    >>> judge_says(PROFILES["cses-1097"], kind=None, n=0, error="", reached=5000, slow_at=0)
    'CSES 1097: accepted (up to n = 5,000)'
    """
    site = profile.site
    if kind in ("wrong", "wrong_type", "mutated"):
        return f"{site}: wrong answer (smallest failing row: {n:,} coins)"
    if kind == "timeout" or (kind is None and slow_at):
        at = n if kind == "timeout" else slow_at
        return f"{site}: time limit exceeded at n = {at:,} ({profile.seconds:g} s)"
    if kind in ("raised", "crash", "memory"):
        what = error or {"crash": "crash", "memory": "out of memory"}.get(kind, kind)
        return f"{site}: runtime error ({what}) at n = {n:,}"
    if reached < profile.max_n:
        return f"{site}: accepted up to n = {reached:,}; n = {profile.max_n:,} not tried"
    return f"{site}: accepted (up to n = {profile.max_n:,})"
