"""Rows stored in chunks, solved on a real Dask cluster of loopback workers
(``coinrow.chunked``, ``coinrow solve-chunks``), against the in-memory chunked reduction."""

from __future__ import annotations

import itertools
import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from coinrow.chunked import chunk_files, solve_folder
from coinrow.cli import main
from coinrow.engines.reduction import solve_chunks
from coinrow.errors import InputFileError, RowTooLongError
from coinrow.rules import plain_moves

distributed = pytest.importorskip("distributed")

#: Each worker's memory limit: the large test's row is bigger than this.
WORKER_MEMORY = 320 * 2**20


@pytest.fixture(scope="module")
def warm_kernels(tmp_path_factory: pytest.TempPathFactory) -> None:
    """One chunked solve of tiny rows (every dtype the tests use) on a worker without a
    memory limit, so Numba's cache holds every kernel the workers run: a worker compiling
    them itself grows past its 320 MiB limit and is restarted (seen on a cold cache). The
    worker is a thread of this process (no process to start: the same kernels, compiled
    here, are cached for the worker processes of the tests)."""
    base = tmp_path_factory.mktemp("warm")
    coins = np.arange(1, 9, dtype=np.int64)
    with (
        distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=False,  # in-process: its scheduler has no TCP address, its pages
            dashboard_address="127.0.0.1:0",  # bind loopback
            worker_dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
        ) as local,
        distributed.Client(local),
    ):
        for index, dtypes in enumerate(([np.int64], [np.uint8, np.int16, np.int64])):
            folder = base / f"row{index}"
            save_chunks(folder, coins, [0, 1, 4, 8], dtypes)
            solve_folder(
                folder, line_folder=base / f"line{index}", scheduler=local.scheduler_address
            )


@pytest.fixture(scope="module")
def cluster(warm_kernels: None) -> Iterator[Any]:
    yield from _cluster()


@pytest.fixture
def fresh_cluster(warm_kernels: None) -> Iterator[Any]:
    """Workers that ran nothing yet, so earlier tests' memory cannot push them to Dask's
    pause threshold (80% of the limit)."""
    yield from _cluster()


def _cluster() -> Iterator[Any]:
    """Two single-thread worker processes on 127.0.0.1, each limited to WORKER_MEMORY.

    Pausing is off: a worker past Dask's pause threshold (80% of the limit) runs nothing,
    which hung these tests on a cold cache; the limit itself (a worker over 95% is
    restarted) stays, and the large test checks that no worker restarted."""
    import dask

    with (
        dask.config.set({"distributed.worker.memory.pause": False}),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            memory_limit=WORKER_MEMORY,
            silence_logs=logging.ERROR,
        ) as local,
        distributed.Client(local) as client,
    ):
        yield local, client


def save_chunks(folder: Path, coins: Any, cuts: list[int], dtypes: list[Any] | None = None) -> None:
    folder.mkdir()
    for k, (lo, hi) in enumerate(itertools.pairwise(cuts)):
        dtype = dtypes[k % len(dtypes)] if dtypes else np.int64
        np.save(folder / f"part-{k:04d}.npy", coins[lo:hi].astype(dtype))


def read_line(folder: Path) -> bytes:
    return b"".join(np.load(file).tobytes() for file in sorted(folder.glob("*.npy")))


def test_small_rows_every_shape(tmp_path: Path, cluster: Any) -> None:
    """Files of one coin, other integer dtypes, one file: the same margin, totals, first
    moves and line as the in-memory reduction with the files' boundaries as cuts."""
    local, _ = cluster
    rng = np.random.default_rng(18)
    cases = [
        (rng.integers(0, 100, 40), [0, 1, 2, 17, 39, 40], [np.uint8, np.int16, np.int64]),
        (rng.integers(-5, 6, 25), [0, 25], None),
        (np.array([7]), [0, 1], None),
        (np.array([3, 9]), [0, 1, 2], None),
    ]
    for index, (coins, cuts, dtypes) in enumerate(cases):
        folder, out = tmp_path / f"row{index}", tmp_path / f"line{index}"
        save_chunks(folder, coins, cuts, dtypes)
        solved = solve_folder(folder, line_folder=out, scheduler=local.scheduler_address)
        margin, codes, first = solve_chunks(coins.astype(np.int64), cuts, threads=1)  # type: ignore[misc]
        total = int(coins.sum())
        assert (solved.n, solved.files, solved.margin, solved.first_moves) == (
            coins.size,
            len(cuts) - 1,
            margin,
            plain_moves(first),
        )
        assert (solved.first_total, solved.second_total) == (
            (total + margin) // 2,
            (total - margin) // 2,
        )
        assert read_line(out) == bytes(codes)
        assert [file.name for file in sorted(out.glob("*.npy"))] == [
            f.name for f in chunk_files(folder)
        ]


def test_a_row_larger_than_each_worker_memory(tmp_path: Path, fresh_cluster: Any) -> None:
    """45 million coins (360 MB) in 9 files on workers limited to 320 MiB each: no worker
    restarts, and the results are the in-memory reduction's."""
    local, client = fresh_cluster
    block = np.random.default_rng(7).integers(-(10**9), 10**9, 5_000_000)
    coins = np.concatenate([block, block[::-1]] * 4 + [block])
    assert coins.nbytes > WORKER_MEMORY
    limits = {info["memory_limit"] for info in client.scheduler_info()["workers"].values()}
    assert limits == {WORKER_MEMORY}
    cuts = [*list(range(0, coins.size, 5000000)), coins.size]
    save_chunks(tmp_path / "row", coins, cuts)
    pids = client.run(os.getpid)
    solved = solve_folder(
        tmp_path / "row", line_folder=tmp_path / "line", scheduler=local.scheduler_address
    )
    assert client.run(os.getpid) == pids  # no worker was restarted for memory
    margin, codes, first = solve_chunks(coins, cuts, threads=2)  # type: ignore[misc]
    assert (solved.n, solved.margin, solved.first_moves) == (coins.size, margin, plain_moves(first))
    assert read_line(tmp_path / "line") == bytes(codes)


def test_cli_and_bad_input(
    tmp_path: Path, cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    local, _ = cluster
    save_chunks(tmp_path / "row", np.array([5, 3, 7, 10]), [0, 2, 4])
    address = local.scheduler_address
    assert main(["solve-chunks", str(tmp_path / "row"), "--scheduler", address, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "n": 4,
        "files": 2,
        "margin": 5,
        "first_total": 15,
        "second_total": 10,
        "first_moves": ["R"],
        "line_folder": None,
    }
    (tmp_path / "bad").mkdir()
    np.save(tmp_path / "bad" / "a.npy", np.zeros((2, 2), np.int64))
    np.save(tmp_path / "floats.npy", np.zeros(3))
    for folder, message in (
        (tmp_path / "missing", "is not a folder of .npy chunks"),
        (tmp_path / "bad", "a.npy is not a nonempty 1-D integer array"),
        (tmp_path / "line-out-is-a-file", "holds no .npy files"),
    ):
        if folder.name == "line-out-is-a-file":
            folder.mkdir()
        assert main(["solve-chunks", str(folder), "--scheduler", address]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
    with pytest.raises(InputFileError, match="must be a new or empty folder"):
        solve_folder(tmp_path / "row", line_folder=tmp_path / "floats.npy", scheduler=address)
    with pytest.raises(RowTooLongError, match="more than 1 entries"):
        solve_folder(tmp_path / "row", scheduler=address, max_stack_entries=1)
