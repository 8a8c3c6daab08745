"""The web API under other rules (``rules`` on /api/solve and /api/table): the library's own
JSON for every rules, the pizza's ``starts``, bad or inapplicable rules as one-sentence 422s,
and variant work costed like the rest (refused over the limit, sent to a worker when not
cheap)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from coinrow import Rules, Table, solve
from coinrow.engines.variants import circular_margins
from coinrow.svg import ring, variant_triangle

with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from coinrow.web import Limits, app, create_app

client = TestClient(app, base_url="http://127.0.0.1")

ROW = [3, -1, 4, 1, -5, 9, 2, 6]
RULES = [
    "circular",
    "misere",
    "stone-game-vii",
    "take:1",
    "take:3",
    "take:any",
    "both-ends",
    "reply:greedy",
    "players:2",
    "players:3",
    "players:4:right",
    "players:3:spite",
]


def post(path: str, body: Any) -> Any:
    response = client.post(f"/api/{path}", json=body)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("rules", RULES)
def test_solve_is_the_library_json(rules: str) -> None:
    data = post("solve", {"coins": ROW, "rules": rules})
    solution = solve(ROW, rules=rules)
    info = data.pop("first_move_info")  # the page's words for each first move, the library's
    assert [item["move"] for item in info] == list(solution.first_moves)
    chosen = Rules.parse(rules)
    assert [item["words"] for item in info] == [chosen.move_words(m) for m in solution.first_moves]
    picture = data.pop("svg", None)  # the pizza's ring: the library's picture, as it draws it
    assert picture == (str(ring(solution)) if solution.starts is not None else None)
    assert data == solution.to_dict()
    if rules == "circular":
        assert data["starts"] == circular_margins(ROW)
        assert data["objective"] == max(data["starts"])
    else:
        assert data.get("starts") is None


def test_plain_rules_are_the_plain_solve() -> None:
    row = "3 2 2 3 1 2"
    assert post("solve", {"coins": row, "rules": "plain"}) == post("solve", {"coins": row})


def test_exact_values_under_rules() -> None:
    data = post("solve", {"coins": ["0.1", "0.25", "2"], "rules": "misere"})
    assert data["totals"] == ["2.1", "0.25"] and data["outcome"] == "second"  # one way


@pytest.mark.parametrize("rules", ["plain", "misere", "stone-game-vii", "take:2", "take:any"])
def test_table_is_the_library_json(rules: str) -> None:
    row = ROW[:6]
    data = post("table", {"coins": row, "rules": rules})
    if rules == "plain":
        assert "svg" in data and data["cells"][0]["value"] == Table(row).value_of(0, 5)
        return
    table = Table(row, rules=rules)
    # the library's own picture, with the labels and arrows Explore shows on demand
    assert data.pop("svg") == str(variant_triangle(table, on_demand=True))
    assert data == table.to_dict()


def test_both_ends_table_keeps_the_plain_picture_options() -> None:
    row = ROW[:5]
    data = post(
        "table", {"coins": row, "rules": "both-ends", "view": "margin", "highlight": "best"}
    )
    table = Table(row, rules="both-ends")
    assert data.pop("svg") == str(variant_triangle(table, highlight="best", on_demand=True))
    assert data == table.to_dict()
    response = client.post("/api/table", json={"coins": row, "rules": "misere", "view": "x"})
    assert response.status_code == 422


BAD = [
    ("solve", "take:0", "rules 'take:0': K must be a whole number from 1 to 1000000, or any"),
    ("solve", "pizza", "unknown rules 'pizza'; choose one of: plain, circular, misere, "),
    ("solve", "MISERE", "rules 'MISERE': write them as 'misere'"),
    ("solve", "players:65", "rules 'players:65': P must be a whole number from 2 to 64"),
    ("solve", "players:3:up", "rules 'players:3:up': the tie-break must be one of left, "),
    ("solve", "reply:lookahead:2", "rules 'reply:lookahead:2' do not apply here; this takes "),
    ("solve", "reply:random", "reply:random: the opponent must be deterministic, not random"),
    ("table", "circular", "rules 'circular' do not apply here; this takes plain, misere, "),
    ("table", "players:3", "rules 'players:3' do not apply here; this takes plain, misere, "),
    ("table", "reply:greedy", "rules 'reply:greedy' do not apply here; this takes plain, "),
    ("solve", True, "rules: Input should be a valid string"),
    ("solve", "x" * 41, "rules: String should have at most 40 characters"),
]


@pytest.mark.parametrize(
    ("path", "rules", "message"), BAD, ids=[f"{b[0]}-{b[1]!s:.12}" for b in BAD]
)
def test_bad_rules_are_one_sentence(path: str, rules: object, message: str) -> None:
    response = client.post(f"/api/{path}", json={"coins": [1, 2, 3], "rules": rules})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/json"
    detail = response.json()["detail"]
    assert detail.startswith(message), detail
    assert "\n" not in detail and "Traceback" not in detail


def test_variant_work_is_bounded() -> None:
    """Over the request's limit, a variant is refused with one sentence before it runs."""
    strict = TestClient(
        create_app(Limits(request_seconds=1), workers=False), base_url="http://127.0.0.1"
    )
    response = strict.post("/api/solve", json={"coins": list(range(5000)), "rules": "take:any"})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("rules take:any on 5,000 coins would take about")
    response = strict.post("/api/table", json={"coins": list(range(40)), "rules": "take:40"})
    assert response.status_code == 200  # 40 coins: far below the limit
    too_many = strict.post("/api/solve", json={"coins": list(range(2000)), "rules": "players:64"})
    assert too_many.status_code == 422


def test_costly_variant_runs_in_a_worker() -> None:
    """Work the estimate puts over the inline budget is answered by a worker process."""
    row = list(range(1, 301))
    data = post("solve", {"coins": row, "rules": "both-ends"})
    assert [item["move"] for item in data.pop("first_move_info")] == data["first_moves"]
    assert data == solve(row, rules="both-ends").to_dict()
