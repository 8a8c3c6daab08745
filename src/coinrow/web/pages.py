"""The page and the API's documentation: ``/`` (the page, with an ETag), ``/docs`` (Swagger
UI from the package's own copy, offline), the static files, and the middleware that
compresses answers (:class:`Compress`) and tells browsers to revalidate the page's files
(:class:`StaticCache`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request, Response
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Where the page's HTML, CSS and JavaScript modules live (shipped inside the package).
STATIC = Path(__file__).parent / "static"


def mount_pages(app: FastAPI) -> None:
    """Serve the page, its static files and the API's documentation page on ``app``
    (O(len(page)) to read the page once)."""

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(DOCS_PAGE)

    # Swagger UI 5 (OpenAPI 3.1) as shipped inside the fastapi-offline package.
    swagger = Path(fastapi_offline.__file__).parent / "static"
    app.mount("/swagger", StaticFiles(directory=swagger), name="swagger")

    page = (STATIC / "index.html").read_text(encoding="utf-8")
    page_tag = '"' + hashlib.sha256(page.encode()).hexdigest()[:32] + '"'

    @app.get("/", include_in_schema=False)
    def index(request: Request) -> Response:
        """The page, with an ETag: a browser's revalidation gets 304 (O(len(page)))."""
        tags = request.headers.get("if-none-match", "")
        if page_tag in (tag.strip().removeprefix("W/") for tag in tags.split(",")):
            return Response(status_code=304, headers={"etag": page_tag})
        return HTMLResponse(page, headers={"etag": page_tag})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


#: The API's documentation page: Swagger UI started by a script file, not inline (the
#: Content-Security-Policy of :mod:`coinrow.web.guard` allows no inline script).
DOCS_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="swagger/swagger-ui.css">
<link rel="icon" href="swagger/favicon.png">
<title>coinrow API</title>
</head>
<body>
<div id="swagger-ui"></div>
<script src="swagger/swagger-ui-bundle.js"></script>
<script src="static/js/swagger.js"></script>
</body>
</html>
"""


class Compress:
    """Starlette's gzip for clients that accept it (responses of 1,000 bytes or more); other
    requests (API clients, the load benchmark) go straight to the app, paying nothing (O(1))."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1000)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"accept-encoding" and b"gzip" in value:
                    await self.gzip(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class StaticCache:
    """ASGI middleware giving the page's files a cache header: browsers keep them and ask
    again with their ETag (answered 304 Not Modified) rather than loading them anew (O(1))."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not (path == "/" or path.startswith(("/static/", "/swagger/"))):
            await self.app(scope, receive, send)
            return

        async def send_with_cache(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k != b"cache-control"]
                headers.append((b"cache-control", b"no-cache"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cache)
