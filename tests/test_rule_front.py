"""front:K (take 1 to K coins from the front of the row only) against a brute-force oracle
written from the rule's wording (tests/variants_oracle.py), the published samples of
LeetCode 1406 "Stone Game III" and LintCode 395 "Coins in a Line II", and every place a rule
applies: solve, positions and games, tables, analysis, records, tournaments, the census,
terminal play and the web API."""

from __future__ import annotations

import itertools
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import variants_oracle as oracle

import coinrow
from coinrow import Game, Position, Rules, Table, analyze, parse_records, solve
from coinrow.errors import IllegalMoveError, RulesError


def rows(alphabet: tuple[int, ...], longest: int) -> itertools.chain[tuple[int, ...]]:
    return itertools.chain.from_iterable(
        itertools.product(alphabet, repeat=n) for n in range(longest + 1)
    )


@pytest.mark.parametrize("k", [1, 2, 3])
def test_front_agrees_with_the_oracle_on_every_small_row(k: int) -> None:
    rules, search = Rules.parse(f"front:{k}"), oracle.TwoPlayer("front", k)
    for coins in rows((-1, 0, 2), 8):
        best, firsts = search(coins)
        solved = solve(coins, rules=rules)
        assert solved.objective == best, coins
        assert set(solved.first_moves) == {m for m, v in firsts.items() if v == best}
        assert solved.totals == solved.game().totals  # the line scores what it says
        # every move of the line is optimal where it is played
        gone = 0
        for move in solved.moves:
            sub_best, sub_firsts = search(coins[gone:])
            assert sub_firsts[move] == sub_best, (coins, move)
            gone += int(move[1:])


def test_published_samples() -> None:
    def stone_game_iii(values: list[int]) -> str:
        return {"first": "Alice", "second": "Bob", "tie": "Tie"}[
            solve(values, rules="front:3").outcome
        ]

    # LeetCode 1406 "Stone Game III", examples 1 to 3
    assert stone_game_iii([1, 2, 3, 7]) == "Bob"
    assert stone_game_iii([1, 2, 3, -9]) == "Alice"
    assert stone_game_iii([1, 2, 3, 6]) == "Tie"
    # LintCode 395 "Coins in a Line II": does the first player win?
    assert solve([1, 2, 2], rules="front:2").outcome == "first"
    assert solve([1, 2, 4], rules="front:2").outcome != "first"


def test_text_form_and_moves() -> None:
    rules = Rules.parse(" FRONT:3 ")
    assert str(rules) == "front:3" and rules.take == 3 and rules.interval
    for bad in ("front", "front:0", "front:any", "front:²", "front:" + "9" * 50):
        with pytest.raises(RulesError):
            Rules.parse(bad)
    position = Position.start([5, 1, 2, 7], rules=rules)
    assert position.legal_moves() == ("L1", "L2", "L3")
    with pytest.raises(IllegalMoveError):
        position.play("R1")
    assert rules.to_dict()["moves"].startswith("L1 to L3")
    assert rules.move_words("L2") == "take 2 coins from the front"


def test_game_table_analysis_record_and_tournament() -> None:
    coins = [1, 2, 3, 7]
    game = Game(coins, "L1 L3", rules="front:3")
    assert game.totals == (1, 12) and game.position.is_over
    table = Table(coins, rules="front:3")
    assert table.objective_of(0, 3) == solve(coins, rules="front:3").objective
    analysis = analyze(coins, ["L1", "L3"], rules="front:3")
    assert [move.label for move in analysis.moves][1] == "best"
    record = coinrow.Record(coins, game.line, {"rules": "front:3"})
    [read] = parse_records(record.to_text()).records
    assert read.game().totals == game.totals
    from coinrow.tournament import tournament

    result = tournament(["optimal", "greedy"], rows=4, n=6, rules="front:2")
    assert result.rules == Rules.parse("front:2")


def test_census_counts_front_rows_through_python() -> None:
    from coinrow.census import Census, Words

    census = Census(Words.of("0,1,2", 5), rules="front:2").run(workers=0)
    margins: dict[int, int] = {}
    for coins in itertools.product((0, 1, 2), repeat=5):
        best, _ = oracle.front(coins, 2)
        margins[best] = margins.get(best, 0) + 1
    assert census.histogram == dict(sorted(margins.items()))


def test_terminal_play_and_web(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coinrow", "play", "--rules", "front:2", "--opponent",
         "optimal", "1", "2", "4"],
        input="L2\nq\n", capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from coinrow.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1")
    answer = client.post("/api/solve", json={"coins": [1, 2, 3, 7], "rules": "front:3"})
    assert answer.status_code == 200 and answer.json()["outcome"] == "second"
    played = client.post("/api/play", json={"coins": [1, 2, 3, 7], "rules": "front:3",
                                            "moves": "L1"})  # fmt: skip
    assert played.status_code == 200, played.text
    assert [option["move"] for option in played.json()["legal"]] == ["L1", "L2", "L3"]
    assert (
        played.json()["best_moves"] == ["L3"] == list(solve([2, 3, 7], rules="front:3").first_moves)
    )
