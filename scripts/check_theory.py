"""Machine checks behind docs/theory.md (Section 8 lists them with the counts printed here).

    PYTHONPATH=src .venv/bin/python scripts/check_theory.py [--quick] [--seed N]

The references are written here and share no code with coinrow: a plain game-tree minimax
(no table, no memo), the margin and value recurrences, a peak reduction that keeps its merge
trees, and the construction in the proof of Lemma 6.2. coinrow's reduction (``margin``,
``reduce_row``, ``optimal_line``, ``solve``, ``best_moves``) and ``cooperative_total`` are
compared with them. One line per check, with its count; the exit status is 1 if any check
failed (or checked nothing).

The full mode takes about two minutes; ``--quick`` takes a few seconds. Both are
deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from coinrow.engines.reduction import best_moves, margin, optimal_line, reduce_row, solve
from coinrow.strategies import cooperative_total

Num = int | Fraction
Row = tuple[Num, ...]


# --- bookkeeping ------------------------------------------------------------------------------


class Tally:
    """Counts per check and the first failure of each; checks print in registration order."""

    def __init__(self) -> None:
        self.units: dict[str, str] = {}
        self.counts: dict[str, int] = {}
        self.failures: dict[str, int] = {}
        self.first_failure: dict[str, object] = {}

    def register(self, name: str, unit: str) -> None:
        self.units.setdefault(name, unit)
        self.counts.setdefault(name, 0)

    def check(self, name: str, ok: bool, detail: object = None, count: int = 1) -> None:
        # detail is kept as an object and only formatted when reported: most checks pass.
        self.counts[name] += count
        if not ok:
            self.failures[name] = self.failures.get(name, 0) + 1
            self.first_failure.setdefault(name, detail)

    def report(self, names: Sequence[str]) -> None:
        for name in names:
            failed = self.failures.get(name, 0)
            status = "FAIL" if failed or not self.counts[name] else "ok  "
            line = f"{status} {name}: {self.counts[name]:,} {self.units[name]}"
            if failed:
                line += f"; {failed:,} failed, first: {self.first_failure[name]!r}"
            print(line, flush=True)

    @property
    def failed(self) -> bool:
        return any(self.failures.values()) or not all(self.counts.values())


# --- references, independent of coinrow --------------------------------------------------------


def brute_margin(row: Row) -> Num:
    """The margin by plain minimax over the game tree: no table, no memo (O(2^n))."""

    def best(lo: int, hi: int) -> Num:
        if lo == hi:
            return row[lo]
        return max(row[lo] - best(lo + 1, hi), row[hi] - best(lo, hi - 1))

    return best(0, len(row) - 1) if row else 0


def brute_cooperative(row: Row) -> Num:
    """The first player's largest total over all lines of play (O(2^n))."""

    def best(lo: int, hi: int, first: bool) -> Num:
        if lo > hi:
            return 0
        left = best(lo + 1, hi, not first) + (row[lo] if first else 0)
        right = best(lo, hi - 1, not first) + (row[hi] if first else 0)
        return max(left, right)

    return best(0, len(row) - 1, True)


def margin_table(row: Row) -> list[list[Num]]:
    """``d[i][j]`` is the margin of the coins ``i..j-1`` (half-open, so ``d[i][i] = 0``)."""
    n = len(row)
    d: list[list[Num]] = [[0] * (n + 1) for _ in range(n + 1)]
    for width in range(1, n + 1):
        for i in range(n - width + 1):
            j = i + width
            d[i][j] = max(row[i] - d[i + 1][j], row[j - 1] - d[i][j - 1])
    return d


def margin_of(row: Sequence[Num]) -> Num:
    """The margin by the recurrence, keeping one diagonal (O(n^2) time, O(n) memory)."""
    n = len(row)
    diagonal: list[Num] = [0] * (n + 1)
    for width in range(1, n + 1):
        diagonal = [
            max(row[i] - diagonal[i + 1], row[i + width - 1] - diagonal[i])
            for i in range(n - width + 1)
        ]
    return diagonal[0]


def optimal_moves(row: Sequence[Num], d: list[list[Num]], lo: int, hi: int) -> str:
    """The optimal moves of the nonempty subgame ``lo..hi-1``, from the margin table."""
    best = d[lo][hi]
    return "L" * (row[lo] - d[lo + 1][hi] == best) + "R" * (row[hi - 1] - d[lo][hi - 1] == best)


def line_is_optimal(row: Row, line: str, d: list[list[Num]]) -> bool:
    """Every move of ``line`` is an optimal move of its position."""
    lo, hi = 0, len(row)
    if len(line) != hi:
        return False
    for move in line:
        if move not in optimal_moves(row, d, lo, hi):
            return False
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
    return True


@dataclass(frozen=True, slots=True)
class Group:
    """A merge tree: a coin (no parts) or three consecutive groups merged into one entry."""

    value: Num
    size: int
    weight: Num  # sum of |coin| over the group: the Section 6.4 bound
    parts: tuple[Group, ...] = ()

    @staticmethod
    def coin(value: Num) -> Group:
        return Group(value, 1, magnitude(value))

    @staticmethod
    def merge(x: Group, y: Group, z: Group) -> Group:
        value, size = x.value - y.value + z.value, x.size + y.size + z.size
        return Group(value, size, x.weight + y.weight + z.weight, (x, y, z))

    def coins(self) -> list[Num]:
        if not self.parts:
            return [self.value]
        return [coin for part in self.parts for coin in part.coins()]

    def nodes(self) -> Iterator[Group]:
        yield self
        for part in self.parts:
            yield from part.nodes()

    def reversed(self) -> Group:
        parts = tuple(part.reversed() for part in self.parts[::-1])
        return Group(self.value, self.size, self.weight, parts)

    def valid(self) -> bool:
        """Every node is a peak block of its parts' values, and its value is x - y + z."""
        if not self.parts:
            return self.size == 1
        x, y, z = self.parts
        return (
            y.value >= x.value
            and y.value >= z.value
            and self.value == x.value - y.value + z.value
            and self.size == x.size + y.size + z.size
            and x.valid()
            and y.valid()
            and z.valid()
        )


def magnitude(value: Num) -> Num:
    """``abs`` with a type mypy can follow through ``int | Fraction``."""
    return -value if value < 0 else value


def is_peak(row: Sequence[Num], k: int, strict: bool = False) -> bool:
    """Is the entry at ``k`` a peak block's middle: ``>=`` both neighbours (``>`` if strict)?"""
    x, y, z = row[k - 1], row[k], row[k + 1]
    return y > x and y > z if strict else y >= x and y >= z


def reduce_groups(
    row: Sequence[Num],
    strict: bool = False,
    on_merge: Callable[[list[Group], int, Group, Group, Group], None] | None = None,
) -> list[Group]:
    """The peak reduction of Section 4.1, keeping merge trees (``strict``: test y > x, y > z).

    ``on_merge(stack, scanned, x, y, z)`` sees each merge after it happened; ``scanned`` is
    the number of coins pushed so far.
    """
    stack: list[Group] = []
    for scanned, coin in enumerate(row, 1):
        stack.append(Group.coin(coin))
        while len(stack) >= 3 and is_peak([g.value for g in stack[-3:]], 1, strict):
            x, y, z = stack[-3:]
            stack[-3:] = [Group.merge(x, y, z)]
            if on_merge:
                on_merge(stack, scanned, x, y, z)
    return stack


def greedy_order(values: Sequence[Num]) -> list[tuple[int, bool]]:
    """Greedy play on a row: (index, taken from the left) per turn; left on a tie."""
    order, lo, hi = [], 0, len(values) - 1
    while lo <= hi:
        if values[lo] >= values[hi]:
            order.append((lo, True))
            lo += 1
        else:
            order.append((hi, False))
            hi -= 1
    return order


def greedy_margin(values: Sequence[Num]) -> Num:
    """The alternating sum of greedy play: + for the first player's entries, - otherwise."""
    total: Num = 0
    for turn, (k, _) in enumerate(greedy_order(values)):
        total += -values[k] if turn % 2 else values[k]
    return total


def is_valley(values: Sequence[Num]) -> bool:
    return not any(is_peak(values, k) for k in range(1, len(values) - 1))


def total(coins: Sequence[Num]) -> Num:
    result: Num = 0
    for coin in coins:
        result += coin
    return result


def alternating_sum(coins: Sequence[Num]) -> Num:
    return total(coins[0::2]) - total(coins[1::2])


# --- rows -------------------------------------------------------------------------------------


def exhaustive(alphabet: Sequence[int], longest: int) -> Iterator[Row]:
    for length in range(longest + 1):
        yield from itertools.product(alphabet, repeat=length)


def random_rows(rng: random.Random, count: int, lengths: range, bounds: Sequence[int]) -> list[Row]:
    """``count`` rows; each picks a length, then a bound from ``bounds``, values in [-b, b]."""
    rows: list[Row] = []
    for _ in range(count):
        length, bound = rng.choice(lengths), rng.choice(bounds)
        rows.append(tuple(rng.randint(-bound, bound) for _ in range(length)))
    return rows


@dataclass(frozen=True)
class Plan:
    """Sizes of the row sets: the full mode, or the quick one."""

    main_exhaustive: int  # longest row over {0,1,2,3} in the main set
    main_random: int  # rows of length 0-14, values in [-3,3], [-10,10] or [-1000,1000]
    main_long: int  # rows of length 15-60, values in [-50,50]
    main_fractions: int  # rows of length 0-14 of fractions k/8, |k| <= 64
    brute_longest: int  # the game tree is searched on rows up to this length
    extra_exhaustive: int
    extra_random: int  # rows of length 0-11, values in [-9,9]
    lemma_5_4: int
    phase_exhaustive: int
    phase_random: int  # rows of length 0-30, values in [-10,10]
    chunk_exhaustive: int  # longest row over {0,1,2,3} cut in every way
    chunk_random: int  # rows of length 0-30 with random cuts and random merge orders


FULL = Plan(9, 20_000, 2_000, 2_000, 12, 7, 20_000, 30_000, 8, 20_000, 7, 10_000)
QUICK = Plan(6, 400, 40, 40, 10, 5, 400, 1_000, 6, 300, 4, 100)


# --- Sections 4-6 on the main set -------------------------------------------------------------

RECURRENCE = "margin recurrence = game-tree minimax (rows of length <= {})"
REDUCTION = "coinrow margin = recurrence"
REDUCED = "coinrow reduce_row = reference reduction; valley, odd groups cover the row"
LINE = "every move of coinrow's optimal_line is optimal"
FIRST = "coinrow solve: first moves = optimal first moves (line's first + other if equal)"
MERGE = "merge lemma (a): D(R) = D(R/B) at every peak block, ends included"
BOUND_D = "bound (e): |D|, |a_i - D(i+1,j)|, |a_j - D(i,j-1)| <= sum |a_k| on every subgame"
BOUND_MERGE = "bound (e): |x - y| and |x - y + z| <= sum |a_k| of the groups, every merge"
BOUND_GREEDY = "bound (e): greedy partial sums <= sum |a_k| taken; |S +- D| <= 2 sum |a_k|"


def check_main_row(row: Row, tally: Tally, brute_longest: int) -> None:
    n = len(row)
    d = margin_table(row)
    best = d[0][n]
    if n <= brute_longest:
        tally.check(RECURRENCE.format(brute_longest), brute_margin(row) == best, row)
    tally.check(REDUCTION, margin(list(row)) == best, row)

    def bound_merge(stack: list[Group], scanned: int, x: Group, y: Group, z: Group) -> None:
        merged = stack[-1]  # x - y is the partial result before z is added
        ok = magnitude(x.value - y.value) <= x.weight + y.weight
        tally.check(BOUND_MERGE, ok and magnitude(merged.value) <= merged.weight, row)

    groups = reduce_groups(row, on_merge=bound_merge)
    values, counts = reduce_row(list(row))
    ok = values == [g.value for g in groups] and counts == [g.size for g in groups]
    ok = ok and sum(counts) == n and all(c % 2 for c in counts) and is_valley(values)
    ok = ok and all(g.value == alternating_sum(g.coins()) for g in groups)
    tally.check(REDUCED, ok, row)

    tally.check(LINE, line_is_optimal(row, optimal_line(list(row)), d), row)
    if n:
        reported = set(solve(list(row)).first_moves)  # set() accepts a frozenset or "LR"
        tally.check(FIRST, reported == set(optimal_moves(row, d, 0, n)), row)

    for k in range(1, n - 1):
        if is_peak(row, k):
            merged = (*row[: k - 1], row[k - 1] - row[k] + row[k + 1], *row[k + 2 :])
            tally.check(MERGE, margin_of(merged) == best, (row, k))

    ok = True
    for i in range(n):
        weight: Num = 0  # sum of |a_k| over i..j-1
        for j in range(i + 1, n + 1):
            weight += magnitude(row[j - 1])
            ok = ok and magnitude(d[i][j]) <= weight and magnitude(row[i] - d[i + 1][j]) <= weight
            ok = ok and magnitude(row[j - 1] - d[i][j - 1]) <= weight
    tally.check(BOUND_D, ok, row, count=n * (n + 1) // 2)

    partial: Num = 0
    taken: Num = 0
    for turn, (k, _) in enumerate(greedy_order([g.value for g in groups])):
        partial += -groups[k].value if turn % 2 else groups[k].value
        taken += groups[k].weight
        ok = ok and magnitude(partial) <= taken
    # taken is now sum |a_k| over the whole row: S + D is twice the first total.
    twice_first, twice_second = total(row) + best, total(row) - best
    ok = ok and magnitude(twice_first) <= 2 * taken and magnitude(twice_second) <= 2 * taken
    tally.check(BOUND_GREEDY, ok, row)


def main_set(plan: Plan, rng: random.Random, tally: Tally) -> list[str]:
    units = {
        RECURRENCE.format(plan.brute_longest): "rows",
        REDUCTION: "rows",
        REDUCED: "rows",
        LINE: "rows",
        FIRST: "nonempty rows",
        MERGE: "blocks",
        BOUND_D: "subgames",
        BOUND_MERGE: "merges",
        BOUND_GREEDY: "rows",
    }
    for name, unit in units.items():
        tally.register(name, unit)

    parts: dict[str, list[Row]] = {
        f"all rows over {{0,1,2,3}} of length 0-{plan.main_exhaustive}": list(
            exhaustive(range(4), plan.main_exhaustive)
        ),
        "random rows of length 0-14, values in [-3,3], [-10,10] or [-1000,1000]": random_rows(
            rng, plan.main_random, range(15), (3, 10, 1000)
        ),
        "random rows of length 15-60, values in [-50,50]": random_rows(
            rng, plan.main_long, range(15, 61), (50,)
        ),
        "random rows of length 0-14 of fractions k/8, |k| <= 64": [
            tuple(Fraction(k, 8) for k in row)
            for row in random_rows(rng, plan.main_fractions, range(15), (64,))
        ],
    }
    print(f"main set: {sum(map(len, parts.values())):,} rows", flush=True)
    for label, rows in parts.items():
        print(f"  {len(rows):>9,} {label}", flush=True)
        for row in rows:
            check_main_row(row, tally, plan.brute_longest)
    return list(units)


# --- Sections 2, 3, 5 and 6.1 on the extra set ------------------------------------------------

VALUES = "two-way and four-way value recurrences (both forms) = (S + D)/2, every subgame"
COOPERATIVE = "coinrow cooperative_total = largest first total over all lines (length <= 10)"
BEST_MOVES = "coinrow best_moves = optimal moves, every subgame (rows of length <= 7)"
LEMMA_5_1 = "Lemma 5.1: D(sT) + D(T) <= 2M - s with M = max(sT), every subgame sT"
LEMMA_5_2 = "Lemma 5.2: taking an end that is a maximum is optimal, every such subgame end"
REVERSAL = "Lemma 2.1: D(R) = D(reversed R)"
LIPSCHITZ = "Lemma 2.2: |D(R) - D(R~)| <= sum |r_k - r~_k|, R~ = R with entries redrawn"
TREES = "Lemma 6.1 (i), (ii), (iv) on every node of every merge tree"
PARTITION = "Lemma 6.1 (iii) / Cor. 5.7: stack + unscanned coins keep D after every merge"
PARITY = "parity bound S/2 <= max(E, O) <= V (even n >= 2)"


def values_agree(row: Row, d: list[list[Num]]) -> bool:
    """The two-way, four-way (explicit bases) and four-way (empty terms 0) forms of V."""
    n = len(row)
    prefix = list(itertools.accumulate(row, initial=0))
    two: dict[tuple[int, int], Num] = {}
    four: dict[tuple[int, int], Num] = {}
    empty: dict[tuple[int, int], Num] = {}

    def get(table: dict[tuple[int, int], Num], i: int, j: int) -> Num:
        return table[i, j] if i <= j else 0  # inclusive i..j; j < i is the empty subgame

    def four_way(table: dict[tuple[int, int], Num], i: int, j: int) -> Num:
        inner = get(table, i + 1, j - 1)
        return max(
            row[i] + min(get(table, i + 2, j), inner), row[j] + min(inner, get(table, i, j - 2))
        )

    for width in range(1, n + 1):
        for i in range(n - width + 1):
            j = i + width - 1
            total = prefix[j + 1] - prefix[i]
            two[i, j] = total - min(get(two, i + 1, j), get(two, i, j - 1))
            if width == 1:
                four[i, j] = row[i]
            elif width == 2:
                four[i, j] = max(row[i], row[j])
            else:
                four[i, j] = four_way(four, i, j)
            empty[i, j] = four_way(empty, i, j)
            doubled = total + d[i][j + 1]
            if doubled % 2 or not two[i, j] == four[i, j] == empty[i, j] == doubled // 2:
                return False
    return True


def check_extra_row(row: Row, tally: Tally, rng: random.Random) -> None:
    n = len(row)
    d = margin_table(row)
    best = d[0][n]
    tally.check(VALUES, values_agree(row, d), row, count=n * (n + 1) // 2)
    if n <= 10:
        tally.check(COOPERATIVE, cooperative_total(list(row)) == brute_cooperative(row), row)
    if n <= 7:
        for lo in range(n):
            for hi in range(lo + 1, n + 1):
                ok = best_moves(list(row), lo, hi - 1) == optimal_moves(row, d, lo, hi)
                tally.check(BEST_MOVES, ok, (row, lo, hi - 1))

    for i in range(n):
        top = row[i]
        for j in range(i + 1, n + 1):
            top = max(top, row[j - 1])
            tally.check(LEMMA_5_1, d[i][j] + d[i + 1][j] <= 2 * top - row[i], (row, i, j))
            if row[i] == top:
                tally.check(LEMMA_5_2, row[i] - d[i + 1][j] == d[i][j], (row, i, j, "L"))
            if row[j - 1] == top:
                tally.check(LEMMA_5_2, row[j - 1] - d[i][j - 1] == d[i][j], (row, i, j, "R"))

    tally.check(REVERSAL, margin_of(row[::-1]) == best, row)
    other = tuple(rng.randint(-9, 9) if rng.random() < 0.5 else r for r in row)  # half redrawn
    distance = sum(magnitude(r - s) for r, s in zip(row, other, strict=True))
    tally.check(LIPSCHITZ, magnitude(best - margin_of(other)) <= distance, (row, other))

    def keeps_margin(stack: list[Group], scanned: int, x: Group, y: Group, z: Group) -> None:
        current = [g.value for g in stack] + list(row[scanned:])
        tally.check(PARTITION, margin_of(current) == best, (row, current))

    for group in reduce_groups(row, on_merge=keeps_margin):
        for node in group.nodes():
            flipped = node.reversed()
            ok = node.value == alternating_sum(node.coins()) and node.valid()
            ok = ok and all(node.value <= part.value for part in node.parts)
            ok = ok and flipped.valid() and flipped.coins() == node.coins()[::-1]
            tally.check(TREES, ok, (row, node))

    if n >= 2 and n % 2 == 0:
        whole, evens, odds = total(row), total(row[0::2]), total(row[1::2])
        tally.check(PARITY, whole <= 2 * max(evens, odds) <= whole + best, row)


def extra_set(plan: Plan, rng: random.Random, tally: Tally) -> list[str]:
    names = [VALUES, COOPERATIVE, BEST_MOVES, LEMMA_5_1, LEMMA_5_2, REVERSAL, LIPSCHITZ]
    names += [TREES, PARTITION, PARITY]
    units = ["subgames", "rows", "subgames", "subgames", "subgame ends", "rows", "pairs"]
    units += ["nodes", "merges", "rows"]
    for name, unit in zip(names, units, strict=True):
        tally.register(name, unit)
    small = list(exhaustive(range(4), plan.extra_exhaustive))
    rows = small + random_rows(rng, plan.extra_random, range(12), (9,))
    print(
        f"extra set: {len(rows):,} rows (all {len(small):,} over {{0,1,2,3}} of length"
        f" 0-{plan.extra_exhaustive}, {plan.extra_random:,} random of length 0-11 in [-9,9])",
        flush=True,
    )
    for row in rows:
        check_extra_row(row, tally, rng)
    return names


# --- Lemma 5.4 --------------------------------------------------------------------------------

LEMMA_5_4 = "Lemma 5.4: x - D(yzQ) <= D(wQ) for y >= x (random x, y, z in [-9,9], |Q| <= 8)"


def lemma_5_4(plan: Plan, rng: random.Random, tally: Tally) -> list[str]:
    tally.register(LEMMA_5_4, "instances")
    for _ in range(plan.lemma_5_4):
        x, z = rng.randint(-9, 9), rng.randint(-9, 9)
        y = rng.randint(x, 9)
        q = tuple(rng.randint(-9, 9) for _ in range(rng.randint(0, 8)))
        ok = x - margin_of((y, z, *q)) <= margin_of((x - y + z, *q))
        tally.check(LEMMA_5_4, ok, (x, y, z, q))
    return [LEMMA_5_4]


# --- Lemma 6.2: the phase construction --------------------------------------------------------

PHASES_TOP = "Lemma 6.2 phases: every J valid and dominant, greedy-taken groups of >= 3 coins"
PHASES_ALL = "Lemma 6.2 phases, applied again to every (J, Z') as the induction does"


class PhaseError(Exception):
    pass


def require(condition: bool, message: str) -> None:
    if not condition:
        raise PhaseError(message)


def absorb(tail: list[Group], theta: Num, pairs: Sequence[tuple[Group, Group]]) -> None:
    """The proof's "absorbing pairs" step, in place, checking its claims."""
    for m, r in pairs:
        if m.value <= theta:
            tail += [m, r]
        else:
            last = tail[-1]
            require(m.value > theta >= last.value and m.value >= r.value, "absorb: not a peak")
            tail[-1] = Group.merge(last, m, r)
            require(tail[-1].value <= last.value, "absorb: last entry grew")
    require(all(g.value <= theta for g in tail), "absorb: entry above theta")


def phases(k_group: Group, rest: list[Group]) -> int:
    """Build every phase's (J, Z') for the group K followed by the groups ``rest``, check it,
    and recurse into each (J, Z'); returns the number of (K, Z) instances checked."""
    k = k_group.value
    require(k_group.valid() and all(g.valid() and g.value <= k for g in rest), "bad instance")
    if k_group.size == 1:
        return 1
    spine = [k_group]
    while spine[-1].parts:
        spine.append(spine[-1].parts[0])
    depth = len(spine) - 1
    s = [g.value for g in spine]
    mid = [spine[j].parts[1] for j in range(depth)]
    right = [spine[j].parts[2] for j in range(depth)]
    m, r = [g.value for g in mid], [g.value for g in right]
    for j in range(depth):  # (F1)-(F3)
        require(s[j] == s[j + 1] - m[j] + r[j], "F1")
        require(s[j] <= r[j] <= m[j] and s[j] <= s[j + 1] <= m[j], "F3")
    order = [spine[depth].value]
    for j in reversed(range(depth)):
        order += mid[j].coins() + right[j].coins()
    require(order == k_group.coins(), "coin order along the left spine")

    rest_coins = [c for g in rest for c in g.coins()]
    checked = 1
    for j in reversed(range(depth)):
        later = [(mid[i], right[i]) for i in reversed(range(j))]
        # Phase M^j: J = M^j, theta = m^j, the list starts as [R^j].
        tail = [right[j]]
        absorb(tail, m[j], later)
        instances = [(mid[j], tail + rest, mid[j], mid[j].coins() + right[j].coins())]
        # Phase R^j: grow J while the next pair's middle is >= its value.
        group, i = right[j], j - 1
        while i >= 0 and m[i] >= group.value:
            group = Group.merge(group, mid[i], right[i])
            require(group.value - s[i] == r[j] - s[j] and group.value >= s[i] >= k, "v >= s^i")
            i -= 1
        tail = []
        if i >= 0:
            require(m[i] < group.value and r[i] <= m[i], "stopping pair")
            tail = [mid[i], right[i]]
            absorb(tail, group.value, [(mid[h], right[h]) for h in reversed(range(i))])
        instances.append((group, tail + rest, right[j], right[j].coins()))
        later_coins = [c for pair in later for g in pair for c in g.coins()]
        for j_group, z_list, phase_group, start in instances:
            coins = j_group.coins() + [c for g in z_list for c in g.coins()]
            require(coins == start + later_coins + rest_coins, "J, Z' miss the phase's coins")
            require(j_group.coins()[: phase_group.size] == phase_group.coins(), "J starts with N")
            require(j_group.size < k_group.size, "J contains c")
            checked += phases(j_group, z_list)
    return checked


def phase_set(plan: Plan, rng: random.Random, tally: Tally) -> list[str]:
    tally.register(PHASES_TOP, "groups")
    tally.register(PHASES_ALL, "instances")
    small = list(exhaustive(range(4), plan.phase_exhaustive))
    rows = small + random_rows(rng, plan.phase_random, range(31), (10,))
    print(
        f"phase set: {len(rows):,} rows (all {len(small):,} over {{0,1,2,3}} of length"
        f" 0-{plan.phase_exhaustive}, {plan.phase_random:,} random of length 0-30 in [-10,10])",
        flush=True,
    )
    for row in rows:
        groups = reduce_groups(row)
        lo, hi = 0, len(groups) - 1
        for _, from_left in greedy_order([g.value for g in groups]):
            if from_left:
                k_group, rest = groups[lo], groups[lo + 1 : hi + 1]
                lo += 1
            else:
                k_group = groups[hi].reversed()
                rest = [g.reversed() for g in groups[lo:hi][::-1]]
                hi -= 1
            if k_group.size == 1:
                continue
            try:
                tally.check(PHASES_ALL, True, count=phases(k_group, rest))
                tally.check(PHASES_TOP, True)
            except PhaseError as error:
                tally.check(PHASES_TOP, False, (row, str(error)))
    return [PHASES_TOP, PHASES_ALL]


# --- Theorem 6.5: chunk by chunk, and any merge order ----------------------------------------

CHUNKS = "Theorem 6.5: chunks reduced alone, stacks reduced again: groups, valley, margin, line"
CHUNK_FIRST = "Theorem 6.5: D(1..n-1), D(0..n-2) from the chunk stacks (first chunk reduced again)"
CHUNK_KERNEL = "coinrow solve_chunks (compiled): margin, first moves, every move of the line"
ANY_ORDER = "group lemma for any partition: peaks merged in random order to a valley, line"


def push_groups(stack: list[Group], entries: Sequence[Group]) -> list[Group]:
    """Section 4.1's stack algorithm with groups pushed in place of coins."""
    for entry in entries:
        stack.append(entry)
        while len(stack) >= 3 and is_peak([g.value for g in stack[-3:]], 1):
            stack[-3:] = [Group.merge(*stack[-3:])]
    return stack


def chunked(row: Row, cuts: Sequence[int]) -> list[Group]:
    """Each chunk ``row[cuts[k]:cuts[k+1]]`` reduced alone, then the stacks reduced again."""
    stacks = [reduce_groups(row[lo:hi]) for lo, hi in itertools.pairwise(cuts)]
    return push_groups([], [entry for stack in stacks for entry in stack])


def expanded_line(groups: Sequence[Group]) -> str:
    """Greedy play on the groups' values, each entry expanded into its group's coins."""
    return "".join(
        ("L" if left else "R") * groups[k].size
        for k, left in greedy_order([g.value for g in groups])
    )


def partition_ok(row: Row, groups: Sequence[Group], d: list[list[Num]]) -> bool:
    """Valid groups covering the row in order, a valley, the row's margin, an optimal line."""
    values = [g.value for g in groups]
    return (
        all(g.valid() for g in groups)
        and [coin for g in groups for coin in g.coins()] == list(row)
        and is_valley(values)
        and greedy_margin(values) == d[0][len(row)]
        and line_is_optimal(row, expanded_line(groups), d)
    )


def random_merges(row: Row, rng: random.Random) -> list[Group]:
    """Merge a random peak block of the current row until none is left (a valley)."""
    groups = [Group.coin(coin) for coin in row]
    while True:
        peaks = [k for k in range(1, len(groups) - 1) if is_peak([g.value for g in groups], k)]
        if not peaks:
            return groups
        k = rng.choice(peaks)
        groups[k - 1 : k + 2] = [Group.merge(*groups[k - 1 : k + 2])]


def chunk_set(plan: Plan, rng: random.Random, tally: Tally) -> list[str]:
    import numpy as np

    from coinrow.engines.reduction import solve_chunks  # compiled: NumPy and Numba

    names = [CHUNKS, CHUNK_FIRST, CHUNK_KERNEL, ANY_ORDER]
    tally.register(CHUNKS, "(row, cuts) pairs")
    tally.register(CHUNK_FIRST, "(row, cuts) pairs")
    tally.register(CHUNK_KERNEL, "(row, cuts) pairs")
    tally.register(ANY_ORDER, "(row, merge order) pairs")
    small = list(exhaustive(range(4), plan.chunk_exhaustive))
    rows = small + random_rows(rng, plan.chunk_random, range(31), (3, 10, 1000))
    print(
        f"chunk set: {len(rows):,} rows (all {len(small):,} over {{0,1,2,3}} of length"
        f" 0-{plan.chunk_exhaustive} with every cut, {plan.chunk_random:,} random of length"
        " 0-30 in [-3,3], [-10,10] or [-1000,1000] with 3 random cut sets and 3 random"
        " merge orders)",
        flush=True,
    )
    example = (0, 1, 1, 1, 2)  # the text's example: the line depends on the cuts
    lines = expanded_line(reduce_groups(example)), expanded_line(chunked(example, [0, 1, 5]))
    values = [g.value for g in chunked(example, [0, 1, 5])]
    tally.check(CHUNKS, lines == ("RRLLL", "RRRRL") and values == [0, 1, 2], (example, lines))
    for index, row in enumerate(rows):
        n, d = len(row), margin_table(row)
        if index < len(small):
            cut_sets = [
                [0, *(c for c, keep in zip(range(1, n), mask, strict=True) if keep), n]
                for mask in itertools.product((False, True), repeat=max(n - 1, 0))
            ]
        else:
            cut_sets = [sorted({0, n, *rng.sample(range(n + 1), rng.randint(0, n))}) for _ in "abc"]
            for _ in "abc":
                tally.check(ANY_ORDER, partition_ok(row, random_merges(row, rng), d), row)
        for cuts in cut_sets:
            tally.check(CHUNKS, partition_ok(row, chunked(row, cuts), d), (row, cuts))
            if n == 0:
                continue
            # Theorem 6.5 (iv): the first chunk without its first coin, then the other stacks;
            # the last coin alone as a chunk, and the stacks before it.
            tail = sorted({0, *(c - 1 for c in cuts if c > 1), n - 1})
            before = sorted({*(c for c in cuts if c < n - 1), n - 1})
            after_first = greedy_margin([g.value for g in chunked(row[1:], tail)])
            before_last = greedy_margin([g.value for g in chunked(row[:-1], before)])
            tally.check(
                CHUNK_FIRST, (after_first, before_last) == (d[1][n], d[0][n - 1]), (row, cuts)
            )
            if all(type(coin) is int for coin in row):
                best, codes, first = solve_chunks(np.array(row, np.int64), cuts, threads=1)  # type: ignore[misc]
                ok = (best, first) == (d[0][n], optimal_moves(row, d, 0, n))
                tally.check(CHUNK_KERNEL, ok and line_is_optimal(row, bytes(codes).decode(), d))
    return names


# --- the rows named in the text ---------------------------------------------------------------

TABLE = "Section 3 table: totals, margin and optimal first moves (game-tree minimax)"
SECTION_3 = "Section 3 text: cooperative, parity, odd n and greedy examples"
SECTION_4 = "Section 4.2 examples: reduced rows, groups, margins, lines (coinrow and reference)"
REMARK_5_8 = "Remark 5.8: 0 0 2 2 2 1, strict test: a non-valley, greedy margin -1; D = 1"
REMARK_5_9 = "Remark 5.9: 0 5 0 100 and the two false lemmas (0 0 1 0 0 1, 0 0 1 0 0)"
REMARK_6_4 = "Remark 6.4: 0 0 0 1 0 0 1"


def first_moves(row: Row) -> str:
    """The optimal first moves by game-tree minimax."""
    best = brute_margin(row)
    return "L" * (row[0] - brute_margin(row[1:]) == best) + "R" * (
        row[-1] - brute_margin(row[:-1]) == best
    )


def play_greedy_first(row: Row) -> Num:
    """The first player's total when they take the larger end (left on ties) and the second
    player answers optimally (left when both moves are optimal)."""
    lo, hi, first = 0, len(row), True
    collected: Num = 0
    while lo < hi:
        if first:
            take_left = row[lo] >= row[hi - 1]
            collected += row[lo] if take_left else row[hi - 1]
        else:
            take_left = "L" in first_moves(row[lo:hi])
        lo, hi = (lo + 1, hi) if take_left else (lo, hi - 1)
        first = not first
    return collected


def named_rows(plan: Plan, rng: random.Random, tally: Tally) -> list[str]:
    names = [TABLE, SECTION_3, SECTION_4, REMARK_5_8, REMARK_5_9, REMARK_6_4]
    for name in names:
        tally.register(name, "rows" if name == TABLE else "facts")

    table = {  # row: first total, second total, margin, optimal first moves
        (3, 2, 2, 3, 1, 2): (8, 5, 3, "L"),
        (1, 2, 4, 3): (5, 5, 0, "LR"),
        (5, 3, 7, 10): (15, 10, 5, "R"),
        (8, 15, 3, 7): (22, 11, 11, "R"),
        (3, 5, 2, 3, 1): (6, 8, -2, "LR"),
    }
    for row, expected in table.items():
        d, s = brute_margin(row), sum(row)
        tally.check(TABLE, ((s + d) // 2, (s - d) // 2, d, first_moves(row)) == expected, row)

    b = brute_margin
    facts = [
        cooperative_total([3, 2, 2, 3, 1, 2]) == brute_cooperative((3, 2, 2, 3, 1, 2)) == 8,
        cooperative_total([1, 100, 1]) == brute_cooperative((1, 100, 1)) == 101,
        cooperative_total([8, 15, 3, 7]) == brute_cooperative((8, 15, 3, 7)) == 23,
        (sum((3, 2, 2, 3, 1, 2)[0::2]), sum((3, 2, 2, 3, 1, 2)[1::2])) == (6, 7),
        3 - b((2, 2, 3, 1, 2)) == 3 and 2 - b((3, 2, 2, 3, 1)) == 1,  # left 3 vs right 2
        (sum((3, 5, 2, 3, 1)[0::2]), sum((3, 5, 2, 3, 1)[1::2])) == (6, 8),
        3 - b((5, 2, 3, 1)) == 1 - b((3, 5, 2, 3)) == b((3, 5, 2, 3, 1)) == -2,
        first_moves((15, 3, 7)) == "L" and play_greedy_first((8, 15, 3, 7)) == 15,
    ]
    for index, fact in enumerate(facts):
        tally.check(SECTION_3, fact, f"fact {index}")

    examples: dict[Row, tuple[list[Num], list[int], Num, str]] = {  # values, sizes, D, line
        (3, 2, 2, 3, 1, 2): ([3, 2, 0, 2], [1, 1, 3, 1], 3, "LLRLLL"),
        (1, 2, 4, 3): ([1, 1], [1, 3], 0, "LLLL"),
        (5, 3, 7, 10): ([5, 3, 7, 10], [1, 1, 1, 1], 5, "RRLL"),
        (8, 15, 3, 7): ([-4, 7], [3, 1], 11, "RLLL"),
    }
    for example, solved in examples.items():
        groups = reduce_groups(example)
        values, sizes = [g.value for g in groups], [g.size for g in groups]
        coins = list(example)
        by_coinrow = (*reduce_row(coins), margin(coins), optimal_line(coins))
        ok = by_coinrow == solved and (values, sizes, greedy_margin(values)) == solved[:3]
        tally.check(SECTION_4, ok, example)
    tally.check(SECTION_4, b((2, 4, 3)) == 1 and b((1, 2, 4)) == 3, "1 2 4 3 first moves")

    row = (0, 0, 2, 2, 2, 1)
    strict = [g.value for g in reduce_groups(row, strict=True)]
    tally.check(REMARK_5_8, strict == list(row) and not is_valley(strict), strict)
    tally.check(REMARK_5_8, greedy_margin(strict) == -1, strict)
    tally.check(REMARK_5_8, b(row) == margin(list(row)) == 1, row)
    reduced = (*reduce_row(list(row)), optimal_line(list(row)))
    tally.check(REMARK_5_8, reduced == ([0, -1], [1, 5], "LLLLLL"), reduced)

    facts = [
        b((5, 0, 100)) == 95 and 100 - b((5, 0)) == 95 and 5 - b((0, 100)) == -95,
        b((0, 0, 1, 0, 0, 1)) == 2 and b((1, 0, 0, 1)) == 0,  # D(yzQ) = 2 > y - z + D(Q) = 0
        b((0, 0, 1, 0, 0)) == -1 and b((1, 0, 0)) == 1,  # |D(uvQ) - D(Q)| = 2 > |u - v| = 0
    ]
    for index, fact in enumerate(facts):
        tally.check(REMARK_5_9, fact, f"fact {index}")

    row = (0, 0, 0, 1, 0, 0, 1)
    facts = [
        b((0, 1, 0, 0, 1)) == 0 == 0 - b((1, 0, 0, 1)),  # in the merged row, the 0 is optimal
        0 - b(row[1:]) == -2 and b(row) == 0,  # in the coin row it is not
        reduce_row(list(row)) == ([-1, 0, 1], [5, 1, 1]) and optimal_line(list(row))[:2] == "RR",
    ]
    for index, fact in enumerate(facts):
        tally.check(REMARK_6_4, fact, f"fact {index}")
    return names


# --- main -------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small row sets (seconds)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random rows")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    rng = random.Random(args.seed)
    tally = Tally()
    start = time.perf_counter()
    for section in (named_rows, main_set, extra_set, lemma_5_4, phase_set):
        tally.report(section(plan, rng, tally))
    # Its own random rows, so the section can be rerun alone with the same counts.
    tally.report(chunk_set(plan, random.Random(f"{args.seed}-chunks"), tally))
    verdict = "FAILED" if tally.failed else "all checks passed"
    print(f"{verdict} ({'quick' if args.quick else 'full'} mode, seed {args.seed},"
          f" {time.perf_counter() - start:.0f} s)")  # fmt: skip
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
