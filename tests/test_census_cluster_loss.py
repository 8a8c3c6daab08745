"""Issue 24, item 9: the Dask scheduler killed mid-census ends the census with one line
saying the cluster went away and that resuming continues (no traceback), and the resume
does continue."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from helpers import run_cli

#: Greedy, 2 ms a move while the census must still be running; the resume that ends the
#: test sets SLOW_SECONDS=0 (the same moves: only the wait goes, about 30 s of the suite;
#: no sleep at all then: each time.sleep(0) still gives up the core, 20,000 times a resume).
SLOW = """import os, time
from coinrow.strategies import greedy

DELAY = float(os.environ.get("SLOW_SECONDS", "0.002"))


def slow(position):
    if DELAY:
        time.sleep(DELAY)
    return greedy(position)
"""
FAST = {**os.environ, "SLOW_SECONDS": "0"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def dask(*args: str, cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli." + args[0], *args[1:]],
        cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def shards_recorded(folder: Path) -> int:
    manifest = folder / "manifest.jsonl"
    text = manifest.read_text() if manifest.exists() else ""
    return text.count('"shard"')


def test_a_killed_scheduler_is_one_line_and_the_census_resumes(tmp_path: Path) -> None:
    (tmp_path / "slow_for_loss.py").write_text(SLOW)
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = dask("dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                     "--dashboard-address", "127.0.0.1:0", cwd=tmp_path)  # fmt: skip
    worker = dask("dask_worker", address, "--nthreads", "1", "--no-nanny", "--host",
                  "127.0.0.1", "--dashboard-address", "127.0.0.1:0", cwd=tmp_path)  # fmt: skip
    folder = tmp_path / "out"
    args = ("--length", "10", "--alphabet", "1,2", "--shard-rows", "64",
            "-s", "slow_for_loss:slow")  # fmt: skip
    census = subprocess.Popen(
        [sys.executable, "-m", "coinrow", "census", *args, "--out", str(folder),
         "--scheduler", address, "--connect-timeout", "5"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while shards_recorded(folder) < 1:
            assert census.poll() is None, census.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.kill(scheduler.pid, signal.SIGKILL)
        _, err = census.communicate(timeout=120)
    finally:
        for process in (census, worker, scheduler):
            process.kill()
            process.wait()
    assert census.returncode == 2, err
    assert "Traceback" not in err, err
    (line,) = err.strip().splitlines()
    recorded = shards_recorded(folder)
    assert line == (
        f"coinrow: error: the Dask cluster at {address} went away mid-census; {recorded:,} "
        f"shards are recorded in {folder}, and resuming the census there continues from them"
    )
    resumed = run_cli("census", *args, "--json", "--workers", "0", "--resume", str(folder),
                      cwd=tmp_path, env=FAST)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["rows"] == 1024 and data["shards"]["reused"] >= 1
