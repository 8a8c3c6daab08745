"""Issue 24, items 2, 6 and 9: a census claims its output folder atomically and holds it
while it runs (six started at once: one wins, the others are refused in one line);
resume opens shard files only as regular files of the folder, read up to their recorded
size; a failed write (a full disk) leaves no temporary file. All through real processes."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run_cli

ARGS = ("--length", "12", "--alphabet", "1,2", "--shard-rows", "256", "--workers", "0")

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


def start(
    *args: str, cwd: Path | None = None, preexec_fn: Callable[[], None] | None = None
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "coinrow", "census", *args],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn,
    )  # fmt: skip


def lines_of(folder: Path) -> list[dict[str, object]]:
    manifest = folder / "manifest.jsonl"
    text = manifest.read_text() if manifest.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.endswith("}")]


#: A census as six reach one new folder together: the first file operation in ``folder``
#: (a look or a write, whatever it is) waits at a gate until all of them got there; then the
#: disk is slow while they all hit it (a shared network disk): each of the next four
#: operations in the folder takes 50 to 100 ms, later ones 0 to 10 ms. That widens any window
#: between looking at the folder and writing into it past the scheduling delays of a loaded
#: 2-core machine.
AT_ONCE = """import builtins, io, os, random, sys, time

folder, gate, seed, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
rng, waited = random.Random(seed), []
real_open, real_listdir = io.open, os.listdir


def at_the_gate():
    waited.append(True)
    real_open(os.path.join(gate, str(seed)), "w").close()
    deadline = time.monotonic() + 60
    while len(real_listdir(gate)) < 6 and time.monotonic() < deadline:
        time.sleep(0.001)


def slowed(call):
    def slow(path, *rest, **options):
        if isinstance(path, str | bytes | os.PathLike) and os.fsdecode(path).startswith(folder):
            if not waited:
                at_the_gate()
            waited.append(True)
            time.sleep(rng.uniform(0.05, 0.1) if len(waited) <= 5 else rng.uniform(0, 0.01))
        return call(path, *rest, **options)

    return slow


for name in ("stat", "lstat", "mkdir", "open", "link", "replace", "rename", "unlink"):
    setattr(os, name, slowed(getattr(os, name)))
builtins.open = io.open = slowed(io.open)
from coinrow.cli import main

sys.exit(main(args))
"""


def test_six_censuses_started_at_once_claim_one_folder_once(tmp_path: Path) -> None:
    folder, gate = tmp_path / "out", tmp_path / "gate"
    gate.mkdir()
    census = ["census", *ARGS, "--json", "--out", str(folder)]
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", AT_ONCE, str(folder), str(gate), str(seed), *census],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in range(6)
    ]
    try:
        results = [(process.wait(timeout=120), *process.communicate()) for process in processes]
    finally:
        for process in processes:
            process.kill()
            process.communicate()
    assert len(list(gate.iterdir())) == 6  # all six reached the folder
    winners = [out for code, out, _ in results if code == 0]
    losers = [err for code, _, err in results if code != 0]
    assert len(winners) == 1, results
    for code, _, err in results:
        assert code in (0, 2), err
    for err in losers:
        assert len(err.strip().splitlines()) == 1 and "census" in err, err
    lines = lines_of(folder)
    assert len([line for line in lines if "format" in line]) == 1  # one header
    shards = [line["shard"] for line in lines if "shard" in line]
    assert len(shards) == len(set(shards)) == json.loads(winners[0])["shards"]["computed"]
    assert not list(folder.glob(".*.tmp"))
    resumed = run_cli("census", *ARGS, "--json", "--resume", str(folder))
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["shards"]["computed"] == 0  # nothing was lost
    assert json.loads(resumed.stdout)["rows"] == json.loads(winners[0])["rows"]


def test_a_folder_being_written_cannot_be_resumed_at_the_same_time(tmp_path: Path) -> None:
    (tmp_path / "slow_for_claim.py").write_text(SLOW)
    folder = tmp_path / "out"
    args = ("--length", "10", "--alphabet", "1,2", "--shard-rows", "64", "--workers", "0",
            "-s", "slow_for_claim:slow")  # fmt: skip
    running = start(*args, "--out", str(folder), cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while not any("shard" in line for line in lines_of(folder)):
            assert running.poll() is None and time.monotonic() < deadline, running.stderr
            time.sleep(0.05)
        second = run_cli("census", *args, "--resume", str(folder), cwd=tmp_path)
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.strip().splitlines() == [
            f"coinrow: error: {folder} is being written by another census right now; resume "
            "it once that one ends"
        ]
    finally:
        running.kill()
        running.communicate()
    # the lock goes with its process, even one killed: the folder resumes
    resumed = run_cli("census", *args, "--json", "--resume", str(folder), cwd=tmp_path, env=FAST)
    assert resumed.returncode == 0, resumed.stderr


@pytest.fixture(scope="module")
def recorded_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A census folder recorded by the command line once for the tests below."""
    folder = tmp_path_factory.mktemp("recorded") / "out"
    done = run_cli("census", *ARGS, "--out", str(folder))
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture
def recorded(recorded_once: Path, tmp_path: Path) -> Path:
    """A copy of that folder for one test to damage (the manifest names its files relative
    to the folder, so a copy is the same census)."""
    return Path(shutil.copytree(recorded_once, tmp_path / "out"))


def resume_reasons(folder: Path) -> dict[str, str]:
    done = run_cli("census", *ARGS, "--json", "--resume", str(folder), timeout=60)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return {item["shard"]: item["reason"] for item in data["shards"]["recomputed"]}


def test_a_shard_file_linked_to_dev_zero_is_not_read(recorded: Path) -> None:
    shard = recorded / "shard-w12-0.parquet"
    shard.unlink()
    shard.symlink_to("/dev/zero")
    assert resume_reasons(recorded) == {
        "w12-0": "shard-w12-0.parquet is a symbolic link, not a file"
    }


def test_a_shard_file_linked_out_of_the_folder_is_not_read(recorded: Path, tmp_path: Path) -> None:
    shard = recorded / "shard-w12-1.parquet"
    outside = tmp_path / "outside.parquet"
    shard.rename(outside)
    shard.symlink_to(outside)  # the very file, checksum and all, but outside the folder
    assert resume_reasons(recorded) == {
        "w12-1": "shard-w12-1.parquet is a symbolic link, not a file"
    }


def test_a_fifo_does_not_hang_a_resume(recorded: Path) -> None:
    shard = recorded / "shard-w12-2.parquet"
    shard.unlink()
    os.mkfifo(shard)
    assert resume_reasons(recorded) == {"w12-2": "shard-w12-2.parquet is not a regular file"}


def test_a_shard_file_larger_than_recorded_is_not_read(recorded: Path) -> None:
    shard = recorded / "shard-w12-3.parquet"
    with open(shard, "ab") as grown:
        grown.truncate(1 << 30)  # a sparse GiB: costs no disk, would cost memory if read
    reasons = resume_reasons(recorded)
    assert reasons == {"w12-3": "its file shard-w12-3.parquet is larger than its recorded size"}


def limit_file_size(size: int) -> None:
    """In the child: files larger than ``size`` bytes cannot be written (EFBIG, as a full
    disk gives ENOSPC; Python ignores SIGXFSZ so the write fails instead)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_failed_write_leaves_no_temporary_files(tmp_path: Path) -> None:
    """The shard file cannot be written; the rows file goes through the same writer."""
    folder = tmp_path / "out"
    census = start(*ARGS, "--out", str(folder), preexec_fn=lambda: limit_file_size(2000))
    code = census.wait(timeout=120)
    _, err = census.communicate()
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "File too large" in err, err
    assert sorted(path.name for path in folder.iterdir()) == ["manifest.jsonl"]
