"""Worker processes that answer the web app's costly requests, and can really be stopped.

A request the app does not answer inline (:class:`coinrow.web.guard.RequestGuard` decides: a
large body, or work the library estimates over a few milliseconds) goes to a
:class:`WorkerPool`: a few processes, each running the same app with the same limits, each
answering one request at a time. Each process has an address-space limit (``RLIMIT_AS``: its
size when started plus the memory limit of one request); the parent waits at most the time
limit, and kills the process (SIGKILL) when the time is up or the client has gone, starting a
fresh one for the next request. Requests wait in a bounded queue; past it they are refused at
once with 503. So a request never runs longer than its limit, never grows past its memory, and
never keeps a core busy for a client that left, while the event loop stays free for small
requests.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import resource
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

#: Keys of an ASGI HTTP scope that a worker process needs (the others cannot be pickled).
SCOPE_KEYS = (
    "type",
    "asgi",
    "http_version",
    "method",
    "scheme",
    "path",
    "raw_path",
    "root_path",
    "query_string",
    "headers",
    "client",
    "server",
)

#: A response as the worker sends it back: status, headers, body.
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]

#: What the app factory in a worker is called with (the parent's limits).
AppFactory = Callable[[Any], Any]


def error_answer(status: int, detail: str, headers: dict[str, str] | None = None) -> Answer:
    """A JSON error ``{"detail": ...}`` as an :data:`Answer` (O(len(detail)))."""
    body = json.dumps({"detail": detail}).encode()
    pairs = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    pairs += [(key.encode(), value.encode()) for key, value in (headers or {}).items()]
    return status, pairs, body


@dataclass
class _Worker:
    process: Any
    connection: Connection


class WorkerPool:
    """Up to ``size`` worker processes answering requests through ``factory(limits)``, the
    app they each build; at most ``queue`` requests wait for one. ``seconds`` and
    ``memory`` bound each request (wall clock from the moment a worker takes it; bytes of
    address space over the worker's size at start). Processes start on first use."""

    def __init__(
        self,
        factory: AppFactory,
        limits: Any,
        *,
        size: int,
        queue: int,
        seconds: float,
        memory: int,
    ) -> None:
        self.factory, self.limits = factory, limits
        self.size, self.queue, self.seconds, self.memory = size, queue, seconds, memory
        self._idle: list[_Worker] = []
        self._busy = 0
        self._waiting = 0
        self._free: asyncio.Condition | None = None
        self._threads = ThreadPoolExecutor(max_workers=size + 1, thread_name_prefix="coinrow-io")
        self._lock = threading.Lock()
        self._all: list[_Worker] = []

    # -- the parent's side --------------------------------------------------------------

    async def answer(
        self, scope: dict[str, Any], body: bytes, disconnected: Awaitable[None]
    ) -> Answer | None:
        """The worker's answer to a request, an error answer (busy, over the time or memory
        limit), or None when the client disconnected first (the work is then killed)."""
        if self._free is None:
            self._free = asyncio.Condition()
        async with self._free:
            if self.full():
                return self.busy_answer()
            self._waiting += 1
            try:
                await self._free.wait_for(lambda: self._busy < self.size)
            finally:
                self._waiting -= 1
            self._busy += 1
        try:
            return await self._run(scope, body, disconnected)
        finally:
            async with self._free:
                self._busy -= 1
                self._free.notify()

    def full(self) -> bool:
        """True when every process is busy and the queue is full (O(1))."""
        return self._busy >= self.size and self._waiting >= self.queue

    def busy_answer(self) -> Answer:
        """The 503 answer of a full pool (O(1))."""
        return error_answer(
            503,
            f"the server is busy ({self._busy} requests running, {self._waiting} waiting); "
            "try again in a moment",
            {"retry-after": "1", "connection": "close"},
        )

    async def _run(
        self, scope: dict[str, Any], body: bytes, disconnected: Awaitable[None]
    ) -> Answer | None:
        loop = asyncio.get_running_loop()
        worker = (
            self._idle.pop()
            if self._idle
            else await loop.run_in_executor(self._threads, self._start)
        )
        job = {key: scope[key] for key in SCOPE_KEYS if key in scope}
        reply: asyncio.Future[Any] = loop.run_in_executor(
            self._threads, _exchange, worker.connection, (job, body)
        )
        watch: asyncio.Future[Any] = asyncio.ensure_future(disconnected)
        try:
            done, _ = await asyncio.wait(
                {reply, watch}, timeout=self.seconds, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            watch.cancel()
        if reply in done and reply.exception() is None:
            answer: Answer | None = reply.result()
            if answer is not None:
                self._idle.append(worker)
                return answer
            self._kill(worker)  # it stopped on its own: over its memory, or it crashed
            return error_answer(
                422,
                "the request needed more than the server's memory limit of "
                f"{self.memory / 2**20:,.0f} MiB for one request and was stopped",
            )
        self._kill(worker)
        if watch in done:
            return None
        return error_answer(
            422,
            f"the request took more than the server's limit of {self.seconds:g} "
            f"second{'' if self.seconds == 1 else 's'} for one request and was stopped",
        )

    def _start(self) -> _Worker:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["coinrow.web.app", "numpy"])  # numpy: if installed
        parent, child = context.Pipe()
        process = context.Process(
            target=_serve,
            args=(child, self.factory, self.limits, self.memory),
            daemon=True,
            name="coinrow-web-worker",
        )
        process.start()
        child.close()
        worker = _Worker(process, parent)
        with self._lock:
            self._all.append(worker)
        return worker

    def _kill(self, worker: _Worker) -> None:
        worker.process.kill()
        worker.connection.close()
        self._threads.submit(worker.process.join)
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)

    def close(self) -> None:
        """Stop every worker process (O(size))."""
        with self._lock:
            workers, self._all, self._idle = list(self._all), [], []
        for worker in workers:
            worker.process.kill()
            worker.connection.close()
        for worker in workers:
            worker.process.join(timeout=5)
        self._threads.shutdown(wait=False, cancel_futures=True)
        # Ready for another start (an app's lifespan can run again, as in tests).
        self._threads = ThreadPoolExecutor(
            max_workers=self.size + 1, thread_name_prefix="coinrow-io"
        )
        self._free, self._busy, self._waiting = None, 0, 0


def _exchange(connection: Connection, job: Any) -> Answer | None:
    """Send a job and wait for its answer (in a helper thread); None when the worker died."""
    try:
        connection.send(job)
        answer: Answer = connection.recv()
    except (EOFError, OSError):
        return None
    return answer


# -- the worker's side ----------------------------------------------------------------------


def _serve(connection: Connection, factory: AppFactory, limits: Any, memory: int) -> None:
    """A worker process: build the app, bound the address space, answer jobs one by one."""
    app = factory(limits)
    _limit_memory(memory)
    os.nice(10)  # below the server process: small requests answered inline keep their core
    loop = asyncio.new_event_loop()
    while True:
        try:
            scope, body = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer = loop.run_until_complete(_call(app, scope, body))
        except MemoryError:
            return  # the parent reports the memory limit and starts a fresh process
        try:
            connection.send(answer)
        except (OSError, MemoryError):
            return


def _limit_memory(memory: int) -> None:
    """Limit this process's address space to its present size plus ``memory`` bytes."""
    size = 0
    try:
        with open(f"/proc/{os.getpid()}/statm") as statm:
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):  # not Linux: the wall-clock limit still holds
        return
    limit = size + memory
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


async def _call(app: Any, scope: dict[str, Any], body: bytes) -> Answer:
    """Run one request through the ASGI app and collect its response."""
    status, headers, chunks = 500, [], []
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the parent watches for disconnects itself
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status, headers = message["status"], list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))

    await app({**scope, "state": {}, "extensions": {}}, receive, send)
    return status, [(bytes(k), bytes(v)) for k, v in headers], b"".join(chunks)
