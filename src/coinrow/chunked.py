"""Rows stored in chunks, solved on a Dask cluster: rows beyond one machine's memory.

A chunked row is a folder of 1-D integer ``.npy`` files, the row's coins in the order of the
file names. :func:`solve_folder` peak-reduces every file on a Dask worker (only the reduced
stack travels back: a few dozen entries per file on random rows), reduces the concatenated
stacks once more on the client, and writes the optimal line back file by file, each worker
writing the moves of its own file's length. It is the chunked reduction of
``docs/theory.md`` (Theorem 6.5) with one chunk per file: the margin, both players' totals,
the optimal first moves and an optimal line, the same as :func:`coinrow.engines.reduction.
solve_chunks` with the files' boundaries as cuts. Needs the ``census`` extra (NumPy, Numba,
Dask). See ``docs/kernels.md``.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .census.run import check_workers, dask_client
from .engines.dispatch import INT64_SAFE_LIMIT
from .errors import InputFileError, InvalidOptionError, MissingExtraError, RowTooLongError
from .numbers import json_fields
from .rules import Moves, plain_moves

#: Most stack entries the client gathers from the workers (16 bytes each: 1 GiB). Random rows
#: need a few dozen per file; a sorted row (nothing merges) needs one per coin.
MAX_STACK_ENTRIES = 1 << 26

#: Seconds to wait for an existing scheduler.
CONNECT_SECONDS = 10.0


@dataclass(frozen=True)
class ChunkedSolution:
    """What :func:`solve_folder` found: exact ints, and every optimal first move as a tuple of
    :class:`~coinrow.rules.Move` (``("L",)``, ``("R",)`` or ``("L", "R")``; a list in JSON)."""

    n: int
    files: int
    margin: int
    first_total: int
    second_total: int
    first_moves: Moves
    line_folder: str | None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (keys: n, files, margin, first_total, second_total, first_moves,
        line_folder).

        >>> ChunkedSolution(4, 2, 5, 15, 10, plain_moves("R"), None).to_dict()["first_moves"]
        ['R']
        """
        return json_fields(self)


def chunk_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The ``.npy`` files of a chunked row, in name order, each checked to be a nonempty 1-D
    integer array (reading only the headers) (O(files)).

    >>> chunk_files("/nonexistent/folder")
    Traceback (most recent call last):
    ...
    coinrow.errors.InputFileError: /nonexistent/folder is not a folder of .npy chunks
    """
    import numpy as np

    path = Path(folder)
    if not path.is_dir():
        raise InputFileError(f"{folder} is not a folder of .npy chunks")
    files = sorted(path.glob("*.npy"))
    if not files:
        raise InputFileError(f"{folder} holds no .npy files")
    for file in files:
        try:
            array = np.load(file, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError) as error:
            raise InputFileError(f"{file.name} is not a NumPy array file: {error}") from None
        if array.ndim != 1 or array.dtype.kind not in "iu" or array.size == 0:
            raise InputFileError(
                f"{file.name} is not a nonempty 1-D integer array "
                f"(shape {array.shape}, dtype {array.dtype})"
            )
    return files


def _load(file: str) -> Any:
    """A chunk as a writable int64 array (a copy-on-write memory map when it is int64)."""
    import numpy as np

    array = np.load(file, mmap_mode="c", allow_pickle=False)
    if array.dtype != np.int64:
        if array.dtype.kind == "u" and array.size and int(array.max()) >= INT64_SAFE_LIMIT:
            return None
        array = array.astype(np.int64)
    return array


def _abs_total(chunk: Any) -> int:
    """The exact sum of |coin| over an int64 chunk, stopping at the int64-safety limit."""
    import numpy as np

    largest = max(int(chunk.max()), -int(chunk.min()))
    if largest >= INT64_SAFE_LIMIT:
        return INT64_SAFE_LIMIT
    block = max(1, INT64_SAFE_LIMIT // max(largest, 1))  # no block's sum overflows int64
    total = 0
    for begin in range(0, chunk.size, block):
        total += int(np.abs(chunk[begin : begin + block]).sum())
        if total >= INT64_SAFE_LIMIT:
            break
    return total


def reduce_file(file: str, offset: int, first: bool, last: bool) -> dict[str, Any]:
    """Peak-reduce one chunk file (a Dask task): its stack (values and global group starts),
    the stack of the file without the row's first coin when ``first``, the row's last coin
    alone when ``last``, and the file's length, sum and sum of |coin| (O(file))."""
    import numpy as np

    from .engines.kernels import reduce_chunks

    chunk = _load(file)
    if chunk is None:
        return {"length": 0, "abs_total": INT64_SAFE_LIMIT}
    length = chunk.size
    end = length - 1 if last and length > 1 else length
    spans = [(0, end)]
    if first:
        spans.insert(0, (1, end))
    if end < length:
        spans.append((end, length))
    table = np.empty((len(spans), 3), np.int64)
    floor = 0
    for index, (lo, hi) in enumerate(spans):
        table[index] = lo, hi, floor
        floor += 2 + hi - lo
    values, starts = np.empty(floor, np.int64), np.empty(floor, np.int64)
    stack = np.empty((len(spans), 4), np.int64)
    abs_total = _abs_total(chunk)
    if abs_total >= INT64_SAFE_LIMIT:
        return {"length": length, "abs_total": abs_total}
    reduce_chunks(chunk, table, values, starts, stack, 0, len(spans))
    stacks = [
        (
            values[stack[k, 0] : stack[k, 1]].copy(),
            starts[stack[k, 0] : stack[k, 1]] + offset,
        )
        for k in range(len(spans))
    ]
    return {
        "length": length,
        "total": int(chunk.sum()),
        "abs_total": abs_total,
        "without_first": stacks.pop(0) if first else None,
        "stacks": stacks,
    }


def write_line(
    values: Any, starts: Any, n: int, file: str, lo: int, hi: int, line_file: str
) -> None:
    """Write moves ``lo .. hi - 1`` of the line (ASCII ``L``/``R`` codes, uint8) to
    ``line_file`` (a Dask task; O(valley + hi - lo))."""
    import numpy as np

    from .engines.kernels import fill_line

    line = np.empty(hi - lo, np.uint8)
    fill_line(values, starts, values.size, n, line, lo, lo, hi)
    np.save(line_file, line)


def _combine(stacks: Sequence[tuple[Any, Any]]) -> tuple[Any, Any, int, int, int]:
    """Reduce the concatenated stacks: (values, starts, size, margin, margin before the last
    stack)."""
    import numpy as np

    from .engines.kernels import combine_stacks

    begins, ends, floor = [], [], 2
    for stack_values, _ in stacks:
        begins.append(floor)
        ends.append(floor + stack_values.size)
        floor += stack_values.size
    values, starts = np.zeros(floor, np.int64), np.zeros(floor, np.int64)
    for (stack_values, stack_starts), begin, end in zip(stacks, begins, ends, strict=True):
        values[begin:end] = stack_values
        starts[begin:end] = stack_starts
    size, best, before_last = combine_stacks(
        values,
        starts,
        np.array(begins, np.int64),
        np.array(ends, np.int64),
        values,
        starts,
        True,
    )
    return values[:size], starts[:size], size, int(best), int(before_last)


#: The modules of the census extra that solving in chunks needs.
_EXTRA = ("numpy", "numba", "distributed")


def solve_folder(
    folder: str | os.PathLike[str],
    *,
    line_folder: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    memory_limit: str | int | None = None,
    max_stack_entries: int = MAX_STACK_ENTRIES,
) -> ChunkedSolution:
    """Solve the chunked row in ``folder`` (see :func:`chunk_files`) on Dask: margin, totals,
    optimal first moves, and, with ``line_folder``, the optimal line written as one uint8
    ``.npy`` file of ASCII ``L``/``R`` codes per input file (the same names, the same
    lengths, in move order) (O(n) work over the workers; the client holds only the stacks).

    ``scheduler`` (``tcp://HOST:PORT``) uses an existing cluster; otherwise a local one of
    ``workers`` processes bound to 127.0.0.1, each limited to ``memory_limit`` (Dask's
    per-worker limit) when given. Raises :class:`RowTooLongError` when the workers' reduced
    stacks together exceed ``max_stack_entries`` (sorted rows barely merge) or the row is
    not int64-safe, :class:`InputFileError` for a bad folder, :class:`SchedulerError` when
    the scheduler cannot be reached, :class:`MissingExtraError` without the census extra.
    """
    missing = [name for name in _EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingExtraError(f"solving a row in chunks needs {', '.join(missing)}", "census")
    import numpy as np

    if scheduler is None:
        check_workers(workers)  # bounded by the machine, before any process starts
    files = chunk_files(folder)
    if max_stack_entries < 1:
        raise InvalidOptionError("max_stack_entries must be at least 1")
    lengths = [int(np.load(file, mmap_mode="r", allow_pickle=False).size) for file in files]
    offsets = [sum(lengths[:k]) for k in range(len(files))]
    n = sum(lengths)
    out = Path(line_folder) if line_folder is not None else None
    if out is not None:
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise InputFileError(f"{out} must be a new or empty folder for the line")
        out.mkdir(parents=True, exist_ok=True)
    with dask_client(
        scheduler, workers, timeout=CONNECT_SECONDS, memory_limit=memory_limit
    ) as client:
        futures = client.map(
            reduce_file,
            [str(file) for file in files],
            offsets,
            [k == 0 for k in range(len(files))],
            [k == len(files) - 1 for k in range(len(files))],
            pure=False,
        )
        results: list[dict[str, Any]] = []
        entries = abs_total = 0
        for future in futures:  # in file order
            result = future.result()
            abs_total += result["abs_total"]
            if abs_total >= INT64_SAFE_LIMIT or result["length"] == 0:
                raise RowTooLongError(
                    "the row's absolute values sum to 2**62 or more: too large for the "
                    "int64 kernels of a chunked solve"
                )
            entries += sum(values.size for values, _ in result["stacks"])
            if entries > max_stack_entries:
                raise RowTooLongError(
                    f"the chunks' reduced stacks hold more than {max_stack_entries:,} entries "
                    "(the row barely merges, as a sorted row does): too many to combine on "
                    "the client"
                )
            results.append(result)
        stacks = [stack for result in results for stack in result["stacks"]]
        first_stacks = [results[0]["without_first"], *results[0]["stacks"][1:]] if n > 1 else []
        first_stacks += [stack for result in results[1:] for stack in result["stacks"]]
        first_coin = int(_load(str(files[0]))[0])
        last_coin = int(_load(str(files[-1]))[-1])
        values, starts, _, best, before_last = _combine(stacks)
        rest = _combine(first_stacks)[3] if n > 1 else 0
        take_left, take_right = first_coin - rest, last_coin - (before_last if n > 1 else 0)
        if out is not None:
            valley_values, valley_starts = client.scatter([values, starts], broadcast=True)
            writes = client.map(
                write_line,
                [valley_values] * len(files),
                [valley_starts] * len(files),
                [n] * len(files),
                [str(file) for file in files],
                offsets,
                [offset + length for offset, length in zip(offsets, lengths, strict=True)],
                [str(out / file.name) for file in files],
                pure=False,
            )
            client.gather(writes)
    total = sum(result["total"] for result in results)
    sides = zip(plain_moves("LR"), (take_left, take_right), strict=True)
    first = tuple(move for move, after in sides if after == best)
    return ChunkedSolution(
        n=n,
        files=len(files),
        margin=best,
        first_total=(total + best) // 2,
        second_total=(total - best) // 2,
        first_moves=first,
        line_folder=str(out) if out is not None else None,
    )
