"""Mutation testing of the exact core with mutmut (`make mutate`; slow, outside `make test`).

    .venv/bin/python scripts/mutate.py [MODULE ...]      # default: every module below

Each module runs in its own work folder under build/mutate/ (a copy of src/, tests/ and
docs/ with a pyproject.toml holding that module's [tool.mutmut] section), against the focused
test subset listed here, with one mutmut child process (the machine is shared). It prints
killed / survived / timeout / other counts per module and writes them to
build/mutate/summary.json. Survivors: `cd build/mutate/MODULE && mutmut results`, then
`mutmut show NAME`.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutate"

#: module -> (source file, the focused tests that should kill its mutants)
TARGETS: dict[str, tuple[str, list[str]]] = {
    "reduction": (
        "src/coinrow/engines/reduction.py",
        ["tests/test_core_exhaustive.py", "src/coinrow/engines/reduction.py"],
    ),
    "table": (
        "src/coinrow/engines/table.py",
        [
            "tests/test_core_exhaustive.py",
            "tests/test_subgame_contract.py",
            "src/coinrow/engines/table.py",
            "docs/engines.md",
        ],
    ),
    "game": (
        "src/coinrow/game.py",
        ["tests/test_core_model.py", "tests/test_api.py", "src/coinrow/game.py", "docs/game.md"],
    ),
    "numbers": (
        "src/coinrow/numbers.py",
        [
            "tests/test_core_numbers.py",
            "tests/test_seed_examples.py",
            "src/coinrow/numbers.py",
            "docs/numbers.md",
        ],
    ),
    "families": (
        "src/coinrow/census/families.py",
        ["tests/test_core_families.py", "src/coinrow/census/families.py"],
    ),
}


def prepare(name: str) -> Path:
    """A fresh work folder for one module: the code, the tests and a mutmut config."""
    source, tests = TARGETS[name]
    folder = WORK / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for part in ("src", "tests", "docs"):
        shutil.copytree(ROOT / part, folder / part, ignore=shutil.ignore_patterns("__pycache__"))
    config = (ROOT / "pyproject.toml").read_text()
    # One process, no doctest collection of the whole tree: only the listed tests run.
    addopts = 'addopts = "--doctest-modules --doctest-glob=*.md -q -p no:cacheprovider"'
    config = re.sub(r"(?m)^addopts = .*$", addopts, config)
    config += (
        "\n[tool.mutmut]\n"
        f'source_paths = ["src"]\n'
        f'only_mutate = ["{source}"]\n'
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        'pytest_add_cli_args = ["-n", "0", "-p", "no:randomly"]\n'
        'also_copy = ["tests", "docs"]\n'
    )
    (folder / "pyproject.toml").write_text(config)
    return folder


def survivors(folder: Path) -> list[str]:
    """The mutants of the last run that no test killed (survived or not covered)."""
    listed = subprocess.run([sys.executable, "-m", "mutmut", "results"], cwd=folder, check=True,
                            capture_output=True, text=True).stdout  # fmt: skip
    return [
        line.split(":")[0].strip()
        for line in listed.splitlines()
        if line.rstrip().endswith(("survived", "no tests"))
    ]


def refresh_tests(folder: Path, source: str) -> None:
    """Copy the current tests, docs and every source file but the mutated one over the work
    folder's (and mutmut's copy of them); the mutated module must not have changed."""
    for path in (ROOT / "src").rglob("*.py"):
        relative = path.relative_to(ROOT)
        if str(relative) != source:
            for target in (folder / relative, folder / "mutants" / relative):
                shutil.copyfile(path, target)
    for part in ("tests", "docs"):
        for target in (folder / part, folder / "mutants" / part):
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(ROOT / part, target, ignore=shutil.ignore_patterns("__pycache__"))


def counts(folder: Path) -> dict[str, int]:
    """killed / survived / ... from mutmut's own statistics export."""
    subprocess.run([sys.executable, "-m", "mutmut", "export-cicd-stats"], cwd=folder, check=True,
                   capture_output=True)  # fmt: skip
    stats = json.loads((folder / "mutants" / "mutmut-cicd-stats.json").read_text())
    return {key: int(value) for key, value in stats.items() if isinstance(value, int | float)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", choices=[*TARGETS, []], default=list(TARGETS))
    parser.add_argument(
        "--survivors",
        action="store_true",
        help="run only the last run's survivors again, against the current tests",
    )
    args = parser.parse_args()
    summary_path = WORK / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    for name in args.modules:
        if args.survivors:
            folder = WORK / name
            names = survivors(folder)
            refresh_tests(folder, TARGETS[name][0])
        else:
            folder, names = prepare(name), []
        subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", "1", *names],
                       cwd=folder, check=False)  # fmt: skip
        summary[name] = counts(folder)
        summary_path.write_text(json.dumps(summary, indent=2) + "\n")
        print(name, summary[name], flush=True)


if __name__ == "__main__":
    main()
