"""Strategies: the registry, each built-in against the tests' oracle and plain recursion,
and the blog's examples."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import assert_line_optimal, best_moves, first_total

import coinrow
from coinrow import Game, Position
from coinrow.errors import StrategyParameterError, UnknownStrategyError
from coinrow.numbers import Value
from coinrow.strategies import (
    BUILTINS,
    Optimal,
    RandomStrategy,
    Strategy,
    cooperative,
    get,
    greedy,
    lookahead,
    names,
    parity,
    plain_words,
    play,
    thibault,
    thibault3,
)
from coinrow.subgames import Subgames

rows = st.lists(st.integers(-5, 9), min_size=1, max_size=10)

# The tests' own players: each owns its table, as any caller's would.
optimal, optimal_right = Optimal(), Optimal("right")


def all_positions(coins: Sequence[Value]) -> list[Position]:
    start = Position.start(coins)
    return [
        Position(start.coins, lo, hi) for lo in range(len(coins)) for hi in range(lo, len(coins))
    ]


def brute_margin(coins: Sequence[Value], lo: int, hi: int, depth: int) -> Value:
    """Plain depth-limited minimax on the margin, horizon valued 0."""
    if depth == 0 or lo > hi:
        return 0
    return max(
        coins[lo] - brute_margin(coins, lo + 1, hi, depth - 1),
        coins[hi] - brute_margin(coins, lo, hi - 1, depth - 1),
    )


# --- registry -------------------------------------------------------------------------------


def test_registry_names_and_parameters() -> None:
    assert set(BUILTINS) == {
        "optimal", "greedy", "parity", "lookahead", "random", "cooperative", "thibault",
        "thibault3", "erring",
    }  # fmt: skip
    assert len(names()) == len(BUILTINS)
    assert get("greedy") is greedy and get(" thibault3 ") is thibault3
    assert isinstance(get("optimal"), Optimal) and get("optimal:left").ties == "left"  # type: ignore[attr-defined]
    assert get("optimal:right").ties == "right"  # type: ignore[attr-defined]
    assert get("optimal:random:7").ties == "random"  # type: ignore[attr-defined]
    assert get("optimal") is not get("optimal")  # each player owns its table
    assert isinstance(get("random:42"), RandomStrategy)
    assert get("lookahead").__name__ == "lookahead(2)"
    assert get("lookahead:5").__name__ == "lookahead(5)"


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("magic", UnknownStrategyError, "choose one of: optimal"),
        ("", UnknownStrategyError, "unknown strategy"),
        ("lookahead:x", StrategyParameterError, "must be an integer"),
        ("lookahead:-1", StrategyParameterError, ">= 0"),
        ("random:abc", StrategyParameterError, "the seed must be an integer"),
        ("greedy:3", StrategyParameterError, "takes no parameter"),
        ("optimal:up", StrategyParameterError, "left, right or random"),
        ("no_such_module_xyz:f", UnknownStrategyError, "cannot import strategy module"),
        ("coinrow.numbers:EXACT_CONTEXT", UnknownStrategyError, "no callable"),
    ],
)
def test_registry_errors(name: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        get(name)
    assert issubclass(error, coinrow.CoinrowError)


def test_user_strategy_from_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_rules_for_test.py").write_text("def right_always(position):\n    return 'R'\n")
    monkeypatch.chdir(tmp_path)
    strategy = get("my_rules_for_test:right_always")
    assert play([1, 2, 3], strategy, strategy).line == "RRR"
    assert str(tmp_path) not in sys.path  # the search path is restored
    sys.modules.pop("my_rules_for_test", None)


def test_library_strategy_by_dotted_module() -> None:
    assert get("coinrow.strategies:greedy").__wrapped__ is greedy  # type: ignore[attr-defined]


# --- optimal and its tie policies -----------------------------------------------------------


@pytest.mark.parametrize("length", range(1, 8))
def test_optimal_policies_play_optimal_lines(length: int) -> None:
    policies: list[Strategy] = [optimal, optimal_right, Optimal("random", seed=length)]
    for coins in itertools.product((0, 1, 2), repeat=length):
        for first in policies:
            for second in policies:
                assert_line_optimal(coins, play(coins, first, second).line)


def test_tie_policies_differ_only_on_ties() -> None:
    for position in all_positions([1, 2, 4, 3, 3, 1]):
        moves = best_moves(position.coins, position.lo, position.hi)
        assert optimal(position) == moves[0]
        assert optimal_right(position) == moves[-1]
    start = Position.start([1, 2, 4, 3])  # both first moves optimal
    picks = {Optimal("random", seed=seed)(start) for seed in range(20)}
    assert picks == {"L", "R"}
    one, other = Optimal("random", seed=3), Optimal("random", seed=3)
    assert [one(start) for _ in range(8)] == [other(start) for _ in range(8)]


def test_optimal_on_long_rows_uses_reductions() -> None:
    coins = [(7 * i * i + 3 * i) % 11 for i in range(600)]  # longer than the table limit
    assert Subgames(coins).table is None
    start = Position.start(coins)
    for lo, hi in [(0, 599), (5, 550), (100, 101), (42, 42), (1, 598)]:
        position = Position(start.coins, lo, hi)
        assert optimal(position) == best_moves(coins, lo, hi)[0]
        assert optimal_right(position) == best_moves(coins, lo, hi)[-1]


def test_optimal_exact_numbers() -> None:
    assert play(["0.1", "0.3", "0.2"], optimal, optimal).totals == (
        Decimal("0.3"),
        Decimal("0.3"),
    )
    thirds = [Fraction(1, 3), Fraction(1, 2), Fraction(1, 7)]
    assert play(thirds, optimal, optimal).totals[0] == first_total(thirds) == Fraction(10, 21)


# --- greedy, parity, lookahead, random ------------------------------------------------------


@given(rows)
def test_lookahead_is_depth_limited_minimax(coins: list[int]) -> None:
    for position in all_positions(coins):
        lo, hi = position.lo, position.hi
        for depth in range(0, 5):
            left = coins[lo] - brute_margin(coins, lo + 1, hi, depth - 1) if depth else 0
            right = coins[hi] - brute_margin(coins, lo, hi - 1, depth - 1) if depth else 0
            assert lookahead(depth)(position) == ("L" if left >= right else "R")
        assert lookahead(1)(position) == greedy(position)
        assert lookahead(hi - lo + 1)(position) == best_moves(coins, lo, hi)[0]
        assert lookahead(100)(position) == best_moves(coins, lo, hi)[0]


def test_lookahead_rejects_bad_depths() -> None:
    with pytest.raises(StrategyParameterError):
        lookahead(-1)
    with pytest.raises(StrategyParameterError):
        lookahead(True)


def test_greedy_and_parity_seed_examples() -> None:
    assert play([8, 15, 3, 7], greedy, optimal).totals[0] == 15
    assert play([3, 2, 2, 3, 1, 2], parity, optimal).totals[0] == 7
    assert parity(Position.start([1, 5, 2])) == greedy(Position.start([1, 5, 2]))  # odd: fallback


def test_random_strategy_is_seeded_and_legal() -> None:
    first = play(list(range(30)), RandomStrategy(5), RandomStrategy(6)).line
    again = play(list(range(30)), RandomStrategy(5), RandomStrategy(6)).line
    assert first == again and set(first) <= {"L", "R"} and len(first) == 30
    assert len({play(list(range(30)), RandomStrategy(s), greedy).line for s in range(5)}) > 1


# --- cooperative: the manipulable opponent --------------------------------------------------


def best_response(coins: tuple[Value, ...], opponent: Strategy, seat: int) -> Value:
    """Brute force: the most the player in ``seat`` collects against a fixed opponent."""

    def search(position: Position) -> Value:
        if position.is_over:
            return 0
        mover = 0 if position.turn == "first" else 1
        if mover != seat:
            return search(position.play(opponent(position)))
        return max(coins[position.coin_index(move)] + search(position.play(move)) for move in "LR")

    return search(Position.start(coins))


def most_collected(coins: tuple[Value, ...], seat: int) -> Value:
    """Brute force: the most a player collects over every line of play."""
    n = len(coins)
    return max(
        Game(coins, "".join(line)).totals[seat] for line in itertools.product("LR", repeat=n)
    )


@pytest.mark.parametrize("length", range(1, 7))
def test_cooperative_hands_the_opponent_the_cooperative_total(length: int) -> None:
    for coins in itertools.product((0, 1, 3), repeat=length):
        # cooperative second: the first player's best response is the cooperative total
        assert best_response(coins, cooperative, 0) == coinrow.cooperative_total(coins)
        # cooperative first: the second player collects the most any line gives it
        assert best_response(coins, cooperative, 1) == most_collected(coins, 1)


def test_cooperative_seed_example() -> None:
    # 1 100 1: the first player takes a 1 and the cooperative opponent leaves the 100.
    assert play([1, 100, 1], optimal, cooperative).totals == (101, 1)


# --- Thibault's rules -----------------------------------------------------------------------


def test_thibault_rules_one_by_one() -> None:
    # rule 1: a larger end above its neighbour
    assert thibault(Position.start([5, 1, 1, 3])) == "L"
    assert thibault(Position.start([3, 1, 4, 5])) == "R"
    # rule 1 does not apply (5 is not above its neighbour 6); rule 2: groups 5+1 < 6+2
    assert thibault(Position.start([5, 6, 1, 2])) == "R"
    # equal groups and no rule 1: the left coin
    assert thibault(Position.start([2, 1, 2, 3, 3, 3])) == "L"
    # rule 2 is skipped with an odd number of coins left (both ends are in one group)
    assert thibault(Position.start([1, 9, 9, 9, 2])) == "L"
    # rule 3 only in thibault3: 2 - max(1, 3) = -1 beats 3 - max(2, 5) = -2
    assert thibault3(Position.start([2, 1, 2, 5, 5, 3])) == "L"
    assert thibault3(Position.start([3, 5, 5, 2, 1, 2])) == "R"
    assert thibault(Position.start([3, 5, 5, 2, 1, 2])) == "L"
    # the last coin
    assert thibault(Position.start([4])) == "L" and thibault3(Position.start([4])) == "L"


@pytest.mark.parametrize(
    ("strategy", "coins", "got", "best"),
    [
        (thibault, [2, 1, 2, 3, 3, 3], 7, 8),
        (thibault3, [2, 1, 2, 5, 5, 3], 9, 10),
        (parity, [3, 2, 2, 3, 1, 2], 7, 8),
    ],
)
def test_blog_counterexamples(strategy: Strategy, coins: list[int], got: int, best: int) -> None:
    assert play(coins, strategy, optimal).totals[0] == got
    assert first_total(coins) == best


@given(rows)
def test_every_builtin_returns_a_legal_move(coins: list[int]) -> None:
    for name in BUILTINS:
        strategy = get(name, seed=1)
        game = play(coins, strategy, strategy)
        assert len(game.line) == len(coins)


def test_erring_slips_at_its_rate_and_is_seeded() -> None:
    row = [8, 15, 3, 7]
    assert play(row, get("erring:0"), Optimal()).line == play(row, Optimal(), Optimal()).line
    assert get("erring:100")(Position.start(row)) == "L"  # the optimal 7 is on the right
    lines = {play(row * 5, get("erring:50", seed=3), Optimal()).line for _ in range(2)}
    assert len(lines) == 1  # the same seed slips the same way
    for bad in ("erring:101", "erring:x", "erring:-1"):
        with pytest.raises(StrategyParameterError):
            get(bad)


def test_every_builtin_has_plain_words() -> None:
    for name in BUILTINS:
        title, line = plain_words(name)
        assert title and line and title != name
    assert plain_words("thibault3")[0] == "Neighbour rule plus"
    with pytest.raises(UnknownStrategyError):
        plain_words("magic")
