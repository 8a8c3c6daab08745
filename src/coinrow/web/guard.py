"""The server's own guards (issue 24): security headers and the host check, the memory that
request bodies may hold at once, the time a client has to send its headers, the number of
server processes, and server processes that end with the ``coinrow serve`` that started
them.

- :class:`Security` (ASGI middleware): every response carries :data:`SECURITY_HEADERS` (a
  strict Content-Security-Policy, ``nosniff``, ``DENY``, ``no-referrer``); a request whose
  ``Host`` is not an allowed host is refused with 400 before anything else runs; a
  WebSocket handshake whose ``Host`` is not allowed, or whose ``Origin`` is another site,
  is refused with 403.
- :class:`BodyBudget`: the bytes of request bodies one server process holds at once; a body
  that does not fit is refused with 503 before it is read.
- :class:`BoundedHTTP`: uvicorn's HTTP protocol closing a connection whose request headers
  have not all arrived within ``COINROW_WEB_HEADER_SECONDS`` (slowloris) or pass
  :data:`HEADER_BYTES`, and refusing connections past ``COINROW_WEB_CONNECTIONS``.
- :func:`die_with_parent`: a server process of ``coinrow serve --workers N`` gets SIGTERM
  when the supervisor that started it dies, even by SIGKILL (Linux ``PR_SET_PDEATHSIG``).
- :func:`most_workers`: how many server processes this machine can run (cores, memory).
- :class:`RequestGuard` (ASGI middleware): what every request may cost (its body, its answer,
  its work), answering inline or in a worker process.
"""

from __future__ import annotations

import asyncio
import ctypes
import ipaddress
import json
import os
import signal
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from ..engines import duration_text
from ..errors import InvalidOptionError
from .limits import INLINE, INLINE_BODY, INLINE_SECONDS, REQUEST_SECONDS, TO_WORKER, Limits
from .workers import Answer, WorkerPool, error_answer

#: The page's policy: scripts, styles, fonts and fetches from the server only (no inline
#: script or style, no eval); images also as data: and blob: URLs (the PNG download draws
#: the SVG through one); no frames, no plugins, no base-URL or form tricks.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

#: Headers added to every response (names lowercase, as ASGI sends them).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

#: The hosts a request may name when nothing else is set: this machine's loopback names.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")

#: Environment variable holding the allowed hosts, comma separated (``coinrow serve
#: --allowed-host`` sets it, so every server process sees it).
HOSTS_VARIABLE = "COINROW_WEB_ALLOWED_HOSTS"


def allowed_hosts(hosts: Iterable[str] | None = None) -> tuple[str, ...]:
    """The allowed hosts: ``hosts`` if given, else :data:`HOSTS_VARIABLE` if set, else
    :data:`LOOPBACK_HOSTS`; lowercase, IPv6 addresses without brackets. A name may start with
    ``*.`` (any subdomain); ``*`` allows any host (O(number of hosts)).

    >>> allowed_hosts(["Example.COM", "[::1]", "*.example.org"])
    ('example.com', '::1', '*.example.org')
    >>> allowed_hosts([])
    Traceback (most recent call last):
    ...
    coinrow.errors.InvalidOptionError: the allowed hosts are empty: give at least one host name
    """
    if hosts is None:
        text = os.environ.get(HOSTS_VARIABLE)
        hosts = LOOPBACK_HOSTS if text is None else text.split(",")
    names = tuple(host.strip().lower().removeprefix("[").removesuffix("]") for host in hosts)
    names = tuple(name for name in names if name)
    if not names:
        raise InvalidOptionError("the allowed hosts are empty: give at least one host name")
    for name in names:
        bare = name.removeprefix("*.")
        if name != "*" and not all(c.isalnum() or c in ".-:_" for c in bare):
            raise InvalidOptionError(f"allowed host {name!r} is not a host name or address")
    return names


def host_of(header: bytes) -> str:
    """The host name of a ``Host`` header, lowercase, without its port or IPv6 brackets
    (O(len)); empty when it cannot be read.

    >>> host_of(b"LocalHost:8000"), host_of(b"[::1]:80"), host_of(b"127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    text = header.decode("latin-1").strip().lower()
    if text.startswith("["):
        end = text.find("]")
        return text[1:end] if end > 0 else ""
    name, _, port = text.partition(":")
    return name if port.isdigit() or not port else ""


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """Whether ``host`` (from :func:`host_of`) is one of ``allowed`` (O(number allowed)).

    >>> host_allowed("api.example.org", ["*.example.org"]), host_allowed("evil.com", ["::1"])
    (True, False)
    """
    for name in allowed:
        if name == "*" or host == name:
            return True
        if name.startswith("*.") and host.endswith(name[1:]):
            return True
    return False


def relative_location(location: bytes) -> bytes:
    """A redirect's ``Location`` without its scheme and host (Starlette builds them from the
    ``Host`` header): the browser follows it on the host it asked (O(len)).

    >>> relative_location(b"http://evil.example:80/static/?a=1"), relative_location(b"/x")
    (b'/static/?a=1', b'/x')
    """
    scheme, separator, rest = location.partition(b"://")
    if not separator or b"/" in scheme:
        return location
    path = rest[rest.find(b"/") :] if b"/" in rest else b"/"
    return b"/" + path.lstrip(b"/")


def _json_error(status: int, detail: str) -> list[Message]:
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SECURITY_HEADERS,
    ]
    return [
        {"type": "http.response.start", "status": status, "headers": headers},
        {"type": "http.response.body", "body": body},
    ]


class Security:
    """ASGI middleware: refuse a request whose ``Host`` is not allowed (400, before anything
    else runs: no DNS rebinding, no links built from a forged host), and add
    :data:`SECURITY_HEADERS` to every response (O(headers))."""

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = next((value for key, value in scope["headers"] if key == b"host"), b"")
        host = host_of(header)
        if not host_allowed(host, self.hosts):
            shown = header.decode("latin-1")[:60]
            for message in _json_error(400, f"the host {shown!r} is not served here"):
                await send(message)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in SECURITY_HEADERS}
                kept = [
                    (k, relative_location(v) if k.lower() == b"location" else v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in names
                ]
                message = {**message, "headers": [*kept, *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_secured)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket handshake is checked as a request is (its ``Host`` allowed), and its
        ``Origin``, when a browser sends one, must be this very site (no other page may
        open a socket with the visitor's cookies or storage): refused with 403 before the
        app sees it."""
        headers = dict(scope["headers"])
        header = headers.get(b"host", b"")
        reason = websocket_refusal(header, headers.get(b"origin"), self.hosts)
        if reason is None:
            await self.app(scope, receive, send)
            return
        message = await receive()  # websocket.connect
        if message["type"] != "websocket.connect":
            return
        if "websocket.http.response" in scope.get("extensions", {}):
            for answer in _json_error(403, reason):
                await send({**answer, "type": "websocket." + answer["type"]})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})


def origin_host(origin: bytes) -> str | None:
    """The ``host[:port]`` of an ``Origin`` header, lowercase; None when it is not an http(s)
    origin (``null``, a file, another scheme) (O(len)).

    >>> origin_host(b"https://Coins.Example.org"), origin_host(b"http://[::1]:8000")
    ('coins.example.org', '[::1]:8000')
    >>> origin_host(b"null"), origin_host(b"file://"), origin_host(b"http://a/b")
    (None, None, None)
    """
    text = origin.decode("latin-1").strip().lower()
    scheme, separator, rest = text.partition("://")
    if scheme not in ("http", "https") or not separator or not rest or "/" in rest:
        return None
    return rest


def websocket_refusal(host: bytes, origin: bytes | None, allowed: Iterable[str]) -> str | None:
    """Why a WebSocket handshake is refused, or None: its ``Host`` must be allowed (as for
    every request) and its ``Origin``, if any, must be the same site as its ``Host``
    (scheme aside, as a TLS proxy may change it) (O(number allowed)).

    >>> hosts = ("127.0.0.1", "localhost")
    >>> websocket_refusal(b"127.0.0.1:8000", b"http://127.0.0.1:8000", hosts) is None
    True
    >>> websocket_refusal(b"127.0.0.1:8000", None, hosts) is None  # not a browser
    True
    >>> websocket_refusal(b"evil.example", None, hosts)
    "the host 'evil.example' is not served here"
    >>> websocket_refusal(b"127.0.0.1:8000", b"http://localhost:3000", hosts)
    "the origin 'http://localhost:3000' is not this site"
    """
    if not host_allowed(host_of(host), allowed):
        return f"the host {host.decode('latin-1')[:60]!r} is not served here"
    if origin is not None and origin_host(origin) != host.decode("latin-1").strip().lower():
        return f"the origin {origin.decode('latin-1')[:60]!r} is not this site"
    return None


class BodyBudget:
    """The bytes of request bodies one server process holds at once (O(1) per call).

    ``total`` bytes in all; bodies over ``small`` bytes together take at most three quarters
    of it, so small requests always find room. :meth:`claim` a body's size before reading
    it (False: refuse it unread), :meth:`release` it when its request is done.

    >>> budget = BodyBudget(total=64, small=4)
    >>> budget.claim(40), budget.claim(10), budget.claim(4), budget.claim(16), budget.claim(4)
    (True, False, True, False, True)
    """

    def __init__(self, *, total: int, small: int) -> None:
        self.total, self.small = total, small
        self.large_share = total * 3 // 4
        self.held = self.large_held = 0

    def claim(self, size: int) -> bool:
        """Reserve ``size`` bytes for a body; False when they are not free."""
        large = size > self.small
        if large and self.large_held + size > self.large_share:
            return False
        if self.held + size > self.total:
            return False
        self.held += size
        if large:
            self.large_held += size
        return True

    def release(self, size: int) -> None:
        """Give back a body's bytes."""
        self.held -= size
        if size > self.small:
            self.large_held -= size


#: Environment variables: seconds a client has to send a request's headers, and the most
#: connections one server process keeps open.
HEADER_SECONDS_VARIABLE = "COINROW_WEB_HEADER_SECONDS"
CONNECTIONS_VARIABLE = "COINROW_WEB_CONNECTIONS"

#: The most bytes a client may send before its request's headers are complete.
HEADER_BYTES = 64 * 2**10

#: What a connection past the limit gets before it is closed.
_TOO_MANY_BODY = b'{"detail": "the server has too many connections; try again in a moment"}'
_TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\nconnection: close\r\n"
    b"content-type: application/json\r\ncontent-length: %d\r\n\r\n%s"
    % (len(_TOO_MANY_BODY), _TOO_MANY_BODY)
)


class BoundedHTTP(AutoHTTPProtocol):  # type: ignore[valid-type, misc]
    """uvicorn's HTTP protocol (httptools or h11, as uvicorn picks) with the bounds only a
    connection can have: its request headers must all arrive within
    ``COINROW_WEB_HEADER_SECONDS`` (10 s) of its opening or of the previous answer (a
    slowloris client sending a byte a second is cut off) and within :data:`HEADER_BYTES`;
    a server process keeps at most ``COINROW_WEB_CONNECTIONS`` (1,000) open, answering more
    with 503 and closing them at once. So each connection holds at most about 64 KiB of
    headers, or 64 KiB of a body uvicorn reads ahead, whatever their number. A request whose
    headers have arrived is bounded by the app's own body and work limits. O(1) per
    connection and per chunk received."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_seconds = float(os.environ.get(HEADER_SECONDS_VARIABLE, "10"))
        self.most_connections = int(os.environ.get(CONNECTIONS_VARIABLE, "1000"))
        self.header_timer: asyncio.TimerHandle | None = None
        self.header_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        if len(self.connections) > self.most_connections:
            transport.write(_TOO_MANY)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        waiting = self._waiting_for_headers()
        super().data_received(data)
        if waiting and self._waiting_for_headers():  # these bytes did not finish the headers
            self.header_bytes += len(data)
            if self.header_bytes > HEADER_BYTES:
                self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def handle_websocket_upgrade(self, *args: Any) -> None:
        """The connection becomes a WebSocket (online games): the header timer no longer
        applies (the socket's own limits do), so it is stopped before the hand-over."""
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None
        super().handle_websocket_upgrade(*args)

    def _waiting_for_headers(self) -> bool:
        cycle = getattr(self, "cycle", None)
        return cycle is None or bool(cycle.response_complete)

    def _arm(self) -> None:
        self.header_bytes = 0
        if self.header_timer is not None:
            self.header_timer.cancel()
        self.header_timer = self.loop.call_later(self.header_seconds, self._headers_late)

    def _headers_late(self) -> None:
        """Close the connection unless a request's headers have arrived since the timer."""
        self.header_timer = None
        if self._waiting_for_headers():
            self.transport.close()


#: Environment variable naming the process id of the ``coinrow serve`` supervisor.
SUPERVISOR_VARIABLE = "COINROW_SERVE_SUPERVISOR"

#: Linux's prctl option for the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> bool:
    """In a server process started by the ``coinrow serve --workers N`` supervisor (whose
    pid :data:`SUPERVISOR_VARIABLE` names), ask Linux for SIGTERM when that parent dies, even
    by SIGKILL, so no server process is left holding the port; if the parent is already gone,
    stop now. Returns whether the signal was set (False elsewhere, or outside Linux). O(1)."""
    supervisor = os.environ.get(SUPERVISOR_VARIABLE, "")
    if not supervisor.isdigit() or int(supervisor) == os.getpid():
        return False  # not under coinrow serve, or its only process
    if os.getppid() != int(supervisor):  # the supervisor died before this process started
        os.kill(os.getpid(), signal.SIGTERM)
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # libc's, already loaded: no search
    except (OSError, AttributeError):  # not Linux
        return False
    if prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) != 0:
        return False
    if os.getppid() != int(supervisor):  # it died before the call: no signal will come
        os.kill(os.getpid(), signal.SIGTERM)
    return True


#: Memory one server process needs besides its worker processes (measured: about 120 MiB
#: resident after start and a few requests; rounded up).
SERVER_MEMORY = 256 * 2**20


def machine_cores() -> int:
    """The cores this process may run on (O(cores))."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def machine_memory() -> int:
    """This machine's physical memory in bytes (O(1))."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def most_workers(*, processes: int, request_memory: int) -> tuple[int, str]:
    """The most server processes this machine can run, and why: one per core, and no more
    than its memory holds, each taking :data:`SERVER_MEMORY` plus ``processes`` worker
    processes of ``request_memory`` each (O(cores)).

    >>> count, reason = most_workers(processes=1, request_memory=512 * 2**20)
    >>> 1 <= count <= machine_cores()
    True
    """
    cores = machine_cores()
    each = SERVER_MEMORY + processes * request_memory
    memory = machine_memory()
    by_memory = max(memory // each, 1)
    if by_memory < cores:
        return by_memory, (
            f"this machine's {memory / 2**30:.1f} GiB of memory holds {by_memory} "
            f"(each takes up to {each / 2**20:,.0f} MiB with its worker processes)"
        )
    return cores, f"this machine has {cores} core{'s' if cores > 1 else ''}"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address or ``localhost`` (O(len)).

    >>> is_loopback("127.0.0.1"), is_loopback("0.0.0.0"), is_loopback("localhost")
    (True, False, True)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether ``host`` means every interface (``0.0.0.0``, ``::``) (O(len)).

    >>> is_wildcard("0.0.0.0"), is_wildcard("::"), is_wildcard("192.0.2.1")
    (True, True, False)
    """
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


class RequestGuard:
    """ASGI middleware bounding what every request may cost (O(1) per chunk):

    - the body: over ``body_bytes`` refused with 413 (from ``Content-Length`` before
      anything is read, or as soon as the bytes received pass it); a body that stops
      arriving for ``body_seconds`` with 408 (a POST whose content type is not JSON gets
      415 from its route);
    - the answer: one over ``response_bytes`` is replaced by a 422 saying so;
    - the work: with a ``pool``, an API request with a large body, or whose work the
      library estimates over :data:`INLINE_SECONDS`, is answered by a worker process (time
      and memory limits, killed when the client disconnects); without one (inside a worker
      process) everything runs here with ``request_seconds``.
    """

    def __init__(self, app: ASGIApp, limits: Limits, pool: WorkerPool | None) -> None:
        self.app, self.limits, self.pool = app, limits, pool
        self.budget = BodyBudget(total=limits.bodies_bytes, small=INLINE_BODY)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limits.body_bytes):
            await _send_answer(send, self._too_large())
            return
        api = scope["path"].startswith("/api/")
        if not api:
            await self.app(scope, receive, self._bounded(send))
            return
        # the bytes its body may take: its length, the most for a chunked one, else none
        chunked = length is None and b"transfer-encoding" in headers
        claim = self.limits.body_bytes if chunked else int(length or 0)
        large = claim > INLINE_BODY
        if self.pool is not None and large and self.pool.full():
            await _send_answer(send, self.pool.busy_answer())  # before reading the body
            return
        if not self.budget.claim(claim):
            await _send_answer(send, self._bodies_full())  # before reading the body
            return
        try:
            await self._answer(scope, receive, send)
        finally:
            self.budget.release(claim)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body (its bytes claimed) and answer, inline or by a worker process."""
        body = await self._read_body(receive, send)
        if body is None:
            return
        if self.pool is None:
            REQUEST_SECONDS.set(float(self.limits.request_seconds))
            await self.app(scope, _replay(body, receive), self._bounded(send))
            return
        if len(body) <= INLINE_BODY:
            REQUEST_SECONDS.set(INLINE_SECONDS)
            INLINE.set(True)
            answer = await _collect(self.app, scope, _replay(body, receive))
            if not any(key == TO_WORKER for key, _ in answer[1]):
                await _send_answer(send, self._bound_answer(answer))
                return
        pooled = await self.pool.answer(dict(scope), body, _disconnect(receive))
        if pooled is not None:
            await _send_answer(send, self._bound_answer(pooled))

    async def _read_body(self, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once a 408 or 413 has been sent."""
        chunks, size = [], 0
        deadline = asyncio.get_running_loop().time() + self.limits.body_seconds
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.001))
            except TimeoutError:
                await _send_answer(
                    send,
                    error_answer(
                        408,
                        "the request body did not arrive within "
                        f"{duration_text(self.limits.body_seconds)}",
                        {"connection": "close"},
                    ),
                )
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.body_bytes:
                await _send_answer(send, self._too_large())
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _bodies_full(self) -> Answer:
        return error_answer(
            503,
            "the server is holding as many request bodies as it may "
            f"({self.limits.bodies_bytes:,} bytes); try again in a moment",
            {"retry-after": "1", "connection": "close"},
        )

    def _too_large(self) -> Answer:
        return error_answer(
            413,
            f"the request body is over the limit of {self.limits.body_bytes:,} bytes",
            {"connection": "close"},
        )

    def _bound_answer(self, answer: Answer) -> Answer:
        """The answer, or a 422 in its place when it is over ``response_bytes``."""
        if len(answer[2]) <= self.limits.response_bytes:
            return answer
        return error_answer(422, self._response_refusal(len(answer[2])))

    def _response_refusal(self, size: int) -> str:
        return (
            f"the answer would be {size:,} bytes, over the limit of "
            f"{self.limits.response_bytes:,} bytes; ask for fewer or shorter coins"
        )

    def _bounded(self, send: Send) -> Send:
        """``send`` refusing a response whose ``Content-Length`` is over the limit."""
        refused = False

        async def bounded_send(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start":
                length = dict(message.get("headers", [])).get(b"content-length", b"0")
                if length.isdigit() and int(length) > self.limits.response_bytes:
                    refused = True
                    await _send_answer(send, error_answer(422, self._response_refusal(int(length))))
                    return
            if not refused:
                await send(message)

        return bounded_send


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` giving the body already read, then the client's own messages."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _disconnect(receive: Receive) -> None:
    """Return when the client disconnects."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _collect(app: ASGIApp, scope: Scope, receive: Receive) -> Answer:
    """Run a request and collect its response instead of sending it."""
    status, headers, chunks = 500, [], []

    async def send(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status, headers = message["status"], list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))

    await app(scope, receive, send)
    return status, headers, b"".join(chunks)


async def _send_answer(send: Send, answer: Answer) -> None:
    status, headers, body = answer
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
