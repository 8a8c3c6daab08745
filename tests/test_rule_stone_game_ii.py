"""stone-game-ii (LeetCode 1140) against a brute-force oracle written from the problem's
wording (tests/variants_oracle.py) and its published samples, everywhere a rule applies:
solve, every position (a state of piles gone and M, not an interval), games, records,
analysis, tournaments, terminal play, the web API and the census."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import variants_oracle as oracle

import coinrow
from coinrow import Game, Position, Rules, Table, analyze, parse_records, solve
from coinrow.errors import IllegalMoveError, RulesError, SubgameError, UnsupportedRulesError
from coinrow.play_values import PlayValues
from coinrow.record import load_records

RULES = Rules.parse("stone-game-ii")


def rows(alphabet: tuple[int, ...], longest: int) -> itertools.chain[tuple[int, ...]]:
    return itertools.chain.from_iterable(
        itertools.product(alphabet, repeat=n) for n in range(longest + 1)
    )


def test_stone_game_ii_agrees_with_the_oracle_on_every_small_row() -> None:
    for coins in rows((0, 1, 3), 8):
        first, second = oracle.stone_game_ii(coins)
        solved = solve(coins, rules="stone-game-ii")
        assert solved.totals == (first, second), coins
        assert solved.engine == "search-dp"
        if coins and len(coins) <= 6:  # the first moves and the line: every row up to 6
            best, firsts = oracle.stone_game_ii_positions(coins)(0, 1)
            assert solved.first_moves == tuple(m for m, v in firsts.items() if v == best)
            assert solved.game().totals == solved.totals  # the line scores what it says


def test_every_position_agrees_with_the_oracle() -> None:
    """Every position reachable by legal moves on every row over {1, 3} up to 8 coins and
    over {0, 1, 3} (ties) up to 5: its legal moves, every player's totals with best play and its
    optimal moves."""
    checked = 0
    for coins in itertools.chain(rows((1, 3), 8), rows((0, 1, 3), 5)):
        values, solved = PlayValues(coins, RULES), oracle.stone_game_ii_positions(coins)
        todo, seen = [Position.start(coins, rules=RULES)], set()
        while todo:
            position = todo.pop()
            assert position.state is not None
            if (position.state, position.seat) in seen:
                continue
            seen.add((position.state, position.seat))
            best, margins = solved(*position.state)
            assert position.legal_moves() == tuple(margins), (coins, position)
            totals = values.totals_of(position)
            mover = position.seat
            assert totals[mover] - totals[1 - mover] == best, (coins, position)
            assert sum(totals) == sum(position.remaining)
            optimal = tuple(move for move, value in margins.items() if value == best)
            assert values.moves_of(position) == optimal, (coins, position)
            todo.extend(position.play(move) for move in position.legal_moves())
            checked += 1
    assert checked > 3_000  # the walk really went through the positions


def test_published_samples() -> None:
    # LeetCode 1140 "Stone Game II": Alice's most stones
    assert solve([2, 7, 9, 4, 4], rules="stone-game-ii").first_total == 10
    assert solve([1, 2, 3, 4, 5, 100], rules="stone-game-ii").first_total == 104
    # and the sample's line of play: Alice 2, Bob 7 + 9, Alice 4 + 4
    game = Game([2, 7, 9, 4, 4], "L1 L2 L2", rules="stone-game-ii")
    assert game.totals == (10, 16) and game.position.is_over


def test_positions_moves_and_their_checks() -> None:
    rules = Rules.parse("Stone-Game-II")
    assert str(rules) == "stone-game-ii" and not rules.interval and rules.positions
    with pytest.raises(RulesError):
        Rules.parse("stone-game-ii:2")
    start = Position.start([2, 7, 9, 4, 4], rules=rules)
    assert (start.state, start.ply, start.legal_moves()) == ((0, 1), 0, ("L1", "L2"))
    after = start.play("l2")
    assert after.state == (2, 2) and after.remaining == (9, 4, 4) and after.seat == 1
    assert after.legal_moves() == ("L1", "L2", "L3")  # X up to 2M = 4, 3 piles left
    assert eval(repr(after), {"Position": Position}) == after  # the repr reads back
    assert after.indices_of("L2") == (2, 3)
    with pytest.raises(IllegalMoveError, match="legal: L1 L2"):
        start.play("L3")
    with pytest.raises(IllegalMoveError):
        start.play("R1")
    coins = (2, 7, 9, 4, 4)
    for state, ply, lo in [((2, 3), 1, 2), ((2,), 1, 2), ((9, 1), 1, 9), (None, 1, 2)]:
        with pytest.raises(SubgameError):
            Position(coins, lo, 4, rules=rules, ply=ply, state=state)
    with pytest.raises(SubgameError):  # lo must be the piles gone
        Position(coins, 1, 4, rules=rules, ply=1, state=(2, 2))
    with pytest.raises(SubgameError):  # an interval rule keeps no state
        Position(coins, 0, 4, rules=Rules.parse("misere"), state=(0, 1))
    with pytest.raises(UnsupportedRulesError):
        Table([1, 2, 3], rules=rules)


def test_record_round_trip_and_analysis() -> None:
    coins = [3, 1, 4, 1, 5, 9, 2, 6]
    game = Game(coins, "L2 L1 L4 L1", rules="stone-game-ii")
    assert game.position.is_over and game.line == "L2 L1 L4 L1"
    record = coinrow.Record(coins, game.line, {"players": "a vs b"}, rules=RULES)
    [read] = parse_records(record.to_text()).records
    assert read.rules == RULES and read.game().moves == game.moves
    assert read.game().totals == game.totals == (3 + 1 + 1 + 5 + 9 + 2, 4 + 6)
    [from_json] = load_records(json.dumps([record.to_dict()])).records
    assert from_json.game().totals == game.totals
    analysis = analyze(coins, game.moves, rules=RULES)
    start = Position.start(coins, rules=RULES)
    for step, (position, move) in zip(analysis.moves, game.iter_moves(), strict=True):
        gone, m = position.state or (0, 0)
        best, margins = oracle.stone_game_ii_positions(coins)(gone, m)
        assert step.best_moves == tuple(x for x, v in margins.items() if v == best)
        assert 2 * step.loss == best - margins[move]  # a total: half the margin lost
        assert (step.label == "best") == (margins[move] == best)
    assert start.best_totals() == solve(coins, rules=RULES).totals
    from coinrow.review import evaluation

    chart = evaluation(coins, game.moves, rules=RULES)  # the review's evaluation chart
    assert len(chart) == len(game.moves) + 1
    for ply, point in enumerate(chart):
        so_far = Game(coins, game.moves[:ply], rules=RULES)
        position = so_far.position
        gone, m = position.state or (0, 0)
        best, _ = oracle.stone_game_ii_positions(coins)(gone, m)
        rest, mover = sum(position.remaining), position.seat % 2
        assert 2 * point.totals[mover] == 2 * so_far.totals[mover] + rest + best
        assert 2 * point.totals[1 - mover] == 2 * so_far.totals[1 - mover] + rest - best


def test_tournament_and_strategies() -> None:
    from coinrow.strategies import get
    from coinrow.tournament import tournament

    result = tournament(["optimal", "greedy", "random"], rows=3, n=7, rules="stone-game-ii")
    assert result.rules == RULES
    optimal = next(p for p in result.pairs if (p.strategy, p.opponent) == ("optimal", "greedy"))
    assert optimal.regret_sum == 0 and optimal.losses == 0
    position = Position.start([1, 1, 9, 1], rules=RULES)
    assert get("greedy", rules=RULES)(position) == "L2"  # the most now: 2M piles
    assert get("optimal", rules=RULES)(position) in position.best_moves()
    with pytest.raises(UnsupportedRulesError):
        get("parity", rules=RULES)


def test_terminal_play(tmp_path: Path) -> None:
    saved = tmp_path / "games.txt"
    done = subprocess.run(
        [sys.executable, "-m", "coinrow", "play", "--rules", "stone-game-ii", "--save",
         str(saved), "2", "7", "9", "4", "4"],
        input="L3\nh\nL1\nL2\n", capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Moves now: L1 L2" in out  # M is shown through the legal moves
    assert "'L3' is not legal here" in out
    assert "Hint: best L1 (take 2)" in out
    assert "You lose: 10 to 16." in out
    [read] = parse_records(saved.read_text()).records
    assert read.rules == RULES and read.game().totals == (10, 16)


def test_web_play_and_census() -> None:
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
    played = client.post(
        "/api/play", json={"coins": [2, 7, 9, 4, 4], "rules": "stone-game-ii", "moves": "L1 L2"}
    )
    assert played.status_code == 200, played.text
    data = played.json()
    assert [legal["move"] for legal in data["legal"]] == ["L1", "L2"]
    assert data["best_moves"] == ["L2"] and data["best_totals"] == [10, 16]
    assert data["remaining"] == [3, 4] and data["totals"] == [2, 16]
    finished = client.post(
        "/api/play", json={"coins": [2, 7, 9, 4, 4], "rules": "stone-game-ii", "moves": "L1L2L2"}
    ).json()
    assert finished["winners"] == [1] and [s["label"] for s in finished["review"]] == ["best"] * 3
    refused = client.post(
        "/api/play", json={"coins": [2, 7, 9, 4, 4], "rules": "stone-game-ii", "moves": "L3"}
    )
    assert refused.status_code == 422 and "legal: L1 L2" in refused.json()["detail"]
    listed = client.get("/api/rules").json()["rules"]
    assert "stone-game-ii" in [rule["rules"] for rule in listed]
    from coinrow.census import Census, Words

    census = Census(Words.of("1,2", 6), rules="stone-game-ii").run(workers=0)
    margins: dict[int, int] = {}
    for coins in itertools.product((1, 2), repeat=6):
        first, second = oracle.stone_game_ii(coins)
        margin = int(first - second)
        margins[margin] = margins.get(margin, 0) + 1
    assert census.histogram == dict(sorted(margins.items()))
