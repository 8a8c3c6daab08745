"""Issue 24, item 4 (census and solve-chunks): the worker processes of a local Dask cluster
are bounded by the machine (cores, available memory); one more is refused in one line
before any process starts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

from coinrow.census import Census, Words
from coinrow.census.run import WORKER_MEMORY, max_workers
from coinrow.errors import InvalidOptionError


def test_the_bound_is_the_machines() -> None:
    import os

    cores = len(os.sched_getaffinity(0))
    available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert max_workers() == max(1, min(cores, available // WORKER_MEMORY))


@pytest.mark.parametrize("workers", [max_workers() + 1, 99_999])
def test_census_refuses_more_workers_than_the_machine_in_one_line(workers: int) -> None:
    done = run_cli("census", "--length", "10", "--alphabet", "1,2", "--workers", str(workers))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"coinrow: error: --workers: at most {max_workers()} worker processes on this machine "
        f"(one per core, {WORKER_MEMORY // 2**20} MiB of available memory each), got {workers}"
    ]


def test_solve_chunks_refuses_them_too(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.arange(10))
    done = run_cli("solve-chunks", str(tmp_path), "--workers", str(max_workers() + 1))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "--workers: at most" in done.stderr


def test_the_library_refuses_them_before_a_run() -> None:
    census = Census(Words.of("1,2", 6))
    with pytest.raises(InvalidOptionError, match="worker processes on this machine"):
        census.run(workers=max_workers() + 1)
    assert census.run(workers=max_workers()).rows == 64
