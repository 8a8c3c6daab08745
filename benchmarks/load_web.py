"""Load test of the web API: concurrent ``POST /api/solve`` requests of 100 coins against
``coinrow serve --workers 2`` on a free loopback port, for 10 seconds; prints requests per
second, p50 and p99 latency and the error count. A report, not a timed assertion.

    python benchmarks/load_web.py [--seconds 10] [--connections 32] [--workers 2] [--coins 100]

The client is asyncio with one keep-alive HTTP/1.1 connection per simulated user, written on
plain streams so that it costs the shared machine little CPU (the server and the client run
on the same cores). Any response other than 200 with the expected first total, and any
connection error, counts as an error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from coinrow import solve


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "coinrow", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", str(workers), "--no-access-log"]
    # its log goes to a file: a pipe nobody reads would fill and stall the server under load
    log = tempfile.TemporaryFile()  # noqa: SIM115 (open as long as the server runs)
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/limits", timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    server.wait(timeout=20)
    log.seek(0)
    raise SystemExit("the server did not start: " + log.read().decode()[-2000:])


async def user(
    port: int, request: bytes, expected: int, stop: float, latencies: list[float], errors: list[str]
) -> None:
    """One keep-alive connection sending requests back to back until ``stop``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.perf_counter() < stop:
            began = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = head.split(b" ", 2)[1]
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - began)
            if status != b"200" or json.loads(body)["first_total"] != expected:
                errors.append(f"{status.decode()}: {body[:200]!r}")
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        errors.append(f"{type(error).__name__}: {error}")
    finally:
        writer.close()


async def run(port: int, coins: list[int], seconds: float, connections: int) -> dict[str, float]:
    body = json.dumps({"coins": coins}).encode()
    request = (
        b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )
    expected = solve(coins).first_total
    latencies: list[float] = []
    errors: list[str] = []
    began = time.perf_counter()
    stop = began + seconds
    await asyncio.gather(
        *(user(port, request, expected, stop, latencies, errors) for _ in range(connections))
    )
    elapsed = time.perf_counter() - began
    for message in errors[:5]:
        print("error:", message)
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return {
        "requests": len(latencies),
        "errors": len(errors),
        "seconds": elapsed,
        "rps": len(latencies) / elapsed,
        "p50_ms": cuts[49] * 1000,
        "p99_ms": cuts[98] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--coins", type=int, default=100)
    args = parser.parse_args()
    coins = [random.Random(9).randint(1, 1000) for _ in range(args.coins)]
    port = free_port()
    load = os.getloadavg()[0]
    server = start_server(port, args.workers)
    try:
        asyncio.run(run(port, coins, 1.0, 4))  # warm up both workers
        result = asyncio.run(run(port, coins, args.seconds, args.connections))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(
        f"POST /api/solve, {args.coins} coins, {args.connections} connections, "
        f"{args.workers} workers, {os.cpu_count()} CPUs (load average {load:.1f} before)"
    )
    print(
        f"{result['requests']} requests in {result['seconds']:.1f} s: "
        f"{result['rps']:.0f} requests/s, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, {result['errors']} errors"
    )


if __name__ == "__main__":
    main()
