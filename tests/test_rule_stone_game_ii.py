"""stone-game-ii (LeetCode 1140) against a brute-force oracle written from the problem's
wording (tests/variants_oracle.py) and its published samples, through solve, the CLI, the
web API and the census; its positions are not intervals, so play and analysis refuse it
with a clear error."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import warnings

import pytest
import variants_oracle as oracle

from coinrow import Game, Rules, Table, solve
from coinrow.errors import RulesError, UnsupportedRulesError


def test_stone_game_ii_agrees_with_the_oracle_on_every_small_row() -> None:
    for n in range(9):
        for coins in itertools.product((0, 1, 3), repeat=n):
            first, second = oracle.stone_game_ii(coins)
            solved = solve(coins, rules="stone-game-ii")
            assert solved.totals == (first, second), coins
            assert solved.engine == "search-dp"
    # every first move listed is optimal: replaying the line scores the totals
    solved = solve([3, 1, 4, 1, 5, 9, 2, 6], rules="stone-game-ii")
    assert sum(int(move[1:]) for move in solved.moves) == 8


def test_published_samples() -> None:
    # LeetCode 1140 "Stone Game II": Alice's most stones
    assert solve([2, 7, 9, 4, 4], rules="stone-game-ii").first_total == 10
    assert solve([1, 2, 3, 4, 5, 100], rules="stone-game-ii").first_total == 104


def test_text_form_and_what_does_not_apply() -> None:
    rules = Rules.parse("Stone-Game-II")
    assert str(rules) == "stone-game-ii" and not rules.interval
    with pytest.raises(RulesError):
        Rules.parse("stone-game-ii:2")
    with pytest.raises(UnsupportedRulesError, match="play and analysis do not take them"):
        Game([1, 2, 3], rules=rules)
    with pytest.raises(UnsupportedRulesError):
        Table([1, 2, 3], rules=rules)


def test_cli_web_and_census() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coinrow", "solve", "--json", "--rules", "stone-game-ii",
         "2", "7", "9", "4", "4"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["first_total"] == 10
    with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from coinrow.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1")
    answer = client.post(
        "/api/solve", json={"coins": [1, 2, 3, 4, 5, 100], "rules": "stone-game-ii"}
    )
    assert answer.status_code == 200 and answer.json()["first_total"] == 104
    refused = client.post("/api/play", json={"coins": [1, 2, 3], "rules": "stone-game-ii"})
    assert 400 <= refused.status_code < 500 and "do not apply here" in refused.json()["detail"]
    from coinrow.census import Census, Words

    census = Census(Words.of("1,2", 6), rules="stone-game-ii").run(workers=0)
    margins: dict[int, int] = {}
    for coins in itertools.product((1, 2), repeat=6):
        first, second = oracle.stone_game_ii(coins)
        margin = int(first - second)
        margins[margin] = margins.get(margin, 0) + 1
    assert census.histogram == dict(sorted(margins.items()))
