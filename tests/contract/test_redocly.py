"""Redocly CLI's `lint` with its recommended rules (redocly.yaml) finds no error in openapi.yaml, nor in any
ruleset's openapi/<ruleset>.yaml (one run for all five).
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
@pytest.mark.parametrize("files", [["openapi.yaml"], sorted(f"openapi/{p.name}" for p in (ROOT / "openapi").glob("*.yaml"))],
                         ids=["whole", "per-ruleset"])
def test_redocly_recommended_lint_has_no_errors(files):
    env = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}
    done = subprocess.run([str(REDOCLY), "lint", *files, "--format", "json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    results, text, decoder = [], done.stdout, json.JSONDecoder()
    while "{" in text:  # one JSON report per file
        result, end = decoder.raw_decode(text[text.index("{"):])
        results.append(result)
        text = text[text.index("{") + end:]
    assert len(results) == len(files), done.stdout[-2000:] + done.stderr[-2000:]
    errors = [f"{p['ruleId']}: {p['message']} at {p['location'][0]['source']['ref']}{p['location'][0]['pointer']}"
              for result in results for p in result["problems"] if p["severity"] == "error"]
    assert sum(result["totals"]["errors"] for result in results) == 0 and not errors, errors
