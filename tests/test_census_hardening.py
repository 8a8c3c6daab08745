"""Issue 13, the census side, through the real command line: planning bounded before it
starts, resumed shards that must prove what they are, bad arguments and damaged manifests
as one line and exit 2, an unwritable output folder or Numba cache, and refute's bounded
counterexamples.

Where a folder must not be writable and the tests run as root (who ignores permission
bits), the command runs in a private mount namespace with that folder bind-mounted
read-only (``unshare -m``); as another user the folder is made read-only with chmod."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import coinrow
from coinrow.census import Census, Words, WordsUpTo
from coinrow.errors import CensusStoreError

SRC = Path(coinrow.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(SRC)}


def coinrow_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
                prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "coinrow", *args],
        capture_output=True, text=True, cwd=cwd, env=env or ENV, timeout=300,
    )  # fmt: skip


def one_line_exit_2(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert result.stderr.count("\n") == 1, result.stderr[-2000:]
    assert message in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert result.stdout == ""


# --- planning is bounded: refused by arithmetic before any shard is built ----------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-length", "100"], "rows of length 1 to 100 over {1, 2} has about 2.5 x 10^30 "
         "rows (about 1.3 x 10^15 years of one core"),
        (["--max-length", "30", "--shard-rows", "1"], "2,147,483,646 shards of 1 row, more "
         "than the 4,194,304 a census plans"),
        (["--length", "40", "--values", "1,2,3", "-s", "greedy"], "of one core"),
    ],
)  # fmt: skip
def test_planning_too_many_shards_is_refused_at_once(args: list[str], message: str) -> None:
    one_line_exit_2(coinrow_cli("census", *args), message)


def test_a_large_plan_is_lazy() -> None:
    """Almost 2^22 shards: counted, and the first built, without building the others."""
    census = Census(WordsUpTo.of("1,2", 21), shard_rows=1)
    assert census.shard_count == 2**22 - 2
    first = next(census.missing())
    assert (first.key, first.start, first.count) == ("w1-0", 0, 1)


# --- bad arguments: one line, exit 2 ------------------------------------------------------

HUGE = "9e99999999999999999999"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["census", "--length", "1000000"],
         "--length: rows of length 1,000,000: the census takes rows of at most 512 coins"),
        (["census", "--length", "5", "-s", "greedy", "--examples", "1000000000000"],
         "--examples: the number of examples kept must be 0 to 10,000"),
        (["census", "--random", "10", "--length", "5", "--seed", "-1"],
         "--seed: the seed must be at least 0, got -1"),
        (["census", "--length", "5", "--connect-timeout", "nan"], "--connect-timeout: the connect"),
        (["census", "--length", "5", "--connect-timeout", "inf"], "--connect-timeout: the connect"),
        (["census", "--length", "5", "--plot", "/nonexistent/x.png"],
         "--plot /nonexistent/x.png: the folder /nonexistent does not exist"),
        (["census", "--length", "5", "--values", "1,1e3"],
         "the census needs integer coin values, got 1e3"),
        (["census", "--length", "5", "--values", f"1,{HUGE}"], "exponent beyond ±100,000"),
        (["census", "--random", "5", "--length", "5", "--values", f"1,{HUGE}"],
         "exponent beyond ±100,000"),
        (["refute", "greedy", "--values", f"1,{HUGE}"], "exponent beyond ±100,000"),
        (["refute", "greedy", "1", HUGE], "exponent beyond ±100,000"),
        (["refute", "greedy", "--examples", "1000000"],
         "--examples: a search stops after 1 to 1,000"),
    ],
)  # fmt: skip
def test_bad_arguments_are_one_line(args: list[str], message: str) -> None:
    one_line_exit_2(coinrow_cli(*args), message)


def read_only(folder: Path, command_prefix: list[str] | None = None) -> list[str]:
    """A command prefix under which ``folder`` cannot be written (see the module docstring).
    As another user than root the folder is chmodded here (and :func:`writable` undoes it)."""
    if os.geteuid() != 0:
        for path in [folder, *folder.rglob("*")]:
            if path.is_dir():
                path.chmod(0o555)
        return command_prefix or []
    assert shutil.which("unshare"), "root needs unshare to make a folder read-only"
    script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, "sh", str(folder)]


@pytest.fixture
def writable(tmp_path: Path) -> Iterator[None]:
    yield
    for path in [tmp_path, *tmp_path.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)


@pytest.mark.usefixtures("writable")
def test_an_output_folder_that_cannot_be_written(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    result = coinrow_cli("census", "--length", "6", "--out", str(locked / "run"),
                         prefix=read_only(locked))  # fmt: skip
    one_line_exit_2(result, f"cannot create {locked / 'run'}")
    result = coinrow_cli("census", "--length", "6", "--out", str(locked),
                         prefix=read_only(locked))  # fmt: skip
    one_line_exit_2(result, f"cannot write {locked / 'manifest.jsonl'}")
    (tmp_path / "a_file").write_text("x")
    result = coinrow_cli("census", "--length", "6", "--out", str(tmp_path / "a_file" / "run"))
    one_line_exit_2(result, "cannot create")


def test_permission_denied_is_a_store_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PermissionError path itself, whoever runs the tests."""
    import builtins

    real_open = builtins.open

    def denied(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "manifest" in str(file) and ("a" in mode or "x" in mode):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denied)
    with pytest.raises(
        CensusStoreError, match=r"cannot write .*manifest\.jsonl: Permission denied"
    ):
        Census(Words.of("1,2", 4), out=tmp_path / "run")


@pytest.mark.usefixtures("writable")
def test_a_read_only_install_still_caches_its_kernels(tmp_path: Path) -> None:
    """A copy of coinrow that cannot be written and a HOME that cannot exist: Numba's two
    default cache places both fail ("cannot cache function", 52 lines), so the kernels
    cache under the temporary folder instead and the census runs."""
    site = tmp_path / "site"
    shutil.copytree(SRC / "coinrow", site / "coinrow",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    (tmp_path / "a_file").write_text("x")
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "TMPDIR": str(tmp_path / "tmp"),
           "HOME": str(tmp_path / "a_file" / "home")}  # fmt: skip
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("XDG_CACHE_HOME", None)
    result = coinrow_cli("census", "--length", "4", "--workers", "0", "--json", env=env,
                         cwd=tmp_path, prefix=read_only(site))  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr == ""
    assert json.loads(result.stdout)["rows"] == 16
    assert list((tmp_path / "tmp").rglob("*.nbi")), "the kernels were not cached"


def test_the_cache_folder_is_chosen_in_one_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coinrow import numba_cache

    config = sys.modules.get("numba.core.config")
    if config is not None:  # keep this process's own Numba setting after the test
        monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    real = numba_cache._writable

    def writable_outside_the_package(folder: Path) -> bool:
        return "__pycache__" not in str(folder) and real(folder)

    monkeypatch.setattr(numba_cache, "_writable", writable_outside_the_package)
    chosen = numba_cache.use_writable_cache()
    assert chosen == str(tmp_path / "cache" / "coinrow" / "numba") == os.environ["NUMBA_CACHE_DIR"]
    assert numba_cache.use_writable_cache() is None  # the setting now made is kept


# --- resume: a shard file proves what it is -----------------------------------------------

ARGS = ("--length", "14", "--values", "1,2", "-s", "greedy", "--shard-rows", "1024")


def census_json(*args: str) -> tuple[dict[str, Any], str]:
    result = coinrow_cli("census", *args, "--json")
    assert result.returncode == 0, result.stderr[-3000:]
    data: dict[str, Any] = json.loads(result.stdout)
    return data, result.stderr


def totals(data: dict[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in ("family", "rows", "outcomes", "margin_histogram",
                                       "first_moves", "strategies")}  # fmt: skip


def edit_manifest(folder: Path, edit: Any) -> None:
    path = folder / "manifest.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    by_key = {line["shard"]: line for line in lines if "shard" in line}
    edit(by_key)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_resume_counts_only_shards_that_prove_what_they_are(tmp_path: Path) -> None:
    folder, other = tmp_path / "run", tmp_path / "other"
    whole, _ = census_json(*ARGS, "--workers", "0", "--out", str(folder))
    greedy = ["greedy"]
    Census(Words.of("1,3", 14), greedy, shard_rows=1024, out=other).run(workers=0)
    file = {key: folder / f"shard-w14-{key}.parquet" for key in range(16)}

    # shard 4's file copied over shard 5's, checksum updated
    shutil.copy(file[4], file[5])
    # shards 6 and 7 swap files, checksums updated
    swap = tmp_path / "swap"
    file[6].rename(swap), file[7].rename(file[6]), swap.rename(file[7])
    # shard 8's file from a census of another family (same key), checksum updated
    shutil.copy(other / "shard-w14-8.parquet", file[8])
    # shard 12's file damaged, its checksum left as it was
    file[12].write_bytes(file[12].read_bytes()[:-40])

    def edit(lines: dict[str, dict[str, Any]]) -> None:
        # the case: shard 9's line points at shard 10's file
        lines["w14-9"].update(
            file=file[10].name, sha256=sha256(file[10]), size=file[10].stat().st_size
        )
        for key in (5, 6, 7, 8):
            lines[f"w14-{key}"].update(sha256=sha256(file[key]), size=file[key].stat().st_size)
        lines["w14-11"]["rows"] = 1000  # a row count that is not the shard's
        lines["w14-13"]["shard"] = [1, 2]  # an unreadable line: shard 13 is missing
        lines["w14-14"]["run"] = "x"

    edit_manifest(folder, edit)
    with open(folder / "manifest.jsonl", "ab") as manifest:
        manifest.write(b'{"shard": "w14-3", "run": 1, "rows": 1024, "file": "\xff\xfe"}\n')
        manifest.write(b'{"shard": "w99-1", "run": 1, "rows": 1, "file": "x.parquet", '
                       b'"sha256": "' + b"0" * 64 + b'"}\n')  # fmt: skip

    resumed, stderr = census_json(*ARGS, "--workers", "0", "--resume", str(folder))
    assert totals(resumed) == totals(whole)
    recomputed = {item["shard"]: item["reason"] for item in resumed["shards"]["recomputed"]}
    assert set(recomputed) == {"w14-5", "w14-6", "w14-7", "w14-8", "w14-9", "w14-11", "w14-12"}
    assert "holds shard w14-4" in recomputed["w14-5"]
    assert "holds shard w14-7" in recomputed["w14-6"]
    assert "belongs to another census" in recomputed["w14-8"]
    assert "holds shard w14-10" in recomputed["w14-9"]
    assert "says 1,000 rows, not 1,024" in recomputed["w14-11"]
    assert "does not match its checksum" in recomputed["w14-12"]
    ignored = resumed["shards"]["ignored_lines"]
    assert [line["reason"] for line in ignored] == [
        "its shard key is not a short name",
        "its run is not a positive integer",
        "it is not UTF-8 JSON",
        "shard w99-1 is not a shard of this census",
    ]
    shards = resumed["shards"]
    # 7 recomputed + shards 13 and 14 (their lines unreadable); w14-3's good line stands
    assert (shards["total"], shards["computed"], shards["reused"]) == (16, 9, 7)
    for key, reason in recomputed.items():
        assert f"coinrow: note: shard {key} is computed again: {reason}" in stderr
    assert "manifest line" in stderr and "is ignored: it is not UTF-8 JSON" in stderr
    # the folder is whole again: a second resume computes nothing and reports nothing
    again, stderr = census_json(*ARGS, "--workers", "0", "--resume", str(folder))
    assert totals(again) == totals(whole) and again["shards"]["computed"] == 0
    assert again["shards"]["recomputed"] == [] and stderr.count("is computed again") == 0


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (b'{"format": "coinrow-census", "job": [1]}', "its header records no job"),
        (b'{"format": "coinrow-census", "job": {"coinrow": "\xff"}}', "not a coinrow census"),
        (b"\xff\xfe\n", "is not a coinrow census manifest"),
        (b'{"format": "coinrow-census", "job": {"family": [1], "format_version": 1}}',
         "was written by coinrow None"),
    ],
)  # fmt: skip
def test_a_damaged_manifest_header_is_one_line(tmp_path: Path, header: bytes,
                                               message: str) -> None:  # fmt: skip
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "manifest.jsonl").write_bytes(header + b"\n")
    one_line_exit_2(coinrow_cli("census", "--length", "6", "--resume", str(folder)), message)


# --- refute: the time cap holds whatever the limit ---------------------------------------


def test_refute_limit_0_counts_every_counterexample_and_keeps_the_first() -> None:
    alphabet = ",".join(map(str, range(1, 21)))
    result = coinrow_cli("refute", "greedy", "--values", alphabet, "--max-length", "4",
                         "--examples", "0", "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    census = Census(WordsUpTo.of(alphabet, 4), ["greedy"], examples=1000).run(workers=0)
    greedy = census.strategies[0]
    assert data["searched"] == census.rows == 168_420
    assert data["found"] == greedy.counterexamples > 1000
    assert len(data["counterexamples"]) == 1000
    first = [list(example.counterexample.coins) for example in greedy.examples]
    assert [example["coins"] for example in data["counterexamples"]] == first


def test_refute_of_huge_lengths_is_bounded() -> None:
    """Over one or two values the row count alone allowed rows of a million coins (a search
    that never ended, a count of 301,030 digits that could not be printed)."""
    result = coinrow_cli("refute", "greedy", "--values", "1,2", "--max-length", "1000000")
    assert result.returncode == 0, result.stderr
    assert "--max-length 1,000,000: searching lengths up to" in result.stderr
    result = coinrow_cli("refute", "greedy", "--values", "1", "--max-length", "1000000",
                         "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["max_length"] == 512
    assert "rows of at most 512 coins are searched" in result.stderr
