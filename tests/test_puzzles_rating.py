"""Puzzles of several moves against a brute-force game search written here, and the Glicko-2
rating against the worked example of Glickman's paper ("Example of the Glicko-2 system")."""

from __future__ import annotations

import datetime
import math
from functools import cache

import pytest

from coinrow.errors import CoinrowError
from coinrow.puzzles import (
    PUZZLE_RD,
    THEMES,
    daily_themed_puzzle,
    puzzle_rating,
    themed_puzzle,
)
from coinrow.rating import SCALE, Rating, expected_score, update


@cache
def best(coins: tuple[int, ...], lowest: bool, lo: int, hi: int) -> int:
    """The mover's total on coins lo..hi with best play (the mover maximises their total, or
    under misère minimises it), by plain recursion: each move leaves the rest to the other."""
    if lo > hi:
        return 0
    options = [after(coins, lowest, lo, hi, move) for move in "LR"]
    return min(options) if lowest else max(options)


def after(coins: tuple[int, ...], lowest: bool, lo: int, hi: int, move: str) -> int:
    """The mover's total from (lo, hi) on after ``move``, then best play."""
    rest = sum(coins[lo : hi + 1])
    if move == "L":
        return rest - best(coins, lowest, lo + 1, hi)
    return rest - best(coins, lowest, lo, hi - 1)


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_move_to_find_is_the_only_best_one(theme: str) -> None:
    lowest = THEMES[theme].rules == "misere"
    for seed in range(12):
        p = themed_puzzle(theme, seed)
        coins = tuple(int(c) for c in p.coins)  # type: ignore[call-overload]
        assert len(coins) == THEMES[theme].coins and p.rules == THEMES[theme].rules
        lo, hi, mine = 0, len(coins) - 1, 0
        missed = False
        for number, step in enumerate(p.steps):
            assert step.ply == lo + (len(coins) - 1 - hi)
            finals = {m: mine + after(coins, lowest, lo, hi, m) for m in "LR"}
            pick = min if lowest else max
            best = [m for m in "LR" if finals[m] == pick(finals.values())]
            assert best == [step.best]  # the only best move
            other = "R" if step.best == "L" else "L"
            assert set(dict(step.why)) == {other}
            words = dict(step.why)[other]
            assert f" {finals[other]} at " in words
            assert f"against {finals[step.best]} after" in words
            missed = missed or step.tempting != step.best
            mine += coins[lo] if step.best == "L" else coins[hi]
            lo, hi = (lo + 1, hi) if step.best == "L" else (lo, hi - 1)
            if step.reply is None:
                assert number == len(p.steps) - 1
                assert finals[step.best] == p.best_total
                break
            # the computer answers with a best move too
            replies = {m: after(coins, lowest, lo, hi, m) for m in "LR"}
            assert replies[step.reply] == pick(replies.values())
            lo, hi = (lo + 1, hi) if step.reply == "L" else (lo, hi - 1)
        assert missed and p.explanation  # the tempting strategy misses a move
        assert p.line[0] == p.steps[0].best and len(p.line) == 2 * len(p.steps) - 1
        assert p.rating == puzzle_rating(moves=len(p.steps), grade=p.grade, theme=theme)
        assert p.loss > 0


def test_puzzles_are_seeded_and_the_daily_takes_the_themes_in_turn() -> None:
    assert themed_puzzle("endgame", 5) == themed_puzzle("endgame", 5)
    assert themed_puzzle("endgame", 5) != themed_puzzle("endgame", 6)
    days = [datetime.date(2026, 11, 23) + datetime.timedelta(days=k) for k in range(4)]
    assert sorted(daily_themed_puzzle(day).theme for day in days) == sorted(THEMES)
    data = themed_puzzle("variant-rules", 3).to_dict()
    assert data["id"] == "variant-rules:3" and data["tempting_rule"] == "take the smaller end coin"
    assert "smaller total wins" in data["explanation"]
    with pytest.raises(CoinrowError, match="theme"):
        themed_puzzle("chess", 1)


def test_glicko2_paper_example() -> None:
    # Glickman's worked example: r 1500, RD 200, sigma 0.06, tau 0.5, against 1400/30 (won),
    # 1550/100 (lost), 1700/300 (lost): r' 1464.06, RD' 151.52, sigma' 0.05999.
    new = update(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
        tau=0.5,
    )
    assert abs(new.rating - 1464.06) < 0.02  # the paper rounds mu' to 4 places first
    assert round(new.rd, 2) == 151.52
    assert abs(new.volatility - 0.05999) < 0.00001
    # the paper's intermediate values: E = 0.639, 0.432, 0.303; mu' = -0.2069, phi' = 0.8722
    player = Rating(1500, 200, 0.06)
    es = [expected_score(player, Rating(r, d)) for r, d in ((1400, 30), (1550, 100), (1700, 300))]
    assert [round(e, 3) for e in es] == [0.639, 0.432, 0.303]
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert round(new.rd / SCALE, 4) == 0.8722


def test_glicko2_no_games_and_direction() -> None:
    idle = update(Rating(1500, 200, 0.06), [])
    assert idle.rating == 1500
    assert math.isclose(idle.rd / SCALE, math.sqrt((200 / SCALE) ** 2 + 0.06**2))
    puzzle = Rating(1600, PUZZLE_RD)
    win, loss = update(Rating(), [(puzzle, 1)]), update(Rating(), [(puzzle, 0)])
    assert loss.rating < 1500 < win.rating and win.rd < 350
    with pytest.raises(CoinrowError):
        update(Rating(), [(puzzle, 2)])
    with pytest.raises(CoinrowError):
        Rating(1500, 0)
