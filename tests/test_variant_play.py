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

from coinrow import Rules, solve
from coinrow.errors import IllegalMoveError, SubgameError, UnsupportedRulesError
from coinrow.game import Game, Position, parse_line
from coinrow.play_values import PlayValues

SMALL = (0, 1, 2)
SIGNED = (-1, 0, 2)

#: rules text -> (the oracle's kind, take, alphabet, longest row checked exhaustively)
INTERVAL = {
    "misere": ("misere", 1, SIGNED, 7),
    "stone-game-vii": ("svii", 1, SIGNED, 7),
    "take:2": ("take", 2, SIGNED, 7),
    "take:any": ("take", None, SIGNED, 7),
    "both-ends": ("both", 1, SMALL, 7),
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
    rules, search = Rules.parse(text), oracle.TwoPlayer(kind, take)
    for row in rows(alphabet, longest):
        values = PlayValues(row, rules)
        game = Game(row, rules=rules)
        best, _ = search(row)
        start_totals = game.best_totals(values=values)
        assert objective(rules, start_totals, 0) == best, row
        while not game.position.is_over:
            position = game.position
            sub_best, firsts = search(position.remaining)
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
    rules, line = Rules.parse("circular"), oracle.TwoPlayer("plain")
    for row in rows(SIGNED, 7):
        values = PlayValues(row, rules)
        game = Game(row, rules=rules)
        best, firsts = oracle.pizza(row)
        assert set(game.best_moves(values=values)) == optimal_set(firsts, best)
        totals = game.best_totals(values=values)
        assert totals[0] - totals[1] == best
        game.push(game.best_moves(values=values)[0])
        while not game.position.is_over:
            sub_best, sub_firsts = line(game.position.remaining)
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
    rules, search = Rules.parse(f"players:{p}:{tie}"), oracle.Players(p, tie)
    for row in rows(SMALL, 7):
        values = PlayValues(row, rules)
        game = Game(row, rules=rules)
        expected = search(row)
        assert game.best_totals(values=values) == expected
        while not game.position.is_over:
            position = game.position
            ahead = search(position.remaining)  # the mover first
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


def test_records_with_rules_round_trip() -> None:
    from coinrow.record import Record, load_records

    samples = [
        Record([1, 2, 3, 4, 5], "L2 R1 R2", {"players": "a vs b"}, rules="take:2"),
        Record([1, 2, 3, 4, 5], "l3", rules="take:any"),
        Record([1, 2, 3, 4], "2 LR", rules="circular"),
        Record([1, 2, 3, 4, 5], "BLB", rules="both-ends"),
        Record([1, 2, 3, 4, 5], "LRLR", rules="players:3:spite"),
        Record([5, 3, 1, 4, 2], "LRLRL", rules="stone-game-vii"),
        Record([3, 2, 1], "RL"),
    ]
    text = "\n".join(record.to_text() for record in samples)
    assert load_records(text).records == samples
    import json

    assert load_records(json.dumps([r.to_dict() for r in samples])).records == samples
    assert samples[0].to_text().splitlines()[1:] == ["# rules: take:2", "1 2 3 4 5", "L2 R1 R2"]
    assert samples[1].moves == "L3" and not samples[1].finished and samples[3].finished
    assert samples[5].game().totals == (15, 9)
    # old records (no rules header) read as plain games
    old = load_records("# players: x vs y\n3 2 1\nRL\n").records[0]
    assert old.rules == Rules() and old.game().rules.is_plain and "rules" not in old.headers
    bad = load_records("# rules: pizza\n1 2\nL\n\n# rules: take:2\n1 2 3\nL3\n")
    assert [error.line for error in bad.errors] == [3, 7] and not bad.records
    assert "unknown rules 'pizza'" in str(bad.errors[0])
    with pytest.raises(Exception, match="the rules header says take:2"):
        Record([1, 2], "", {"rules": "take:2"}, rules="misere")


def test_analysis_under_rules() -> None:
    from coinrow.analysis import analyze

    # the misère game: a move's loss is how much more the mover must take
    misere = analyze([1, 5, 2], "LL", rules="misere")
    assert [(m.best_moves, m.loss, m.label) for m in misere.moves] == [
        (("L",), 0, "best"),
        (("R",), 3, "blunder"),
    ]
    assert misere.finished is False and misere.to_dict()["rules"] == "misere"
    # every two-player variant: an optimal game has no loss; the values match the oracle
    for text, (kind, take, _, _) in INTERVAL.items():
        row = [3, -1, 2, 2, 0, 1]
        game = Game(row, rules=text)
        values = PlayValues(row, text)
        while not game.position.is_over:
            game.push(game.best_moves(values=values)[0])
        analysis = analyze(row, game.line, rules=text)
        assert all(move.loss == 0 for move in analysis.moves), text
        assert analysis.finished
        start = analysis.first.guaranteed_start, analysis.second.guaranteed_start
        assert objective(Rules.parse(text), start, 0) == oracle.two_player(row, kind, take)[0]
        # a deliberately bad first move loses exactly its drop in the oracle's value
        worst = min(
            Position.start(row, rules=text).legal_moves(),
            key=lambda m: oracle.two_player(row, kind, take)[1][m],
        )
        best, firsts = oracle.two_player(row, kind, take)
        lost = analyze(row, [worst], rules=text).moves[0].loss
        drop = best - firsts[worst]
        assert lost == (drop if text == "stone-game-vii" else drop / 2), text
    # players: each seat's shortfall, and a summary per seat
    three = analyze([1, 2, 3, 4, 5], "LLLLL", rules="players:3")
    assert [s.player for s in three.summaries] == ["player 1", "player 2", "player 3"]
    for move in three.moves:
        assert move.loss == move.guaranteed_before - move.guaranteed_after >= 0
    assert three.moves[0].loss == 3  # L leaves the first player 4 of the 7 R gives
    assert set(three.to_dict()["summary"]) == {"player 1", "player 2", "player 3"}
    assert three.moves[0].to_dict()["totals"] == [1, 0, 0]
    # the pizza: the first slice is judged against the best slice
    pizza = analyze([1, 2, 3, 4], "0 LLL", rules="circular")
    assert pizza.moves[0].best_moves == ("1", "3") and pizza.moves[0].loss == 2


ALL_RULES = [
    "misere", "stone-game-vii", "take:2", "take:any", "both-ends", "circular",
    "reply:greedy", "reply:lookahead:2", "players:3", "players:4:spite",
]  # fmt: skip


@pytest.mark.parametrize("text", ALL_RULES)
def test_strategies_under_rules(text: str) -> None:
    from coinrow import strategies

    rules = Rules.parse(text)
    rng = random.Random(text)
    for _ in range(15):
        row = [rng.randint(-3, 9) for _ in range(rng.randint(1, 8))]
        seats = [strategies.Optimal() for _ in range(rules.players)]
        if rules.kind == "reply":  # the second seat plays the known opponent
            seats[1] = strategies.get(rules.strategy or "")
        game = strategies.play(row, *seats, rules=rules)
        opponent = seats[1] if rules.kind == "reply" else None
        solved = solve(row, rules=rules, opponent=opponent)
        if rules.two_player:
            assert game.totals[0] - game.totals[1] == solved.margin, (row, game.line)
        else:
            assert game.totals == solved.totals
        for name in ("greedy", "random:3", "optimal:right", "optimal:random:5"):
            players = [strategies.get(name, rules=rules) for _ in range(rules.players)]
            other = strategies.play(row, *players, rules=rules)
            assert other.position.is_over and len(other.moves) >= 1
            assert sum(len(t) for t in other.coins_taken) == len(row)


def test_greedy_scores_now_and_plain_only_strategies_refuse_rules() -> None:
    from coinrow import strategies

    assert strategies.greedy(Position.start([5, 1, 2], rules="misere")) == "R"
    assert strategies.greedy(Position.start([5, 1, 9], rules="stone-game-vii")) == "L"
    assert strategies.greedy(Position.start([2, 9, 1], rules="circular")) == "1"
    assert strategies.greedy(Position.start([2, -9, 8], rules="take:any")) == "R1"
    assert strategies.greedy(Position.start([4, 4, 3], rules="both-ends")) == "B"
    for name in ("lookahead:2", "parity", "thibault", "erring:10", "cooperative"):
        with pytest.raises(UnsupportedRulesError, match=f"'{name}'.*take:2"):
            strategies.get(name, rules="take:2")
        with pytest.raises(UnsupportedRulesError, match="plain game only"):
            strategies.get(name)(Position.start([1, 2, 3], rules="misere"))
    with pytest.raises(UnsupportedRulesError, match="seat 3 players; 2 strategies"):
        strategies.play([1, 2, 3], strategies.greedy, strategies.greedy, rules="players:3")


def test_levels_under_rules() -> None:
    from coinrow.levels import LEVELS, levels_for

    assert levels_for() == LEVELS == levels_for("plain")
    assert [level.strategy for level in levels_for("players:3")] == ["random", "greedy", "optimal"]


def test_tournaments_under_rules() -> None:
    from coinrow.tournament import Tournament, tournament

    result = tournament(["optimal", "greedy", "random"], rows=6, n=6, seed=2, rules="misere")
    assert result.to_dict()["rules"] == "misere"
    optimal = next(s for s in result.standings if s.strategy == "optimal")
    assert optimal.regret_sum == 0 and optimal.games == 24
    # against itself under any two-player rules, optimal play has no regret in either seat
    for text in ("stone-game-vii", "take:any", "both-ends", "circular"):
        pair = tournament(["optimal", "optimal:right"], rows=3, n=5, seed=1, rules=text).pairs[0]
        assert pair.regret_sum == pair.opponent_regret_sum == 0, text
        assert pair.wins == pair.losses  # both seat orders, same values
    for text in ("players:3", "reply:greedy"):
        with pytest.raises(UnsupportedRulesError, match="do not apply to a tournament"):
            Tournament(["optimal", "greedy"], rules=text)
    with pytest.raises(UnsupportedRulesError, match="'parity' plays the plain game only"):
        Tournament(["optimal", "parity"], rules="take:2")


def test_refute_under_rules_against_the_oracle() -> None:
    from coinrow import strategies
    from coinrow.refute import check_row, refute

    # optimal is never refuted; greedy's first counterexample is a real one (oracle)
    assert refute("optimal", [-1, 0, 2], 5, rules="take:2", limit=0).found == 0
    assert refute("optimal", [0, 1, 2], 5, rules="circular", limit=0).found == 0
    result = refute("greedy", [1, 2, 3], 6, rules="misere")
    (example,) = result.counterexamples
    assert example.coins == (2, 1, 2, 2) and example.loss == 1
    best, firsts = oracle.two_player(example.coins, "misere")
    greedy_first = strategies.greedy(Position.start(example.coins, rules="misere"))
    assert firsts[greedy_first] < best  # its first move is already a mistake
    found = check_row([1, 2, 3, 4, 5], strategies.greedy, rules="players:3")
    assert found is None or found.loss > 0
    assert result.to_dict()["rules"] == "misere"


def test_guaranteed_is_best_totals_for_two_players() -> None:
    position = Position.start([1, 5, 2], rules="misere")
    assert position.guaranteed() == position.best_totals() == (6, 2)
    assert Position.start([1, 5, 2], rules="circular").guaranteed((0, 0)) == (6, 2)
    with pytest.raises(UnsupportedRulesError, match="best_totals"):
        Position.start([1, 2, 3], rules="players:3").guaranteed()
    with pytest.raises(UnsupportedRulesError, match="3 players; taken has 2"):
        Position.start([1, 2, 3], rules="players:3").best_totals((0, 0))
    with pytest.raises(UnsupportedRulesError, match="not of this position"):
        Position.start([1, 2, 3], rules="misere").best_totals(values=PlayValues([1, 2], "misere"))
