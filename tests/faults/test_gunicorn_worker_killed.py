"""A gunicorn worker killed with SIGKILL under a steady request loop: at most the in-flight request fails,
the master starts a replacement and the loop goes on."""
from __future__ import annotations

import os
import signal
import time

import pytest
import requests

from tests.faults.conftest import TO_HIT, Loop
from tests.load.stack import worker_pids

pytestmark = pytest.mark.slow


def wait_for_workers(master: int, count: int, gone: int | None = None, timeout: float = 30.0) -> list[int]:
    """The master's worker pids once there are `count` of them and `gone` is not among them (gunicorn
    forks workers one by one, after the app already answers on the first)."""
    deadline = time.monotonic() + timeout
    pids = worker_pids(master)
    while (len(pids) != count or gone in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
        pids = worker_pids(master)
    return pids


def test_a_killed_worker_costs_at_most_the_request_in_flight(stack):
    master = stack.processes[-1].pid
    before = wait_for_workers(master, 2)
    assert len(before) == 2
    session = requests.Session()
    with Loop(lambda: session.post(stack.url + "/v1/tactical/to-hit", json=TO_HIT, timeout=5).status_code) as loop:
        time.sleep(1.0)
        os.kill(before[0], signal.SIGKILL)
        killed_at = time.monotonic()
        time.sleep(2.0)
    after = wait_for_workers(master, 2, gone=before[0])
    failures = [outcome for _, outcome in loop.outcomes if outcome != 200]
    served_after = [outcome for at, outcome in loop.outcomes if at > killed_at + 1 and outcome == 200]
    assert len(failures) <= 1, failures
    assert len(served_after) > 20
    assert len(after) == 2 and before[0] not in after
