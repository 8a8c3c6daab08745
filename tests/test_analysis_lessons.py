"""The analysis board's lessons (``coinrow.analysis.lessons``): one for every move that was not
the best, each best line and answer checked against the brute-force oracle in the plain game
(tests/oracle.py) and against the rules' own best moves elsewhere, and the words as people
read them."""

from __future__ import annotations

import random

import oracle
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinrow import Game, Position
from coinrow.analysis import SYMBOLS, analyze, lessons, seat_words


def test_the_issue_example_in_words() -> None:
    (lesson,) = lessons([8, 15, 3, 7], "LLRL", you=0)
    assert lesson.words == (
        "Move 1, a blunder by you: taking the 8 let the computer take the 15; the best was the "
        "7, which leaves 8 and 3 at the ends: you could finish with 22 instead of 15."
    )
    assert (lesson.step, lesson.seat, lesson.move, lesson.label, lesson.symbol) == (
        1,
        0,
        "L",
        "blunder",
        "??",
    )
    assert [(m.seat, m.move, m.indices, m.coins) for m in lesson.replies] == [(1, "L", (1,), (15,))]
    assert lesson.to_dict()["best_line"][0] == {
        "seat": 0,
        "move": "R",
        "indices": [3],
        "coins": [7],
    }


@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=7),
    st.randoms(use_true_random=False),
)
def test_plain_lessons_follow_the_oracle(coins: list[int], chooser: random.Random) -> None:
    line = "".join(chooser.choice("LR") for _ in coins)
    found = {lesson.step: lesson for lesson in lessons(coins, line, you=1)}
    lo, hi, taken = 0, len(coins) - 1, [0, 0]
    for step, move in enumerate(line, start=1):
        best = oracle.best_move_set(coins, lo, hi)
        mover = (step - 1) % 2
        assert (step in found) == (move not in best), (coins, line, step)
        if step in found:
            lesson = found[step]
            assert lesson.symbol == SYMBOLS[lesson.label] != ""
            b_lo, b_hi = lo, hi  # the best line: every move optimal in its position
            for k, shown in enumerate(lesson.best_line):
                assert shown.seat == (mover + k) % 2
                assert shown.move in oracle.best_move_set(coins, b_lo, b_hi)
                assert shown.indices == ((b_lo,) if shown.move == "L" else (b_hi,))
                b_lo, b_hi = (b_lo + 1, b_hi) if shown.move == "L" else (b_lo, b_hi - 1)
            assert len(lesson.best_line) == min(4, hi - lo + 1)
            a_lo, a_hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
            if a_lo <= a_hi:  # the other seat's answer: optimal in the position after
                (reply,) = lesson.replies
                assert reply.move in oracle.best_move_set(coins, a_lo, a_hi)
            else:
                assert lesson.replies == ()
            could = taken[mover] + oracle.value(coins, lo, hi)
            who = "you" if mover == 1 else "the computer"
            assert f"by {who}: taking the {coins[lo if move == 'L' else hi]}" in lesson.words
            assert f"{who} could finish with {could} instead of" in lesson.words
        taken[mover] += coins[lo if move == "L" else hi]
        lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)


@pytest.mark.parametrize(
    ("rules", "row"),
    [
        ("take:2", [4, 9, 1, 7, 2, 8, 6, 3]),
        ("circular", [4, 9, 1, 7, 2, 8]),
        ("players:3", [4, 9, 1, 7, 2, 8, 6]),
        ("misere", [4, 9, 1, 7, 2, 8]),
        ("stone-game-vii", [5, 3, 1, 4, 2]),
        ("reply:greedy", [4, 9, 1, 7, 2, 8]),
        ("both-ends", [4, 9, 1, 7, 2, 8]),
    ],
)
def test_lessons_under_other_rules_follow_their_best_moves(rules: str, row: list[int]) -> None:
    chooser = random.Random(7)
    game = Game(row, rules=rules)
    while not game.position.is_over:
        game.push(chooser.choice(game.position.legal_moves()))
    judged = analyze(row, game.moves, rules=rules)
    found = lessons(row, game.moves, rules=rules, you=0)
    assert [lesson.step for lesson in found] == [
        move.step for move in judged.moves if move.label != "best"
    ]
    assert found, "the seeded game makes mistakes"
    players = Position.start(row, rules=rules).rules.players
    for lesson in found:
        position = Game(row, game.moves[: lesson.step - 1], rules=rules).position
        assert lesson.words.startswith(f"Move {lesson.step}, ")
        assert f"by {seat_words(lesson.seat, players, 0)}:" in lesson.words
        for shown in lesson.best_line:
            assert shown.move in position.best_moves()
            assert shown.indices == position.indices_of(shown.move)
            assert shown.coins == tuple(row[k] for k in shown.indices)
            position = position.play(shown.move)
        after = Game(row, game.moves[: lesson.step], rules=rules).position
        for reply in lesson.replies:
            assert reply.seat != lesson.seat and reply.move in after.best_moves()
            after = after.play(reply.move)


def test_seat_words() -> None:
    assert [seat_words(s) for s in (0, 1)] == ["the first player", "the second player"]
    assert [seat_words(s, 3, you=1) for s in (0, 1, 2)] == ["player 1", "you", "player 3"]
