"""The rows a check tries: the worked examples, the edge cases, the exhaustive family and
random rows."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..numbers import Value


@dataclass(frozen=True)
class Seed:
    """A worked example from the seed documents and where it comes from."""

    coins: tuple[int, ...]
    source: str


#: The seeds' worked examples (the first player's optimal totals are 15, 22, 8, 5 and 7).
SEEDS = (
    Seed((5, 3, 7, 10), "the graded notebook and GeeksforGeeks: 15"),
    Seed((8, 15, 3, 7), "the graded notebook and GeeksforGeeks: 22, not greedy's 15"),
    Seed((3, 2, 2, 3, 1, 2), "'Coins in a Line': 8, more than the parity strategy's 7"),
    Seed((1, 2, 4, 3), "the triangle tutorial: 5"),
    Seed((1, 2, 2, 1, 2, 1, 1, 2), "the triangle tutorial's tie counterexample 12212112"),
)

BIG = 2**64 + 1

#: Edge rows, in the order tried.
EDGE_ROWS: tuple[tuple[Value, ...], ...] = (
    (7,),
    (0,),
    (2, 9),
    (9, 2),
    (4, 4),
    (5, 5, 5),
    (3, 3, 3, 3),
    (0, 0, 0),
    (1, 5, 2),
    (4, 1, 8, 2, 6),
    (-3,),
    (-2, -7),
    (5, -1, 3),
    (-4, 2, -6, 1),
    (BIG, 3),
    (3, 2**63, 2**63 - 1, 1),
    (10**30, 10**30 + 7, 1, 10**20),
)

#: Edge rows tried with ``exact``: Decimal and Fraction coins.
EXACT_ROWS: tuple[tuple[Value, ...], ...] = (
    (Decimal("0.1"), Decimal("0.2"), Decimal("0.3")),
    (Decimal("2.5"), Decimal("-1.25"), Decimal("3"), Decimal("0.75")),
    (Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)),
)

#: Random-stage sizes and rows per size.
RANDOM_SIZES = (10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)


def rows_per_size(n: int) -> int:
    return 20 if n <= 100 else 2 if n <= 100_000 else 1


def family(alphabet: Sequence[int], max_length: int) -> Iterator[tuple[int, ...]]:
    """Every row over ``alphabet``, by length 1, 2, ... then lexicographically: refute's
    family order (O(1) per row).

    >>> list(family([0, 1], 2))
    [(0,), (1,), (0, 0), (0, 1), (1, 0), (1, 1)]
    """
    for length in range(1, max_length + 1):
        yield from itertools.product(sorted(alphabet), repeat=length)


def random_row(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(-1_000_000, 1_000_000) for _ in range(n)]
