"""The game model under other rules (Position, Game, PlayValues) against the brute-force
game-tree searches of tests/variants_oracle.py: playing the model's best moves reaches the
oracle's values, every best move set is the oracle's, and the model's bookkeeping (legal
moves, turns, totals, reprs) holds (docs/variants.md, "Playing under other rules")."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
import variants_oracle as oracle

from coinrow import Rules
from coinrow.errors import IllegalMoveError, SubgameError, UnsupportedRulesError
from coinrow.game import Game, Position, parse_line
from coinrow.play_values import PlayValues

SMALL = (0, 1, 2)
SIGNED = (-1, 0, 2)

#: rules text -> (the oracle's kind, take, alphabet, longest row checked exhaustively)
INTERVAL = {
    "misere": ("misere", 1, SIGNED, 6),
    "stone-game-vii": ("svii", 1, SIGNED, 6),
    "take:2": ("take", 2, SIGNED, 6),
    "take:any": ("take", None, SIGNED, 6),
    "both-ends": ("both", 1, SMALL, 6),
}


def rows(alphabet: Sequence[int], longest: int) -> Iterator[tuple[int, ...]]:
    for n in range(1, longest + 1):
        yield from itertools.product(alphabet, repeat=n)


def objective(rules: Rules, totals: Sequence[Any], seat: int) -> Any:
    """The seat's objective margin from two players' totals."""
    own, other = totals[seat], totals[1 - seat]
    return other - own if rules.kind == "misere" else own - other


def optimal_set(firsts: dict[str, Any], best: Any) -> set[str]:
    return {move for move, value in firsts.items() if value == best}


@pytest.mark.parametrize("text", list(INTERVAL))
def test_best_play_through_the_model_reaches_the_oracle_values(text: str) -> None:
    kind, take, alphabet, longest = INTERVAL[text]
    rules = Rules.parse(text)
    for row in rows(alphabet, longest):
        values = PlayValues(row, rules)
        game = Game(row, rules=rules)
        best, _ = oracle.two_player(row, kind, take)
        start_totals = game.best_totals(values=values)
        assert objective(rules, start_totals, 0) == best, row
        while not game.position.is_over:
            position = game.position
            sub_best, firsts = oracle.two_player(position.remaining, kind, take)
            moves = position.best_moves(values=values)
            assert set(moves) == optimal_set(firsts, sub_best), (row, game.line)
            assert set(moves) <= set(position.legal_moves())
            mover_before = game.best_totals(values=values)
            game.push(moves[0])
            # an optimal move keeps the mover's objective
            after = game.best_totals(values=values)
            assert objective(rules, after, position.seat) == objective(
                rules, mover_before, position.seat
            )
        assert game.totals == start_totals, (row, game.line)
        assert objective(rules, game.totals, 0) == best


def test_the_pizza_through_the_model() -> None:
    rules = Rules.parse("circular")
    for row in rows(SIGNED, 6):
        values = PlayValues(row, rules)
        game = Game(row, rules=rules)
        best, firsts = oracle.pizza(row)
        assert set(game.best_moves(values=values)) == optimal_set(firsts, best)
        totals = game.best_totals(values=values)
        assert totals[0] - totals[1] == best
        game.push(game.best_moves(values=values)[0])
        while not game.position.is_over:
            sub_best, sub_firsts = oracle.two_player(game.position.remaining, "plain")
            moves = game.best_moves(values=values)
            assert set(moves) == optimal_set(sub_firsts, sub_best), (row, game.line)
            game.push(moves[0])
        assert game.totals == totals
        assert sorted(itertools.chain(*game.coins_taken)) == list(range(len(row)))


def test_best_reply_through_the_model() -> None:
    rules = Rules.parse("reply:greedy")
    for row in rows(SMALL, 7):
        values = PlayValues(row, rules)
        game = Game(row, rules=rules)
        best, firsts = oracle.reply(row, oracle.greedy)
        assert game.best_totals(values=values)[0] == best
        assert set(game.best_moves(values=values)) == optimal_set(firsts, best)
        while not game.position.is_over:
            position = game.position
            moves = game.best_moves(values=values)
            if position.seat == 1:  # the known opponent's move
                assert moves == (oracle.greedy(row, position.lo, position.hi),)
            game.push(moves[0])
        assert game.totals[0] == best


@pytest.mark.parametrize(("p", "tie"), [(3, "left"), (3, "spite"), (4, "right")])
def test_players_through_the_model(p: int, tie: str) -> None:
    rules = Rules.parse(f"players:{p}:{tie}")
    for row in rows(SMALL, 6):
        values = PlayValues(row, rules)
        game = Game(row, rules=rules)
        expected = oracle.players(row, p, tie)
        assert game.best_totals(values=values) == expected
        while not game.position.is_over:
            position = game.position
            ahead = oracle.players(position.remaining, p, tie)  # the mover first
            mover = position.seat
            assert game.best_totals(values=values)[mover] - game.totals[mover] == ahead[0]
            game.push(game.best_moves(values=values)[0])
        assert game.totals == expected, row


def test_reply_with_a_strategy_object() -> None:
    from coinrow import strategies

    row = [3, 2, 10, 4, 1, 7]
    rules = "reply:lookahead:2"
    with pytest.raises(UnsupportedRulesError, match="lookahead:2"):
        Position.start(row, rules=rules).best_totals()
    values = PlayValues(row, rules, opponent=strategies.get("lookahead:2"))
    lookahead = strategies.get("lookahead:2")
    expected = oracle.reply(row, lambda r, lo, hi: lookahead(Position(r, lo, hi)))
    assert Position.start(row, rules=rules).best_totals(values=values)[0] == expected[0]


def test_legal_moves_and_illegal_moves() -> None:
    take = Position.start([1, 2, 3], rules="take:2")
    assert take.legal_moves() == ("L1", "L2", "R1", "R2")
    assert take.play("L2").legal_moves() == ("L1", "R1")
    assert Position.start([1, 2, 3], rules="take:any").legal_moves()[-1] == "R3"
    with pytest.raises(IllegalMoveError, match="'L3' is not a move of the rules take:2"):
        take.play("L3")
    with pytest.raises(IllegalMoveError, match="takes 3 coins; 2 left"):
        Position.start([1, 2, 3], rules="take:any").play("L1").play("R3")
    with pytest.raises(IllegalMoveError):
        take.play("L")
    both = Position.start([1, 2], rules="both-ends")
    assert both.play("B").is_over and both.play("L").legal_moves() == ("L", "R")
    with pytest.raises(IllegalMoveError):
        Position.start([1, 2], rules="misere").play("B")
    pizza = Position.start([5, 6, 7], rules="circular")
    assert pizza.legal_moves() == ("0", "1", "2") and pizza.turn == "first"
    with pytest.raises(IllegalMoveError, match="0 to 2"):
        pizza.play("3")
    with pytest.raises(IllegalMoveError):
        pizza.play("L")
    opened = pizza.play("2")
    assert opened.remaining == (5, 6) and opened.turn == "second"
    assert opened.play("R").indices_of("L") == (0,)
    with pytest.raises(IllegalMoveError, match="game is over"):
        Position.start([1], rules="misere").play("L").play("L")


def test_turns_seats_and_totals() -> None:
    game = Game([1, 2, 3, 4, 5], "LRL", rules="players:3")
    assert game.totals == (1, 5, 2) and game.position.seat == 0
    with pytest.raises(UnsupportedRulesError, match="use the seat"):
        _ = game.position.turn
    game.pop()
    assert game.totals == (1, 5, 0) and game.line == "LR"
    svii = Game([5, 3, 1, 4, 2], "LRLRL", rules="stone-game-vii")
    assert svii.totals == (15, 9)  # points: the coins left after each own move
    both = Game([1, 2, 3, 4, 5], "BL", rules="both-ends")
    assert both.totals == (6, 2) and both.position.turn == "first"
    assert both.coins_taken == ([0, 4], [1])
    assert [row.indices for row in both.transcript()] == [(0, 4), (1,)]


def test_positions_are_values_with_reprs_that_read_back() -> None:
    samples = [
        Position.start([1, 2, 3], rules="misere").play("L"),
        Position.start([1, 2, 3, 4], rules="take:any").play("L3"),
        Position.start([1, 2, 3, 4], rules="circular"),
        Position.start([1, 2, 3, 4], rules="circular").play("3").play("R"),
        Position.start([1, 2, 3, 4], rules="players:3:spite").play("R"),
        Position.start([1, 2, 3]).play("R"),
    ]
    for position in samples:
        again = eval(repr(position), {"Position": Position})
        assert again == position and hash(again) == hash(position)
        assert again.legal_moves() == position.legal_moves()
    assert Position.start([1, 2], rules="plain") == Position([1, 2], 0, 1)
    assert repr(Position.start([1, 2], rules=Rules())) == "Position([1, 2], 0, 1)"
    with pytest.raises(SubgameError, match="ply"):
        Position([1, 2, 3], 1, 2, rules="take:2")
    with pytest.raises(SubgameError, match="cannot take"):
        Position([1, 2, 3, 4], 3, 3, rules="take:2", ply=1)
    with pytest.raises(SubgameError, match="whole circle"):
        Position([1, 2, 3], 1, 2, rules="circular")
    with pytest.raises(SubgameError, match="first slice"):
        Position([1, 2, 3], 0, 1, rules="misere", first_slice=1)


def test_games_read_lines_and_sequences() -> None:
    assert parse_line("l2,R1", "take:2") == ("L2", "R1")
    assert Game([1, 2, 3, 4], ["L1", "r2"], rules="take:2").line == "L1 R2"
    assert Game([1, 2, 3, 4], "2 lr", rules="circular").line == "2 LR"
    both = Game([1, 2, 3], "B", rules="both-ends")
    assert repr(both) == "Game([1, 2, 3], 'B', rules='both-ends')"
    with pytest.raises(IllegalMoveError, match="not a line of moves"):
        Game([1, 2, 3], "L2", rules="misere")


def test_random_rows_through_the_model() -> None:
    rng = random.Random(16)
    for _ in range(40):
        row = [rng.randint(-9, 9) for _ in range(rng.randint(1, 9))]
        for text, (kind, take, _, _) in INTERVAL.items():
            rules = Rules.parse(text)
            values = PlayValues(row, rules)
            game = Game(row, rules=rules)
            while not game.position.is_over:
                game.push(game.best_moves(values=values)[0])
            assert objective(rules, game.totals, 0) == oracle.two_player(row, kind, take)[0]
