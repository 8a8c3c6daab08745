"""Rows of coins from text, standard input and files (``.npy`` arrays or text).

Text follows the one token grammar of :mod:`coinrow.numbers`, whatever its size: the exact
parser (:func:`~coinrow.numbers.parse_coins`) is the reference. Long texts of plain
integers take a vectorised NumPy path that first checks the bytes against a strict subset of
that grammar (ASCII digits, a sign only at a token's start, at most 18 digits a token) and
hands anything else to the exact parser, so the result, or the error, is the same. Integer
``.npy`` files are memory-mapped (copy-on-write, never read into Python ints) so the
compiled kernels can solve rows of 10^8 coins.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

from .errors import InputFileError, MissingExtraError
from .numbers import Row, Value, is_int_array, parse_coins

#: Texts at least this long (in bytes) try the vectorised integer reader first.
FAST_TEXT_BYTES = 1 << 20

#: Bytes the vectorised reader checks at a time (bounds its temporary arrays).
_CHUNK_BYTES = 1 << 24

#: Most digits of a token the vectorised reader takes: 10**18 - 1 < 2**63, so every such
#: token fits in int64. Longer integers go to the exact parser.
_FAST_DIGITS = 18

# Byte classes of the vectorised reader.
_SEPARATOR, _DIGIT, _SIGN, _OTHER = 0, 1, 2, 3
_SEPARATOR_BYTES = b" \t\n\r\f\v,;"  # as numbers.SEPARATORS
_TO_SPACES = bytes.maketrans(_SEPARATOR_BYTES, b" " * len(_SEPARATOR_BYTES))


def read_file(path: str | Path) -> Sequence[Value]:
    """The row in a file: a 1-D ``.npy`` array (integer arrays memory-mapped, not copied) or
    text (O(size)). Raises :class:`~coinrow.errors.InputFileError` for a missing or unreadable
    file, a directory, binary data, or an array that is not one-dimensional or holds
    booleans. Pipes and devices (``/dev/stdin``) are read to their end; a NUL byte stops the
    read at once (``/dev/zero`` is not text).

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "row.txt"
    >>> _ = path.write_text("3 2 2\\n3, 1; 2\\n")
    >>> read_file(path)
    [3, 2, 2, 3, 1, 2]
    """
    path = Path(path)
    if path.suffix == ".npy" and path.is_file():
        return _read_npy(path)
    return read_text_bytes(read_bytes(path), str(path))


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file, or of a pipe or device to its end (O(size)). Raises
    :class:`~coinrow.errors.InputFileError` for a directory, a missing or unreadable file,
    and binary data from a pipe or device (stopped at the first chunk with a NUL byte, so
    ``/dev/zero`` fails at once).

    >>> read_bytes("/")
    Traceback (most recent call last):
    ...
    coinrow.errors.InputFileError: / is a directory, not a file
    """
    path = Path(path)
    if path.is_dir():
        raise InputFileError(f"{path} is a directory, not a file")
    if not path.exists():
        raise InputFileError(f"no such file: {path}")
    try:
        if path.is_file():
            return path.read_bytes()
        with path.open("rb") as stream:
            return _read_stream(stream, path)
    except OSError as error:
        raise InputFileError(f"cannot read {path}: {error.strerror or error}") from None


def _read_stream(stream: BinaryIO, path: Path) -> bytes:
    """A pipe or device to its end, refusing binary data at its first NUL byte."""
    chunks = []
    while chunk := stream.read(1 << 20):
        if b"\0" in chunk:
            raise InputFileError(f"{path}: binary data, not text")
        chunks.append(chunk)
    return b"".join(chunks)


def read_text_bytes(data: bytes, source: str = "the text") -> Sequence[Value]:
    """The row in the UTF-8 bytes of a text, by the token grammar of
    :mod:`coinrow.numbers` (O(len(data))). ``source`` names the text in errors.

    Texts of at least :data:`FAST_TEXT_BYTES` bytes holding only plain integers of at most
    18 digits become an int64 NumPy array when NumPy is installed (a 10^7-coin text of
    100 MB in about a second); every other text goes through the exact parser, with the same
    result or the same error.

    >>> read_text_bytes(b"0.1, 2 -3")
    [Decimal('0.1'), Decimal('2'), Decimal('-3')]
    """
    if len(data) >= FAST_TEXT_BYTES and importlib.util.find_spec("numpy") is not None:
        row = _plain_int64(data)
        if row is not None:
            return row  # type: ignore[no-any-return]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputFileError(
            f"{source}: not UTF-8 text (use whitespace/comma separated numbers or .npy)"
        ) from None
    return parse_coins(text)


def _byte_classes() -> bytes:
    """A translation table from every byte to its class (:func:`bytes.translate` is the
    fastest lookup: ten times NumPy's fancy indexing)."""
    classes = bytearray([_OTHER]) * 256
    for members, kind in ((_SEPARATOR_BYTES, _SEPARATOR), (b"0123456789", _DIGIT), (b"+-", _SIGN)):
        for byte in members:
            classes[byte] = kind
    return bytes(classes)


_CLASSES = _byte_classes()


def _plain_int64(data: bytes) -> Any:
    """An int64 array of a text of plain integers, or None when any byte or token is outside
    the strict subset of the grammar this reader takes (O(len(data)), vectorised).

    The bytes are checked chunk by chunk: only digits, signs and separators; a sign only
    after a separator (or at the start) and before a digit; digit runs of at most
    :data:`_FAST_DIGITS`. Every token is then ``[+-]?[0-9]{1,18}``, which NumPy's text reader
    converts exactly; the count of converted values is checked against the count of tokens.
    """
    import numpy as np

    size = len(data)
    tokens = 0
    previous = _SEPARATOR  # class of the byte before the chunk
    last_break = -1  # index of the last byte that is not a digit (-1: the start)
    for begin in range(0, size, _CHUNK_BYTES):
        end = min(begin + _CHUNK_BYTES, size)
        kind = np.frombuffer(data[begin:end].translate(_CLASSES), dtype=np.uint8)
        if int(kind.max()) == _OTHER:
            return None
        breaks = np.flatnonzero(kind != _DIGIT)  # separators and signs, about 1 byte in 10
        signs = breaks[kind[breaks] == _SIGN]
        if signs.size:
            last = len(kind) - 1
            before = kind[np.maximum(signs - 1, 0)]
            before[signs == 0] = previous
            after = kind[np.minimum(signs + 1, last)]
            after[signs == last] = _CLASSES[data[end]] if end < size else _SEPARATOR
            if (before != _SEPARATOR).any() or (after != _DIGIT).any():
                return None
        edges = breaks + begin
        if end == size:
            edges = np.append(edges, size)  # the end of the text ends the last run
        if edges.size:
            gaps = np.diff(edges, prepend=last_break)  # a digit run is a gap minus one
            if int(gaps.max()) > _FAST_DIGITS + 1:
                return None
            tokens += int(np.count_nonzero(gaps > 1))
            last_break = int(edges[-1])
        elif end - last_break > _FAST_DIGITS + 1:
            return None
        previous = int(kind[-1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a short read is caught by the count below
        row = np.fromstring(data.translate(_TO_SPACES), dtype=np.int64, sep=" ")
    return row if len(row) == tokens else None


def _read_npy(path: Path) -> Sequence[Value]:
    try:
        import numpy as np
    except ImportError:
        raise MissingExtraError(f"reading {path.name} (a .npy file) needs NumPy", "fast") from None
    try:
        array = np.load(path, mmap_mode="c", allow_pickle=False)
    except (ValueError, OSError) as error:
        raise InputFileError(f"{path}: not a readable .npy array ({error})") from None
    if array.ndim != 1:
        raise InputFileError(f"{path}: expected a one-dimensional array, got shape {array.shape}")
    if array.dtype.kind == "b":
        raise InputFileError(f"{path}: an array of booleans, not of coin values")
    return array if is_int_array(array) else Row.of(array)
