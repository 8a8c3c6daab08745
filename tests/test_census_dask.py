"""Census on Dask and after a crash: a separate ``dask scheduler`` and ``dask worker`` on
loopback give the embedded cluster's result; a SIGKILLed census resumes to the same totals."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import coinrow

SRC = str(Path(coinrow.__file__).resolve().parents[1])
ENV = {**os.environ, "PYTHONPATH": SRC}


def census(*args: str, cwd: Path | None = None, env: dict[str, str] = ENV) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "coinrow", "census", *args, "--json"],
        capture_output=True, text=True, env=env, cwd=cwd,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    for key in ("seconds", "rows_per_second", "shards", "out"):
        data.pop(key)
    return data


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def dask(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli." + args[0], *args[1:]],
        env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.fixture
def scheduler() -> Iterator[str]:
    """A ``dask scheduler`` and one ``dask worker`` process (no nanny) on 127.0.0.1."""
    port = free_port()
    processes = [dask("dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                      "--dashboard-address", "127.0.0.1:0")]  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.2)
        address = f"tcp://127.0.0.1:{port}"
        worker = ("dask_worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                  "--dashboard-address", "127.0.0.1:0")  # fmt: skip
        processes.append(dask(*worker))
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_an_existing_scheduler_gives_the_embedded_result(scheduler: str) -> None:
    args = ("--length", "16", "--values", "1,2", "-s", "greedy", "-s", "thibault",
            "--shard-rows", "4096")  # fmt: skip
    remote = census(*args, "--scheduler", scheduler, "--connect-timeout", "60")
    embedded = census(*args, "--workers", "2")
    assert remote == embedded == census(*args, "--workers", "0")
    assert remote["rows"] == 1 << 16


#: Greedy, 1 ms a move while the census must still be running to be killed; the resume
#: sets SLOW_SECONDS=0 (the same moves, no sleep: only the wait goes).
SLOW_RULE = """import os, time
from coinrow.strategies import greedy

DELAY = float(os.environ.get("SLOW_SECONDS", "0.001"))


def slow(position):
    if DELAY:
        time.sleep(DELAY)
    return greedy(position)
"""


def shard_lines(folder: Path) -> list[dict[str, Any]]:
    manifest = folder / "manifest.jsonl"  # the folder is made before its manifest is claimed
    lines = manifest.read_text().splitlines() if manifest.exists() else []
    out = []
    for line in lines:
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        out.append(data)
    return out


def test_sigkill_then_resume_gives_identical_totals(tmp_path: Path) -> None:
    (tmp_path / "slow_rule_for_census.py").write_text(SLOW_RULE)
    folder = tmp_path / "run"
    args = ["--length", "6", "--values", "1,2,3", "-s", "slow_rule_for_census:slow",
            "--shard-rows", "32", "--workers", "0"]  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "coinrow", "census", *args, "--out", str(folder)],
        cwd=tmp_path, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while sum("shard" in line for line in shard_lines(folder)) < 3:
            assert process.poll() is None, "the census ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait()
    assert process.returncode == -signal.SIGKILL
    before = [line["shard"] for line in shard_lines(folder) if "shard" in line]
    assert 3 <= len(before) < 23
    resumed = census(*args, "--resume", str(folder), cwd=tmp_path,
                     env={**ENV, "SLOW_SECONDS": "0"})  # fmt: skip
    lines = shard_lines(folder)
    runs = {line["shard"]: line["run"] for line in lines if "shard" in line}
    assert len(runs) == 23 and {runs[key] for key in before} == {1}
    assert {key for key, run in runs.items() if run == 2} == set(runs) - set(before)
    assert any(line.get("resumed") is True and line.get("run") == 2 for line in lines)
    # identical to an uninterrupted census (the compiled greedy is the same strategy)
    whole = census(*args[:4], "-s", "greedy", cwd=tmp_path)
    slow = resumed["strategies"].pop("slow_rule_for_census:slow")
    fast = whole["strategies"].pop("greedy")
    slow.pop("compiled"), fast.pop("compiled")
    assert slow == fast
    assert resumed["family"] == whole["family"]
    for key in ("rows", "outcomes", "margin_histogram", "first_moves"):
        assert resumed[key] == whole[key]
