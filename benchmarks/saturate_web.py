"""Saturation test of the web app: ``coinrow serve --workers 2`` on a free loopback port is
flooded with the largest expensive requests its limits allow, for a bounded time and count,
while a probe sends a small ``POST /api/solve`` every 100 ms. Prints the probe's p50 and p99
latency, its failures, the server's peak resident memory (all its processes together) and
what the flood got back. A report, not a timed assertion.

    python benchmarks/saturate_web.py [--seconds 20] [--connections 44] [--max-requests 2000]

The flood (the examples of issue 13, rows of fractions 1/q with q of 998 digits drawn with a
fixed seed): analyze of 2,000 coins, solve of 16,000, steps and table of 40, move of 1,000;
a 16 MB solve of 10^6 ints; and tables of 40 coins 1/q with q of 200 digits (about a second
each, under the estimate's limit, so they really run in the worker processes). Under other
rules (issue 24): solves of 2,000 to 3,000 coins under take:any, players:3, circular and
reply:greedy, a 16 MB misere solve, plays of 1,000 coins under reply:greedy and take:5, a
take:3 table and a cooperative duel of 2,000 coins. Targets: probe p99 under 1 s, peak
memory under 2 GiB, no probe failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import threading
import time
from collections import Counter

import psutil
from load_web import free_port, start_server


def bodies() -> list[tuple[str, bytes]]:
    """The flood's requests: (endpoint, JSON body)."""
    rng = random.Random(13)

    def fractions(n: int, digits: int) -> list[str]:
        return [f"1/{rng.randrange(10 ** (digits - 1), 10**digits)}" for _ in range(n)]

    ints = [rng.randint(1, 10**9) for _ in range(10**6)]
    return [
        ("analyze", json.dumps({"coins": fractions(2000, 998), "moves": "LR" * 10}).encode()),
        ("solve", json.dumps({"coins": fractions(16_000, 998)}).encode()),
        ("steps", json.dumps({"coins": fractions(40, 998)}).encode()),
        ("table", json.dumps({"coins": fractions(40, 998)}).encode()),
        ("move", json.dumps({"coins": fractions(1000, 998), "moves": "L"}).encode()),
        ("solve", json.dumps({"coins": ints, "full": True}).encode()),
        ("table", json.dumps({"coins": fractions(40, 200)}).encode()),
        ("table", json.dumps({"coins": fractions(40, 150)}).encode()),
        *rules_bodies(rng, ints),
    ]


def rules_bodies(rng: random.Random, ints: list[int]) -> list[tuple[str, bytes]]:
    """The flood's requests under other rules (issue 24): the largest each limit and cost
    estimate let through, so they run in the worker processes, and a 16 MB misere solve."""

    def row(n: int) -> list[int]:
        return [rng.randint(1, 10**6) for _ in range(n)]

    return [
        ("solve", json.dumps({"coins": row(3000), "rules": "take:any"}).encode()),
        ("solve", json.dumps({"coins": row(2000), "rules": "players:3"}).encode()),
        ("solve", json.dumps({"coins": row(3000), "rules": "circular"}).encode()),
        ("solve", json.dumps({"coins": row(2000), "rules": "reply:greedy"}).encode()),
        ("solve", json.dumps({"coins": ints, "rules": "misere"}).encode()),
        ("play", json.dumps({"coins": row(1000), "rules": "reply:greedy"}).encode()),
        ("play", json.dumps({"coins": row(1000), "rules": "take:5", "moves": "L1 R2"}).encode()),
        ("table", json.dumps({"coins": row(40), "rules": "take:3", "highlight": "best"}).encode()),
        (
            "duel",
            json.dumps({"coins": row(2000), "first": "cooperative", "second": "optimal"}).encode(),
        ),
    ]


def http_request(endpoint: str, body: bytes) -> bytes:
    return (
        f"POST /api/{endpoint} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


async def exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    writer.write(request)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return status, await reader.readexactly(length)


async def flood(
    port: int, requests: list[bytes], stop: float, budget: list[int], seen: Counter[str]
) -> None:
    """One connection sending the flood's requests back to back until ``stop``."""
    rng = random.Random(id(seen) ^ len(budget))
    while time.perf_counter() < stop and budget[0] > 0:
        budget[0] -= 1
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            status, _ = await asyncio.wait_for(
                exchange(reader, writer, rng.choice(requests)), stop - time.perf_counter() + 30
            )
            seen[str(status)] += 1
            writer.close()
        except (OSError, asyncio.IncompleteReadError, TimeoutError) as error:
            seen[type(error).__name__] += 1
            await asyncio.sleep(0.05)


async def probe(port: int, stop: float, latencies: list[float], failures: list[str]) -> None:
    """A small solve every 100 ms, each on its own connection, until ``stop``."""
    request = http_request("solve", b'{"coins": [3, 2, 2, 3, 1, 2]}')
    while time.perf_counter() < stop:
        began = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            status, body = await asyncio.wait_for(exchange(reader, writer, request), 10)
            writer.close()
            if status != 200 or json.loads(body)["first_total"] != 8:
                failures.append(f"{status}: {body[:200]!r}")
        except (OSError, asyncio.IncompleteReadError, TimeoutError) as error:
            failures.append(f"{type(error).__name__}: {error}")
        latencies.append(time.perf_counter() - began)
        await asyncio.sleep(max(0.0, 0.1 - (time.perf_counter() - began)))


def watch_memory(pid: int, stop: threading.Event, peak: list[int]) -> None:
    """Sample the resident memory of the server and all its children every 50 ms."""
    root = psutil.Process(pid)
    while not stop.is_set():
        total = 0
        try:
            for process in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    total += process.memory_info().rss
        except psutil.Error:
            return
        peak[0] = max(peak[0], total)
        stop.wait(0.05)


async def run(port: int, seconds: float, connections: int, max_requests: int) -> dict[str, object]:
    requests = [http_request(endpoint, body) for endpoint, body in bodies()]
    began = time.perf_counter()
    stop = began + seconds
    latencies: list[float] = []
    failures: list[str] = []
    seen: Counter[str] = Counter()
    budget = [max_requests]
    await asyncio.gather(
        probe(port, stop, latencies, failures),
        *(flood(port, requests, stop, budget, seen) for _ in range(connections)),
    )
    cuts = statistics.quantiles(latencies, n=100)
    return {
        "probes": len(latencies),
        "p50_ms": cuts[49] * 1000,
        "p99_ms": cuts[98] * 1000,
        "max_ms": max(latencies) * 1000,
        "failures": failures,
        "flood": dict(seen),
        "seconds": time.perf_counter() - began,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--connections", type=int, default=44)
    parser.add_argument("--max-requests", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    port = free_port()
    load = os.getloadavg()[0]
    server = start_server(port, args.workers)
    stop, peak = threading.Event(), [0]
    watcher = threading.Thread(target=watch_memory, args=(server.pid, stop, peak), daemon=True)
    watcher.start()
    try:
        result = asyncio.run(run(port, args.seconds, args.connections, args.max_requests))
    finally:
        stop.set()
        family = psutil.Process(server.pid).children(recursive=True)
        server.terminate()
        began = time.perf_counter()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=20)
        stopped = time.perf_counter() - began
        for process in family:
            with contextlib.suppress(psutil.Error):
                process.kill()
    failures = result["failures"]
    assert isinstance(failures, list)
    print(
        f"coinrow serve --workers {args.workers}, {os.cpu_count()} CPUs (load average "
        f"{load:.1f} before); flood of {args.connections} connections for {args.seconds:g} s"
    )
    print(f"flood answers: {result['flood']}")
    print(
        f"probe: {result['probes']} small solves, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms, "
        f"{len(failures)} failures; server peak RSS {peak[0] / 2**30:.2f} GiB"
    )
    print(f"the server stopped {stopped:.1f} s after SIGTERM")
    for failure in failures[:5]:
        print("probe failure:", failure)


if __name__ == "__main__":
    main()
