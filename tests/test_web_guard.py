"""Issue 24, the server's side: through a live ``coinrow serve`` on 127.0.0.1 started here.

Security headers on every answer, the host check and relative redirects, the page's ETag,
``/api/play`` moves and ``/api/table`` highlights checked alike under every rules, the
memory request bodies may hold at once, the header timeout (slowloris), ``--workers``
bounded by the machine, and server processes that end when their supervisor is killed.
Every server is stopped by its test, with its children; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import psutil
import pytest

pytest.importorskip("fastapi")

from coinrow.web.guard import CONTENT_SECURITY_POLICY, machine_cores

SEED_ROW = [3, 2, 2, 3, 1, 2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict[str, object]:
        data = json.loads(self.body)
        assert isinstance(data, dict)
        return data


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        host: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """One HTTP/1.1 request on its own connection, with any Host header (O(answer))."""
        data = b"" if body is None else json.dumps(body).encode()
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {f'127.0.0.1:{self.port}' if host is None else host}",
            "Connection: close",
            *(f"{name}: {value}" for name, value in (headers or {}).items()),
        ]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as connection:
            connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
            raw = b""
            while chunk := connection.recv(65536):
                raw += chunk
        head, _, content = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        answer_headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            answer_headers[name.strip().lower()] = value.strip()
        return Answer(int(status_line.split()[1]), answer_headers, content)


def serve(*options: str, **env: str | int) -> Server:
    """``coinrow serve`` on a free loopback port with ``COINROW_WEB_*`` settings ``env``,
    once it answers."""
    port = free_port()
    environ = {**os.environ, **{f"COINROW_WEB_{k.upper()}": str(v) for k, v in env.items()}}
    command = [sys.executable, "-m", "coinrow", "serve", "--port", str(port), "--no-access-log"]
    process = subprocess.Popen(
        [*command, *options], env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    server = Server(port, process)
    host = next((options[k + 1] for k, o in enumerate(options) if o == "--allowed-host"), None)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if server.request("GET", "/api/limits", host=host).status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    process.kill()
    error = process.communicate(timeout=20)[1].decode()[-2000:]
    stop(server)
    raise RuntimeError(error)


def stop(server: Server) -> None:
    """Stop a server and every process it started."""
    try:
        family = psutil.Process(server.process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        family = []
    server.process.terminate()
    try:
        server.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(timeout=10)
    for child in family:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.kill()
    if server.process.stderr is not None:
        server.process.stderr.close()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The default server (loopback hosts, default limits)."""
    running = serve()
    yield running
    stop(running)


# -- item 10: security headers, allowed hosts, relative redirects ------------------------------

SECURITY = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def test_every_answer_carries_the_security_headers(server: Server) -> None:
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    answers = {
        "page": server.request("GET", "/"),
        "docs": server.request("GET", "/docs"),
        "static": server.request("GET", "/static/style.css"),
        "api": server.request("POST", "/api/solve", {"coins": SEED_ROW}),
        "422": server.request("POST", "/api/solve", {"coins": "x"}),
        "404": server.request("GET", "/nothing-here"),
        "413": server.request("POST", "/api/solve", headers={"Content-Length": str(2**40)}),
    }
    statuses = {name: answer.status for name, answer in answers.items()}
    assert statuses == {
        "page": 200,
        "docs": 200,
        "static": 200,
        "api": 200,
        "422": 422,
        "404": 404,
        "413": 413,
    }
    for name, answer in answers.items():
        assert {key: answer.headers.get(key) for key in SECURITY} == SECURITY, name
    # /docs starts Swagger UI from a file: no inline script for the policy to refuse
    assert b"<script>" not in answers["docs"].body


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", ""])
@pytest.mark.parametrize("path", ["/", "/static", "/static/style.css", "/api/limits"])
def test_other_hosts_are_refused(server: Server, host: str, path: str) -> None:
    answer = server.request("GET", path, host=host)
    assert answer.status == 400
    assert answer.json() == {"detail": f"the host {host!r} is not served here"}
    assert answer.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST", "[::1]:{port}"]
)
def test_loopback_hosts_are_served(server: Server, host: str) -> None:
    assert server.request("GET", "/api/limits", host=host.format(port=server.port)).status == 200


def test_redirects_are_relative(server: Server) -> None:
    answer = server.request("GET", "/static", host=f"localhost:{server.port}")
    assert answer.status == 307
    assert answer.headers["location"] == "/static/"


def test_allowed_hosts_are_set_by_serve() -> None:
    deployed = serve("--allowed-host", "coins.example.org", "--allowed-host", "*.example.net")
    try:
        for host, status in [
            ("coins.example.org", 200),
            ("COINS.example.org:443", 200),
            ("api.example.net", 200),
            ("example.net", 400),
            (f"127.0.0.1:{deployed.port}", 400),  # the given hosts replace loopback's
            ("evil.example", 400),
        ]:
            assert deployed.request("GET", "/api/limits", host=host).status == status, host
    finally:
        stop(deployed)


def test_allowed_hosts_are_set_by_the_app_factory() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

        from coinrow.web import create_app

    app = create_app(workers=False, hosts=["coins.example.org"])
    assert TestClient(app, base_url="http://coins.example.org").get("/").status_code == 200
    assert TestClient(app, base_url="http://127.0.0.1").get("/").status_code == 400


def test_serve_refuses_a_bad_allowed_host() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coinrow", "serve", "--allowed-host", "a b/c"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "coinrow: error: allowed host 'a b/c' is not a host name or address\n"


# -- item 8, the web's parts: the page's ETag, /api/play moves, /api/table highlights ---------


def test_the_page_has_an_etag_and_revalidates(server: Server) -> None:
    first = server.request("GET", "/")
    tag = first.headers["etag"]
    assert first.status == 200 and tag.startswith('"') and first.headers["cache-control"]
    again = server.request("GET", "/", headers={"If-None-Match": tag})
    assert (again.status, again.body, again.headers["etag"]) == (304, b"", tag)
    weak = server.request("GET", "/", headers={"If-None-Match": f'"old", W/{tag}'})
    assert weak.status == 304
    stale = server.request("GET", "/", headers={"If-None-Match": '"old"'})
    assert (stale.status, stale.body) == (200, first.body)


@pytest.mark.parametrize(
    ("rules", "moves", "line"),
    [
        ("plain", "L R", "LR"),
        ("plain", "LR", "LR"),
        ("misere", "L R L", "LRL"),
        ("take:2", "L1 R2", "L1 R2"),
        ("take:2", "L1R2", "L1 R2"),
        ("circular", "3 L R", "3 LR"),
        ("both-ends", "L B", "LB"),
    ],
)
def test_play_accepts_moves_written_apart(
    server: Server, rules: str, moves: str, line: str
) -> None:
    answer = server.request(
        "POST", "/api/play", {"coins": SEED_ROW, "moves": moves, "rules": rules}
    )
    assert answer.status == 200, answer.body
    assert answer.json()["line"] == line


@pytest.mark.parametrize("rules", ["plain", "misere", "take:2", "take:any", "circular"])
@pytest.mark.parametrize("moves", ["L1 ", " ", " L1", "L1  R1", "L ", " L"])
def test_play_refuses_spaces_at_the_ends_under_every_rules(
    server: Server, rules: str, moves: str
) -> None:
    answer = server.request(
        "POST", "/api/play", {"coins": SEED_ROW, "moves": moves, "rules": rules}
    )
    assert answer.status == 422
    assert answer.json()["detail"].startswith("moves: moves such as L, R, L2, B")


@pytest.mark.parametrize(
    ("rules", "highlight", "status"),
    [
        ("take:2", "best", 200),
        ("take:2", "", 200),
        ("misere", "LR", 200),
        ("both-ends", "LRL", 200),
        ("take:2", "LR", 422),  # L is not a move of take:2
        ("take:2", "zz", 422),
        ("misere", "L" * 20, 422),  # longer than the row
        ("stone-game-vii", "LX", 422),
        ("plain", "zz", 422),
    ],
)
def test_table_checks_the_highlight_under_every_rules(
    server: Server, rules: str, highlight: str, status: int
) -> None:
    body = {"coins": SEED_ROW, "rules": rules, "highlight": highlight}
    answer = server.request("POST", "/api/table", body)
    assert answer.status == status, answer.body
    if status == 422 and rules != "plain":
        assert answer.json()["detail"].startswith("highlight: ")


# -- item 7: bodies held at once, header timeout, workers end with their supervisor ---------


def tree_memory(process: psutil.Process) -> int:
    """Resident bytes of a process and its children."""
    total = 0
    for member in [process, *process.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            total += member.memory_info().rss
    return total


def test_bodies_held_at_once_are_bounded() -> None:
    """24 connections each send a 4 MiB body but its last byte, and hold it: without a
    bound the server holds them all (96 MiB); with 8 MiB of bodies (6 MiB for large ones)
    it reads one and refuses the others with 503 before reading them."""
    size, connections = 4 * 2**20, 24
    body_server = serve(body_bytes=size, bodies_bytes=2 * size, body_seconds=30)
    sockets: list[socket.socket] = []
    try:
        process = psutil.Process(body_server.process.pid)
        for _ in range(3):  # warm up: a few answers, so the baseline is the working size
            body_server.request("POST", "/api/solve", {"coins": list(range(5000))})
        before = tree_memory(process)
        head = (
            "POST /api/solve HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{body_server.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
        ).encode()
        payload = b"[" + b"1," * (size // 2 - 1)  # all but the final byte: held open
        assert len(payload) == size - 1

        def send(connection: socket.socket) -> None:
            try:
                connection.sendall(head)
                connection.sendall(payload)
            except OSError:
                pass  # refused, and closed, before its body was read

        for _ in range(connections):
            connection = socket.create_connection(("127.0.0.1", body_server.port), timeout=20)
            sockets.append(connection)
        threads = [threading.Thread(target=send, args=(c,), daemon=True) for c in sockets]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        time.sleep(1.0)
        held = tree_memory(process) - before
        answers = first_answers(sockets, quiet=0.5, enough=connections - 3)
        busy = sum(answer.startswith(b"HTTP/1.1 503") for answer in answers)
        # 1 body of 4 MiB read (plus copies, buffers); 24 would be over 96 MiB
        assert held < 40 * 2**20, f"{held / 2**20:.0f} MiB held"
        assert busy >= connections - 3
        assert body_server.request("POST", "/api/solve", {"coins": SEED_ROW}).status == 200
    finally:
        for connection in sockets:
            connection.close()
        stop(body_server)


def test_slow_headers_are_dropped() -> None:
    """A client sending its headers a byte at a time (every 0.2 s here) is cut off after the
    header time (2 s here; 10 s by default), not kept for as long as it keeps sending."""
    slow_server = serve(header_seconds=2)
    try:
        request = f"GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1:{slow_server.port}\r\n".encode()
        started = time.monotonic()
        closed_after = None
        with socket.create_connection(("127.0.0.1", slow_server.port)) as connection:
            connection.settimeout(0.2)
            for byte in (request * 20)[:60]:
                try:
                    connection.sendall(bytes([byte]))
                    if connection.recv(1) == b"":
                        closed_after = time.monotonic() - started
                        break
                except TimeoutError:
                    continue
                except OSError:
                    closed_after = time.monotonic() - started
                    break
        assert closed_after is not None, "still connected after 12 s of slow headers"
        assert 1.5 < closed_after < 6
        # a request whose headers arrive in time is answered
        assert slow_server.request("GET", "/api/limits").json()["header_seconds"] == 2
    finally:
        stop(slow_server)


def test_workers_end_when_their_supervisor_is_killed() -> None:
    if machine_cores() < 2:
        pytest.skip("--workers 2 needs 2 cores on this machine")
    supervised = serve("--workers", "2")
    workers: list[psutil.Process] = []
    try:
        supervisor = psutil.Process(supervised.process.pid)
        workers = [p for p in supervisor.children() if "spawn_main" in " ".join(p.cmdline())]
        assert len(workers) == 2
        supervised.process.send_signal(signal.SIGKILL)
        supervised.process.wait(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=20)
        assert alive == [], "server processes still running after their supervisor died"
        with pytest.raises(OSError):
            supervised.request("GET", "/api/limits")
    finally:
        stop(supervised)
        for worker in workers:  # orphans, had they outlived their supervisor
            with contextlib.suppress(psutil.NoSuchProcess):
                worker.kill()


# -- item 4: --workers bounded by the machine -------------------------------------------------


def run_serve(*options: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``coinrow serve`` expected to refuse at once; a server that starts instead is killed
    (with its children) and fails the test."""
    environ = {**os.environ, **env}
    port = str(free_port())
    command = [sys.executable, "-m", "coinrow", "serve", "--port", port, *options]
    process = subprocess.Popen(
        command, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        stop(Server(int(port), process))  # type: ignore[arg-type]
        pytest.fail(f"coinrow serve {' '.join(options)} started instead of refusing")
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def test_workers_are_bounded_by_the_cores() -> None:
    cores = machine_cores()
    for workers in (cores + 1, 99_999):
        done = run_serve("--workers", str(workers))
        assert done.returncode == 2
        assert done.stderr == (
            f"coinrow: error: --workers {workers} is more than this machine can run: "
            f"at most {cores} (this machine has {cores} core{'s' if cores > 1 else ''})\n"
        )


def test_workers_are_bounded_by_the_memory() -> None:
    if machine_cores() < 2:
        pytest.skip("the memory bound shows below the cores' only with 2 cores or more")
    done = run_serve("--workers", "2", COINROW_WEB_REQUEST_MEMORY=str(2**50))
    assert done.returncode == 2
    assert done.stderr.startswith(
        "coinrow: error: --workers 2 is more than this machine can run: at most 1 (this machine's "
    )
    assert "GiB of memory holds 1" in done.stderr


def first_answers(sockets: list[socket.socket], *, quiet: float, enough: int) -> list[bytes]:
    """The first bytes each connection received (b"" when closed or reset without any),
    watched all at once: until ``quiet`` seconds pass with no new answer once ``enough``
    came, at most ``quiet`` seconds per connection in all (what reading them one after
    the other with a ``quiet`` timeout each would allow). Connections still held open
    give no answer."""
    answers: list[bytes] = []
    waiting = list(sockets)
    deadline = time.monotonic() + quiet * len(sockets)
    while waiting and time.monotonic() < deadline:
        ready, _, _ = select.select(waiting, [], [], quiet)
        if not ready and len(answers) >= enough:
            break
        for connection in ready:
            waiting.remove(connection)
            try:
                answers.append(connection.recv(100))
            except OSError:
                answers.append(b"")
    return answers


def test_connections_past_the_limit_are_refused() -> None:
    """A server process keeps at most COINROW_WEB_CONNECTIONS open (20 here): the ones past
    it get 503 and are closed at once, so idle connections cannot pile up memory."""
    capped = serve(connections=20)
    sockets: list[socket.socket] = []
    try:
        for _ in range(30):
            sockets.append(socket.create_connection(("127.0.0.1", capped.port), timeout=5))
        time.sleep(0.5)
        answers = first_answers(sockets, quiet=0.3, enough=8)
        refused = sum(answer.startswith(b"HTTP/1.1 503") for answer in answers)
        assert 8 <= refused <= 10  # the probe's own connection may still be closing
        for connection in sockets:
            connection.close()
        time.sleep(0.5)
        assert capped.request("GET", "/api/limits").json()["connections"] == 20
    finally:
        for connection in sockets:
            connection.close()
        stop(capped)


def test_long_headers_are_cut_off(server: Server) -> None:
    """Headers past 64 KiB close the connection: one connection cannot hold more."""
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ")
        try:
            while sent < 4 * 2**20:
                connection.sendall(b"a" * 4096)
                sent += 4096
                if sent % (64 * 2**10) == 0:
                    time.sleep(0.05)  # let the server read and close
        except OSError:
            pass
    # the kernel's socket buffers take some bytes after the close; never megabytes
    assert sent < 2**20, f"{sent:,} bytes of headers accepted"
