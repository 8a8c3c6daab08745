"""A census on disk: one Parquet file per shard and a manifest, so nothing finished is lost.

``DIR/manifest.jsonl`` is JSON Lines. The first line is the header: the format, the coinrow
version and the job (family, strategies...). Then one line per event, appended and flushed to
disk: ``{"run": r, ...}`` when a run starts, and for each finished shard
``{"shard": key, "family": ..., "file": ..., "sha256": ..., "rows": ..., "run": r}`` (plus
``rows_file``/``rows_sha256`` with per-row results). A shard file is written under a
temporary name, flushed, then renamed, and only then recorded, so after a crash, a SIGKILL or
Ctrl-C every recorded shard is complete; a half-written last line is ignored. Resuming reads
the manifest and recomputes only the shards missing, damaged or not proven (below).

Every shard file carries, in its Parquet metadata (key ``coinrow.shard``), what it holds:
the family, the job's fingerprint, the shard's key and its row range. Resuming counts a
recorded shard only when its files match their checksums and carry exactly the identity the
plan gives that shard, and its counts add up to its rows; any other is recomputed and
reported, as is every manifest line that cannot be read (:func:`parse_line`).

``shard-KEY.parquet`` holds one row: the shard's counts, its margin histogram (lists
``margins`` and ``counts``) and its strategies (a list of structs with their counterexamples).
``rows-KEY.parquet`` holds every row's result: index, row, first_total, margin, first_moves
(the set of optimal first moves as its move texts separated by spaces: ``L``, ``R`` or ``L R``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

from ..counterexamples import Counterexample
from ..errors import CensusStoreError, CoinrowError
from ..numbers import json_fields
from .families import Shard, family_from_dict
from .shards import Example, Job, ShardResult, StrategyTally
from .variants import VariantTally

MANIFEST = "manifest.jsonl"
FORMAT = "coinrow-census"

#: The key of a shard file's Parquet metadata that says what the file holds.
IDENTITY = b"coinrow.shard"

_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Entry:
    """A manifest line recording a finished shard, validated (see :func:`parse_line`)."""

    shard: str
    file: str
    sha256: str
    rows: int
    run: int
    rows_file: str | None = None
    rows_sha256: str | None = None
    #: The files' sizes in bytes (None in lines that do not record them: recomputed).
    size: int | None = None
    rows_size: int | None = None


@dataclass(frozen=True)
class Ignored:
    """A manifest line that was not used, and why (reported by a resumed census)."""

    line: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (O(1))."""
        return json_fields(self)


def shard_identity(job: Job, shard: Shard, kind: str) -> dict[str, Any]:
    """What a shard file holds, as written into its Parquet metadata and checked on resume:
    the file ``kind`` (``summary`` or ``rows``), the family, the job's fingerprint, the
    shard's key and its row range (O(alphabet))."""
    return {
        "kind": kind,
        "family": job.family.to_dict(),
        "job": job.fingerprint(),
        "shard": shard.key,
        "start": shard.start,
        "rows": shard.count,
    }


class Store:
    """The folder of a census: ``resume`` continues the census recorded there (same job
    required); otherwise the folder must not hold a census yet (it is created if needed).

    The folder is claimed atomically: a new census writes its manifest's header (the job,
    its fingerprint included) under a temporary name and links it to ``manifest.jsonl``,
    which fails if any other census got there first; and the census holds an exclusive lock
    (``flock``) on the manifest from then until :meth:`release` (or its process ends, even
    by SIGKILL), which a second census, new or resuming, is refused without: two censuses
    never write one folder. Every file operation that fails (a folder without write
    permission, a full disk) raises :class:`~coinrow.errors.CensusStoreError` naming the
    path, and leaves no temporary file behind."""

    def __init__(self, directory: Path, job: Job, resume: bool) -> None:
        self.directory = Path(directory)
        self.job = job
        self.manifest = self.directory / MANIFEST
        if self.directory.exists() and not self.directory.is_dir():
            raise CensusStoreError(f"{self.directory} is a file, not a folder for the census")
        self.entries: dict[str, Entry] = {}
        self.ignored: list[Ignored] = []
        self.run = 1
        self._lock: IO[bytes] | None = None
        if resume:
            self._open_existing()
        else:
            if self.manifest.exists():
                raise CensusStoreError(
                    f"{self.directory} already holds a census; resume it or choose another folder"
                )
            with _os_errors(f"cannot create {self.directory}"):
                self.directory.mkdir(parents=True, exist_ok=True)
            self._claim()

    def _claim(self) -> None:
        """Create the manifest with its header, atomically and locked (see the class)."""
        header = (json.dumps(self._header(), sort_keys=True) + "\n").encode()
        temporary = self.directory / f".{MANIFEST}.{os.getpid()}.tmp"
        with _os_errors(f"cannot write {self.manifest}"):
            handle = open(temporary, "xb")  # noqa: SIM115 - kept open: it holds the lock
            claimed = False
            try:
                handle.write(header)
                handle.flush()
                os.fsync(handle.fileno())
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: free
                try:
                    os.link(temporary, self.manifest)  # the claim: fails if the name exists
                except FileExistsError:
                    raise CensusStoreError(
                        f"{self.directory} was just claimed by another census; resume it "
                        "once that one ends, or choose another folder"
                    ) from None
                claimed = True
            finally:
                if not claimed:
                    handle.close()
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
        self._lock = handle

    def lock(self) -> None:
        """Hold the exclusive lock on the manifest (no-op while held), or raise
        :class:`~coinrow.errors.CensusStoreError` in one line when another census holds it
        (O(1))."""
        if self._lock is not None:
            return
        with _os_errors(f"cannot read {self.manifest}"):
            handle = _open_regular(self.manifest, self.directory)
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise CensusStoreError(
                f"{self.directory} is being written by another census right now; resume it "
                "once that one ends"
            ) from None
        self._lock = handle

    def release(self) -> None:
        """Let go of the lock on the manifest (O(1)); :meth:`lock` takes it again."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _header(self) -> dict[str, Any]:
        return {"format": FORMAT, "job": self.job.to_dict(), "created": _now()}

    def _open_existing(self) -> None:
        if self.manifest.is_symlink():
            raise CensusStoreError(f"{self.manifest} is a symbolic link, not a census manifest")
        if not self.manifest.is_file():
            raise CensusStoreError(f"{self.directory} holds no census to resume (no {MANIFEST})")
        self.lock()
        read = False
        try:
            self._read_manifest()
            read = True
        finally:
            if not read:
                self.release()

    def _read_manifest(self) -> None:
        assert self._lock is not None
        with _os_errors(f"cannot read {self.manifest}"):
            self._lock.seek(0)
            data = self._lock.read()
        lines = data.split(b"\n")
        header = _json_object(lines[0])
        if header is None or header.get("format") != FORMAT:
            raise CensusStoreError(f"{self.manifest} is not a coinrow census manifest")
        recorded = header.get("job")
        if not isinstance(recorded, dict):
            raise CensusStoreError(f"{self.manifest}: its header records no job")
        _check_same_job(self.directory, recorded, self.job.to_dict())
        if data and not data.endswith(b"\n"):  # end a line cut short by a crash
            with _os_errors(f"cannot write {self.manifest}"), open(self.manifest, "ab") as out:
                out.write(b"\n")
        runs = [1]
        for number, text in enumerate(lines[1:], start=2):
            if not text.strip():
                continue
            parsed = parse_line(text)
            if isinstance(parsed, str):
                self.ignored.append(Ignored(number, parsed))
            elif isinstance(parsed, Entry):
                self.entries[parsed.shard] = parsed  # a later line for a shard replaces it
            else:
                runs.append(parsed)
        self.run = max(runs) + 1

    def verify(self, shard: Shard) -> tuple[ShardResult | None, str]:
        """The recorded result of a planned shard, once its files prove what they are; else
        None and the reason (empty when the shard was never recorded). The files must match
        their checksums, be readable Parquet, carry this shard's identity (family, job, key,
        row range: :func:`shard_identity`) in their metadata, and hold its rows
        (O(size of the files))."""
        entry = self.entries.get(shard.key)
        if entry is None:
            return None, ""
        if entry.rows != shard.count:
            return None, f"its manifest line says {entry.rows:,} rows, not {shard.count:,}"
        table, reason = self._read(entry.file, entry.sha256, entry.size, shard, "summary")
        if table is None:
            return None, reason
        try:
            result = summary_from_table(table)
        except (CoinrowError, LookupError, TypeError, ValueError, ArithmeticError):
            return None, "its file does not hold a shard summary"
        if (result.key, result.start, result.rows) != (shard.key, shard.start, shard.count):
            return None, f"its file holds rows {result.start:,} to {result.start + result.rows:,}"
        if sum(result.histogram.values()) != shard.count or [
            tally.name for tally in result.strategies
        ] != list(self.job.strategies):
            return None, "its file's counts do not add up to the shard's rows"
        if (result.variant is None) != self.job.plain or (
            result.variant is not None and result.variant.rules != self.job.rules
        ):
            return None, f"its file does not hold a tally under the rules {self.job.rules}"
        if self.job.rows:
            if entry.rows_file is None or entry.rows_sha256 is None:
                return None, "its per-row file is not recorded"
            rows, reason = self._read(
                entry.rows_file, entry.rows_sha256, entry.rows_size, shard, "rows"
            )
            if rows is None:
                return None, f"per-row file: {reason}"
            if rows.num_rows != shard.count:
                return None, f"its per-row file holds {rows.num_rows:,} rows, not {shard.count:,}"
        return result, ""

    def _read(
        self, name: str, checksum: str, size: int | None, shard: Shard, kind: str
    ) -> tuple[Any, str]:
        """A recorded file's table, or None and why it cannot be counted. The file is opened
        only as a regular file of the folder (no symbolic link, device or FIFO) and read
        only up to its recorded size (O(size))."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if size is None:
            return None, f"its manifest line records no size for {name}"
        try:
            with _open_regular(self.directory / name, self.directory) as handle:
                if os.fstat(handle.fileno()).st_size > size:
                    return None, f"its file {name} is larger than its recorded size"
                data = handle.read(size + 1)
        except CensusStoreError as error:
            return None, str(error)
        except OSError:
            return None, f"its file {name} is missing or unreadable"
        if len(data) != size or _sha256(data) != checksum:
            return None, f"its file {name} does not match its checksum"
        try:
            table = pq.read_table(pa.BufferReader(data))
        except (pa.ArrowException, OSError, ValueError):
            return None, f"its file {name} is not readable Parquet"
        recorded = _json_object((table.schema.metadata or {}).get(IDENTITY, b""))
        wanted = shard_identity(self.job, shard, kind)
        if recorded == wanted:
            return table, ""
        if recorded is None:
            return None, f"its file {name} does not say which shard it holds"
        if recorded.get("job") != wanted["job"] or recorded.get("family") != wanted["family"]:
            return None, f"its file {name} belongs to another census"
        if recorded.get("shard") != shard.key:
            return None, f"its file {name} holds shard {str(recorded.get('shard'))[:64]}"
        return None, f"its file {name} holds another {recorded.get('kind')!s:.16} of rows"

    def start_run(self, shards: int, missing: int) -> None:
        """Record that a run starts, computing ``missing`` of the ``shards`` shards."""
        self._append(
            {
                "run": self.run,
                "started": _now(),
                "resumed": self.run > 1,
                "shards": shards,
                "missing": missing,
            }
        )

    def write(self, result: ShardResult, shard: Shard) -> None:
        """Write the shard's files atomically, each carrying the shard's identity in its
        metadata, then record them (O(size of the files))."""
        entry: dict[str, Any] = {
            "shard": shard.key,
            "family": self.job.family.describe(),
            "rows": result.rows,
            "run": self.run,
            "seconds": round(result.seconds, 3),
        }
        name = f"shard-{shard.key}.parquet"
        summary = _with_identity(summary_table(result), shard_identity(self.job, shard, "summary"))
        entry["file"] = name
        entry["sha256"], entry["size"] = self._write_atomic(name, summary)
        if result.table is not None:
            rows_name = f"rows-{shard.key}.parquet"
            rows = _with_identity(result.table, shard_identity(self.job, shard, "rows"))
            entry["rows_file"] = rows_name
            entry["rows_sha256"], entry["rows_size"] = self._write_atomic(rows_name, rows)
        self._append(entry)
        parsed = parse_line(json.dumps(entry).encode())
        assert isinstance(parsed, Entry)
        self.entries[shard.key] = parsed

    def _write_atomic(self, name: str, table: Any) -> tuple[str, int]:
        """Write the table under a temporary name, then rename it; on any failure (a full
        disk) the temporary file is removed. Returns its checksum and size."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        data = sink.getvalue().to_pybytes()
        temporary = self.directory / f".{name}.{os.getpid()}.tmp"
        with _os_errors(f"cannot write {self.directory / name}"):
            written = False
            try:
                with open(temporary, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(temporary, self.directory / name)
                written = True
            finally:
                if not written:  # a full disk, or Ctrl-C: no temporary file is left
                    with contextlib.suppress(OSError):
                        os.unlink(temporary)
        return _sha256(data), len(data)

    def _append(self, line: dict[str, Any]) -> None:
        with (
            _os_errors(f"cannot write {self.manifest}"),
            open(self.manifest, "a", encoding="utf-8") as handle,
        ):
            handle.write(json.dumps(line, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


@contextlib.contextmanager
def _os_errors(what: str) -> Iterator[None]:
    """Turn an OSError (permission denied, no space, a path under a file) into one line."""
    try:
        yield
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise CensusStoreError(f"{what}: {reason}") from None


def parse_line(text: bytes) -> Entry | int | str:
    """One manifest line after the header, validated: a shard's :class:`Entry`, a run's
    number, or why the line cannot be used (a str). The one check every line goes through:
    UTF-8 JSON, an object, and each field of the type it must have (O(len(text))).

    >>> parse_line(b'{"run": 2, "resumed": true}'), parse_line(b'{"run": "x"}')
    (2, 'its run is not a positive integer')
    >>> parse_line(b'{"shard": [1, 2], "run": 1}'), parse_line(b'\\xff')
    ('its shard key is not a short name', 'it is not UTF-8 JSON')
    """
    line = _json_object(text)
    if line is None:
        return "it is not UTF-8 JSON" if not _is_json(text) else "it is not a JSON object"
    run = line.get("run")
    if not isinstance(run, int) or isinstance(run, bool) or run < 1:
        return "its run is not a positive integer"
    if "shard" not in line:
        return run
    key = line["shard"]
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        return "its shard key is not a short name"
    if not _count(line.get("rows")):
        return f"shard {key}: its row count is not a whole number"
    files = [line.get("file"), line.get("sha256")]
    if "rows_file" in line or "rows_sha256" in line:
        files += [line.get("rows_file"), line.get("rows_sha256")]
    for name, checksum in zip(files[::2], files[1::2], strict=True):
        if not _file_name(name) or not isinstance(checksum, str) or not _SHA256.fullmatch(checksum):
            return f"shard {key}: a file name or checksum is malformed"
    sizes = [line.get("size"), line.get("rows_size")]
    if not all(size is None or _count(size) for size in sizes):
        return f"shard {key}: a file size is not a whole number"
    name, checksum, *rows_file = files
    if not rows_file:
        rows_file = [None, None]
    return Entry(key, name, checksum, line["rows"], run, *rows_file, *sizes)  # type: ignore[arg-type]


def _open_regular(path: Path, folder: Path) -> IO[bytes]:
    """``path`` opened for reading only if it is a regular file of ``folder``: never
    following a symbolic link, never blocking on a FIFO, never reading a device (raises
    :class:`~coinrow.errors.CensusStoreError` saying what it is; OSError when missing)."""
    if path.parent != folder:
        raise CensusStoreError(f"{path.name} is not a file of the census folder")
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a symbolic link
            raise CensusStoreError(f"{path.name} is a symbolic link, not a file") from None
        raise
    handle = os.fdopen(descriptor, "rb")
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        handle.close()
        raise CensusStoreError(f"{path.name} is not a regular file")
    return handle


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _file_name(name: object) -> bool:
    """A plain file name inside the census folder (no folder part, not hidden)."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= 255
        and "/" not in name
        and os.sep not in name
        and not name.startswith(".")
        and "\x00" not in name
    )


def _json_object(text: bytes) -> dict[str, Any] | None:
    try:
        line = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return line if isinstance(line, dict) else None


def _is_json(text: bytes) -> bool:
    try:
        json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return True


def _with_identity(table: Any, identity: dict[str, Any]) -> Any:
    metadata = dict(table.schema.metadata or {})
    metadata[IDENTITY] = json.dumps(identity, sort_keys=True).encode()
    return table.replace_schema_metadata(metadata)


def _check_same_job(directory: Path, recorded: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Refuse, in one line, to resume a census of another family, job or version."""
    if (
        recorded.get("format_version") != wanted["format_version"]
        or recorded.get("coinrow") != wanted["coinrow"]
    ):
        raise CensusStoreError(
            f"{directory} was written by coinrow {str(recorded.get('coinrow'))[:40]} (census "
            f"format {str(recorded.get('format_version'))[:40]}); this is coinrow "
            f"{wanted['coinrow']} (format {wanted['format_version']}): start a new census"
        )
    if recorded.get("family") != wanted["family"]:
        try:
            theirs = family_from_dict(recorded["family"]).describe()
        except (CoinrowError, KeyError, TypeError, AttributeError, ArithmeticError):
            theirs = "an unknown family"
        mine = family_from_dict(wanted["family"]).describe()
        raise CensusStoreError(f"{directory} holds a census of {theirs}, not of {mine}")
    for key in ("rules", "strategies", "examples", "rows", "shard_rows"):
        if recorded.get(key) != wanted[key]:
            raise CensusStoreError(
                f"{directory} holds a census with {key} {str(recorded.get(key))[:60]}, not "
                f"{wanted[key]!r}: resume it with the same options"
            )


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


# --- shard summaries as one-row Parquet tables ----------------------------------------------

_BIG = 38  # digits of a decimal128: regret sums of any census fit


def _schema() -> Any:
    import pyarrow as pa

    example = pa.struct(
        [
            ("index", pa.int64()),
            ("label", pa.int64()),
            ("coins", pa.list_(pa.int64())),
            ("strategy_total", pa.int64()),
            ("optimal_total", pa.int64()),
            ("strategy_line", pa.string()),
            ("optimal_line", pa.string()),
        ]
    )
    strategy = pa.struct(
        [
            ("name", pa.string()),
            ("compiled", pa.bool_()),
            ("optimal", pa.int64()),
            ("regret_total", pa.decimal128(_BIG, 0)),
            ("worst_regret", pa.int64()),
            ("examples", pa.list_(example)),
        ]
    )
    return pa.schema(
        [
            ("shard", pa.string()),
            ("start", pa.int64()),
            ("rows", pa.int64()),
            ("right_optimal", pa.int64()),
            ("left_only", pa.int64()),
            ("right_only", pa.int64()),
            ("both", pa.int64()),
            ("margins", pa.list_(pa.int64())),
            ("counts", pa.list_(pa.int64())),
            ("strategies", pa.list_(strategy)),
            ("seconds", pa.float64()),
            ("variant", pa.string()),  # the tally under other rules, as JSON (null: plain)
        ]
    )


def summary_table(result: ShardResult) -> Any:
    """The shard's results as a one-row pyarrow Table (O(histogram + examples))."""
    import pyarrow as pa

    moves = result.first_moves or {}
    margins = sorted(result.histogram)
    strategies = [
        {
            "name": tally.name,
            "compiled": tally.compiled,
            "optimal": tally.optimal,
            "regret_total": Decimal(tally.regret_total),
            "worst_regret": tally.worst_regret,
            "examples": [
                {
                    "index": example.index,
                    "label": example.label,
                    "coins": list(example.counterexample.coins),
                    "strategy_total": example.counterexample.strategy_total,
                    "optimal_total": example.counterexample.optimal_total,
                    "strategy_line": example.counterexample.strategy_line,
                    "optimal_line": example.counterexample.optimal_line,
                }
                for example in tally.examples
            ],
        }
        for tally in result.strategies
    ]
    row = {
        "shard": result.key,
        "start": result.start,
        "rows": result.rows,
        "right_optimal": result.right_optimal,
        "left_only": moves.get("L"),
        "right_only": moves.get("R"),
        "both": moves.get("LR"),
        "margins": margins,
        "counts": [result.histogram[m] for m in margins],
        "strategies": strategies,
        "seconds": result.seconds,
        "variant": None if result.variant is None else result.variant.to_json(),
    }
    return pa.Table.from_pylist([row], schema=_schema())


def summary_from_table(table: Any) -> ShardResult:
    """Inverse of :func:`summary_table` (O(histogram + examples))."""
    row = table.to_pylist()[0]
    moves: dict[str, int] | None = None
    if row["left_only"] is not None:
        moves = {"L": row["left_only"], "R": row["right_only"], "LR": row["both"]}
    tallies = []
    for item in row["strategies"]:
        examples = [
            Example(
                index=ex["index"],
                label=ex["label"],
                counterexample=Counterexample(
                    tuple(ex["coins"]),
                    ex["strategy_total"],
                    ex["optimal_total"],
                    ex["strategy_line"],
                    ex["optimal_line"],
                ),
            )
            for ex in item["examples"]
        ]
        tallies.append(
            StrategyTally(
                item["name"],
                compiled=item["compiled"],
                optimal=item["optimal"],
                regret_total=int(item["regret_total"]),
                worst_regret=item["worst_regret"],
                examples=examples,
            )
        )
    variant = None
    if row.get("variant") is not None:
        variant = VariantTally.from_json(row["variant"])
        moves = {}
    return ShardResult(
        key=row["shard"],
        start=row["start"],
        rows=row["rows"],
        histogram=dict(zip(row["margins"], row["counts"], strict=True)),
        right_optimal=row["right_optimal"],
        first_moves=moves,
        strategies=tallies,
        seconds=row["seconds"],
        variant=variant,
    )
