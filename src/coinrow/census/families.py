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

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import InvalidOptionError
from ..numbers import ValueSpec, parse_coins

#: Rows per block (and shard) of a random family; part of the family, so fixed.
RANDOM_BLOCK = 1 << 16

#: Largest sum of absolute coin values of a row that the compiled kernels accept: every
#: intermediate of the kernels is bounded by it, or by twice it (see docs/census.md).
INT64_SAFE_LIMIT = 2**62

#: Most shards a census is split into (a guard against impossible families).
MAX_SHARDS = 1 << 22


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
        """JSON-ready description, enough to rebuild the family (O(alphabet))."""
        raise NotImplementedError

    def describe(self) -> str:
        """A one-line description (O(alphabet))."""
        raise NotImplementedError

    def shards(self, shard_rows: int) -> list[Shard]:
        """The family cut into shards of at most ``shard_rows`` rows, in family order
        (O(shards))."""
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
    items = parse_coins(values) if isinstance(values, str) else list(values)  # type: ignore[call-overload]
    if not items:
        raise InvalidOptionError("the alphabet is empty: give values such as 1,2")
    odd = [value for value in items if not isinstance(value, int) or isinstance(value, bool)]
    if odd:
        raise InvalidOptionError(f"the census needs integer coin values, got {odd[0]!r}")
    return tuple(sorted(set(items)))


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


def _check_shards(family: Family, count: int) -> None:
    if count > MAX_SHARDS:
        raise InvalidOptionError(
            f"{family.describe()} has {family.rows:,} rows: more than {MAX_SHARDS:,} shards; "
            "give larger shards or a smaller family"
        )


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
            raise InvalidOptionError(f"the row length must be at least 1, got {length}")
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

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "alphabet": list(self.alphabet), "length": self.length}

    def describe(self) -> str:
        return f"rows of length {self.length} over {{{_text(self.alphabet)}}}"

    def shards(self, shard_rows: int, base: int = 0) -> list[Shard]:
        k = len(self.alphabet)
        _check_shards(self, -(-self.rows // shard_rows))
        return [
            Shard(
                f"w{self.length}-{p}",
                base + start,
                count,
                self.length,
                _digits(start, k, self.length),
            )
            for p, start, count in _ranges(self.rows, shard_rows)
        ]

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
            raise InvalidOptionError(f"the longest row must be at least 1 coin, got {max_length}")
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
        return {"kind": self.kind, "alphabet": list(self.alphabet), "max_length": self.longest}

    def describe(self) -> str:
        return f"rows of length 1 to {self.longest} over {{{_text(self.alphabet)}}}"

    def shards(self, shard_rows: int) -> list[Shard]:
        out: list[Shard] = []
        for start, words in self._lengths():
            out.extend(words.shards(shard_rows, start))
            _check_shards(self, len(out))
        return out

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
            raise InvalidOptionError(f"compositions need a total of at least 1, got {total}")
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

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "total": self.total}

    def describe(self) -> str:
        return f"compositions of {self.total}"

    def label(self, index: int) -> int:
        return (1 << (self.total - 1)) + index

    def shards(self, shard_rows: int) -> list[Shard]:
        _check_shards(self, -(-self.rows // shard_rows))
        return [
            Shard(f"c{self.total}-{p}", start, count, self.total, _digits(start, 2, self.total - 1))
            for p, start, count in _ranges(self.rows, shard_rows)
        ]

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
            raise InvalidOptionError(f"the number of random rows must be at least 1, got {count}")
        if length < 1:
            raise InvalidOptionError(f"the row length must be at least 1, got {length}")
        spec = ValueSpec.parse(values)
        choices = spec.choices
        if choices and not all(isinstance(v, int) for v in choices):
            raise InvalidOptionError(f"the census needs integer coin values, got {values!r}")
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
        return {
            "kind": self.kind,
            "count": self.count,
            "length": self.length,
            "values": self.values,
            "seed": self.seed,
            "block": RANDOM_BLOCK,
        }

    def describe(self) -> str:
        return (
            f"{self.count:,} random rows of length {self.length}, values {self.values}, "
            f"seed {self.seed}"
        )

    def shards(self, shard_rows: int) -> list[Shard]:
        blocks = -(-self.count // RANDOM_BLOCK)
        _check_shards(self, blocks)
        return [
            Shard(
                f"r-{b}",
                b * RANDOM_BLOCK,
                min(RANDOM_BLOCK, self.count - b * RANDOM_BLOCK),
                self.length,
                (b,),
            )
            for b in range(blocks)
        ]

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
