"""Redocly CLI's `lint` with its recommended rules (redocly.yaml) finds no error in openapi.yaml.
Skips (saying why) without Node or the node tools (`make node-tools`)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REDOCLY = ROOT / "node_modules" / ".bin" / "redocly"


@pytest.mark.skipif(not shutil.which("node") or not REDOCLY.exists(),
                    reason="Node.js or the node tools are missing (apt-get install nodejs npm; make node-tools)")
def test_redocly_recommended_lint_has_no_errors():
    env = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}
    done = subprocess.run([str(REDOCLY), "lint", "openapi.yaml", "--format", "json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    result = json.loads(done.stdout[done.stdout.index("{"):])
    errors = [f"{p['ruleId']}: {p['message']} at {p['location'][0]['pointer']}" for p in result["problems"]
              if p["severity"] == "error"]
    assert result["totals"]["errors"] == 0 and not errors, errors
