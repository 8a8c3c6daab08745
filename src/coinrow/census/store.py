"""A census on disk: one Parquet file per shard and a manifest, so nothing finished is lost.

``DIR/manifest.jsonl`` is JSON Lines. The first line is the header: the format, the coinrow
version and the job (family, strategies...). Then one line per event, appended and flushed to
disk: ``{"run": r, ...}`` when a run starts, and for each finished shard
``{"shard": key, "family": ..., "file": ..., "sha256": ..., "rows": ..., "run": r}`` (plus
``rows_file``/``rows_sha256`` with per-row results). A shard file is written under a
temporary name, flushed, then renamed, and only then recorded, so after a crash, a SIGKILL or
Ctrl-C every recorded shard is complete; a half-written last line is ignored. Resuming reads
the manifest, checks each recorded file's checksum and recomputes only the shards missing or
damaged.

``shard-KEY.parquet`` holds one row: the shard's counts, its margin histogram (lists
``margins`` and ``counts``) and its strategies (a list of structs with their counterexamples).
``rows-KEY.parquet`` holds every row's result: index, row, first_total, margin, first_moves.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..errors import CensusStoreError, CoinrowError
from ..refute import Counterexample
from .shards import Example, Job, ShardResult, StrategyTally

MANIFEST = "manifest.jsonl"
FORMAT = "coinrow-census"


class Store:
    """The folder of a census: ``resume`` continues the census recorded there (same job
    required); otherwise the folder must not hold a census yet (it is created if needed)."""

    def __init__(self, directory: Path, job: Job, resume: bool) -> None:
        self.directory = Path(directory)
        self.job = job
        self.manifest = self.directory / MANIFEST
        if self.directory.exists() and not self.directory.is_dir():
            raise CensusStoreError(f"{self.directory} is a file, not a folder for the census")
        self.entries: dict[str, dict[str, Any]] = {}
        self.run = 1
        if resume:
            self._open_existing()
        else:
            if self.manifest.exists():
                raise CensusStoreError(
                    f"{self.directory} already holds a census; resume it or choose another folder"
                )
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise CensusStoreError(f"cannot create {self.directory}: {error}") from None
            self._append(self._header())

    def _header(self) -> dict[str, Any]:
        return {"format": FORMAT, "job": self.job.to_dict(), "created": _now()}

    def _open_existing(self) -> None:
        if not self.manifest.is_file():
            raise CensusStoreError(f"{self.directory} holds no census to resume (no {MANIFEST})")
        lines = list(_read_lines(self.manifest))
        if not lines or lines[0].get("format") != FORMAT:
            raise CensusStoreError(f"{self.manifest} is not a coinrow census manifest")
        recorded = lines[0].get("job", {})
        _check_same_job(self.directory, recorded, self.job.to_dict())
        with open(self.manifest, "rb+") as handle:  # end a line cut short by a crash
            size = handle.seek(0, os.SEEK_END)
            if size:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    handle.write(b"\n")
        runs = [line["run"] for line in lines[1:] if "run" in line and "shard" not in line]
        self.run = max(runs, default=1) + 1
        for line in lines[1:]:
            if "shard" in line:
                self.entries[line["shard"]] = line

    def done(self) -> dict[str, dict[str, Any]]:
        """The recorded shards whose files are intact (O(bytes of those files))."""
        intact = {}
        for key, entry in self.entries.items():
            if self._intact(entry.get("file"), entry.get("sha256")) and (
                "rows_file" not in entry or self._intact(entry["rows_file"], entry["rows_sha256"])
            ):
                intact[key] = entry
        return intact

    def _intact(self, name: object, checksum: object) -> bool:
        if not isinstance(name, str) or os.sep in name or name.startswith("."):
            return False
        path = self.directory / name
        return path.is_file() and _sha256(path.read_bytes()) == checksum

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

    def write(self, result: ShardResult) -> None:
        """Write the shard's files atomically, then record them (O(size of the files))."""
        entry: dict[str, Any] = {
            "shard": result.key,
            "family": self.job.family.describe(),
            "rows": result.rows,
            "run": self.run,
            "seconds": round(result.seconds, 3),
        }
        name = f"shard-{result.key}.parquet"
        entry["file"], entry["sha256"] = name, self._write_atomic(name, summary_table(result))
        if result.table is not None:
            rows_name = f"rows-{result.key}.parquet"
            entry["rows_file"] = rows_name
            entry["rows_sha256"] = self._write_atomic(rows_name, result.table)
        self._append(entry)
        self.entries[result.key] = entry

    def load(self, key: str) -> ShardResult:
        """A recorded shard's results, read back from its file (O(size of the file))."""
        import pyarrow.parquet as pq

        entry = self.entries[key]
        return summary_from_table(pq.read_table(self.directory / entry["file"]))

    def _write_atomic(self, name: str, table: Any) -> str:
        import pyarrow as pa
        import pyarrow.parquet as pq

        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        data = sink.getvalue().to_pybytes()
        temporary = self.directory / f".{name}.{os.getpid()}.tmp"
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.directory / name)
        return _sha256(data)

    def _append(self, line: dict[str, Any]) -> None:
        with open(self.manifest, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def _check_same_job(directory: Path, recorded: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Refuse, in one line, to resume a census of another family, job or version."""
    from .families import family_from_dict

    if (
        recorded.get("format_version") != wanted["format_version"]
        or recorded.get("coinrow") != wanted["coinrow"]
    ):
        raise CensusStoreError(
            f"{directory} was written by coinrow {recorded.get('coinrow')} (census format "
            f"{recorded.get('format_version')}); this is coinrow {wanted['coinrow']} (format "
            f"{wanted['format_version']}): start a new census"
        )
    if recorded.get("family") != wanted["family"]:
        try:
            theirs = family_from_dict(recorded.get("family", {})).describe()
        except (CoinrowError, KeyError, TypeError):
            theirs = "an unknown family"
        mine = family_from_dict(wanted["family"]).describe()
        raise CensusStoreError(f"{directory} holds a census of {theirs}, not of {mine}")
    for key in ("strategies", "examples", "rows", "shard_rows"):
        if recorded.get(key) != wanted[key]:
            raise CensusStoreError(
                f"{directory} holds a census with {key} {recorded.get(key)!r}, not "
                f"{wanted[key]!r}: resume it with the same options"
            )


def _read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The manifest's lines; a damaged line (a crash mid-write) is skipped."""
    with open(path, encoding="utf-8") as handle:
        for text in handle:
            with contextlib.suppress(json.JSONDecodeError):
                line = json.loads(text)
                if isinstance(line, dict):
                    yield line


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
    }
    return pa.Table.from_pylist([row], schema=_schema())


def summary_from_table(table: Any) -> ShardResult:
    """Inverse of :func:`summary_table` (O(histogram + examples))."""
    row = table.to_pylist()[0]
    moves = None
    if row["left_only"] is not None:
        moves = {"L": row["left_only"], "R": row["right_only"], "LR": row["both"]}
    tallies = []
    for item in row["strategies"]:
        examples = [
            Example(
                ex["index"],
                ex["label"],
                Counterexample(
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
                item["compiled"],
                item["optimal"],
                int(item["regret_total"]),
                item["worst_regret"],
                examples,
            )
        )
    return ShardResult(
        row["shard"],
        row["start"],
        row["rows"],
        dict(zip(row["margins"], row["counts"], strict=True)),
        row["right_optimal"],
        moves,
        tallies,
        row["seconds"],
    )
