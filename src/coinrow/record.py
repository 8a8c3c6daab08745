"""Game records: a plain-text format (one game per record), a forgiving reader, a writer, JSON.

A record is optional header lines ``# key: value``, a line of coins and a line of moves::

    # players: Alice vs Bob
    # date: 2026-11-22
    3 2 2 3 1 2
    LLRLLL

Records are separated by blank lines. The moves line may be missing (no move played yet) and
may be shorter than the row (an unfinished game); moves may be spaced, comma separated or
lower case. An empty row is written as the coins line ``-``. Other lines starting with ``#``
and without ``key:`` are comments and are dropped.

Games under other rules (docs/variants.md) carry the header ``# rules: take:2`` (its
canonical text) and their moves line holds the rules' moves (``L2 R1``, ``LBR``, the pizza's
``1 LLR``); a record without the header is a plain game, so old records read as before.
:func:`parse_records` never raises on bad text: it keeps every good record and returns one
:class:`~coinrow.errors.RecordError` (with its line number) per bad record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .errors import CoinrowError, RecordError
from .game import Game
from .numbers import (
    Row,
    Value,
    format_value,
    json_value,
    parse_coins,
    parse_token,
    row_repr,
)
from .rules import PLAIN, Rules, coerce_rules, parse_moves


def _clean_header(key: object, value: object) -> tuple[str, str]:
    if not isinstance(key, str) or not isinstance(value, str):
        raise RecordError(0, f"header keys and values must be text, got {key!r}: {value!r}")
    key, value = key.strip(), value.strip()
    if not key or ":" in key:
        raise RecordError(0, f"header key {key!r} must be non-empty and contain no ':'")
    for text in (key, value):
        if "".join(text.splitlines()) != text:
            raise RecordError(0, f"header {key!r} must fit on one line")
    return key, value


@dataclass(frozen=True, eq=False, repr=False)
class Record:
    """One game: the row, the moves played (``L``/``R`` text) and header fields.

    ``rules`` (keyword-only; a :class:`~coinrow.rules.Rules` or its text) is kept as the
    ``rules`` header in its canonical text, and the moves are then the rules' moves, written
    as :attr:`~coinrow.game.Game.line` writes them (``L2 R1``). Without that header (or with
    ``plain``) a record is a plain game.

    >>> t = Record([1, 2, 3, 4], "l2 r1", rules="take:2")
    >>> t.moves, t.rules, t.headers["rules"], t.finished, t.game().totals
    ('L2 R1', Rules.parse('take:2'), 'take:2', False, (3, 4))
    >>> print(t.to_text(), end="")
    # rules: take:2
    1 2 3 4
    L2 R1

    Construction validates and normalises: coins become one exact number family, moves are
    upper-cased (at most one per coin), header keys and values are stripped (keys non-empty,
    without ``:``, both on one line). Records are immutable all the way down (``headers`` is
    a read-only mapping) and hashable. The empty row is a valid record (a game worth 0).

    >>> r = Record([3, 2, 2, 3, 1, 2], "llrlll", {"players": "Alice vs Bob"})
    >>> r.moves, r.players, r.finished, r.game().totals
    ('LLRLLL', 'Alice vs Bob', True, (8, 5))
    >>> r
    Record([3, 2, 2, 3, 1, 2], 'LLRLLL', {'players': 'Alice vs Bob'})
    """

    coins: tuple[Value, ...]
    moves: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)

    def __init__(
        self,
        coins: Iterable[object],
        moves: str = "",
        headers: Mapping[str, str] | None = None,
        *,
        rules: Rules | str | None = None,
    ) -> None:
        row = Row.of(coins)
        cleaned = dict(_clean_header(key, value) for key, value in (headers or {}).items())
        chosen = _record_rules(cleaned.get("rules"), rules)
        if "rules" in cleaned or not chosen.is_plain:
            cleaned["rules"] = str(chosen)
        if chosen.is_plain:
            line = parse_moves(moves)
            if len(line) > len(row):
                raise RecordError(0, f"{len(line)} moves for a row of {len(row)} coins")
        else:
            line = Game(row, moves, rules=chosen).line
        object.__setattr__(self, "coins", row)
        object.__setattr__(self, "moves", line)
        object.__setattr__(self, "headers", MappingProxyType(cleaned))

    def __hash__(self) -> int:
        return hash((self.coins, self.moves, tuple(self.headers.items())))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return (self.coins, self.moves, dict(self.headers)) == (
            other.coins,
            other.moves,
            dict(other.headers),
        )

    def __repr__(self) -> str:
        headers = f", {dict(self.headers)!r}" if self.headers else ""
        return f"Record({row_repr(self.coins)}, {self.moves!r}{headers})"

    @property
    def rules(self) -> Rules:
        """The rules of the game: the ``rules`` header, the plain game without it (O(1))."""
        text = self.headers.get("rules")
        return PLAIN if text is None else Rules.parse(text)

    @property
    def players(self) -> str | None:
        """The ``players`` header, e.g. ``"Alice vs Bob"`` (O(1))."""
        return self.headers.get("players")

    @property
    def date(self) -> str | None:
        """The ``date`` header (O(1))."""
        return self.headers.get("date")

    @property
    def finished(self) -> bool:
        """True when every coin was taken (O(1); O(n) under other rules)."""
        if "rules" in self.headers and not self.rules.is_plain:
            return self.game().position.is_over
        return len(self.moves) == len(self.coins)

    def game(self) -> Game:
        """The record as a :class:`~coinrow.game.Game` under its rules (O(n))."""
        if "rules" in self.headers:
            return Game(self.coins, self.moves, rules=self.rules)
        return Game(self.coins, self.moves)

    def to_text(self) -> str:
        """The record's text, ending with a newline (O(n)).

        >>> print(Record(["0.5", "1/4"], "L", {"date": "2026-11-22"}).to_text(), end="")
        # date: 2026-11-22
        1/2 1/4
        L
        """
        lines = [f"# {key}: {value}".rstrip() for key, value in self.headers.items()]
        coins = (format_value(coin, keep_digits=True) for coin in self.coins)
        lines.append(" ".join(coins) or EMPTY_ROW)
        if self.moves:
            lines.append(self.moves)
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``headers``, ``coins`` (ints as numbers, other values as exact
        strings) and ``moves`` (O(n)).

        >>> Record(["0.1", "0.2"], "R").to_dict()
        {'headers': {}, 'coins': ['0.1', '0.2'], 'moves': 'R'}
        """
        return {
            "headers": dict(self.headers),
            "coins": [json_value(coin) for coin in self.coins],
            "moves": self.moves,
        }

    @classmethod
    def from_dict(cls, data: object, *, rules: Rules | str | None = None) -> Record:
        """The record of a :meth:`to_dict` form; raises :class:`RecordError` (O(n)).
        ``rules`` are the rules of a record without a ``rules`` header (plain by default).

        >>> Record.from_dict({"coins": [1, "1/2"], "moves": "L"}).coins
        (Fraction(1, 1), Fraction(1, 2))
        """
        if not isinstance(data, Mapping):
            raise RecordError(0, f"a record must be a JSON object, got {type(data).__name__}")
        unknown = set(data) - {"headers", "coins", "moves"}
        if unknown:
            raise RecordError(0, f"unknown record keys: {', '.join(sorted(map(str, unknown)))}")
        coins, moves, headers = data.get("coins"), data.get("moves", ""), data.get("headers", {})
        if not isinstance(coins, list):
            raise RecordError(0, "a record needs 'coins', a list of values")
        if not isinstance(moves, str):
            raise RecordError(0, "'moves' must be text such as \"LRL\"")
        if not isinstance(headers, Mapping):
            raise RecordError(0, "'headers' must be an object of text values")
        try:
            return cls(coins, moves, headers, rules=None if "rules" in headers else rules)
        except RecordError:
            raise
        except CoinrowError as error:
            raise RecordError(0, str(error)) from None


def _record_rules(header: str | None, rules: Rules | str | None) -> Rules:
    """The rules of a record from its header and the ``rules`` argument, which must agree."""
    from_header = None if header is None else coerce_rules(header)
    given = None if rules is None else coerce_rules(rules)
    if from_header is not None and given is not None and from_header != given:
        raise RecordError(0, f"the rules header says {from_header}, the rules given {given}")
    return from_header or given or PLAIN


@dataclass(frozen=True)
class RecordsRead:
    """What :func:`parse_records` found: the good records and one error per bad record."""

    records: list[Record]
    errors: list[RecordError]


def _blocks(lines: Sequence[str]) -> Iterable[list[tuple[int, str]]]:
    """Runs of non-blank lines, each line with its 1-based number."""
    block: list[tuple[int, str]] = []
    for number, text in enumerate(lines, start=1):
        if text.strip():
            block.append((number, text))
        elif block:
            yield block
            block = []
    if block:
        yield block


#: The coins line of a record whose row is empty (a valid game worth 0).
EMPTY_ROW = "-"


def _parse_block(block: list[tuple[int, str]], rules: Rules | str | None = None) -> Record:
    headers: dict[str, str] = {}
    data: list[tuple[int, str]] = []
    for number, text in block:
        stripped = text.strip()
        if stripped.startswith("#"):
            key, colon, value = stripped[1:].partition(":")
            if not colon or not key.strip():
                continue  # a comment
            if key.strip() in headers:
                raise RecordError(number, f"header {key.strip()!r} appears twice")
            headers[key.strip()] = value.strip()
        elif len(data) == 2:
            raise RecordError(
                number,
                "unexpected third line: a record is header lines, a coins line and a moves "
                "line; separate records with a blank line",
            )
        else:
            data.append((number, stripped))
    if not data:
        raise RecordError(block[-1][0], "the record has no coins line")
    coins_number, coins_text = data[0]
    try:
        coins = [] if coins_text == EMPTY_ROW else parse_coins(coins_text)
    except CoinrowError as error:
        raise RecordError(coins_number, str(error)) from None
    moves_number, moves_text = data[1] if len(data) == 2 else (coins_number, "")
    try:
        return Record(coins, moves_text, headers, rules=None if "rules" in headers else rules)
    except RecordError as error:
        raise RecordError(moves_number, error.message) from None
    except CoinrowError as error:
        raise RecordError(moves_number, str(error)) from None


def parse_records(text: str, *, rules: Rules | str | None = None) -> RecordsRead:
    """Read every record of a text, collecting errors instead of raising (O(len(text))).

    A record with any error is left out and reported once, with the number of the offending
    line. ``rules`` are the rules of the records without a ``rules`` header (plain by
    default).

    >>> read = parse_records("3 2 2 3 1 2\\nLLRLLL\\n\\n1 x\\n\\n# date: today\\n5 5\\nR\\n")
    >>> [r.moves for r in read.records], [str(e) for e in read.errors]
    (['LLRLLL', 'R'], ["line 4: coin 2 ('x'): not a number"])
    """
    read = RecordsRead([], [])
    for block in _blocks(text.splitlines()):
        try:
            read.records.append(_parse_block(block, rules))
        except RecordError as error:
            read.errors.append(error)
    return read


def parse_json_records(text: str, *, rules: Rules | str | None = None) -> RecordsRead:
    """Records from JSON: one :meth:`Record.to_dict` object or a list of them (O(len(text))).

    Bad entries are reported as errors with line 0 and their 1-based index in the message;
    ``rules`` as :func:`parse_records`.

    >>> len(parse_json_records('[{"coins": [1, 2], "moves": "RL"}]').records)
    1
    """
    try:
        data = json.loads(text, parse_int=_json_int, parse_float=_json_decimal)
    except CoinrowError as error:
        return RecordsRead([], [RecordError(0, f"a number in the JSON: {error}")])
    except json.JSONDecodeError as error:
        return RecordsRead([], [RecordError(error.lineno, f"not valid JSON: {error.msg}")])
    except RecursionError:
        return RecordsRead([], [RecordError(0, "the JSON is nested too deeply to be records")])
    items = data if isinstance(data, list) else [data]
    read = RecordsRead([], [])
    for index, item in enumerate(items, start=1):
        try:
            read.records.append(Record.from_dict(item, rules=rules))
        except RecordError as error:
            read.errors.append(RecordError(0, f"record {index}: {error.message}"))
    return read


def _json_int(text: str) -> Value:
    """JSON integers of any length up to the digit limit (``json`` alone stops at 4,300)."""
    return parse_token(text)


def _json_decimal(text: str) -> Value:
    """JSON numbers with a fraction or exponent, kept exact (``0.1`` is ``Decimal("0.1")``)."""
    return parse_token(text)


def read_records(path: str | Path, *, rules: Rules | str | None = None) -> RecordsRead:
    """Read a file of records: JSON when it starts with ``{`` or ``[``, else text (O(size));
    ``rules`` as :func:`parse_records`.

    A missing or undecodable file is reported as one error (line 0).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return RecordsRead([], [RecordError(0, f"no such file: {path}")])
    except (OSError, UnicodeDecodeError) as error:
        return RecordsRead([], [RecordError(0, f"{path}: cannot read records ({error})")])
    return load_records(text, rules=rules)


def load_records(text: str, *, rules: Rules | str | None = None) -> RecordsRead:
    """Records from JSON when the text starts with ``{`` or ``[``, else from the text format
    (O(len(text))); ``rules`` as :func:`parse_records`.

    >>> len(load_records('{"coins": [1]}').records), len(load_records("1\\n").records)
    (1, 1)
    """
    if text.lstrip()[:1] in ("{", "["):
        return parse_json_records(text, rules=rules)
    return parse_records(text, rules=rules)


def append_record(path: str | Path, record: Record) -> None:
    """Append a record to a file of records, creating it if needed (O(size of the record))."""
    target = Path(path)
    gap = ""
    if target.exists() and target.stat().st_size:
        with target.open("rb") as handle:
            handle.seek(-1, 2)
            gap = "\n" if handle.read() == b"\n" else "\n\n"
    with target.open("a", encoding="utf-8") as handle:
        handle.write(gap + record.to_text())
