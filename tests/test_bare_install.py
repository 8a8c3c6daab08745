"""coinrow installed with no extras, in a fresh virtual environment: every answer is the same
as with the extras, and a feature that needs a missing extra fails with one line naming it.

The environment is built once per test session (shared by the xdist workers through a lock):
``python -m venv --without-pip``, then this interpreter's pip installs the wheel that
``make dist`` built from a clean copy of the tree (tests/helpers.py: ``built_release``), no
extras; Typer and Rich come from the package registry (pip's cache serves them, so the
registry is needed only when the cache is cold). So this is the release file a user gets.
Every command runs with no PYTHON* variables, so neither this tree's ``src`` nor the user's
site-packages can leak in.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
import typer
from helpers import CLEAN_ENV, built_release, session_base, shared_once

import coinrow
import coinrow.svg
import coinrow.text
from coinrow.cli import app, main

EXTRA_MODULES = ("numpy", "numba", "matplotlib", "pyarrow", "fastapi", "uvicorn", "dask")
ENV = CLEAN_ENV


@dataclass(frozen=True)
class Bare:
    """The bare environment: its directory."""

    venv: Path

    def python(self, code: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return self._run([str(self.venv / "bin" / "python"), "-c", code, *args], cwd)

    def coinrow(self, *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return self._run([str(self.venv / "bin" / "coinrow"), *args], cwd, stdin)

    @staticmethod
    def _run(argv: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, cwd=cwd, env=ENV, input=stdin, capture_output=True, text=True, timeout=300
        )


def _install(home: Path, wheel: Path) -> None:
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    installed = subprocess.run(
        [*pip, "install", "--disable-pip-version-check", "--no-input", str(wheel)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bare]:
    wheel = built_release(tmp_path_factory).wheel
    home = shared_once(session_base(tmp_path_factory), "bare-install", lambda h: _install(h, wheel))
    yield Bare(home / "venv")


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("coinrow: error: "), result.stderr
    return lines[0]


def test_the_environment_is_bare(bare: Bare, tmp_path: Path) -> None:
    numpy = bare.python("import numpy", cwd=tmp_path)
    assert numpy.returncode == 1
    assert "No module named 'numpy'" in numpy.stderr
    code = (
        "import importlib.util, coinrow\n"
        f"print([m for m in {EXTRA_MODULES!r} if importlib.util.find_spec(m)])\n"
        "print(coinrow.__file__)"
    )
    result = bare.python(code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    found, location = result.stdout.splitlines()
    assert found == "[]"
    assert Path(location).is_relative_to(bare.venv)  # the installed copy, not this tree


def test_the_wheel_runs_solve_and_names_its_version(bare: Bare, tmp_path: Path) -> None:
    solved = bare.coinrow("solve", "3", "2", "2", "3", "1", "2", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.startswith("6 coins: first player 8, second player 5;")
    version = bare.coinrow("--version", cwd=tmp_path)
    assert version.stdout == f"coinrow {coinrow.__version__}\n"


#: One run of every command on the bare install: its arguments, and the extra it names
#: (None: it runs without one). tests/test_bare_install.py must list every command.
EVERY_COMMAND = {
    "analyze": (["analyze", "game.txt"], None),
    "bench": (["bench", "--quick"], "fast"),
    "census": (["census", "--length", "3"], "census"),
    "check": (["check", "solver.py:best", "--budget", "20", "--no-complexity"], None),
    "compare": (["compare", "greedy", "optimal", "--games", "2", "-n", "3"], None),
    "play": (["play", "1", "2", "--save", "saved.txt"], None),
    "puzzles": (["puzzles", "-c", "1"], None),
    "refute": (["refute", "greedy", "-m", "4"], None),
    "serve": (["serve", "--port", "0"], "web"),
    "solve": (["solve", "1", "0.5"], None),
    "solve-chunks": (["solve-chunks", "chunks"], "census"),
    "table": (["table", "1", "2", "4", "3"], None),
}


def test_every_command_is_covered() -> None:
    assert sorted(EVERY_COMMAND) == sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(EVERY_COMMAND))
def test_every_command_runs_or_names_its_extra(bare: Bare, tmp_path: Path, name: str) -> None:
    (tmp_path / "game.txt").write_text("1 2\nLL\n")
    (tmp_path / "solver.py").write_text(
        "def best(coins):\n    import coinrow\n    return coinrow.solve(coins).first_total\n"
    )
    (tmp_path / "chunks").mkdir()
    args, extra = EVERY_COMMAND[name]
    result = bare.coinrow(*args, cwd=tmp_path, stdin="L\nL\n")
    if extra is None:
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    else:
        assert f"install coinrow[{extra}]" in one_error_line(result)
        assert result.stdout == ""


def test_the_library_gives_the_same_answers(bare: Bare, tmp_path: Path) -> None:
    rows = ["1 2 4 3", "3/2 0.25 7 -1 2 2", "5 " * 300, " ".join(map(str, range(2000)))]
    code = (
        "import json, sys, coinrow\n"
        "for text in json.loads(sys.argv[1]):\n"
        "    solution = coinrow.solve(coinrow.parse_coins(text))\n"
        "    print(json.dumps(solution.to_dict(per_coin_limit=10**6), sort_keys=True))\n"
        "table = coinrow.Table(coinrow.parse_coins('3/2 0.25 7 -1 2 2'))\n"
        "print(table.value_of(0, 5), table.margin_of(1, 4), table.moves_of(0, 5))\n"
    )
    result = bare.python(code, json.dumps(rows), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    *solutions, table_line = result.stdout.splitlines()
    expected = [coinrow.solve(coinrow.parse_coins(text)).to_dict(per_coin_limit=10**6)
                for text in rows]  # fmt: skip
    assert [json.loads(line) for line in solutions] == expected
    table = coinrow.Table([Fraction(3, 2), Fraction(1, 4), 7, -1, 2, 2])
    assert table_line == f"{table.value_of(0, 5)} {table.margin_of(1, 4)} {table.moves_of(0, 5)}"


def test_cli_solves_100000_coins_like_the_kernels(bare: Bare, tmp_path: Path) -> None:
    # 10^5 int coins: here the reduction runs in its Numba kernel when the fast extra is
    # installed; in the bare environment it runs in pure Python. Same answer required.
    seed = [(k * 7_919 + 13) % 1_000_003 for k in range(100_000)]
    coins = [value - 500_000 if value % 3 else value for value in seed]
    (tmp_path / "coins.txt").write_text(" ".join(map(str, coins)) + "\n")
    result = bare.coinrow("solve", "--json", "--file", "coins.txt", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    expected = coinrow.solve(coins)
    assert answer["n"] == 100_000
    assert (answer["first_total"], answer["margin"]) == (expected.first_total, expected.margin)
    assert answer["second_total"] == expected.second_total
    assert answer["first_moves"] == list(expected.first_moves)
    assert answer["outcome"] == expected.outcome


def test_pictures_need_no_extra(bare: Bare, tmp_path: Path) -> None:
    text = bare.coinrow("table", "1", "2", "4", "3", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert text.stdout == str(coinrow.text.triangle([1, 2, 4, 3])) + "\n"
    svg = bare.coinrow("table", "1", "2", "4", "3", "--svg", "out.svg", cwd=tmp_path)
    assert svg.returncode == 0, svg.stderr
    assert main(["table", "1", "2", "4", "3", "--svg", str(tmp_path / "here.svg")]) == 0
    written = (tmp_path / "out.svg").read_bytes()
    assert written.startswith(b"<svg xmlns=")
    assert written == (tmp_path / "here.svg").read_bytes()


def test_compare_plot_names_the_plot_extra(bare: Bare, tmp_path: Path) -> None:
    result = bare.coinrow(
        "compare", "optimal", "greedy", "--games", "2", "--length", "4", "--plot", "x.png",
        cwd=tmp_path,
    )  # fmt: skip
    assert one_error_line(result) == (
        "coinrow: error: drawing a chart needs matplotlib: install coinrow[plot]"
    )
    assert not (tmp_path / "x.png").exists()


def test_npy_file_names_the_fast_extra(bare: Bare, tmp_path: Path) -> None:
    import numpy as np

    np.save(tmp_path / "coins.npy", np.array([1, 2, 4, 3], dtype=np.int64))
    result = bare.coinrow("solve", "--file", "coins.npy", cwd=tmp_path)
    assert "install coinrow[fast]" in one_error_line(result)
    assert result.stdout == ""


def test_bench_names_the_fast_extra(bare: Bare, tmp_path: Path) -> None:
    result = bare.coinrow("bench", "--quick", cwd=tmp_path)
    assert "coinrow[fast]" in one_error_line(result)


def test_serve_names_the_web_extra(bare: Bare, tmp_path: Path) -> None:
    result = bare.coinrow("serve", "--port", "0", cwd=tmp_path)
    assert one_error_line(result) == (
        "coinrow: error: coinrow serve needs FastAPI and uvicorn: install coinrow[web]"
    )
    code = (
        "import importlib.resources as r\n"
        "static = r.files('coinrow') / 'web' / 'static'\n"
        "print(sorted(p.name for p in static.iterdir()))\n"
        "print(sorted(p.name for p in (static / 'js').iterdir()))"
    )
    shipped = bare.python(code, cwd=tmp_path)  # the page ships inside the package
    assert shipped.returncode == 0, shipped.stderr
    for name in ("index.html", "js", "style.css", "app.js", "game.html", "online.css", "online.js"):
        assert f"'{name}'" in shipped.stdout, name
