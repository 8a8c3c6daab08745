"""Before and after in one run: ``coinrow bench``, the census speeds and the compile waits of an
older git ref beside the working tree, on the same machine, interleaved round by round.

    python scripts/bench_compare.py b45818c              # main's commit vs this tree
    python scripts/bench_compare.py b45818c --quick      # seconds: checks the script only
    python scripts/bench_compare.py HEAD~3 --json out.json --rounds 3

The ref's ``src`` is exported with ``git archive`` into a temporary folder (the repository's
worktrees and branches are not touched) and imported from there (``PYTHONPATH``), with this
tree's virtual environment; each tree has its own Numba cache folder. Every figure is taken
in a fresh process, the two trees alternating, ``--rounds`` times; the best (lowest time,
highest rate) of each is kept, and the load average is recorded beside every round, since a
shared machine slows whichever run happens to meet the load. Speed is read from the figures,
never asserted. Needs the ``fast`` and ``census`` extras.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Census figures of one tree, measured in a fresh process with the kernels loaded first
#: (rows per second of the process's CPU time, best of ``repeat``, through the public API).
CENSUS_CODE = """
import json, sys, time
from coinrow.census import Census, Words
length, repeat = int(sys.argv[1]), int(sys.argv[2])
out = {}
Census(Words.of("1,2", 4), ["greedy"]).run(workers=0)  # load the kernels first
for name, strategies, n in [("plain", [], length), ("greedy", ["greedy"], length - 2),
                            ("lookahead:2", ["lookahead:2"], length - 2),
                            ("thibault3", ["thibault3"], length - 2)]:
    family = Words.of("1,2", n)
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        result = Census(family, strategies).run(workers=0)
        best = min(best, time.process_time() - started)
    assert result.rows == family.rows
    out["census_" + name + "_rows_per_cpu_second"] = family.rows / best
print(json.dumps(out))
"""

#: A first large solve in a fresh process: import, compile or load, solve (seconds).
SOLVE_CODE = """
import numpy as np, coinrow
coins = np.random.default_rng(1).integers(-10**9, 10**9, 10**6)
coinrow.solve(coins).margin
"""

#: The census kernels of every family kind, compiled or loaded in a fresh process.
CENSUS_WARM_CODE = "from coinrow.census import warm_up\nwarm_up()\n"

#: Imports that leave Python's bytecode cache warm (the modules a tree lacks are skipped).
BYTECODE_CODE = """
import importlib
for name in ("numpy", "numba", "coinrow", "coinrow.census.run", "coinrow.census.kernels",
             "coinrow.engines.kernels", "coinrow.solution"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass
"""


def load() -> float:
    """The one-minute load average (0 where the system does not report it)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def export(ref: str, folder: Path) -> Path:
    """``src`` of ``ref`` into ``folder`` by ``git archive`` (the repository is not changed)."""
    archive = folder / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", ref, "src"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "tree", filter="data")
    return folder / "tree" / "src"


def run(
    src: Path, cache: Path, args: list[str], extra: dict[str, str] | None = None
) -> tuple[str, float, float]:
    """Run ``python args`` with coinrow imported from ``src`` (and ``extra`` environment
    variables); its output, wall and CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(src), "NUMBA_CACHE_DIR": str(cache), **(extra or {})}
    started = time.perf_counter()
    before = os.times()
    done = subprocess.run(
        [sys.executable, *args], env=env, check=True, capture_output=True, text=True
    )
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return done.stdout, time.perf_counter() - started, cpu


def flatten(data: Any, prefix: str = "") -> dict[str, float]:
    """Numeric leaves of ``coinrow bench --json`` as dotted keys (engine rows by n and name)."""
    out: dict[str, float] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("machine", "interrupted", "reduction_vs_sum"):
                continue
            out.update(flatten(value, f"{prefix}{key}."))
    elif isinstance(data, list):
        for item in data:
            label = "|".join(str(item[key]) for key in ("n", "engine", "path") if key in item)
            out.update(flatten(item, f"{prefix}{label}."))
    elif isinstance(data, int | float) and not isinstance(data, bool):
        out[prefix.rstrip(".")] = float(data)
    return out


def higher_is_better(key: str) -> bool:
    """Rates, speed-ups and the "baseline over coinrow" ratios (textbook, table sweep)."""
    ours_below = ("bench.reduction_vs_textbook.", "bench.table.")
    return key.endswith(("per_second", "per_cpu_second", "scaling")) or (
        key.startswith(ours_below) and key.endswith(("ratio", "ratio_fresh"))
    )


def measure(src: Path, cache: Path, options: argparse.Namespace) -> dict[str, float]:
    """One round of every figure for one tree."""
    figures: dict[str, float] = {"load_before": load()}
    out, _, _ = run(src, cache, ["-m", "coinrow", "bench", "--json", *options.bench_args])
    for key, value in flatten(json.loads(out)).items():
        if key.endswith(("seconds", "ratio", "scaling")) and not key.startswith("large_table.top"):
            figures["bench." + key] = value
    if options.census_length:
        code = [str(options.census_length), str(options.repeat)]
        out, _, _ = run(src, cache, ["-c", CENSUS_CODE, *code])
        figures.update(json.loads(out))
    figures["load_after"] = load()
    return figures


def compile_waits(src: Path, folder: Path, name: str) -> dict[str, float]:
    """Cold (empty Numba cache) and warm seconds of a first census of every family kind and
    of a first solve of 10^6 coins, each in a fresh process (wall and CPU).

    Python's bytecode cache is kept warm (its own folder per tree, filled first), as in an
    installed package: an environment with ``PYTHONDONTWRITEBYTECODE`` set (this project's
    shared machine has it) otherwise compiles NumPy's and Numba's sources in every process,
    about 0.9 s of CPU that hides what the kernels cost."""
    figures: dict[str, float] = {}
    bytecode = {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(folder / f"pyc-{name}")}
    run(src, folder / f"prime-{name}", ["-c", BYTECODE_CODE], bytecode)
    for what, code in (("census_warm_up", CENSUS_WARM_CODE), ("first_solve_1e6", SOLVE_CODE)):
        cache = folder / f"cold-{name}-{what}"
        for state in ("cold", "warm"):
            figures[f"load_{what}_{state}"] = load()
            _, wall, cpu = run(src, cache, ["-c", code], bytecode)
            figures[f"{what}_{state}_seconds"] = wall
            figures[f"{what}_{state}_cpu_seconds"] = cpu
    return figures


def best(rounds: list[dict[str, float]]) -> dict[str, float]:
    keys = {key for figures in rounds for key in figures}
    out = {}
    for key in sorted(keys):
        values = [figures[key] for figures in rounds if key in figures]
        out[key] = max(values) if higher_is_better(key) else min(values)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", help="the older git ref (a commit, branch or tag)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per tree (best counts)")
    parser.add_argument("--repeat", type=int, default=3, help="coinrow bench --repeat")
    parser.add_argument("--sum-size", type=int, default=10**8, help="coinrow bench --sum-size")
    parser.add_argument("--census-length", type=int, default=24, help="0: no census figures")
    parser.add_argument("--no-compile", action="store_true", help="skip the cold/warm waits")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the script")
    parser.add_argument(
        "--bench-args", default="", help='more coinrow bench options, e.g. "--textbook-size 1000"'
    )
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    options = parser.parse_args()
    if options.quick:
        options.rounds, options.repeat, options.census_length = 1, 1, 12
        options.bench_args = ["--quick"]
    else:
        options.bench_args = [
            "--repeat",
            str(options.repeat),
            "--sum-size",
            str(options.sum_size),
            *options.bench_args.split(),
        ]
    with tempfile.TemporaryDirectory(prefix="coinrow-compare-") as temporary:
        folder = Path(temporary)
        trees = {options.ref: export(options.ref, folder), "working tree": ROOT / "src"}
        caches = {name: folder / f"cache-{index}" for index, name in enumerate(trees)}
        rounds: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        waits: dict[str, dict[str, float]] = {}
        if not options.no_compile and not options.quick:
            for index, (name, src) in enumerate(trees.items()):
                print(f"compile waits: {name}", file=sys.stderr)
                waits[name] = compile_waits(src, folder, str(index))
        for round_index in range(options.rounds):
            for name, src in trees.items():
                print(f"round {round_index + 1}: {name} (load {load():.1f})", file=sys.stderr)
                rounds[name].append(measure(src, caches[name], options))
        results = {name: {**best(rounds[name]), **waits.get(name, {})} for name in trees}
    old, new = results[options.ref], results["working tree"]
    print(f"{'figure':58} {options.ref[:12]:>12} {'working':>12} {'new/old':>8}")
    for key in sorted(set(old) | set(new)):
        if key in old and key in new:
            ratio = new[key] / old[key] if old[key] else float("nan")
            print(f"{key:58} {old[key]:12.6g} {new[key]:12.6g} {ratio:8.3f}")
    print("(times: lower is better; rows/s, scaling, textbook ratios: higher is better; "
          "best of the rounds; load_*: one-minute load averages)")  # fmt: skip
    if options.json:
        data = {"ref": options.ref, "rounds": rounds, "best": results}
        options.json.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
