"""The web app (issue 9): ``coinrow serve``, or ``uvicorn coinrow.web:app --workers 4``.

Needs the ``web`` extra (FastAPI and uvicorn): ``pip install 'coinrow[web]'``. Importing
:mod:`coinrow` never imports this package. See ``docs/web.md``.
"""

from __future__ import annotations

from .app import Limits, create_app

#: The app with limits from the ``COINROW_WEB_*`` environment variables.
app = create_app()

__all__ = ["Limits", "app", "create_app"]
