"""Where Numba keeps its compiled kernels: one shared choice made before Numba is imported.

Numba caches ``@njit(cache=True)`` functions in the ``__pycache__`` folder next to their
module, else in a per-user folder under ``$HOME``. When neither can be written (an install
owned by root run by another user, ``HOME=/nonexistent``) every kernel fails with "cannot
cache function". :func:`use_writable_cache` is called by each module that imports Numba,
before it does: when the package's own folders cannot take the cache it points
``NUMBA_CACHE_DIR`` (Numba's documented setting) at a folder that can, the user's cache
folder or else one under the temporary folder. A ``NUMBA_CACHE_DIR`` the user set is kept.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

#: The package's folders whose modules hold cached kernels.
KERNEL_FOLDERS = ("engines", "census")


def use_writable_cache() -> str | None:
    """Make sure Numba has a writable cache folder; return the folder chosen, or None when
    Numba's default (beside the modules) or the user's own setting is used. O(1): a few
    file-system checks, once per process in practice (repeated calls do the same checks).

    >>> use_writable_cache() is None or os.environ["NUMBA_CACHE_DIR"] != ""
    True
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    package = Path(__file__).resolve().parent
    if all(_writable(package / name / "__pycache__") for name in KERNEL_FOLDERS):
        return None
    for folder in _candidates():
        if _writable(folder):
            os.environ["NUMBA_CACHE_DIR"] = str(folder)
            config = sys.modules.get("numba.core.config")
            if config is not None:  # Numba already imported: its config reads this at use
                config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
            return str(folder)
    return None  # pragma: no cover - not even the temporary folder can be written


def _candidates() -> list[Path]:
    """Writable places to try, best first: the user's cache folder, then a temporary one
    named after the user (so users do not share, or collide on, each other's files)."""
    out = []
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if os.path.isabs(base):
        out.append(Path(base) / "coinrow" / "numba")
    user = os.getuid() if hasattr(os, "getuid") else os.getpid()
    out.append(Path(tempfile.gettempdir()) / f"coinrow-numba-{user}")
    return out


def _writable(folder: Path) -> bool:
    """True when ``folder`` exists or can be created, and a file can be created in it: the
    check Numba itself makes (permission bits do not tell for root or read-only mounts)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        return False
    return True


__all__ = ["use_writable_cache"]
