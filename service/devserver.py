"""`make run`: the API under gunicorn on $PORT (default 8000), with its embedded services."""
from __future__ import annotations

import os
import sys


def serve() -> int:
    """Replace this process with gunicorn serving service.wsgi:app with deploy/gunicorn.conf.py."""
    port = os.environ.get("PORT", "8000")
    os.environ.setdefault("GUNICORN_BIND", f"0.0.0.0:{port}")
    args = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"]
    os.execv(sys.executable, args)
    return 0  # pragma: no cover - execv does not return
