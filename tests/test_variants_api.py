"""Rules through the public API and the CLI: coinrow.Rules, solve(rules=...), Table(rules=...),
coinrow solve/table --rules (docs/variants.md)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import coinrow
from coinrow import Rules, RulesError, Table, UnsupportedRulesError, solve
from coinrow.cli import main
from coinrow.strategies import get

TEXTS = [
    "plain", "circular", "misere", "stone-game-vii", "take:1", "take:3", "take:any",
    "both-ends", "reply:greedy", "reply:lookahead:2", "players:2", "players:3:left",
    "players:5:spite", "players:4:right",
]  # fmt: skip


@pytest.mark.parametrize("text", TEXTS)
def test_rules_text_round_trips(text: str) -> None:
    rules = Rules.parse(text)
    assert Rules.parse(str(rules)) == rules and hash(Rules.parse(str(rules))) == hash(rules)
    assert eval(repr(rules), {"Rules": Rules}) == rules
    with pytest.raises(AttributeError):
        rules.kind = "plain"  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    ["pizza", "", "take", "take:0", "take:-1", "take:x", "take:1.5", "misere:1", "reply:",
     "reply:1x", "reply:random", "reply:random:3", "reply:optimal:random", "players",
     "players:1", "players:65", "players:3:up", "both-ends:2"],
)  # fmt: skip
def test_malformed_rules_are_refused(text: str) -> None:
    with pytest.raises(RulesError):
        Rules.parse(text)


def test_rules_fields_are_validated() -> None:
    from coinrow.rules import Players, Reply, Take

    for make in (
        lambda: Take(0),
        lambda: Take(True),  # type: ignore[arg-type]
        lambda: Reply(""),
        lambda: Reply("random"),
        lambda: Players(1),
        lambda: Players(3, "up"),
        lambda: Players(True),  # type: ignore[arg-type]
    ):
        with pytest.raises(RulesError):
            make()
    with pytest.raises(TypeError):
        Rules("misere")  # type: ignore[call-arg]
    assert issubclass(UnsupportedRulesError, RulesError) and issubclass(RulesError, ValueError)


def test_solve_keeps_the_plain_game_by_default() -> None:
    assert isinstance(solve([1, 2, 3]), coinrow.Solution)
    assert isinstance(solve([1, 2, 3], rules="plain"), coinrow.Solution)
    assert isinstance(solve([1, 2, 3], rules=Rules()), coinrow.Solution)
    with pytest.raises(RulesError):
        solve([1, 2, 3], rules="pizza")


def test_variant_solutions() -> None:
    s = solve([5, 3, 1, 4, 2], rules="stone-game-vii")
    assert isinstance(s, coinrow.Solution)
    assert (s.margin, s.outcome, s.engine) == (6, "first", "reduction")
    assert solve([5, 3, 1, 4, 2], "table", rules="stone-game-vii").margin == 6
    misere = solve([1, 5, 2], rules="misere")
    assert misere.totals == (6, 2) and misere.outcome == "second" and misere.objective == -4
    pizza = solve([1, 2, 3, 4], rules="circular")
    assert (pizza.start, pizza.first_moves, pizza.margin) == (1, ("1", "3"), 2)
    take = solve([4, -10, -20, 7], rules="take:any")
    assert take.margin == 7 and take.moves[0] in ("L1", "R1")
    players = solve([1, 2, 3, 4, 5], rules="players:3")
    assert players.outcome == "player 1" and players.winners == (0,)
    with pytest.raises(UnsupportedRulesError, match=r"3 players .* has no margin"):
        players.margin  # noqa: B018
    assert players.to_dict()["tie_break"] == "left" and players.to_dict()["margin"] is None
    fractions = solve([Fraction(1, 3), Fraction(1, 2)], rules="both-ends")
    assert fractions.totals == (Fraction(5, 6), 0)
    assert json.loads(json.dumps(fractions.to_dict()))["first_total"] == "5/6"


def test_reply_takes_any_deterministic_strategy() -> None:
    coins = [3, 2, 10, 4, 6, 1]
    by_name = solve(coins, rules="reply:greedy")
    by_strategy = solve(coins, rules="reply:greedy", opponent=get("greedy"))
    assert by_name.totals == by_strategy.totals
    with pytest.raises(UnsupportedRulesError, match="strategy object"):
        solve(coins, rules="reply:lookahead:2")
    assert solve(coins, rules="reply:lookahead:2", opponent=get("lookahead:2")).totals[0] >= (
        solve(coins).first_total
    )


def test_variant_cost_is_bounded_before_it_is_paid(capsys: pytest.CaptureFixture[str]) -> None:
    from coinrow.engines.variants import variant_cost

    with pytest.raises(coinrow.CostLimitError, match="over the limit of 60 seconds") as caught:
        solve([1] * 20_000, rules="both-ends")
    assert caught.value.limit == 60 and caught.value.seconds > 60
    with pytest.raises(coinrow.CostLimitError, match="take:3 would take"):
        solve([1] * 3000, rules="take:3", max_seconds=0.5)
    with pytest.raises(coinrow.RowTooLongError, match=r"of move codes, over the 1\.0 MiB budget"):
        solve([1] * 1000, rules="take:any", max_seconds=None, memory_budget=2**20)
    with pytest.raises(coinrow.CostLimitError, match="a table of 3,000 coins under misere"):
        Table([1] * 3000, rules="misere", max_seconds=0.5)
    with pytest.raises(coinrow.TableTooLargeError, match=r"over the 1\.0 MiB budget"):
        Table([1] * 300, rules="take:2", memory_budget=2**20)
    assert solve([1] * 20_000, rules="misere").totals == (10_000, 10_000)  # O(n): no limit
    # every engine has a cost: the pizza compiled is cheaper than in Python; Fractions dearer
    ints, pizza = [1] * 2000, Rules.parse("circular")
    assert variant_cost(ints, pizza)[0] < variant_cost(ints, pizza, fast=False)[0] / 10
    fractions = [Fraction(1, k) for k in range(1, 2001)]
    assert (
        variant_cost(fractions, Rules.parse("both-ends"))[0]
        > 5 * variant_cost(ints, Rules.parse("both-ends"))[0]
    )
    assert main(["solve", "--rules", "take:any", *["1"] * 20_000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--no-limit runs it anyway" in err
    assert main(["solve", "--rules", "take:any", "--no-limit", "--json", "1", "2", "3"]) == 0


def test_variant_tables() -> None:
    table = Table([1, 2, 3, 4], rules="take:2")
    assert (table.value_of(0, 3), table.margin_of(0, 3), table.moves_of(0, 3)) == (7, 4, ("R2",))
    assert table.line == "R2 L2" or table.line.startswith("R2")
    svii = Table([5, 3, 1, 4, 2], rules="stone-game-vii")
    assert svii.margin_of(0, 4) == 6
    with pytest.raises(UnsupportedRulesError):
        svii.value_of(0, 4)
    with pytest.raises(UnsupportedRulesError):
        Table([1, 2, 3], rules="circular")
    assert isinstance(Table([1, 2, 3], rules="plain"), Table)


def test_cli_solve_with_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rules", "circular", "--json", "1", "2", "3", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rules"], data["margin"], data["start"], data["line"]) == (
        "circular",
        2,
        1,
        "1 LLL",
    )
    assert main(["solve", "--rules", "take:any", "1", "2", "3", "4"]) == 0
    assert "first 10, second 0" in capsys.readouterr().out
    assert main(["solve", "--rules", "reply:lookahead:1", "--json", "3", "2", "10", "4"]) == 0
    assert json.loads(capsys.readouterr().out)["first_total"] == 13


def test_cli_table_with_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--rules", "take:2", "--json", "1", "2", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cells"][0] == {
        "i": 0,
        "j": 2,
        "value": 5,
        "margin": 4,
        "moves": ["R2"],
        "player": None,
    }
    assert main(["table", "--rules", "misere", "1", "2", "3"]) == 0
    assert "1 2 3 (Misère): the first player's lead" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "--rules", "pizza"], "unknown rules 'pizza'"),
        (["solve", "--rules", "take:0"], "take:0"),
        (["table", "--rules", "circular"], "Pizza (circular) has no table"),
        (["table", "--rules", "players:3"], "no table"),
        (["table", "--rules", "misere", "--highlight", "B"], "'B' is not a move"),
    ],
)
def test_cli_rules_errors_exit_2_with_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*args, "1", "2", "3"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_tables_still_copy_and_pickle() -> None:
    """Table.__new__ (the rules hook) leaves copy and pickle working, plain and variant."""
    import copy
    import pickle

    plain = Table([1, 2, 4, 3])
    assert copy.deepcopy(plain).value_of(0, 3) == 5
    assert pickle.loads(pickle.dumps(plain)).moves_of(0, 3) == ("L", "R")
    assert pickle.loads(pickle.dumps(Table([1, 2, 3], rules="take:2"))).moves_of(0, 2) == ("R2",)
