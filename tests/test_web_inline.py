"""What the server answers in its event loop, and what it sends to a worker process.

``RequestGuard`` answers a small request inline only when the library prices all of its work
under ``INLINE_SECONDS`` (20 ms): a request it underprices blocks every other request for as
long as it runs. The saturation benchmark (``benchmarks/saturate_web.py``) found two: a
triangle of 40 coins (tens of milliseconds of SVG, while the table itself takes one) and a
``reply:greedy`` solve of 2,000 coins (its moves replayed for the coins each player takes).
Here the app's worker pool is replaced by a recorder, so each request's route is seen
without running it; small requests must still be answered inline.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Coroutine, Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from coinrow.web import workers
from coinrow.web.app import create_app


def row_of(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, 10**6) for _ in range(n)]


@pytest.fixture(scope="module")
def routed() -> Iterator[tuple[TestClient, list[str]]]:
    """A client of the app whose worker processes are replaced by a recorder of the paths
    sent to them (answering 200 with ``{"pooled": true}``)."""
    sent: list[str] = []

    async def record(
        self: workers.WorkerPool,
        scope: dict[str, Any],
        body: bytes,
        disconnect: Coroutine[Any, Any, None],
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        disconnect.close()  # never awaited: nothing waits for the client here
        sent.append(scope["path"])
        return 200, [(b"content-type", b"application/json")], b'{"pooled": true}'

    patch = pytest.MonkeyPatch()
    patch.setattr(workers.WorkerPool, "answer", record)
    try:
        with TestClient(create_app(), base_url="http://127.0.0.1") as client:
            yield client, sent
    finally:
        patch.undo()


def route(routed: tuple[TestClient, list[str]], endpoint: str, body: dict[str, Any]) -> str:
    client, sent = routed
    sent.clear()
    answer = client.post(f"/api/{endpoint}", json=body)
    assert answer.status_code == 200, answer.text
    return "worker" if sent == [f"/api/{endpoint}"] else "inline"


COSTLY = {
    "the triangle of 40 coins": ("table", {"coins": row_of(40, 1)}),
    "the take:3 triangle of 40 coins": (
        "table",
        {"coins": row_of(40, 2), "rules": "take:3", "highlight": "best"},
    ),
    "a reply:greedy solve of 2,000 coins": (
        "solve",
        {"coins": row_of(2000, 3), "rules": "reply:greedy"},
    ),
    "a misere solve of 2,000 coins": ("solve", {"coins": row_of(2000, 4), "rules": "misere"}),
    "a pizza of 1,200 slices (its moves replayed)": (
        "solve",
        {"coins": row_of(1200, 5), "rules": "circular"},
    ),
    "a game of 40 coins with its picture": (
        "play",
        {"coins": row_of(40, 6), "moves": "", "picture": True},
    ),
}


@pytest.mark.parametrize("what", list(COSTLY))
def test_costly_answers_go_to_a_worker(routed: tuple[TestClient, list[str]], what: str) -> None:
    endpoint, body = COSTLY[what]
    assert route(routed, endpoint, body) == "worker", f"{what} was answered inline"


SMALL = {
    "a solve of 8 coins": ("solve", {"coins": [8, 15, 3, 7, 6, 2, 9, 4]}),
    "the triangle of 8 coins": ("table", {"coins": [8, 15, 3, 7, 6, 2, 9, 4]}),
    "the pizza of 40 slices with its ring": (
        "solve",
        {"coins": row_of(40, 8), "rules": "circular"},
    ),
    "a take:2 game of 10 coins with its picture": (
        "play",
        {"coins": row_of(10, 7), "rules": "take:2", "moves": "", "picture": True},
    ),
}


@pytest.mark.parametrize("what", list(SMALL))
def test_small_requests_are_answered_inline(
    routed: tuple[TestClient, list[str]], what: str
) -> None:
    endpoint, body = SMALL[what]
    assert route(routed, endpoint, body) == "inline", f"{what} went to a worker"
