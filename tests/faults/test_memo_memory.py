"""Remembered answers bounded by bytes (issue 22 item 5): 17,000 distinct runequest-house /damage bodies took
a gunicorn worker from 150 to 362 MB, each memo holding thousands of answers whatever their size. Now every
memo of a process shares one store of at most REFEREE_MEMO_BYTES (32 MiB) estimated bytes, and the worker's
resident memory grows by less than that bound plus `HEADROOM_MIB` (what the interpreter's allocator keeps).

`make faults` (FAULTS_FULL=1) sends the issue's 17,000 bodies at the default bound (a few minutes);
`make test` sends 1,500 at a 4 MiB bound, enough to fill it several times over."""
from __future__ import annotations

import http.client
import itertools
import json
import os
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from service.config import Config
from tests.faults.conftest import UNREACHABLE_LIMIT
from tests.load.stack import start_stack, worker_pids

pytestmark = pytest.mark.slow
FULL = os.environ.get("FAULTS_FULL") == "1"
BODIES = 17_000 if FULL else 1_500
MEMO_BYTES = Config().memo_bytes if FULL else 4 * 1024 * 1024
HEADROOM_MIB = 16
LOCATIONS = ("head", "chest", "abdomen", "left_arm", "right_arm", "left_leg", "right_leg")
WEAPONS = ("3d20", "4d12+2", "2d20+3d6", "6d10", "5d12", "3d20+1d10", "8d6")


def weapon_pack(size: int = 40) -> dict:
    """A caller's own weapon pack of `size` weapons (about 10 KB of JSON), as the `weapon_pack` option."""
    stats = {"type": "slash", "sr": 2, "length_m": 1, "ap": 12, "hands": 1, "flexible": False, "bladed": True,
             "hafted": False, "long_hafted": False, "hacking": False, "kind": "melee", "effective_range_m": None}
    shields = {"buckler": {"size": "buckler", "ap": 8}}
    return {"weapons": {f"blade-{i}": {**stats, "damage": f"1d{4 + i % 9}+{i % 5}"} for i in range(size)},
            "shields": shields}


def bodies():
    """Distinct /damage bodies, each a new question for the memos: every other one a blow whose answer holds
    the exact odds of 40-130 damage values (the weapons' distributions are few, so the server spends its
    time on the answers), the others a small blow with the caller's own 40-weapon pack in `options`."""
    pack = weapon_pack()
    for hp, location, weapon, degree in itertools.product(range(1, 1000), LOCATIONS, WEAPONS, ("success", "special")):
        target = {"siz": 13, "str": 12, "dex": 14, "armor": ["ringmail"], "location_hp": 6, "hp": hp}
        yield {"weapon": {"damage": weapon, "type": "slash"}, "damage_bonus": "+1d4", "degree": degree,
               "location": location, "target": target}
        yield {"weapon": f"blade-{hp % 40}", "damage_bonus": "+1d4", "degree": degree, "location": location,
               "target": target, "options": {"weapon_pack": pack}}


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise LookupError("VmRSS")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = start_stack(tmp_path_factory.mktemp("memo"), worker=False,
                          **{**UNREACHABLE_LIMIT, "GUNICORN_WORKERS": "1", "GUNICORN_MAX_REQUESTS": "0",
                             "REFEREE_MEMO_BYTES": str(MEMO_BYTES)})
    yield running
    running.close()


def send(url: str, work: list[dict], failures: list) -> None:
    """POST each body on one keep-alive connection (http.client: the client's own CPU stays small)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        for body in work:
            connection.request("POST", "/v1/runequest-house/damage", json.dumps(body),
                               {"Content-Type": "application/json"})
            answer = connection.getresponse()
            text = answer.read()
            if answer.status != 200:
                failures.append((answer.status, text[:200]))
    finally:
        connection.close()


def test_distinct_damage_bodies_keep_the_worker_under_the_memo_bound(stack):
    (worker,) = worker_pids(stack.processes[-1].pid)
    every = list(itertools.islice(bodies(), BODIES))
    failures: list = []
    warm = [{**body, "weapon": {"damage": "1d6", "type": "slash"}, "options": {}} for body in every[:20]]
    send(stack.url, warm, failures)  # code paths and tables loaded, with small answers
    before, started = rss_mib(worker), time.monotonic()
    chunks = [every[i::4] for i in range(4)]
    threads = [threading.Thread(target=send, args=(stack.url, chunk, failures)) for chunk in chunks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after, seconds = rss_mib(worker), time.monotonic() - started
    bound = MEMO_BYTES / 2**20 + HEADROOM_MIB
    print(f"\n{BODIES} distinct runequest-house /damage bodies in {seconds:.1f} s: worker RSS {before:.0f} -> "
          f"{after:.0f} MiB (+{after - before:.1f}; bound {bound:.0f})")
    assert failures == []
    assert after - before < bound
