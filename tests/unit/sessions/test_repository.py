"""The encounter repository contract, on the in-memory twin and on Redis alike."""
from __future__ import annotations

import threading

import pytest

from service.sessions.errors import Conflict, EncounterNotFound, NothingToUndo, VersionMismatch
from service.sessions.records import UNDO_DEPTH, Segment

STATE = {"segment": 0, "combatants": [{"id": "a"}], "counter": 0}


def bump(current):
    return {**current.state, "counter": current.state["counter"] + 1}, current.declarations


def segment(events: int, number: int = 1, seed: int = 7):
    def compute(current):
        return Segment(number, seed, [{"type": "tick", "n": i} for i in range(events)],
                       {**current.state, "segment": number})
    return compute


def test_create_then_get_with_the_token(repo):
    created, token = repo.create("tactical", STATE)
    got = repo.get(created.id, token)
    assert (got.id, got.ruleset, got.version, got.state, got.declarations) == (created.id, "tactical", 1, STATE, [])
    assert len(token) >= 40


def test_a_wrong_token_or_id_is_not_found(repo):
    a, token_a = repo.create("tactical", STATE)
    b, token_b = repo.create("tactical", STATE)
    for encounter_id, token in [(a.id, token_b), (a.id, "x"), ("nope", token_a), (b.id, token_a)]:
        with pytest.raises(EncounterNotFound):
            repo.get(encounter_id, token)


def test_update_bumps_the_version(repo):
    created, token = repo.create("tactical", STATE)
    new = repo.update(created.id, token, bump, expected=1)
    assert (new.version, new.state["counter"]) == (2, 1)
    assert repo.get(created.id, token).state["counter"] == 1


def test_a_stale_expected_version_is_refused_and_nothing_changes(repo):
    created, token = repo.create("tactical", STATE)
    repo.update(created.id, token, bump)
    with pytest.raises(VersionMismatch):
        repo.update(created.id, token, bump, expected=1)
    assert repo.get(created.id, token).version == 2


def test_a_refused_change_writes_nothing(repo):
    created, token = repo.create("tactical", STATE)
    def refuse(current):
        raise ValueError("bad input")
    with pytest.raises(ValueError):
        repo.update(created.id, token, refuse)
    assert repo.get(created.id, token).version == 1


def test_a_write_between_read_and_commit_makes_the_loser_conflict(repo):
    created, token = repo.create("tactical", STATE)
    def sneaky(current):
        repo.update(created.id, token, bump)  # someone else writes while we compute
        return bump(current)
    with pytest.raises(Conflict) as caught:
        repo.update(created.id, token, sneaky)
    assert caught.value.status == 409
    assert repo.get(created.id, token).state["counter"] == 1
    with pytest.raises(VersionMismatch):
        repo.update(created.id, token, sneaky, expected=2)


def test_resolve_logs_numbered_events_and_clears_declarations(repo):
    created, token = repo.create("tactical", STATE)
    repo.update(created.id, token, lambda c: (c.state, [{"combatant": "a"}]))
    new, events = repo.resolve(created.id, token, segment(3))
    assert [(e["seq"], e["segment"], e["n"]) for e in events] == [(1, 1, 0), (2, 1, 1), (3, 1, 2)]
    assert (new.version, new.declarations, new.seq, new.total, new.undo, new.segment) == (3, [], 3, 3, 1, 1)
    stored = repo.get(created.id, token)
    assert (stored.version, stored.declarations, stored.total, stored.segment) == (3, [], 3, 1)


def test_events_page(repo):
    created, token = repo.create("tactical", STATE)
    repo.resolve(created.id, token, segment(3, 1))
    repo.resolve(created.id, token, segment(4, 2))
    page, total = repo.events(created.id, token, 2, 3)
    assert total == 7
    assert [(e["seq"], e["segment"]) for e in page] == [(3, 1), (4, 2), (5, 2)]
    assert repo.events(created.id, token, 7, 50) == ([], 7)
    assert [e["seq"] for e in repo.log_page(created.id, token, 5)[0]] == [6, 7]
    assert repo.log_page(created.id, token, 7) == ([], False)


def test_undo_restores_state_and_declarations_and_trims_events(repo):
    created, token = repo.create("tactical", STATE)
    repo.resolve(created.id, token, segment(2, 1))
    repo.update(created.id, token, lambda c: (c.state, [{"combatant": "a"}]))
    repo.resolve(created.id, token, segment(3, 2))
    undone = repo.undo(created.id, token)
    assert (undone.segment, undone.declarations, undone.total, undone.undo) == (1, [{"combatant": "a"}], 3, 1)
    page, total = repo.events(created.id, token, 0, 50)
    assert total == 3 and page[-1] == {"type": "undo", "segment": 2, "seq": 6, "removed_seqs": [3, 4, 5]}
    _, events = repo.resolve(created.id, token, segment(1, 2))
    assert events[0]["seq"] == 7  # sequence numbers are never reused
    assert [e["seq"] for e in repo.events(created.id, token, 0, 50)[0]] == [1, 2, 6, 7]


def test_undoing_twice_removes_each_segments_events_and_logs_each_undo(repo):
    created, token = repo.create("tactical", STATE)
    repo.resolve(created.id, token, segment(2, 1))
    repo.resolve(created.id, token, segment(3, 2))
    repo.undo(created.id, token)
    undone = repo.undo(created.id, token)
    assert (undone.segment, undone.seq, undone.total) == (0, 7, 2)
    page, _ = repo.events(created.id, token, 0, 50)
    assert [(e["type"], e["seq"], e["removed_seqs"]) for e in page] == [("undo", 6, [3, 4, 5]), ("undo", 7, [1, 2])]
    assert [e["seq"] for e in repo.log_page(created.id, token, 5)[0]] == [6, 7]


def test_undo_keeps_edits_made_after_the_segment_when_they_replay(repo):
    created, token = repo.create("tactical", STATE)
    repo.resolve(created.id, token, segment(1, 1))
    add = {"op": "add_combatant", "id": "b"}
    repo.update(created.id, token, lambda c: ({**c.state, "combatants": [*c.state["combatants"], {"id": "b"}]},
                                              c.declarations), edit=add)

    def replay(before, edits):
        assert [e["op"] for e in edits] == ["add_combatant"] and edits[0]["version"] == 3
        return {**before.state, "combatants": [*before.state["combatants"], {"id": "b"}]}, before.declarations

    undone = repo.undo(created.id, token, replay=replay)
    assert (undone.segment, [c["id"] for c in undone.state["combatants"]]) == (0, ["a", "b"])
    assert repo.get(created.id, token).state == undone.state


def test_undo_refuses_to_drop_an_edit_it_cannot_replay(repo):
    created, token = repo.create("tactical", STATE)
    repo.resolve(created.id, token, segment(1, 1))
    repo.update(created.id, token, bump, edit={"op": "remove_combatant", "id": "a"})
    with pytest.raises(Conflict) as caught:
        repo.undo(created.id, token)
    assert caught.value.status == 409 and "remove combatant 'a'" in str(caught.value)
    assert repo.get(created.id, token).segment == 1  # nothing changed


def test_undo_with_nothing_to_undo_conflicts(repo):
    created, token = repo.create("tactical", STATE)
    with pytest.raises(NothingToUndo) as caught:
        repo.undo(created.id, token)
    assert caught.value.status == 409


def test_the_undo_stack_is_bounded(repo):
    created, token = repo.create("tactical", STATE)
    for number in range(1, UNDO_DEPTH + 4):
        repo.resolve(created.id, token, segment(1, number))
    for _ in range(UNDO_DEPTH):
        repo.undo(created.id, token)
    assert repo.get(created.id, token).segment == 3
    with pytest.raises(NothingToUndo):
        repo.undo(created.id, token)


def test_delete_ends_the_encounter(repo):
    created, token = repo.create("tactical", STATE)
    repo.resolve(created.id, token, segment(2))
    with pytest.raises(VersionMismatch):
        repo.delete(created.id, token, expected=1)
    repo.delete(created.id, token)
    with pytest.raises(EncounterNotFound):
        repo.get(created.id, token)


def test_listen_wakes_on_a_resolved_segment(repo):
    created, token = repo.create("tactical", STATE)
    with repo.listen(created.id) as wait:
        threading.Timer(0.1, lambda: repo.resolve(created.id, token, segment(1))).start()
        assert wait(5.0)
    assert repo.get(created.id, token).total == 1
