"""Censuses under other rules (``Census(..., rules=R)``; the command line passes its rules).

Every row of the family is solved under the rules (the compiled kernels of
:mod:`coinrow.census.variant_kernels` over words and random rows, for every variant but
``reply``; else :func:`coinrow.solve`) and tallied: the margin histogram (the first
player's total minus the second's: coins, or Stone Game VII's points), the outcomes, the
optimal first moves, and, where the totals are shares of the row, the first player's **worst
share** over the family (first total / the row's total, an exact fraction; rows whose total
is not positive have no share and are counted apart) with the rows that reach it. The worst
share is the smallest, except in the misère game, where the first player wants little and
the worst is the largest. For the pizza the tally also counts the rows below 4/9 (the
theorem of Cibulka, Kynčl, Mészáros, Stolař and Valtr and of Knauer, Micek and Ueckerdt: never,
for slices of nonnegative size). See docs/census.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..errors import InvalidOptionError, UnsupportedRulesError
from ..numbers import exact_arithmetic
from ..rules import RULES, Moves, Rules, as_moves, coerce_rules, moves_text
from ..solution import solve
from ..strategies import reply_opponent
from .families import Family, RandomRows, Shard, Words, WordsUpTo, approximate, work_text

#: The pizza's bound: the first player can always get 4/9 of a pizza of nonnegative slices.
FOUR_NINTHS = Fraction(4, 9)

#: What a row costs one core under each rules, through Python (coinrow.solve per row) and
#: compiled (census/variant_kernels.py; None: no compiled path): (seconds per row, subgames
#: per second), so a row of n coins takes seconds + :func:`row_work` / subgames. Fitted to
#: the rows/s that benchmarks/test_census_variants_bench.py measured at 10 and 15 coins (CPU
#: time; docs/census.md). Keyed by the engine a rule's class attributes choose
#: (:func:`cost_key`): the pizza, the reduction on transformed coins (misère, Stone Game VII
#: whose moves score the coins left), take:K and take:any, three sides (both ends too), a known
#: opponent.
ROW_COSTS: dict[str, tuple[tuple[float, float], tuple[float, float] | None]] = {
    "circle": ((3.7e-5, 4.8e6), (1.6e-7, 2.9e9)),
    "lowest-wins": ((2.1e-5, 2.5e6), (7e-8, 1.0e9)),
    "scores-left": ((1.7e-5, 3.1e6), (6e-8, 1.1e9)),
    "counted": ((4.9e-5, 4.2e6), (6e-8, 3.4e8)),
    "counted-any": ((3.0e-5, 3.6e6), (1.7e-7, 1.3e9)),
    "three-sides": ((3.4e-5, 2.4e6), (5.5e-8, 7e8)),
    "known-opponent": ((1.6e-5, 7.1e6), None),
}


def cost_key(rules: Rules) -> str:
    """The :data:`ROW_COSTS` entry of the rules, from their class attributes (O(1)).

    >>> cost_key(Rules.parse("take:any")), cost_key(Rules.parse("misere"))
    ('counted-any', 'lowest-wins')
    """
    if rules.circle:
        return "circle"
    if rules.known_opponent:
        return "known-opponent"
    if rules.counted_moves:
        return "counted-any" if rules.take is None else "counted"
    if "B" in rules.sides:
        return "three-sides"
    return "scores-left" if rules.scores_left else "lowest-wins"


#: Most seconds of one core a census through Python may need before it is refused (it can
#: still run for hours with a progress bar; past a day a compiled path is the way).
MAX_PYTHON_SECONDS = 86_400.0

#: Rows per shard through Python and compiled: a second or so of one core each.
SHARD_ROWS = {"python": 1 << 12, "compiled": 1 << 18}


def census_rules(rules: object, strategies: tuple[str, ...] = (), rows: bool = False) -> Rules:
    """The rules of a census, checked (O(1)): every two-player rule (``Rules.census``);
    ``players:P`` and strategies or per-row output under other rules than the plain game's
    raise :class:`~coinrow.errors.UnsupportedRulesError` naming the rules.

    >>> census_rules("circular"), census_rules(None).is_plain
    (Rules.parse('circular'), True)
    >>> census_rules("players:3")
    Traceback (most recent call last):
    ...
    coinrow.errors.UnsupportedRulesError: rules players:3:left: the census counts two-player games only (every rule but players:P[:left|:right|:spite])
    """  # noqa: E501
    chosen = coerce_rules(rules)
    if chosen.is_plain:
        return chosen
    if not chosen.census:
        others = ", ".join(rule.syntax for rule in RULES.values() if not rule.census)
        raise UnsupportedRulesError(
            f"rules {chosen}: the census counts two-player games only (every rule but {others})"
        )
    if strategies:
        raise UnsupportedRulesError(
            f"rules {chosen}: the census checks strategies in the plain game only"
        )
    if rows:
        raise UnsupportedRulesError(
            f"rules {chosen}: the census keeps every row's result in the plain game only"
        )
    if chosen.known_opponent:
        reply_opponent(chosen, allow_user=True)  # refuses an opponent that is not deterministic
    return chosen


def share_sense(rules: Rules) -> str | None:
    """``"smallest"`` when the worst share of the rules is the smallest, ``"largest"`` in the
    misère game, None when the totals are not shares of the row (Stone Game VII's points)
    (O(1)).

    >>> share_sense(Rules.parse("misere")), share_sense(Rules.parse("stone-game-vii"))
    ('largest', None)
    """
    if rules.scores_left:
        return None
    return "largest" if rules.lowest_wins else "smallest"


#: Longest rows of a compiled ``take`` census: a row's optimal first moves are a bit mask of
#: at most 2 x 31 moves.
MAX_COMPILED_TAKE_LENGTH = 31


def compiled_path(family: Family, rules: Rules) -> bool:
    """True when the census of the family runs compiled under the rules (O(1)): every
    variant but ``reply``, over words or random rows whose sums of |coins| stay below 2^16
    (so first total times total fits int64 and the margins a dense histogram), and for
    ``take`` rows of at most :data:`MAX_COMPILED_TAKE_LENGTH` coins.

    >>> compiled_path(Words.of("0,1,2", 9), Rules.parse("circular"))
    True
    >>> compiled_path(Words.of("0,1,2", 9), Rules.parse("reply:greedy"))
    False
    """
    return (
        (rules.circle or (rules.interval and not rules.is_plain))  # the pizza, the interval DP
        and isinstance(family, Words | WordsUpTo | RandomRows)
        and family.margin_bound < 1 << 16
        and (not rules.counted_moves or family.max_length <= MAX_COMPILED_TAKE_LENGTH)
        and rules.sides in ("LR", "LRB")  # the kernels take from both ends
    )


def row_work(n: int, rules: Rules) -> int:
    """Subgames one row of n coins costs under the rules (O(1)): n^2 for the pizza (n
    starts, n per reduction), n for the O(n) fast paths, n(n+1)/2 (times K for take:K;
    take:any keeps running extrema) for the interval DPs.

    >>> row_work(10, Rules.parse("circular")), row_work(10, Rules.parse("take:2"))
    (100, 110)
    """
    if rules.circle:
        return n * n
    if rules.fast_path and rules.interval:
        return n  # the reduction on -a (compiled: the interval DP, n(n+1)/2)
    cells = n * (n + 1) // 2
    if rules.counted_moves:
        return cells * (1 if rules.take is None else min(rules.take, n))
    return cells


def rows_per_second(family: Family, rules: Rules) -> float:
    """Rows per second of one core for the family's longest rows under the rules, from
    :data:`ROW_COSTS` (O(1)).

    >>> round(rows_per_second(Words.of("0,1,2", 15), Rules.parse("circular")), -3)
    4209000.0
    """
    work = row_work(family.max_length, rules)
    python, compiled = ROW_COSTS[cost_key(rules)]
    seconds, rate = python
    if compiled is not None and compiled_path(family, rules):
        seconds, rate = compiled
        n = family.max_length
        if not rules.circle:  # the interval DP: take:any is O(n^3) compiled
            work = n * (n + 1) // 2 * (n if rules.take is None else min(rules.take, n))
    return 1 / (seconds + work / rate)


def check_cost(family: Family, rules: Rules, remaining: int) -> float:
    """Seconds of one core the ``remaining`` rows need; through Python, more than
    :data:`MAX_PYTHON_SECONDS` is refused with one line naming the estimate
    (:class:`~coinrow.errors.InvalidOptionError`) (O(1)).

    >>> round(check_cost(Words.of("0,1,2", 15), Rules.parse("circular"), 3**15), 1)
    3.4
    """
    rate = rows_per_second(family, rules)
    seconds = remaining / rate
    if not compiled_path(family, rules) and seconds > MAX_PYTHON_SECONDS:
        raise InvalidOptionError(
            f"rules {rules}: {family.describe()} has {approximate(family.rows)} rows, about "
            f"{work_text(remaining, rate)} of one core through Python at {rate:,.0f} rows/s, "
            f"over the limit of {work_text(int(MAX_PYTHON_SECONDS * rate), rate)}; use a "
            "smaller family"
        )
    return seconds


def default_shard_rows(family: Family, rules: Rules) -> int:
    """Rows per shard of a variant census when none is given (O(1)).

    >>> default_shard_rows(Words.of("0,1,2", 15), Rules.parse("circular"))
    131072
    """
    target = SHARD_ROWS["compiled" if compiled_path(family, rules) else "python"]
    spread = 1 << max((family.rows // 64).bit_length() - 1, 0)
    return max(min(target, spread), 1 << 8)


@dataclass(frozen=True)
class ShareExample:
    """A row reaching the worst share: its number in family order, its label, coins, the
    first player's total and the row's total."""

    index: int
    label: int
    coins: tuple[int, ...]
    first_total: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(n))."""
        return {
            "index": self.label,
            "coins": list(self.coins),
            "first_total": self.first_total,
            "total": self.total,
        }


@dataclass
class VariantTally:
    """What a census under other rules counts beyond the histogram (see the module
    docstring); shards' tallies merge in any order (:meth:`merge`)."""

    rules: str
    compiled: bool = True
    excluded: int = 0
    share: Fraction | None = None
    reaching: int = 0
    examples: list[ShareExample] = field(default_factory=list)
    below_four_ninths: int = 0
    #: Rows per set of optimal first moves (a tuple of moves; its JSON key is the moves'
    #: texts separated by spaces, :func:`~coinrow.rules.moves_text`).
    first_moves: dict[Moves, int] = field(default_factory=dict)

    @cached_property
    def _circle(self) -> bool:
        return Rules.parse(self.rules).circle

    @property
    def sense(self) -> str | None:
        """``smallest``, ``largest`` or None (see :func:`share_sense`) (O(1))."""
        return share_sense(Rules.parse(self.rules))

    def add(self, share: Fraction, example: ShareExample, keep: int) -> None:
        """Count one row's share (O(1), O(log keep) when it reaches the worst)."""
        if self._circle and share < FOUR_NINTHS:
            self.below_four_ninths += 1
        worse = self.share is None or (
            share > self.share if self.sense == "largest" else share < self.share
        )
        if worse:
            self.share, self.reaching, self.examples = share, 0, []
        if share == self.share:
            self.reaching += 1
            if len(self.examples) < keep:
                self.examples.append(example)

    def merge(self, other: VariantTally, keep: int) -> None:
        """Add another shard's tally (O(examples + first moves)); the examples stay the first
        ``keep`` in family order."""
        self.compiled = self.compiled and other.compiled
        self.excluded += other.excluded
        self.below_four_ninths += other.below_four_ninths
        for moves, count in other.first_moves.items():
            self.first_moves[moves] = self.first_moves.get(moves, 0) + count
        if other.share is None:
            return
        if self.share is None or (
            other.share > self.share if self.sense == "largest" else other.share < self.share
        ):
            self.share, self.reaching, self.examples = other.share, 0, []
        if other.share == self.share:
            self.reaching += other.reaching
            merged = sorted([*self.examples, *other.examples], key=lambda e: e.index)
            self.examples = merged[:keep]

    def to_dict(self, family: Family | None = None) -> dict[str, Any]:
        """JSON-ready form (O(examples + first moves)): ``rules``, ``compiled``,
        ``first_moves`` ({moves: rows}, each set of optimal first moves keyed by its move
        texts separated by spaces, as ``"L R"`` or ``"L2"``; empty for the pizza), ``share``
        (null when the
        totals are not shares) with ``sense``, ``value`` ("4/9"), ``float``, ``rows``
        reaching it, ``examples`` and ``excluded_rows``, and for the pizza ``four_ninths``
        (``applies``: every coin of the family is nonnegative; ``rows_below``; ``holds``)."""
        data: dict[str, Any] = {
            "rules": self.rules,
            "compiled": self.compiled,
            "first_moves": dict(sorted(_texts(self.first_moves).items())),
            "share": None,
            "four_ninths": None,
        }
        if self.sense is not None:
            data["share"] = {
                "sense": self.sense,
                "value": None if self.share is None else str(self.share),
                "float": None if self.share is None else float(self.share),
                "rows": self.reaching,
                "examples": [example.to_dict() for example in self.examples],
                "excluded_rows": self.excluded,
            }
        if self._circle:
            applies = family is None or _nonnegative(family)
            data["four_ninths"] = {
                "applies": applies,
                "rows_below": self.below_four_ninths,
                "holds": self.below_four_ninths == 0 if applies else None,
            }
        return data

    def to_json(self) -> str:
        """The tally as one JSON text, as a shard file stores it (O(examples))."""
        return json.dumps(
            {
                "rules": self.rules,
                "compiled": self.compiled,
                "excluded": self.excluded,
                "share": None if self.share is None else str(self.share),
                "reaching": self.reaching,
                "examples": [
                    [e.index, e.label, list(e.coins), e.first_total, e.total] for e in self.examples
                ],
                "below_four_ninths": self.below_four_ninths,
                "first_moves": _texts(self.first_moves),
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> VariantTally:
        """Inverse of :meth:`to_json` (O(examples)); malformed text raises ValueError."""
        data = json.loads(text)
        return cls(
            str(data["rules"]),
            bool(data["compiled"]),
            int(data["excluded"]),
            None if data["share"] is None else Fraction(data["share"]),
            int(data["reaching"]),
            [
                ShareExample(int(i), int(label), tuple(map(int, coins)), int(f), int(t))
                for i, label, coins, f, t in data["examples"]
            ],
            int(data["below_four_ninths"]),
            {as_moves(str(k).split()): int(v) for k, v in data["first_moves"].items()},
        )


def _texts(first_moves: dict[Moves, int]) -> dict[str, int]:
    """The JSON form of a count per set of moves: each set keyed by its texts separated by
    spaces (O(sets))."""
    return {moves_text(moves): count for moves, count in first_moves.items()}


def _nonnegative(family: Family) -> bool:
    """True when no row of the family has a negative coin (O(alphabet))."""
    if isinstance(family, Words | WordsUpTo):
        return min(family.alphabet) >= 0
    if isinstance(family, RandomRows):
        return min(family.choices or (family.low,)) >= 0
    return True  # compositions: positive parts


def _python_shard(
    family: Family, shard: Shard, rules: Rules, keep: int
) -> tuple[dict[int, int], VariantTally]:
    """Each row solved by :func:`coinrow.solve` and counted."""
    opponent = reply_opponent(rules, allow_user=True)
    tally = VariantTally(str(rules), compiled=False)
    sense = share_sense(rules)
    histogram: dict[int, int] = {}
    with exact_arithmetic():
        for offset, row in enumerate(family.rows_of(shard)):
            solution = solve(row, rules=rules, opponent=opponent)
            margin = int(solution.totals[0] - solution.totals[1])
            histogram[margin] = histogram.get(margin, 0) + 1
            if not rules.circle:
                moves = solution.first_moves
                tally.first_moves[moves] = tally.first_moves.get(moves, 0) + 1
            if sense is None:
                continue
            total = int(sum(row))
            if total <= 0:
                tally.excluded += 1
                continue
            first = int(solution.totals[0])
            index = shard.start + offset
            example = ShareExample(index, family.label(index), tuple(row), first, total)
            tally.add(Fraction(first, total), example, keep)
    return histogram, tally


def _compiled_shard(
    family: Family, shard: Shard, rules: Rules, keep: int
) -> tuple[dict[int, int], VariantTally]:
    """The compiled kernels over the shard."""
    import numpy as np

    from . import variant_kernels as k

    bound = family.margin_bound
    hist = np.zeros(2 * bound + 1, np.int64)
    counts = np.zeros(k.COUNTS, np.int64)
    examples = np.zeros(min(keep, shard.count), np.int64)
    masks = np.zeros(shard.count, np.int64)
    code = (
        k.STONE_GAME_VII
        if rules.scores_left
        else k.MISERE
        if rules.lowest_wins
        else k.BOTH_ENDS
        if "B" in rules.sides
        else k.TAKE
    )
    take = shard.length if rules.take is None else rules.take
    common = (hist, bound, counts, examples)
    if isinstance(family, RandomRows):
        rows = family.block(shard.first[0])
        alphabet = first = np.zeros(0, np.int64)
    else:
        rows = np.zeros((0, 0), np.int64)
        alphabet = np.array(family.alphabet, np.int64)  # type: ignore[attr-defined]
        first = np.array(shard.first, np.int64)
    if rules.circle and rows.shape[0]:
        k.pizza_rows(rows, *common)
    elif rules.circle:
        k.pizza_words(alphabet, shard.length, first, shard.count, *common)
    else:
        source = (alphabet, first, rows, shard.length, shard.count)
        k.interval_census(*source, code, take, *common, masks)
    if int(counts[k.ROWS]) != shard.count:  # pragma: no cover - a kernel bug, never data
        raise RuntimeError(f"shard {shard.key}: {int(counts[k.ROWS])} rows for {shard.count}")
    histogram = {int(m) - bound: int(hist[m]) for m in np.flatnonzero(hist)}
    tally = VariantTally(str(rules), compiled=True)
    if not rules.circle:
        if rules.counted_moves:
            most = min(take, shard.length)
            names: list[str] = [rules.move(side, c) for side in (0, 1) for c in range(1, most + 1)]
        else:
            names = ["L", "R", "B"]
        for mask, number in zip(*np.unique(masks, return_counts=True), strict=True):
            chosen = [name for bit, name in enumerate(names) if int(mask) >> bit & 1]
            tally.first_moves[as_moves(chosen)] = int(number)
    tally.excluded = int(counts[k.EXCLUDED])
    tally.below_four_ninths = int(counts[k.BELOW])
    if int(counts[k.MIN_TOTAL]) and share_sense(rules) is not None:
        tally.share = Fraction(int(counts[k.MIN_FIRST]), int(counts[k.MIN_TOTAL]))
        tally.reaching = int(counts[k.REACHING])
        for offset in examples[: int(counts[k.FOUND])]:
            index = shard.start + int(offset)
            row = family.row(index)
            total = sum(row)
            tally.examples.append(
                ShareExample(index, family.label(index), row, int(tally.share * total), total)
            )
    return histogram, tally
