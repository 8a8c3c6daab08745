"""The FastAPI app: a JSON API under ``/api/`` and the static page at ``/``.

:func:`create_app` assembles the parts, each in its own module: the endpoints, one router per
area of the page (:mod:`coinrow.web.routers`); what a request says, read exactly
(:mod:`coinrow.web.inputs`); what it may ask for and cost (:mod:`coinrow.web.limits`); the
guards every request passes (:mod:`coinrow.web.guard`: the host check and security headers,
and :class:`~coinrow.web.guard.RequestGuard`, which bounds a request's body, answer and work,
answering costly work in a :class:`~coinrow.web.workers.WorkerPool` process); and the page
(:mod:`coinrow.web.pages`). The server keeps no state between requests: a game in progress
is sent back in full (coins and moves) each time.

Bad input of any kind is a 4xx response ``{"detail": "<one sentence>"}``: JSON syntax,
unknown keys, wrong types, booleans, nested arrays, NaN and infinities, coins that are not
numbers or are too long, too many coins, moves that do not fit the row, unknown strategies;
bodies over the size limit are refused with 413 before they are read.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .. import __version__
from ..errors import CoinrowError, CostLimitError
from . import online
from .guard import RequestGuard, Security, allowed_hosts, die_with_parent
from .inputs import ExactRoute, describe_validation, read_row
from .limits import (
    INLINE,
    INLINE_BODY,
    INLINE_SECONDS,
    PER_COIN_LIMIT,
    TO_WORKER,
    Limits,
    request_seconds,
)
from .pages import STATIC, Compress, StaticCache, mount_pages
from .routers import Api, board, learn, play, puzzles, server, solve
from .workers import WorkerPool

__all__ = [
    "INLINE_BODY",
    "INLINE_SECONDS",
    "PER_COIN_LIMIT",
    "STATIC",
    "Limits",
    "RequestGuard",
    "create_app",
    "read_row",
    "request_seconds",
    "worker_app",
]


#: The cyclic garbage collector's thresholds while a server runs (Python's: 700, 10, 10): a
#: young collection after 10,000 more container objects, not 700, so the garbage of a move
#: dies young instead of filling the old generation (measured with 500 live games: no full
#: collection in 120 s; with Python's thresholds, full collections of 100-230 ms of CPU in
#: every 30-second run).
GC_THRESHOLDS = (10_000, 10, 10)


@contextmanager
def _settled_heap() -> Iterator[None]:
    """While the app runs: its start-up garbage collected and what is left frozen (modules,
    classes, the routes: :func:`gc.freeze`), so no later collection traverses it, and
    :data:`GC_THRESHOLDS`; Python's settings again when it stops (a test process goes on).
    A full collection pauses the event loop in proportion to the objects it traverses, and
    Python's thresholds promote each move's short-lived objects to the old generation,
    whose growth triggers full collections (O(objects) once)."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def worker_app(limits: Limits) -> FastAPI:
    """The app a worker process runs: the same limits, everything answered in the process
    (O(1)); the host was checked by the server process that sent the request."""
    return create_app(limits, workers=False, hosts=["*"])


def create_app(
    limits: Limits | None = None, *, workers: bool = True, hosts: Sequence[str] | None = None
) -> FastAPI:
    """The web app with the given limits (default: :meth:`Limits.from_env`) (O(1)). With
    ``workers``, costly requests run in worker processes (:class:`RequestGuard`), started
    on first use and stopped with the app. ``hosts``: the host names requests may be sent to
    (default: ``COINROW_WEB_ALLOWED_HOSTS``, else loopback; :func:`~coinrow.web.guard.
    allowed_hosts`); every response carries the security headers of :mod:`coinrow.web.guard`."""
    limits = Limits.from_env() if limits is None else limits
    served_hosts = allowed_hosts(hosts)
    pool = None
    if workers:
        pool = WorkerPool(
            worker_app,
            limits,
            size=limits.processes,
            queue=limits.queue,
            seconds=limits.request_seconds,
            memory=limits.request_memory,
        )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        die_with_parent()  # a server process of `coinrow serve --workers N` ends with it
        with _settled_heap():
            yield
        if pool is not None:
            pool.close()

    app = FastAPI(
        title="coinrow",
        version=__version__,
        docs_url=None,  # served by mount_pages from the package's own copy of Swagger UI
        redoc_url=None,
        description="Solve, explore, play and learn the coins-in-a-line game. Every error is "
        '{"detail": "<a sentence>"}; exact values are JSON numbers (ints) or exact strings.',
        lifespan=lifespan,
    )
    app.router.route_class = ExactRoute
    app.add_middleware(RequestGuard, limits=limits, pool=pool)
    app.add_middleware(Compress)
    app.add_middleware(StaticCache)
    app.add_middleware(Security, hosts=served_hosts)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe_validation(error.errors())}, status_code=422)

    @app.exception_handler(CoinrowError)
    async def _library(request: Request, error: CoinrowError) -> JSONResponse:
        if isinstance(error, CostLimitError) and INLINE.get():
            # too costly to answer inline: RequestGuard sends it to a worker process
            return JSONResponse({"detail": str(error)}, 422, {TO_WORKER.decode(): "1"})
        return JSONResponse({"detail": str(error)}, status_code=422)

    @app.exception_handler(MemoryError)
    async def _memory(request: Request, error: MemoryError) -> JSONResponse:
        detail = (
            "the request needed more than the server's memory limit of "
            f"{limits.request_memory / 2**20:,.0f} MiB for one request and was stopped"
        )
        return JSONResponse({"detail": detail}, status_code=422)

    api = Api(limits)
    for area in (solve, play, board, learn, puzzles, server):
        app.include_router(area.router(api.area()))
    app.include_router(online.router())
    mount_pages(app)
    return app
