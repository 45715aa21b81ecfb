"""deploy/gunicorn.conf.py: every setting documented in the README, and the preload GC freeze."""
from __future__ import annotations

import gc
import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "deploy" / "gunicorn.conf.py"


def test_every_environment_variable_is_in_the_readme_table():
    names = set(re.findall(r'os\.environ\.get\("([A-Z_]+)"', CONF.read_text()))
    table = {row.split("|")[1].strip(" `") for row in (ROOT / "README.md").read_text().splitlines()
             if row.startswith("| `")}
    assert names and names <= table, names - table


def test_when_ready_freezes_the_preloaded_objects(monkeypatch):
    for value, frozen in (("true", True), ("false", False)):
        monkeypatch.setenv("GUNICORN_GC_FREEZE", value)
        conf = runpy.run_path(str(CONF))
        try:
            conf["when_ready"](None)
            assert (gc.get_freeze_count() > 0) is frozen
        finally:
            gc.unfreeze()
