"""The audit's byte cap (`max_audit_bytes`): past it the oldest entries give way to one `truncated` entry, on the
in-memory twin and on Redis alike, the audit's bytes stay within the cap, and what is kept still verifies."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.sessions import audit, log
from service.sessions.connection import connect
from service.sessions.memory import MemoryEncounters
from service.sessions.records import Segment
from service.sessions.repository import RedisEncounters
from service.verify import verify
from tests.app_config import isolated_config
from tests.unit.dice.played import create, step

STATE = {"segment": 0, "combatants": [{"id": "a"}]}
CAP = 3000


def audited(number: int, nonce: int, size: int = 900):
    def compute(current):
        entry = {"type": "resolution", "nonce": nonce, "pad": "x" * size}
        return Segment(number, None, [{"type": "tick"}], {**current.state, "segment": number}, audit=entry)
    return compute


@pytest.fixture(params=["memory", "redis"])
def capped(request):
    if request.param == "memory":
        return MemoryEncounters(ttl=60, max_audit_bytes=CAP)
    url = request.getfixturevalue("redis_url")
    return RedisEncounters(lambda: connect(url, ""), ttl=60, max_audit_bytes=CAP)


def test_past_the_cap_the_oldest_entries_give_way_to_one_truncated_entry(capped):
    created, token = capped.create("tactical", STATE)
    for n in range(5):  # 5 entries of about 1,000 bytes against a cap of 3,000
        capped.resolve(created.id, token, audited(n + 1, n))
    capped.undo(created.id, token)
    _, entries = capped.audit(created.id, token)
    assert entries[0] == {"type": "truncated", "dropped": 3, "nonce": 2}
    assert [(e["type"], e["nonce"]) for e in entries[1:]] == [("resolution", 3), ("resolution", 4), ("undo", 4)]
    assert sum(len(log.dump(e)) for e in entries) <= CAP
    capped.resolve(created.id, token, audited(5, 5))  # the next cut folds the old marker into the new one
    _, again = capped.audit(created.id, token)
    assert [e["type"] for e in again].count("truncated") == 1 and again[0]["dropped"] == 4
    assert again[0]["nonce"] == 3 and [e["nonce"] for e in again[1:]] == [4, 4, 5]


def test_the_twin_rule_and_no_cap():
    entries = [{"type": "resolution", "nonce": n, "pad": "x" * 900} for n in range(4)]
    assert audit.truncate(entries, 0) == entries
    kept = audit.truncate(entries, 2000)
    assert kept[0] == {"type": "truncated", "dropped": 3, "nonce": 2} and kept[1:] == entries[3:]


def test_a_truncated_audit_says_so_and_what_is_kept_verifies():
    client = create_app(isolated_config(max_audit_bytes=12_000)).test_client()
    url, auth, _ = create(client, "tactical", dice={"client_seed": "capped"})
    sizes = []
    for _ in range(6):
        step(client, url, auth, "tactical")
        sizes.append(len(log.dump(client.get(f"{url}/audit", headers=auth).json)))
    ended = client.delete(url, headers=auth).json
    cut = ended["truncated"]
    assert cut is not None and cut["dropped"] >= 1, sizes
    assert [r["nonce"] for r in ended["resolutions"]] == list(range(cut["through_nonce"] + 1, 6))
    report = verify(ended)
    assert report.ok, report.problems
    assert report.notes and f"{cut['dropped']} oldest entries" in report.notes[0]
