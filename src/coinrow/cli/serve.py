"""``coinrow serve``: the web app (FastAPI + uvicorn), which needs the ``web`` extra."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import typer

from ..errors import MissingExtraError
from ..online.limits import OnlineLimits
from .common import app, fail


@app.command("serve")
def serve_command(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."
    ),
    port: int = typer.Option(8000, "--port", help="TCP port to listen on."),
    workers: int = typer.Option(
        1, "--workers", help="Worker processes (each answers requests on its own core)."
    ),
    access_log: bool = typer.Option(
        True, "--access-log/--no-access-log", help="Log every request on standard error."
    ),
    allowed_hosts: list[str] = typer.Option(
        [],
        "--allowed-host",
        help="A host name requests may be sent to (repeat for more; *.example.org for its "
        "subdomains). Default: loopback names and the --host address.",
    ),
    data_dir: str | None = typer.Option(
        None,
        "--data-dir",
        help="Folder of the online games' SQLite store (made if missing). Default: "
        "$COINROW_ONLINE_DATA, else $XDG_DATA_HOME/coinrow, else ~/.local/share/coinrow.",
    ),
    redis_url: str | None = typer.Option(
        None,
        "--redis",
        help="Keep online games in the Redis server at this URL (redis://HOST:PORT/DB), so "
        "several coinrow serve processes serve the same games.",
    ),
) -> None:
    """Serve the web page and its JSON API.

    The page's views (Solve, Explore, Play, Learn) and the JSON API under /api/.

    Open http://HOST:PORT/ in a browser; the API is described at /docs. Limits are set by
    COINROW_WEB_* environment variables (see docs/web.md). Behind a proxy, run
    `uvicorn coinrow.web:app --workers N` instead, with uvicorn's own options."""
    try:
        import fastapi  # noqa: F401
        import uvicorn
    except ImportError:
        raise MissingExtraError("coinrow serve needs FastAPI and uvicorn", "web") from None
    if workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
    if not 0 <= port <= 65535:
        fail(f"--port must be between 0 and 65535, not {port}")
    from ..web import guard
    from ..web.app import Limits

    limits = Limits.from_env()  # a bad COINROW_WEB_* setting is one line here, not per worker
    most, reason = guard.most_workers(
        processes=limits.processes, request_memory=limits.request_memory
    )
    if workers > most:
        fail(f"--workers {workers} is more than this machine can run: at most {most} ({reason})")
    hosts = list(allowed_hosts)
    if not hosts and guard.HOSTS_VARIABLE not in os.environ:
        named = [] if guard.is_wildcard(host) or guard.is_loopback(host) else [host]
        hosts = [*guard.LOOPBACK_HOSTS, *named]
    if hosts:
        os.environ[guard.HOSTS_VARIABLE] = ",".join(guard.allowed_hosts(hosts))
    check_listen(host, port)
    report_store(data_dir, redis_url)
    os.environ[guard.SUPERVISOR_VARIABLE] = str(os.getpid())  # its server processes end with it
    uvicorn.run(
        "coinrow.web.app:create_app",  # built after the settings above, in every process
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=access_log,
        # by name: each server process imports it once running (and answering the
        # supervisor's health checks), not while unpickling its settings
        http="coinrow.web.guard:BoundedHTTP",
        ws_max_size=WS_MAX_BYTES,
    )


#: Largest WebSocket message uvicorn reads; the app refuses frames over its own, smaller
#: limit (COINROW_ONLINE_FRAME_BYTES) with an error frame.
WS_MAX_BYTES = 64 * 2**10


def report_store(data_dir: str | None, redis_url: str | None) -> None:
    """Choose the online games' store for every server process (by environment variables)
    and say where it is, in one line on standard error; refuse one that cannot be used."""
    from ..web import online

    OnlineLimits.from_env()  # a bad COINROW_ONLINE_* setting is one line here
    if redis_url is not None:
        if data_dir is not None:
            fail("--data-dir and --redis are two stores: give one")
        if not redis_url.startswith(("redis://", "rediss://", "unix://")):
            fail(f"--redis {redis_url}: give a URL such as redis://127.0.0.1:6379/0")
        os.environ[online.REDIS_VARIABLE] = redis_url
        os.environ.pop(online.DATA_VARIABLE, None)
    else:
        chosen = data_dir or os.environ.get(online.DATA_VARIABLE)
        folder = Path(chosen) if chosen else online.default_data_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"--data-dir {folder}: cannot make the folder ({error.strerror or error})")
        os.environ[online.DATA_VARIABLE] = str(folder.resolve())
        os.environ.pop(online.REDIS_VARIABLE, None)
    try:
        store = online.open_store()
    except Exception as error:  # any failure to open the store is one line
        fail(f"cannot open the online games' store: {type(error).__name__}: {error}")
    typer.echo(f"coinrow serve: online games are kept in {store.where}", err=True)
    store.close()


def check_listen(host: str, port: int) -> None:
    """Refuse, in one line, an address the server could not listen on: an empty host (which
    would mean every interface), a host that does not resolve, a port in use or not
    allowed. Checked by binding a socket once, as uvicorn then does."""
    if not host.strip():
        fail("--host is empty; give an address such as 127.0.0.1 (or 0.0.0.0 for every interface)")
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, socket.gaierror) else str(error)
        fail(f"--host {host}: not an address or a name this machine can resolve ({reason})")
    family, kind, protocol, _, address = addresses[0]
    try:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        fail(f"cannot listen on {host} port {port}: {error.strerror or error}")
