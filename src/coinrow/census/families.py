"""Families of rows and their shards (pure Python: no NumPy needed to plan a census).

A family lists its rows in a fixed *family order*, numbered from 0; a shard is a contiguous
range of that order that one task computes:

* :class:`Words`: every row of ``length`` coins over an alphabet, in lexicographic order of
  the (sorted) alphabet. Shards are ranges of that order.
* :class:`WordsUpTo`: every row of length 1 to ``max_length``, by length, then as above
  (the order :func:`coinrow.refute.refute` searches).
* :class:`Compositions`: every composition of ``total`` in standard order: composition k
  (``2**(total-1) <= k < 2**total``) is read off the binary digits of k, cut before each 1
  (k = 22 = 10110 gives 10|1|10, the parts 2, 1, 2). Shards fix the first bits after the
  leading 1, so each is a range of k.
* :class:`RandomRows`: ``count`` random rows of ``length`` coins, drawn in blocks of
  :data:`RANDOM_BLOCK` rows, block b from its own generator seeded by (seed, b): the rows
  do not depend on how many workers draw them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from ..engines import duration_text
from ..errors import InvalidOptionError, concerning
from ..numbers import ValueSpec, json_fields, parse_token, split_tokens

#: Rows per block (and shard) of a random family; part of the family, so fixed.
RANDOM_BLOCK = 1 << 16

#: Largest sum of absolute coin values of a row that the compiled kernels accept: every
#: intermediate of the kernels is bounded by it, or by twice it (see docs/census.md).
INT64_SAFE_LIMIT = 2**62

#: Most shards a census is split into (a guard against impossible families). Shards are
#: counted by arithmetic and planned lazily, so a family is refused before any is built.
MAX_SHARDS = 1 << 22

#: Most coins in a census row: the census is for many short rows (``solve`` and ``refute``
#: take long ones). It bounds every shard's scratch memory: a column table of n x n int64
#: is 2 MiB and a random block of 65,536 rows of n coins 256 MiB at n = 512.
MAX_LENGTH = 512


@dataclass(frozen=True)
class Shard:
    """A contiguous range of a family's rows: ``count`` rows from number ``start``.

    ``length`` is the row length (words, random rows) or the composition total; ``first``
    says where the walk starts: the first row's alphabet indices, the bits of its
    composition number after the leading 1, or ``(block,)`` for random rows."""

    key: str
    start: int
    count: int
    length: int
    first: tuple[int, ...]


class Family:
    """A family of rows in a fixed order (see the module docstring)."""

    kind: ClassVar[str] = ""

    @property
    def rows(self) -> int:
        """Number of rows (O(1) or O(length))."""
        raise NotImplementedError

    @property
    def max_length(self) -> int:
        """The longest row's number of coins (O(1))."""
        raise NotImplementedError

    @property
    def max_abs(self) -> int:
        """The largest absolute coin value (O(alphabet))."""
        raise NotImplementedError

    @property
    def closed_under_reversal(self) -> bool:
        """True when the reversal of every row is in the family (O(1)); then as many rows
        have only L optimal as only R, which the fast scans use (see docs/census.md)."""
        return True

    @property
    def margin_bound(self) -> int:
        """A bound on |margin| and on the sum of |coins| of every row (O(1))."""
        return self.max_abs * self.max_length

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description, enough to rebuild the family: its kind and its fields
        (O(alphabet))."""
        return {"kind": self.kind, **json_fields(self)}

    def describe(self) -> str:
        """A one-line description (O(alphabet))."""
        raise NotImplementedError

    def shard_count(self, shard_rows: int) -> int:
        """How many shards of at most ``shard_rows`` rows the family is cut into, by
        arithmetic (O(lengths)): nothing is planned."""
        raise NotImplementedError

    def shards(self, shard_rows: int) -> Iterator[Shard]:
        """The family cut into shards of at most ``shard_rows`` rows, in family order, built
        lazily one at a time (O(1) memory, O(shards) in all). Refuses, before building any,
        a family of more than :data:`MAX_SHARDS` shards."""
        raise NotImplementedError

    def row(self, index: int) -> tuple[int, ...]:
        """Row number ``index`` of the family order (O(length))."""
        raise NotImplementedError

    def label(self, index: int) -> int:
        """The number under which row ``index`` is reported: the index itself, or k for a
        composition (O(1))."""
        return index

    def rows_of(self, shard: Shard) -> Iterator[tuple[int, ...]]:
        """The shard's rows in order, as tuples (O(count * length); for the Python path)."""
        for index in range(shard.start, shard.start + shard.count):
            yield self.row(index)

    def check_int64(self) -> None:
        """Refuse a family the compiled kernels cannot hold exactly (O(1))."""
        if self.margin_bound >= INT64_SAFE_LIMIT:
            raise InvalidOptionError(
                f"{self.describe()}: rows whose absolute values sum to 2**62 or more do not fit "
                "the census's int64 kernels; use smaller values (refute and solve stay exact)"
            )


def _alphabet(values: object) -> tuple[int, ...]:
    """The sorted distinct int values; each token of a text is parsed on its own, so a
    refusal names the value at fault as it was written (``1e3``, not the ``Decimal('1')``
    that a row of decimals would make of ``1``)."""
    shown: list[object]
    if isinstance(values, str):
        tokens = split_tokens(values)
        items: list[object] = [_token(token, place) for place, token in enumerate(tokens)]
        shown = list(tokens)
    else:
        items = list(values)  # type: ignore[call-overload]
        shown = [repr(item) for item in items]
    if not items:
        raise InvalidOptionError("the alphabet is empty: give values such as 1,2")
    for item, text in zip(items, shown, strict=True):
        if not isinstance(item, int) or isinstance(item, bool):
            raise InvalidOptionError(f"the census needs integer coin values, got {text}")
    return tuple(sorted({item for item in items if isinstance(item, int)}))


def _token(token: str, position: int) -> object:
    return parse_token(token, position)


def _check_length(length: int, what: str, parameter: str) -> None:
    if length > MAX_LENGTH:
        raise InvalidOptionError(
            f"{what} {length:,}: the census takes rows of at most {MAX_LENGTH} coins "
            "(solve and refute take longer rows)",
            parameter=parameter,
        )


def approximate(count: int) -> str:
    """A count for messages: exact with commas up to 10^15, else ``about 1.3 x 10^30``,
    computed by logarithms so a count of a million digits costs nothing (O(1)).

    >>> approximate(4_194_304), approximate(2**101), approximate(10**15)
    ('4,194,304', 'about 2.5 x 10^30', 'about 1.0 x 10^15')
    """
    if count < 10**15:
        return f"{count:,}"
    exponent = math.log10(count)
    power = math.floor(exponent)
    mantissa = 10 ** (exponent - power)
    if mantissa >= 9.95:
        mantissa, power = 1.0, power + 1
    return f"about {mantissa:.1f} x 10^{power:,}"


def _text(values: tuple[int, ...]) -> str:
    return ", ".join(map(str, values))


def _ranges(rows: int, shard_rows: int) -> Iterator[tuple[int, int, int]]:
    """(shard number, first row, rows) of ``rows`` rows cut into pieces of ``shard_rows``."""
    for number, start in enumerate(range(0, rows, shard_rows)):
        yield number, start, min(shard_rows, rows - start)


def _digits(number: int, base: int, width: int) -> tuple[int, ...]:
    out = []
    for _ in range(width):
        number, digit = divmod(number, base)
        out.append(digit)
    return tuple(reversed(out))


def check_shards(family: Family, shard_rows: int, note: str = "") -> int:
    """The family's number of shards of ``shard_rows`` rows, refused in one sentence above
    :data:`MAX_SHARDS` (``note`` adds an estimate of the work); O(lengths), nothing planned."""
    if shard_rows < 1:
        raise InvalidOptionError(f"shards need at least 1 row, got {shard_rows}")
    count = family.shard_count(shard_rows)
    if count > MAX_SHARDS:
        raise InvalidOptionError(
            f"{family.describe()} has {approximate(family.rows)} rows{note}: "
            f"{approximate(count)} shards of {shard_rows:,} row{'s' if shard_rows > 1 else ''}, "
            f"more than the "
            f"{MAX_SHARDS:,} a census plans; give larger shards or a smaller family"
        )
    return count


@dataclass(frozen=True)
class Words(Family):
    """Every row of ``length`` coins over ``alphabet`` (sorted, distinct ints).

    >>> family = Words.of("2,1", 3)
    >>> family.rows, family.row(5), family.describe()
    (8, (2, 1, 2), 'rows of length 3 over {1, 2}')
    >>> [(shard.key, shard.first) for shard in family.shards(3)]
    [('w3-0', (0, 0, 0)), ('w3-1', (0, 1, 1)), ('w3-2', (1, 1, 0))]
    """

    kind: ClassVar[str] = "words"
    alphabet: tuple[int, ...]
    length: int

    @classmethod
    def of(cls, alphabet: object, length: int) -> Words:
        """Validate and build (O(k log k) for k values)."""
        if length < 1:
            raise InvalidOptionError(
                f"the row length must be at least 1, got {length}", parameter="length"
            )
        _check_length(length, "rows of length", "length")
        with concerning("alphabet"):
            return cls(_alphabet(alphabet), length)

    @property
    def rows(self) -> int:
        rows: int = len(self.alphabet) ** self.length
        return rows

    @property
    def max_length(self) -> int:
        return self.length

    @property
    def max_abs(self) -> int:
        return max(abs(value) for value in self.alphabet)

    def describe(self) -> str:
        return f"rows of length {self.length} over {{{_text(self.alphabet)}}}"

    def shard_count(self, shard_rows: int) -> int:
        return -(-self.rows // shard_rows)

    def shards(self, shard_rows: int, base: int = 0) -> Iterator[Shard]:
        check_shards(self, shard_rows)
        return self._shards(shard_rows, base)

    def _shards(self, shard_rows: int, base: int) -> Iterator[Shard]:
        k = len(self.alphabet)
        for p, start, count in _ranges(self.rows, shard_rows):
            yield Shard(
                f"w{self.length}-{p}",
                base + start,
                count,
                self.length,
                _digits(start, k, self.length),
            )

    def row(self, index: int) -> tuple[int, ...]:
        digits = _digits(index, len(self.alphabet), self.length)
        return tuple(self.alphabet[d] for d in digits)

    def rows_of(self, shard: Shard) -> Iterator[tuple[int, ...]]:
        digits = list(shard.first)
        k = len(self.alphabet)
        for _ in range(shard.count):
            yield tuple(self.alphabet[d] for d in digits)
            position = len(digits) - 1
            while position >= 0 and digits[position] == k - 1:
                digits[position] = 0
                position -= 1
            if position >= 0:
                digits[position] += 1


@dataclass(frozen=True)
class WordsUpTo(Family):
    """Every row of length 1 to ``max_length`` over ``alphabet``, shortest first.

    >>> family = WordsUpTo.of("1,2", 3)
    >>> family.rows, family.row(0), family.row(2), family.row(13)
    (14, (1,), (1, 1), (2, 2, 2))
    """

    kind: ClassVar[str] = "words_up_to"
    alphabet: tuple[int, ...]
    longest: int

    @classmethod
    def of(cls, alphabet: object, max_length: int) -> WordsUpTo:
        """Validate and build (O(k log k) for k values)."""
        if max_length < 1:
            raise InvalidOptionError(
                f"the longest row must be at least 1 coin, got {max_length}",
                parameter="max_length",
            )
        _check_length(max_length, "rows of length up to", "max_length")
        with concerning("alphabet"):
            return cls(_alphabet(alphabet), max_length)

    def _lengths(self) -> Iterator[tuple[int, Words]]:
        start = 0
        for length in range(1, self.longest + 1):
            words = Words(self.alphabet, length)
            yield start, words
            start += words.rows

    @property
    def rows(self) -> int:
        k = len(self.alphabet)
        return sum(k**length for length in range(1, self.longest + 1))

    @property
    def max_length(self) -> int:
        return self.longest

    @property
    def max_abs(self) -> int:
        return max(abs(value) for value in self.alphabet)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **json_fields(self, rename={"longest": "max_length"})}

    def describe(self) -> str:
        return f"rows of length 1 to {self.longest} over {{{_text(self.alphabet)}}}"

    def shard_count(self, shard_rows: int) -> int:
        return sum(words.shard_count(shard_rows) for _, words in self._lengths())

    def shards(self, shard_rows: int) -> Iterator[Shard]:
        check_shards(self, shard_rows)
        return (
            shard for start, words in self._lengths() for shard in words._shards(shard_rows, start)
        )

    def row(self, index: int) -> tuple[int, ...]:
        for start, words in self._lengths():
            if index < start + words.rows:
                return words.row(index - start)
        raise IndexError(index)

    def rows_of(self, shard: Shard) -> Iterator[tuple[int, ...]]:
        return Words(self.alphabet, shard.length).rows_of(shard)


@dataclass(frozen=True)
class Compositions(Family):
    """Every composition of ``total`` (rows of positive parts summing to it), in standard
    order.

    >>> family = Compositions.of(5)
    >>> family.rows, family.label(6), family.row(6)
    (16, 22, (2, 1, 2))
    """

    kind: ClassVar[str] = "compositions"
    total: int

    @classmethod
    def of(cls, total: int) -> Compositions:
        """Validate and build (O(1))."""
        if total < 1:
            raise InvalidOptionError(
                f"compositions need a total of at least 1, got {total}", parameter="total"
            )
        _check_length(total, "compositions of", "total")
        return cls(total)

    @property
    def rows(self) -> int:
        return 1 << (self.total - 1)

    @property
    def max_length(self) -> int:
        return self.total

    @property
    def max_abs(self) -> int:
        return self.total

    @property
    def margin_bound(self) -> int:
        return self.total

    def describe(self) -> str:
        return f"compositions of {self.total}"

    def label(self, index: int) -> int:
        return (1 << (self.total - 1)) + index

    def shard_count(self, shard_rows: int) -> int:
        return -(-self.rows // shard_rows)

    def shards(self, shard_rows: int) -> Iterator[Shard]:
        check_shards(self, shard_rows)
        return (
            Shard(f"c{self.total}-{p}", start, count, self.total, _digits(start, 2, self.total - 1))
            for p, start, count in _ranges(self.rows, shard_rows)
        )

    def row(self, index: int) -> tuple[int, ...]:
        return composition(self.label(index))


def composition(k: int) -> tuple[int, ...]:
    """The composition with standard-order number ``k`` >= 1: its binary digits cut before
    each 1 (O(log k)).

    >>> composition(22), composition(1), composition(15)
    ((2, 1, 2), (1,), (1, 1, 1, 1))
    """
    parts: list[int] = []
    for bit in bin(k)[2:]:
        if bit == "1":
            parts.append(1)
        else:
            parts[-1] += 1
    return tuple(parts)


@dataclass(frozen=True)
class RandomRows(Family):
    """``count`` random rows of ``length`` coins drawn from ``values`` (a
    :class:`~coinrow.numbers.ValueSpec` text of integers: ``1..9``, ``1-9`` or ``1,2,5``).

    >>> family = RandomRows.of(10, 4, "1..9", seed=1)
    >>> family.describe()
    '10 random rows of length 4, values 1..9, seed 1'
    """

    kind: ClassVar[str] = "random"
    count: int
    length: int
    values: str
    seed: int
    low: int
    high: int
    choices: tuple[int, ...]

    @classmethod
    def of(cls, count: int, length: int, values: str, seed: int = 0) -> RandomRows:
        """Validate and build (O(len(values)))."""
        if count < 1:
            raise InvalidOptionError(
                f"the number of random rows must be at least 1, got {count}", parameter="count"
            )
        if length < 1:
            raise InvalidOptionError(
                f"the row length must be at least 1, got {length}", parameter="length"
            )
        _check_length(length, "random rows of length", "length")
        if seed < 0:
            raise InvalidOptionError(f"the seed must be at least 0, got {seed}", parameter="seed")
        with concerning("values"):
            spec = ValueSpec.parse(values)
        choices = spec.choices
        if choices and not all(isinstance(v, int) for v in choices):
            raise InvalidOptionError(
                f"the census needs integer coin values, got {values!r}", parameter="values"
            )
        return cls(count, length, values, seed, spec.low, spec.high, tuple(choices))

    @property
    def rows(self) -> int:
        return self.count

    @property
    def max_length(self) -> int:
        return self.length

    @property
    def max_abs(self) -> int:
        values = self.choices or (self.low, self.high)
        return max(abs(value) for value in values)

    @property
    def closed_under_reversal(self) -> bool:
        return False

    def to_dict(self) -> dict[str, Any]:
        fields = json_fields(self, omit={"low", "high", "choices"}, block=RANDOM_BLOCK)
        return {"kind": self.kind, **fields}

    def describe(self) -> str:
        return (
            f"{self.count:,} random rows of length {self.length}, values {self.values}, "
            f"seed {self.seed}"
        )

    def shard_count(self, shard_rows: int) -> int:
        return -(-self.count // RANDOM_BLOCK)

    def shards(self, shard_rows: int) -> Iterator[Shard]:
        blocks = check_shards(self, shard_rows)
        return (
            Shard(
                f"r-{b}",
                b * RANDOM_BLOCK,
                min(RANDOM_BLOCK, self.count - b * RANDOM_BLOCK),
                self.length,
                (b,),
            )
            for b in range(blocks)
        )

    def block(self, block: int) -> Any:
        """The rows of block ``block`` as an int64 array (needs NumPy; O(block * length)).

        Each block has its own generator, seeded by (seed, block), so the rows are the same
        whoever draws them."""
        import numpy as np

        count = min(RANDOM_BLOCK, self.count - block * RANDOM_BLOCK)
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([self.seed, block])))
        if self.choices:
            picks = rng.integers(0, len(self.choices), size=(count, self.length))
            return np.asarray(self.choices, dtype=np.int64)[picks]
        return rng.integers(
            self.low, self.high, size=(count, self.length), endpoint=True, dtype=np.int64
        )

    def row(self, index: int) -> tuple[int, ...]:
        block, offset = divmod(index, RANDOM_BLOCK)
        return tuple(int(value) for value in self.block(block)[offset])

    def rows_of(self, shard: Shard) -> Iterator[tuple[int, ...]]:
        for row in self.block(shard.first[0]):
            yield tuple(int(value) for value in row)


def family_from_dict(data: dict[str, Any]) -> Family:
    """Rebuild a family from :meth:`Family.to_dict` (O(alphabet)).

    >>> family_from_dict(Words.of("1,2", 4).to_dict())
    Words(alphabet=(1, 2), length=4)
    """
    kind = data.get("kind")
    if kind == Words.kind:
        return Words.of(data["alphabet"], data["length"])
    if kind == WordsUpTo.kind:
        return WordsUpTo.of(data["alphabet"], data["max_length"])
    if kind == Compositions.kind:
        return Compositions.of(data["total"])
    if kind == RandomRows.kind:
        return RandomRows.of(data["count"], data["length"], data["values"], data["seed"])
    raise InvalidOptionError(f"unknown family kind {kind!r}")


def work_text(rows: int, rate: float) -> str:
    """How long ``rows`` rows take at ``rate`` rows/s, for messages; huge counts by
    logarithms (O(1)).

    >>> work_text(6 * 10**9, 6e7), work_text(2**101, 6e7)
    ('2 minutes', '1.3 x 10^15 years')
    """
    log_seconds = math.log10(max(rows, 1)) - math.log10(rate)
    seconds = 10**log_seconds if log_seconds < 15 else math.inf
    if seconds < 3 * 365 * 86400:
        return duration_text(seconds)
    log_years = log_seconds - math.log10(365.25 * 86400)
    if log_years < 6:
        return f"{10**log_years:,.0f} years"
    power = math.floor(log_years)
    return f"{10 ** (log_years - power):.1f} x 10^{power:,} years"
