"""Every variant's engines against the brute-force game-tree searches of tests/variants_oracle.py,
and every fast path against the general interval DP (docs/variants.md)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest
import variants_oracle as oracle

from coinrow.engines import interval
from coinrow.engines import variants as v
from coinrow.numbers import exact_arithmetic
from coinrow.rules import Players, Rules

SMALL = (0, 1, 2)
SIGNED = (-1, 0, 2)

#: (rules text, the oracle's kind and take) of the two-player interval variants.
INTERVAL = {
    "plain": ("plain", 1),
    "misere": ("misere", 1),
    "stone-game-vii": ("svii", 1),
    "take:2": ("take", 2),
    "take:3": ("take", 3),
    "take:any": ("take", None),
    "both-ends": ("both", 1),
}


def rows(alphabet: Sequence[int], longest: int) -> Iterator[tuple[int, ...]]:
    for n in range(1, longest + 1):
        yield from itertools.product(alphabet, repeat=n)


def random_rows(
    seed: int, count: int, longest: int, low: int = -9, high: int = 9
) -> Iterator[list[int]]:
    rng = random.Random(seed)
    for _ in range(count):
        yield [rng.randint(low, high) for _ in range(rng.randint(1, longest))]


def search_of(text: str) -> oracle.TwoPlayer:
    """The oracle's search of the rules ``text``, to share between the rows of one test."""
    kind, take = INTERVAL[text]
    return oracle.TwoPlayer(kind, take)


def check_two_player(coins: Sequence[Any], text: str, search: oracle.TwoPlayer) -> None:
    """Objective, first moves, and a line that is optimal at every step, as the oracle says."""
    rules = Rules.parse(text)
    kind = search.kind
    result = v.interval_solve(coins, rules)
    best, firsts = search(coins)
    assert result.objective == best, (coins, text)
    assert set(result.first_moves) == {m for m, value in firsts.items() if value == best}
    assert result.totals == v.replay(coins, rules, result.moves)
    # each move of the line is optimal in the subgame it is played in
    lo, hi, sign, objective = 0, len(coins) - 1, 1, best
    for move in result.moves:
        sub_best, sub_firsts = search(coins[lo : hi + 1])
        assert sub_firsts[move] == sub_best
        side, count = rules.side_count(move)
        lo, hi = v.advance(lo, hi, side, count)
    assert lo == hi + 1 and sign == 1 and objective == best
    first, second = result.totals
    if kind in ("plain", "take", "both"):
        assert first - second == best
    elif kind == "misere":
        assert second - first == best
    else:
        assert first - second == best


@pytest.mark.parametrize("text", sorted(INTERVAL))
def test_interval_variants_agree_with_the_oracle_on_every_small_row(text: str) -> None:
    alphabet = SMALL if text in ("plain", "both-ends") else SIGNED
    search, rules = search_of(text), Rules.parse(text)
    for coins in rows(alphabet, 5):
        check_two_player(coins, text, search)
    for coins in rows(alphabet, 9):  # every row up to 9 coins
        if len(coins) <= 5:
            continue
        result = v.interval_solve(coins, rules)
        best, firsts = search(coins)
        assert (result.objective, set(result.first_moves)) == (
            best,
            {m for m, value in firsts.items() if value == best},
        ), coins


@pytest.mark.parametrize("text", sorted(INTERVAL))
def test_interval_variants_agree_with_the_oracle_on_random_rows(text: str) -> None:
    search = search_of(text)
    for coins in random_rows(hash(text) % 1000, 60, 14, -20, 30):
        check_two_player(coins, text, search)
    fractions = [Fraction(1, 3), Fraction(-5, 2), Fraction(7, 6), Fraction(1, 2)]
    check_two_player(fractions, text, search)


def test_the_pizza_agrees_with_the_oracle() -> None:
    for coins in itertools.chain(rows(SIGNED, 9), random_rows(7, 200, 14)):
        best, firsts = oracle.pizza(coins)
        for fast in (True, False):
            result = v.circular_solve(coins, fast=fast)
            assert result.objective == best, coins
            assert set(result.first_moves) == {m for m, value in firsts.items() if value == best}
            assert result.totals[0] - result.totals[1] == best
            assert result.moves[0] in result.first_moves
            assert result.starts == tuple(firsts[str(s)] for s in range(len(coins)))


def test_best_reply_to_greedy_agrees_with_the_oracle() -> None:
    for coins in itertools.chain(rows(SMALL, 9), random_rows(8, 200, 14)):
        best, firsts = oracle.reply(coins, oracle.greedy)
        result = v.reply_solve(coins, v.greedy_opponent(coins))
        assert result.totals[0] == best, coins
        assert set(result.first_moves) == {m for m, value in firsts.items() if value == best}
        assert result.objective == best - (sum(coins) - best)
        # the line: greedy's moves on its turns, and the first player gets best
        mine, lo, hi = 0, 0, len(coins) - 1
        for turn, move in enumerate(result.moves):
            if turn % 2:
                assert move == oracle.greedy(coins, lo, hi)
            else:
                mine += coins[lo] if move == "L" else coins[hi]
            lo, hi = (lo + 1, hi) if move == "L" else (lo, hi - 1)
        assert mine == best


def test_best_reply_calls_the_opponent_once_per_state() -> None:
    calls: list[tuple[int, int]] = []
    coins = list(range(30))

    def opponent(lo: int, hi: int) -> str:
        calls.append((lo, hi))
        return "L"

    v.reply_solve(coins, opponent)
    assert len(calls) == len(set(calls)) == sum(30 - w for w in range(30) if (30 - w - 1) % 2)


@pytest.mark.parametrize("p", [2, 3, 4])
@pytest.mark.parametrize("tie", ["left", "right", "spite"])
def test_n_players_agree_with_the_oracle(p: int, tie: str) -> None:
    search = oracle.Players(p, tie)
    for coins in itertools.chain(rows(SMALL, 9), random_rows(p, 100, 14, 0, 5)):
        result = v.players_solve(coins, p, tie)
        assert result.totals == search(coins), coins
        assert result.totals == v.replay(coins, Players(p, tie), result.moves)


def test_two_players_are_the_plain_game() -> None:
    for coins in random_rows(3, 100, 12):
        best, _ = oracle.two_player(coins, "plain")
        result = v.players_solve(coins, 2, "left")
        assert result.objective == best


# --- the fast paths against the general DP --------------------------------------------------


def long_rows(seed: int) -> Iterator[list[int]]:
    """Random rows up to 2,000 coins (one long one, the rest short)."""
    rng = random.Random(seed)
    yield [rng.randint(-1000, 1000) for _ in range(2000)]
    yield [rng.randint(0, 3) for _ in range(700)]
    yield from random_rows(seed, 100, 40, -50, 50)


@pytest.mark.parametrize(
    ("text", "fast"), [("misere", v.misere_solve), ("stone-game-vii", v.stone_game_vii_solve)]
)
def test_fast_paths_agree_with_the_general_dp(text: str, fast: Any) -> None:
    rules = Rules.parse(text)
    for coins in long_rows(len(text)):
        general = v.interval_solve(coins, rules)
        quick = fast(coins)
        assert quick.objective == general.objective
        assert set(quick.first_moves) == set(general.first_moves)
        # the fast line is optimal too: it reaches the same objective
        first, second = v.replay(coins, rules, quick.moves)
        assert (second - first if text == "misere" else first - second) == general.objective


def test_pizza_fast_path_agrees_with_the_doubled_row_dp() -> None:
    rng = random.Random(5)
    for coins in [[rng.randint(-100, 100) for _ in range(400)], *random_rows(6, 100, 30)]:
        assert v.circular_margins_fast(coins) == v.circular_margins(coins)


# --- published cases --------------------------------------------------------------------------


def test_stone_game_vii_published_cases() -> None:
    """LeetCode 1690 examples: 5 3 1 4 2 -> 6; 7 90 5 1 100 10 10 2 -> 122."""
    rules = Rules.parse("stone-game-vii")
    for coins, answer in (([5, 3, 1, 4, 2], 6), ([7, 90, 5, 1, 100, 10, 10, 2], 122)):
        assert v.interval_solve(coins, rules).objective == answer
        assert v.stone_game_vii_solve(coins).objective == answer
        assert oracle.two_player(coins, "svii")[0] == answer


def test_game_of_sum_samples() -> None:
    """UVa 10891 samples (acm.uva.es/p/v108/10891.html): 4 -10 -20 7 -> 7 and 1 2 3 4 -> 10,
    the first player's total minus the second's."""
    rules = Rules.parse("take:any")
    for coins, answer in (([4, -10, -20, 7], 7), ([1, 2, 3, 4], 10)):
        assert v.interval_solve(coins, rules).objective == answer
        assert oracle.two_player(coins, "take", None)[0] == answer


def test_twends_samples() -> None:
    """SPOJ TWENDS samples: 3 2 10 4 -> 7; 1..8 -> 4; 2 2 1 5 3 8 7 3 -> 5."""
    for coins, answer in (
        ([3, 2, 10, 4], 7),
        ([1, 2, 3, 4, 5, 6, 7, 8], 4),
        ([2, 2, 1, 5, 3, 8, 7, 3], 5),
    ):
        assert v.reply_solve(coins, v.greedy_opponent(coins)).objective == answer
        best, _ = oracle.reply(coins, oracle.greedy)
        assert best - (sum(coins) - best) == answer


def test_exact_values() -> None:
    from decimal import Decimal

    coins = [Decimal("0.1"), Decimal("0.2"), Decimal("0.3")]
    with exact_arithmetic():
        assert v.interval_solve(coins, Rules.parse("take:any")).objective == Decimal("0.6")
        assert v.misere_solve(coins).totals == (Decimal("0.4"), Decimal("0.2"))


def test_compiled_fast_paths_agree_with_the_exact_ones() -> None:
    """Long int rows run the compiled reduction (misère, Stone Game VII, the pizza's starts)."""
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(9)
    row = rng.integers(-(10**6), 10**6, 100_001)
    for fast in (v.misere_solve, v.stone_game_vii_solve):
        compiled, exact = fast(row), fast(row.tolist())
        assert (compiled.totals, compiled.objective, compiled.moves, compiled.first_moves) == (
            exact.totals, exact.objective, exact.moves, exact.first_moves,
        )  # fmt: skip
    pizza = [int(x) for x in rng.integers(-50, 50, 300)]
    assert v.circular_margins_fast(pizza) == [
        pizza[s] - v.reduction.margin(v.opened(pizza, s)) for s in range(300)
    ]


def test_the_pizza_never_gives_the_first_player_less_than_four_ninths() -> None:
    """Cibulka et al. / Knauer et al.: the first player can always eat 4/9 of the pizza.
    Checked on every pizza over {0..3} up to 7 slices, and on the smallest share a local
    search found (12/25, 21 slices; docs/variants.md)."""
    for coins in itertools.chain(rows((0, 1, 2, 3), 7), random_rows(11, 300, 25, 0, 9)):
        total = sum(coins)
        if total:
            best = max(v.circular_margins_fast(coins))
            assert Fraction(total + best, 2 * total) >= Fraction(4, 9), coins
    low = [3, 0, 3, 1, 1, 0, 0, 3, 0, 0, 0, 3, 0, 2, 1, 3, 4, 0, 1, 0, 0]
    assert Fraction(sum(low) + max(v.circular_margins(low)), 2 * sum(low)) == Fraction(12, 25)


@pytest.mark.parametrize("take", [1, 2, 4, 7, 40])
@pytest.mark.parametrize("windows", [True, False])
def test_take_k_window_maxima_match_every_move_tried(
    take: int, windows: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """take:K by window maxima (O(n^2)) and by trying every move along the diagonals (small
    K) against trying all 2K moves in every subgame: the same margins and the same first best
    move in tie order (left first, fewer coins first),
    rows with many ties and rows up to 60 coins."""
    monkeypatch.setattr(interval, "TAKE_MOVES_MAX_K", 0 if windows else 10**6)
    rules = Rules.parse(f"take:{take}")
    for coins in itertools.chain(
        random_rows(take, 40, 60, 0, 2), random_rows(take + 1, 40, 60, -30, 30)
    ):
        table = v.IntervalTable(coins, rules)
        for i in range(len(coins)):
            for j in range(i, len(coins)):
                options = [
                    (
                        score - (table.objective_of(lo, hi) if lo <= hi else 0),
                        rules.move(s, c),
                    )
                    for s, c, score, lo, hi in table._moves(i, j)
                ]
                best = max(value for value, _ in options)
                assert table.objective_of(i, j) == best
                assert table.move_of(i, j) == next(m for value, m in options if value == best)
        solved = v.interval_solve(coins, rules)
        assert (solved.objective, solved.moves) == (
            table.objective_of(0, len(coins) - 1),
            table.optimal_line(),
        )


def test_compiled_reply_to_greedy_agrees_with_the_python_dp() -> None:
    """reply:greedy on int64-safe int rows of 64 coins or more runs compiled: the same
    totals, line and first moves as the Python DP, on random rows with and without ties."""
    pytest.importorskip("numba")
    rng = random.Random(16)
    for n in (64, 65, 100, 301):
        for low, high in ((0, 3), (-(10**9), 10**9)):
            coins = [rng.randint(low, high) for _ in range(n)]
            compiled = v.reply_greedy_solve(coins)
            exact = v.reply_solve(coins, v.greedy_opponent(coins))
            assert compiled == exact
    assert v.reply_greedy_solve([2**62] + [1] * 70) == v.reply_solve(
        [2**62] + [1] * 70, v.greedy_opponent([2**62] + [1] * 70)
    )  # too large for int64 arithmetic: the exact path
