"""The event log's byte cap, its `truncated` marker and its pages, on the in-memory twin and on Redis alike."""
from __future__ import annotations

import json

import pytest

from service.sessions import log
from service.sessions.connection import connect
from service.sessions.memory import MemoryEncounters
from service.sessions.records import Segment
from service.sessions.repository import RedisEncounters, live_message

STATE = {"segment": 0, "combatants": [{"id": "a"}]}
CAP = 2000


def ticks(count: int, number: int, size: int = 60):
    def compute(current):
        return Segment(number, 1, [{"type": "tick", "pad": "x" * size} for _ in range(count)],
                       {**current.state, "segment": number})
    return compute


@pytest.fixture(params=["memory", "redis"])
def capped(request):
    if request.param == "memory":
        return MemoryEncounters(ttl=60, max_log_bytes=CAP)
    url = request.getfixturevalue("redis_url")
    return RedisEncounters(lambda: connect(url, ""), ttl=60, max_log_bytes=CAP)


def whole_log(repo, encounter_id, token):
    items, total = repo.events(encounter_id, token, 0, 500)
    assert len(items) == total
    return items


def test_past_the_cap_the_oldest_events_give_way_to_one_truncated_marker(capped):
    created, token = capped.create("tactical", STATE)
    for number in range(1, 4):  # 3 x 10 events of ~100 bytes: 3,000 bytes against a cap of 2,000
        new, _ = capped.resolve(created.id, token, ticks(10, number))
    items = whole_log(capped, created.id, token)
    marker, kept = items[0], items[1:]
    assert marker["type"] == "truncated" and marker["seq"] == kept[0]["seq"] - 1
    assert marker["dropped"] == marker["seq"]  # every event up to it went, none after
    assert [e["seq"] for e in kept] == list(range(marker["seq"] + 1, 31))
    assert sum(len(log.dump(e)) for e in items) <= CAP
    assert new.total == len(items) and new.stored >= sum(len(log.dump(e)) for e in items)

    capped.resolve(created.id, token, ticks(10, 4))  # the next cut folds the old marker into the new one
    again = whole_log(capped, created.id, token)
    assert [e["type"] for e in again].count("truncated") == 1
    assert again[0]["dropped"] == again[0]["seq"] and again[0]["seq"] > marker["seq"]


def test_a_page_after_a_seq_is_cut_by_bytes_and_says_whether_more_follow(capped):
    created, token = capped.create("tactical", STATE)
    capped.resolve(created.id, token, ticks(10, 1))
    first, more = capped.log_page(created.id, token, 0, max_bytes=250)
    assert [e["seq"] for e in first] == [1, 2] and more
    rest, more = capped.log_page(created.id, token, 2, max_bytes=10_000, max_events=100)
    assert [e["seq"] for e in rest] == list(range(3, 11)) and not more
    one, more = capped.log_page(created.id, token, 3, max_bytes=1)  # at least one event, however small the page
    assert [e["seq"] for e in one] == [4] and more


def test_a_stream_from_before_the_cut_gets_the_marker_first(capped):
    created, token = capped.create("tactical", STATE)
    for number in range(1, 4):
        capped.resolve(created.id, token, ticks(10, number))
    page, _ = capped.log_page(created.id, token, 0)
    assert page[0]["type"] == "truncated" and page[1]["seq"] == page[0]["seq"] + 1


def test_pages_find_their_place_after_undos_removed_events(capped):
    created, token = capped.create("tactical", STATE)
    capped.resolve(created.id, token, ticks(3, 1))      # seq 1-3
    capped.resolve(created.id, token, ticks(3, 2))      # seq 4-6
    capped.undo(created.id, token)                      # removes 4-6, logs undo as 7
    capped.resolve(created.id, token, ticks(3, 2))      # seq 8-10
    assert [e["seq"] for e in capped.log_page(created.id, token, 0)[0]] == [1, 2, 3, 7, 8, 9, 10]
    assert [e["seq"] for e in capped.log_page(created.id, token, 2)[0]] == [3, 7, 8, 9, 10]
    assert [e["seq"] for e in capped.log_page(created.id, token, 5)[0]] == [7, 8, 9, 10]
    assert capped.log_page(created.id, token, 10) == ([], False)


def test_undoing_a_step_bigger_than_the_cap_keeps_the_marker(capped):
    created, token = capped.create("tactical", STATE)
    capped.resolve(created.id, token, ticks(5, 1))
    capped.resolve(created.id, token, ticks(30, 2))  # alone more than the cap: the log keeps its tail
    assert whole_log(capped, created.id, token)[0]["type"] == "truncated"
    new = capped.undo(created.id, token)
    items = whole_log(capped, created.id, token)
    assert [e["type"] for e in items] == ["truncated", "undo"] and items[1]["seq"] == 36
    assert new.total == 2


def test_a_message_carries_a_big_steps_events_no_more():
    small = [{"type": "tick", "seq": 1}]
    big = [{"type": "tick", "seq": i, "pad": "x" * 1000} for i in range(1, 100)]
    assert json.loads(live_message(_Enc(), small))["events"] == small
    assert json.loads(live_message(_Enc(), big)) == {"version": 2, "seq": 99, "events": []}


class _Enc:
    version, seq = 2, 99
