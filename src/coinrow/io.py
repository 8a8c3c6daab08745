"""Rows of coins from text, standard input and files (``.npy`` arrays or text).

Text follows the one token grammar of :mod:`coinrow.numbers`. Integer ``.npy`` files are
memory-mapped (copy-on-write, never read into Python ints) so the compiled kernels can solve
rows of 10^8 coins; other files are read as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import InputFileError, MissingExtraError
from .numbers import Value, coerce_coins, is_int_array, parse_coins

#: Text files at least this large are tried with the fast integer reader first.
FAST_TEXT_BYTES = 1 << 20


def read_file(path: str | Path) -> Sequence[Value]:
    """The row in a file: a 1-D ``.npy`` array (integer arrays memory-mapped, not copied) or
    text (O(size)). Raises :class:`~coinrow.errors.InputFileError` for a missing or unreadable
    file, a directory, or an array that is not one-dimensional.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "row.txt"
    >>> _ = path.write_text("3 2 2\\n3, 1; 2\\n")
    >>> read_file(path)
    [3, 2, 2, 3, 1, 2]
    """
    path = Path(path)
    if path.is_dir():
        raise InputFileError(f"{path} is a directory, not a file of coins")
    if not path.exists():
        raise InputFileError(f"no such file: {path}")
    if path.suffix == ".npy":
        return _read_npy(path)
    if path.is_file() and path.stat().st_size >= FAST_TEXT_BYTES:
        row = _read_int_text(path)
        if row is not None:
            return row  # type: ignore[no-any-return]
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputFileError(
            f"{path}: not a text file (use whitespace/comma separated numbers or .npy)"
        ) from None
    except OSError as error:
        raise InputFileError(f"cannot read {path}: {error.strerror or error}") from None
    return parse_coins(text)


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
    return array if is_int_array(array) else coerce_coins(array)


def _read_int_text(path: Path) -> Any:
    """An int64 array of a text file of integers (any of the separators whitespace, ``,``
    and ``;``), read by pyarrow's multithreaded CSV reader as one column; None when any
    token is not an int64 integer literal (the exact reader then handles the file)."""
    try:
        import pyarrow as pa
        import pyarrow.csv as csv
    except ImportError:
        return None
    data = path.read_bytes().translate(_SEPARATORS_TO_NEWLINES)
    try:
        column = csv.read_csv(
            pa.py_buffer(data),
            read_options=csv.ReadOptions(column_names=["coin"]),
            parse_options=csv.ParseOptions(delimiter="\x1f"),
            convert_options=csv.ConvertOptions(column_types={"coin": pa.int64()}),
        ).column("coin")
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
    if column.null_count:
        return None
    return column.to_numpy()


_SEPARATORS_TO_NEWLINES = bytes.maketrans(b" \t\r,;", b"\n" * 5)
