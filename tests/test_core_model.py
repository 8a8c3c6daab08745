"""Focused tests of the game model (game.py): exact messages, validation, guaranteed totals
against the oracle, the Jupyter forms. Also the mutation subset of scripts/mutate.py."""

from __future__ import annotations

from decimal import Decimal
from itertools import product

import oracle
import pytest

from coinrow import Game, IllegalMoveError, Position, SubgameError, Table
from coinrow.game import parse_moves, taken_indices
from coinrow.svg import repr_html, repr_svg


def test_exact_messages() -> None:
    cases = [
        (lambda: parse_moves(5), "moves must be text such as 'LRL', not int"),
        (lambda: Game([1], 5), "moves must be text such as 'LRL', not int"),
        (lambda: taken_indices(1, "LL"), "the line has 2 moves for a row of 1 coins"),
        (lambda: taken_indices(2, "LX"), "'X' is not a move; moves are L or R"),
        (lambda: Game([1]).pop(), "no move to undo"),
    ]
    for call, message in cases:
        with pytest.raises(IllegalMoveError) as info:
            call()
        assert str(info.value) == message
    for bound in (True, 1.0, "1"):
        with pytest.raises(SubgameError) as error:
            Position((1, 2), bound, 1)  # type: ignore[arg-type]
        assert str(error.value) == f"lo must be an int, not {bound!r}"


def test_positions_validate_their_row() -> None:
    p = Position(["1", "0.5"], 0, 1)  # type: ignore[arg-type]
    assert p.coins == (Decimal(1), Decimal("0.5")) and p.remaining == p.coins


def test_guaranteed_totals_against_the_oracle() -> None:
    for row in [r for n in range(6) for r in product((0, 1, 3, -2), repeat=n)]:
        for moves in ("", "L", "R", "LR", "RR", "LRL")[: len(row) + 1]:
            if len(moves) > len(row):
                continue
            game = Game(row, moves)
            p = game.position
            left = oracle.value(row, p.lo, p.hi) if p.lo <= p.hi else 0
            rest = oracle.total(row, p.lo, p.hi) - left if p.lo <= p.hi else 0
            first, second = game.totals
            want = (
                (first + left, second + rest)
                if p.turn == "first"
                else (first + rest, second + left)
            )
            assert game.guaranteed() == want, (row, moves)
            assert game.guaranteed(subgames=Table(row)) == want
            assert p.guaranteed(game.totals) == want
    assert Position.start([8, 15, 3, 7]).guaranteed((1, 2)) == (23, 13)


def test_jupyter_forms_highlight_the_position_and_the_moves() -> None:
    game = Game([8, 15, 3, 7], "RL")
    assert game._repr_svg_() == repr_svg(game.coins, highlight="RL")
    assert game._repr_html_() == repr_html(game, game.coins, highlight="RL")
    p = game.position
    assert p._repr_svg_() == repr_svg(p.coins, highlight=[(1, 2)])
    assert p._repr_html_() == repr_html(p, p.coins, highlight=[(1, 2)])
    over = Game([1, 2], "LR").position
    assert over._repr_svg_() == repr_svg(over.coins, highlight=[])
    assert "highlighted" in (p._repr_svg_() or "") and p._repr_svg_() != repr_svg(p.coins)


def test_long_rows_show_their_text_form_and_transcripts_their_indices() -> None:
    game = Game(list(range(41)), "RL")
    assert "Game([0, 1, 2" in game._repr_html_() and "at most 40 coins" in game._repr_html_()
    assert "<pre>1 2 3 4" in game.position._repr_html_()
    assert [row.index for row in Game([8, 15, 3, 7], "RLL").transcript()] == [3, 0, 1]
