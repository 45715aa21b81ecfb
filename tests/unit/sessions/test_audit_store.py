"""The audit log and committed dice in both encounter stores (issue 25, items 1, 3, 4): a resolution's entry
lands with it, an undo appends and never erases, a dice change is a versioned write, the end hands back
the audit."""
from __future__ import annotations

import pytest

from service.sessions import audit, commitments
from service.sessions.errors import Conflict, VersionMismatch
from service.sessions.records import Segment
from tests.unit.sessions.conftest import KNIGHT, fighter

STATE = {"segment": 0, "options": {}, "combatants": [KNIGHT, fighter("bandit")]}


def resolved(current, draws=((6, 3, False),)):
    entry = audit.resolution(current.dice, None, current.state, [], [], list(draws))
    return Segment(current.segment + 1, None, [{"type": "x"}], {**current.state, "segment": current.segment + 1},
                   audit=entry)


def test_the_audit_keeps_every_resolution_and_undo(repo):
    created, token = repo.create("tactical", STATE, commitments.fresh_dice("ours"))
    first, _ = repo.resolve(created.id, token, resolved)
    repo.undo(created.id, token)
    again, events = repo.resolve(created.id, token, lambda c: resolved(c, [(20, 7, False), (6, 2, True)]))
    assert (first.dice["nonce"], again.dice["nonce"], again.dice["steps"]) == (1, 2, 2)
    current, entries = repo.audit(created.id, token)
    assert [(e["type"], e["nonce"]) for e in entries] == [("resolution", 0), ("undo", 0), ("resolution", 1)]
    assert entries[2]["events"] == events and entries[2]["draws"][1] == {"sides": 6, "face": 2, "supplied": True}
    doc = audit.document(current.id, current.ruleset, current.dice, entries)
    assert [r["undone"] for r in doc["resolutions"]] == [True, False] and doc["seeds"][0]["server_seed"] is None
    ended, kept = repo.delete(created.id, token)
    assert kept == entries and ended.dice == current.dice


def test_a_dice_change_is_a_versioned_write_that_may_refuse(repo):
    created, token = repo.create("tactical", STATE)
    changed = repo.update_dice(created.id, token, lambda c: audit.with_client_seed(c.dice, "x"), expected=1)
    assert (changed.version, repo.get(created.id, token).dice["client_seed"]) == (2, "x")
    with pytest.raises(VersionMismatch):
        repo.update_dice(created.id, token, lambda c: c.dice, expected=1)
    repo.resolve(created.id, token, resolved)
    with pytest.raises(Conflict):
        repo.update_dice(created.id, token, lambda c: audit.with_client_seed(c.dice, "y"))
    rotated = repo.update_dice(created.id, token, lambda c: commitments.rotated(c.dice)[0])
    assert rotated.dice["revealed"][0]["commitment"] == created.dice["commitment"]
    assert repo.get(created.id, token).dice == rotated.dice and rotated.dice["nonce"] == 1
