"""The costly requests of a live server are refused up front or answered within their limit.

A real ``coinrow serve`` on a free loopback port, the default limits (ten seconds of work a
request): ``reply:greedy`` play of 1,000 coins (a position, and a finished game whose review
solves the coins left at every position) and a duel of ``cooperative`` over 2,000 coins (an
O(m^2) sweep a move) are each either answered, or refused with a 4xx JSON error that names
the estimated cost and the limit; none is stopped at the time limit after using it all. A
small request is answered while a large one runs.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
from test_web_guard import Answer, Server, serve, stop

pytest.importorskip("fastapi")

#: What the server says when a request ran out of its time: what must never happen here.
STOPPED = "for one request and was stopped"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """A server whose worker process has started: a start that a machine shared with other
    work can stretch over seconds is not what these tests measure."""
    running = serve(request_seconds=10, processes=1)
    try:
        body = {"coins": row_of(700, 0), "rules": "reply:greedy", "moves": ""}
        assert running.request("POST", "/api/play", body).status == 200  # by the worker
        yield running
    finally:
        stop(running)


def row_of(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, 9) for _ in range(n)]


def answered_or_refused_up_front(answer: Answer, what: str) -> dict[str, object]:
    """The answer's JSON, once it is a success or a refusal naming the cost and the limit."""
    data = answer.json()
    if answer.status == 200:
        return data
    detail = str(data.get("detail"))
    assert STOPPED not in detail, f"{what} ran out of its time instead of being refused: {detail}"
    assert 400 <= answer.status < 500, (answer.status, detail)
    assert "would take about" in detail and "over the limit of 10 seconds" in detail, detail
    return data


def test_reply_greedy_play_of_1000_coins(server: Server) -> None:
    row = row_of(1000, 1)
    for moves in ("", "L" * 999, "L" * 1000):  # the start, the last move, the finished game
        body = {"coins": row, "rules": "reply:greedy", "moves": moves}
        answer = server.request("POST", "/api/play", body)
        answered_or_refused_up_front(answer, f"play after {len(moves)} moves")


@pytest.mark.parametrize(
    ("first", "second"), [("cooperative", "optimal"), ("greedy", "cooperative")]
)
def test_cooperative_duel_over_2000_coins(server: Server, first: str, second: str) -> None:
    body = {"coins": row_of(2000, 2), "first": first, "second": second}
    answer = server.request("POST", "/api/duel", body)
    answered_or_refused_up_front(answer, f"duel of {first} and {second}")


def test_a_small_request_is_answered_while_a_large_one_runs(server: Server) -> None:
    """The large request: the start of a reply:greedy game of 1,000 coins (the best reply of
    every subgame, in a worker process); the small one, the six coins of GeeksforGeeks,
    answered by the server itself meanwhile."""
    large: dict[str, object] = {}

    def play() -> None:
        body = {"coins": row_of(1000, 3), "rules": "reply:greedy", "moves": ""}
        large["answer"] = server.request("POST", "/api/play", body)
        large["done"] = time.monotonic()

    thread = threading.Thread(target=play)
    thread.start()
    try:
        time.sleep(0.05)
        small = server.request("POST", "/api/solve", {"coins": [3, 2, 2, 3, 1, 2]})
        small_done = time.monotonic()
    finally:
        thread.join(timeout=60)
    assert small.status == 200 and small.json()["first_total"] == 8
    answer = large["answer"]
    assert isinstance(answer, Answer) and answer.status == 200, answer
    assert small_done < float(large["done"]), "the small request waited for the large one"  # type: ignore[arg-type]
