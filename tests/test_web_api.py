"""The web API through FastAPI's TestClient: agreement with the CLI's ``--json`` on the same
rows, stateless play, the steps data, and every kind of bad input as a readable 4xx."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from oracle import modules_loaded_after

from coinrow import Table, solve
from coinrow.cli import main
from coinrow.cli.solve import JSON_LIMIT
from coinrow.numbers import random_row
from coinrow.steps import fill_steps, memo_calls
from coinrow.strategies import BUILTINS

with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from coinrow.web import Limits, app, create_app
from coinrow.web.app import PER_COIN_LIMIT, STATIC

client = TestClient(app, base_url="http://127.0.0.1")

ROWS = [
    ["3", "2", "2", "3", "1", "2"],
    ["8", "15", "3", "7"],
    ["0.1", "0.2", "0.3"],
    ["1/3", "1/2", "2", "1/7"],
    ["-3", "5", "-1"],
    ["7"],
    [str(10**40), "1", str(10**39)],
]


def cli_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def post(path: str, body: Any) -> Any:
    response = client.post(f"/api/{path}", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def solved(body: dict[str, Any]) -> dict[str, Any]:
    """/api/solve's answer without ``first_move_info`` (the page's words for the first moves,
    checked here: one entry per first move, in order, with the coins it takes)."""
    data = post("solve", body)
    info = data.pop("first_move_info")
    assert [item["move"] for item in info] == data["first_moves"]
    for item in info:
        assert item["words"] and len(item["indices"]) == len(item["coins"]) >= 1
    return data


@pytest.mark.parametrize("row", ROWS, ids=" ".join)
def test_solve_is_the_cli_json(row: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    expected = cli_json(["solve", "--json", *row], capsys)
    assert solved({"coins": row}) == expected
    assert solved({"coins": " ".join(row)}) == expected  # one text of coins
    assert solved({"coins": ", ".join(row)}) == expected  # any separators


def test_solve_json_numbers_are_exact() -> None:
    raw = b'{"coins": [0.1, 0.2, 0.3, 1e2, 0.1000000000000000000001]}'
    response = client.post("/api/solve", content=raw, headers={"content-type": "application/json"})
    data = response.json()
    assert data.pop("first_move_info")[0]["coins"] == ["0.1"]  # the page's words: take 0.1
    assert data["coins"] == ["0.1", "0.2", "0.3", "100", "0.1000000000000000000001"]
    assert data == solve(["0.1", "0.2", "0.3", "1e2", "0.1000000000000000000001"]).to_dict()
    assert post("solve", {"coins": [3, "2", 2.5]})["coins"] == ["3", "2", "2.5"]


def test_solve_long_rows_leave_out_per_coin_keys_unless_full() -> None:
    row = [1 + k % 9 for k in range(10_001)]
    short = post("solve", {"coins": row})
    assert "coins" not in short and short["omitted"] == [
        "coins",
        "line",
        "moves",
        "first_coins",
        "second_coins",
    ]
    assert short["first_total"] == solve(row).first_total
    assert len(post("solve", {"coins": row, "full": True})["line"]) == 10_001
    assert PER_COIN_LIMIT == JSON_LIMIT  # the same cut as `coinrow solve --json`


def test_table_is_the_cli_json_plus_svg(capsys: pytest.CaptureFixture[str]) -> None:
    row = ["3", "2", "2", "3", "1", "2"]
    expected = cli_json(["table", "--json", *row], capsys)
    data = post("table", {"coins": row})
    svg = data.pop("svg")
    assert data == expected
    assert svg.startswith("<svg") and svg.count('class="cell"') == 21
    assert 'data-i="0" data-j="5" data-value="8" data-moves="L"' in svg
    best = post("table", {"coins": row, "view": "margin", "highlight": "best"})["svg"]
    assert best.count('data-highlight="1"') == 6 and 'data-view="margin"' in best
    played = post("table", {"coins": row, "highlight": "LR"})["svg"]
    assert played.count('data-highlight="1"') == 3  # two cells played from, and the current one
    assert post("table", {"coins": list(range(40))})["svg"].count('class="cell"') == 820


def test_analyze_is_the_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.txt"
    record.write_text("3 2 2 3 1 2\nRLLLLL\n")
    (expected,) = cli_json(["analyze", "--json", str(record)], capsys)["games"]
    expected.pop("headers")
    data = post("analyze", {"coins": [3, 2, 2, 3, 1, 2], "moves": "RLLLLL"})
    assert data == expected
    assert data["finished"] and data["line"] == "RLLLLL"
    assert data["moves"][0]["label"] == "mistake" and data["summary"]["first"]["total_loss"] == 1
    partial = post("analyze", {"coins": "3 2 2 3 1 2", "moves": "LL"})
    assert not partial["finished"] and len(partial["moves"]) == 2


def test_steps_are_the_library_traces() -> None:
    row = [8, 15, 3, 7]
    data = post("steps", {"coins": row})
    assert data["coins"] == row
    assert data["fill"] == [step.to_dict() for step in fill_steps(row)]
    assert data["memo"] == memo_calls(row).to_dict()
    assert data["fill"][-1]["value"] == 22 and data["memo"]["plain"] == 15
    big = post("steps", {"coins": list(range(1, 41))})
    assert len(big["fill"]) == 820 and big["memo"]["count"] == 1561


def test_a_whole_game_against_optimal_is_stateless() -> None:
    """Follow the best moves from the API as the first player; the computer replies by
    strategy. Each request carries the whole game, as the page sends it."""
    row = [3, 2, 2, 3, 1, 2]
    moves = ""
    while True:
        data = post("move", {"coins": row, "moves": moves, "strategy": "optimal"})
        if data["finished"]:
            break
        assert data["turn"] == ("first" if len(moves) % 2 == 0 else "second")
        table = Table(row)
        assert data["best_moves"] == list(table.moves_of(data["lo"], data["hi"]))
        assert data["value"] == table.value_of(data["lo"], data["hi"])
        assert data["first_guaranteed"] == 8 and data["second_guaranteed"] == 5
        moves += data["best_moves"][0] if data["turn"] == "first" else data["move"]
    assert (data["first_total"], data["second_total"], data["leader"]) == (8, 5, "first")
    assert data["move"] is None and data["turn"] is None and data["best_moves"] == []
    assert data["coins"] == row


def test_move_guaranteed_totals_after_a_mistake() -> None:
    data = post("move", {"coins": [3, 2, 2, 3, 1, 2], "moves": "R", "strategy": "greedy"})
    assert (data["first_total"], data["first_guaranteed"], data["second_guaranteed"]) == (2, 7, 6)
    assert data["move"] == "L" and data["leader"] == "first"  # greedy takes the larger end, 3


def test_random_strategies_replay_with_their_seed() -> None:
    row = list(range(1, 21))

    def game(seed: int) -> str:
        moves = ""
        while len(moves) < len(row):
            body = {"coins": row, "moves": moves, "strategy": "random", "seed": seed}
            moves += post("move", body)["move"]
        return moves

    assert game(5) == game(5)
    assert len({game(seed) for seed in range(4)}) > 1
    tied = {"coins": [1, 2, 4, 3], "strategy": "optimal:right"}
    assert post("move", tied)["move"] == "R"
    assert post("move", {**tied, "strategy": "lookahead:3"})["move"] in "LR"


def test_random_rows_and_strategies() -> None:
    data = client.get("/api/random", params={"n": 12, "values": "1-9", "seed": 7}).json()
    assert data == {"n": 12, "values": "1-9", "seed": 7, "coins": random_row(12, "1-9", 7)}
    decimals = client.get("/api/random", params={"n": 3, "values": "0.5,1/3"}).json()
    assert set(decimals["coins"]) <= {"1/2", "1/3"}
    listed = client.get("/api/strategies").json()["strategies"]
    assert [entry["name"] for entry in listed] == list(BUILTINS)
    assert all(entry["syntax"] and entry["description"] for entry in listed)
    limits = client.get("/api/limits").json()
    assert limits["table_coins"] == 40 and limits["solve_coins"] == 1_000_000


def error(response: Any, status: int = 422) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail and "Traceback" not in detail
    return detail


BAD_COINS: list[tuple[Any, str]] = [
    ([3, True, 1], "coin 2 (True): booleans are not coin values"),
    ([False], "booleans are not coin values"),
    ([1, [2, 3]], "coin 2 ([2, 3]): not a number (list)"),
    ([1, None], "coin 2 (None): not a number"),
    ([{"a": 1}], "not a number (dict)"),
    (["abc"], "coin 1 ('abc'): not a number"),
    (["1/0"], "zero denominator"),
    (["NaN"], "NaN is not a coin value"),
    (["-Infinity"], "infinity is not a coin value"),
    ([], "no coins given"),
    ("", "no coins given"),
    (5, "coins must be a JSON array of numbers or strings"),
    ({"0": 1}, "coins must be a JSON array"),
    (["9" * 1001], "longer than 1000 characters"),
    ([10**1000], "more than 1,000 digits"),
    (["1e-1000"], "more than 1,000 digits"),
    (["1/3", 10**1000], "coin 2 ('10000000000000000000…'): more than 1,000 digits"),
]


@pytest.mark.parametrize("path", ["solve", "table", "steps", "move", "analyze"])
@pytest.mark.parametrize(("coins", "message"), BAD_COINS, ids=lambda value: str(value)[:24])
def test_bad_coins_everywhere(path: str, coins: Any, message: str) -> None:
    body = {"coins": coins, "moves": ""} if path == "analyze" else {"coins": coins}
    assert message in error(client.post(f"/api/{path}", json=body))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"coins": [1, NaN]}', "coin 2 (nan): NaN is not a coin value"),
        (b'{"coins": [Infinity]}', "infinity is not a coin value"),
        (b'{"coins": [1e400000]}', "exponent beyond"),
        (b'{"coins": [1, 2', "the request body is not valid JSON"),
        (b'{"coins": [' + b"9" * 5000 + b"]}", "not valid JSON: Exceeds the limit"),
        (b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        (b"[1, 2]", "the request body must be a JSON object"),
        (b"{}", "coins is required"),
        (b'{"coins": [1], "coin": [2]}', "unknown key 'coin'"),
        (b'{"coins": [1], "full": "yes"}', "full: Input should be a valid boolean"),
    ],
)
def test_bad_bodies(raw: bytes, message: str) -> None:
    response = client.post("/api/solve", content=raw, headers={"content-type": "application/json"})
    assert message in error(response)


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("table", {"coins": list(range(41))}, "too many coins: 41 (at most 40 here)"),
        ("steps", {"coins": "1 " * 41}, "too many coins: 41 (at most 40 here)"),
        ("move", {"coins": [1] * 1001}, "too many coins: 1,001 (at most 1,000 here)"),
        ("analyze", {"coins": [1] * 2001, "moves": ""}, "too many coins: 2,001"),
        ("solve", {"coins": [1] * 1_000_001}, "too many coins: 1,000,001 (at most 1,000,000"),
        ("table", {"coins": [1, 2], "view": "fancy"}, "unknown view 'fancy'"),
        ("table", {"coins": [1, 2], "highlight": "LLL"}, "3 moves for a row of 2 coins"),
        ("table", {"coins": [1, 2], "highlight": "LX"}, "move 2 is 'X'"),
        ("move", {"coins": [1, 2], "moves": "LLL"}, "no coin is left"),
        ("move", {"coins": [1, 2], "moves": "lr"}, "moves: a move is L"),
        ("move", {"coins": [1, 2], "moves": 1}, "moves: Input should be a valid string"),
        ("move", {"coins": [1, 2], "strategy": "magic"}, "unknown strategy 'magic'"),
        ("move", {"coins": [1, 2], "strategy": "os:system"}, "unknown strategy 'os:system'"),
        ("move", {"coins": [1, 2], "strategy": "lookahead:x"}, "must be an integer"),
        ("move", {"coins": [1, 2], "seed": True}, "seed: Input should be a valid integer"),
        ("move", {"coins": [1, 2], "seed": 1.5}, "seed: Input should be a valid integer"),
        ("move", {"coins": [1, 2], "seed": -1}, "seed: Input should be greater than"),
        ("move", {"coins": [1, 2], "seed": 2**32}, "seed: Input should be less than or equal"),
        ("analyze", {"coins": [1, 2], "moves": "LLR"}, "no coin is left"),
        ("analyze", {"coins": [1, 2]}, "moves is required"),
    ],
)
def test_bad_requests(path: str, body: Any, message: str) -> None:
    assert message in error(client.post(f"/api/{path}", json=body))


def test_user_strategies_are_never_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "evil_strategy.py").write_text("raise SystemExit('imported')\n")
    monkeypatch.chdir(tmp_path)
    body = {"coins": [1, 2], "strategy": "evil_strategy:play"}
    assert "unknown strategy" in error(client.post("/api/move", json=body))
    assert "evil_strategy" not in sys.modules


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"n": 0}, "query parameter n: Input should be greater than or equal to 1"),
        ({"n": 10_001}, "query parameter n: Input should be less than or equal to 10000"),
        ({"n": "many"}, "query parameter n: Input should be a valid integer"),
        ({"values": "9-1"}, "empty value range '9-1'"),
        ({"values": "a,b"}, "values 'a,b'"),
        ({"seed": -2}, "query parameter seed"),
    ],
)
def test_bad_random_queries(params: dict[str, Any], message: str) -> None:
    assert message in error(client.get("/api/random", params=params))


def test_bodies_over_the_limit_are_refused_before_parsing() -> None:
    small = TestClient(create_app(Limits(body_bytes=1000)), base_url="http://127.0.0.1")
    too_big = b'{"coins": [' + b"1," * 600 + b"1]}"
    headers = {"content-type": "application/json"}
    response = small.post("/api/solve", content=too_big, headers=headers)
    assert "over the limit of 1,000 bytes" in error(response, 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield too_big[:500]
        yield too_big[500:]

    response = small.post("/api/solve", content=chunks(), headers=headers)
    assert "over the limit" in error(response, 413)
    assert small.post("/api/solve", json={"coins": [1, 2]}).status_code == 200


def test_limits_from_the_environment() -> None:
    assert Limits.from_env({"COINROW_WEB_TABLE_COINS": "10"}) == Limits(table_coins=10)
    with pytest.raises(ValueError, match="COINROW_WEB_SOLVE_COINS must be a whole number"):
        Limits.from_env({"COINROW_WEB_SOLVE_COINS": "lots"})
    with pytest.raises(ValueError, match="must be at least 1"):
        Limits.from_env({"COINROW_WEB_BODY_BYTES": "0"})
    small = TestClient(create_app(Limits(solve_coins=3)), base_url="http://127.0.0.1")
    assert "at most 3 here" in error(small.post("/api/solve", json={"coins": [1, 2, 3, 4]}))
    schema = small.get("/openapi.json").json()["components"]["schemas"]
    assert schema["SolveRequest"]["properties"]["coins"]["anyOf"][0]["maxItems"] == 3


def test_the_page_and_its_static_files_are_self_contained() -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="static/js/app.js">' in page.text
    files = sorted(path.relative_to(STATIC) for path in STATIC.rglob("*") if path.is_file())
    assert {str(path) for path in files} >= {"index.html", "style.css", "js/app.js", "js/api.js"}
    for path in files:
        response = client.get(f"/static/{path}")
        assert response.status_code == 200
        text = response.text.replace("http://www.w3.org/2000/svg", "")  # a name, not a fetch
        assert "http://" not in text and "https://" not in text  # no CDN
    assert client.get("/static/js/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/api/nothing").json() == {"detail": "Not Found"}
    assert page.headers["cache-control"] == "no-cache"  # kept, revalidated by ETag
    zipped = client.get("/static/js/play.js", headers={"accept-encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip" and "etag" in zipped.headers
    docs = client.get("/docs")  # Swagger UI from the package: /docs works offline
    assert "swagger/swagger-ui-bundle.js" in docs.text and "cdn" not in docs.text
    assert client.get("/swagger/swagger-ui-bundle.js").status_code == 200


def test_review_record_levels_and_puzzle_endpoints() -> None:
    from coinrow.levels import LEVELS
    from coinrow.puzzles import puzzle
    from coinrow.record import Record

    review = client.post("/api/review", json={"coins": "8 15 3 7", "moves": "LLRL"}).json()
    assert [p["margin"] for p in review["series"]] == [11, -3, -3, -3, -3]
    assert review["analysis"]["moves"][0]["label"] == "blunder"
    made = client.post(
        "/api/record", json={"coins": "0.1 1/3 5", "moves": "LR", "players": "you vs Casual"}
    ).json()["text"]
    assert made.endswith("1/10 1/3 5\nLR\n") and "# players: you vs Casual" in made
    read = client.post("/api/record/read", json={"text": made}).json()
    assert read["moves"] == "LR" and read["coins"] == ["1/10", "1/3", "5"]
    assert Record(read["coins_text"].split(), read["moves"]).moves == "LR"
    assert "line 1" in error(client.post("/api/record/read", json={"text": "1 x"}))
    assert "no record" in error(client.post("/api/record/read", json={"text": "  "}))
    duel = client.post(
        "/api/duel", json={"coins": "8 15 3 7", "first": "greedy", "second": "optimal"}
    ).json()
    assert duel == {"line": "LLRL", "first_total": 15, "second_total": 18}
    assert "unknown strategy" in error(
        client.post("/api/duel", json={"coins": "1 2", "first": "os:system", "second": "greedy"})
    )
    levels = client.get("/api/levels").json()["levels"]
    assert [level["strategy"] for level in levels] == [level.strategy for level in LEVELS]
    assert levels[-1]["loss"] == "0.00" and float(levels[0]["loss"]) > 1
    daily = client.get("/api/puzzle", params={"date": "2026-11-23"}).json()
    assert daily == puzzle(20261123).to_dict()
    assert client.get("/api/puzzle", params={"seed": 5}).json() == puzzle(5).to_dict()
    assert "not a date" in error(client.get("/api/puzzle", params={"date": "2026-02-30"}))


def test_import_coinrow_never_imports_fastapi() -> None:
    code = "import coinrow, coinrow.cli, coinrow.steps"
    assert modules_loaded_after(code, ["fastapi", "uvicorn", "starlette", "pydantic"]) == []


def test_serve_without_the_web_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("fastapi", "uvicorn"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "coinrow[web]" in err


def test_serve_starts_the_app() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "COINROW_WEB_TABLE_COINS": "12"}
    command = [sys.executable, "-m", "coinrow", "serve", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        limits = None
        for _ in range(100):
            time.sleep(0.1)
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/limits") as answer:
                    limits = json.load(answer)
                break
            except OSError:
                continue
        assert limits is not None and limits["table_coins"] == 12
    finally:
        server.terminate()
        server.communicate(timeout=10)  # its output read, the pipe closed
    assert main(["serve", "--workers", "0"]) == 2
