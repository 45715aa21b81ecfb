"""`python -m service verify` (issue 25, item 5): an untouched audit of every ruleset verifies and replays
byte for byte; a tampered face, a swapped nonce, a changed client seed or a wrong revealed seed each fail,
naming what is wrong; the verifier never imports the service's dice derivation."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from service.verify import verify
from service.verify.replay import replay
from tests.unit.dice.played import RESOLVERS, played

ROOT = Path(__file__).parents[3]


@pytest.fixture(scope="module")
def audits(app):
    client = app.test_client()
    return {ruleset: played(client, ruleset) for ruleset in RESOLVERS}


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("ruleset", sorted(RESOLVERS))
def test_three_steps_with_an_undo_and_a_redo_verify_and_replay_byte_for_byte(audits, ruleset):
    doc, log = audits[ruleset]
    report = verify(doc)
    assert report.ok, report.problems
    assert [r["nonce"] for r in doc["resolutions"]] == [0, 1, 2, 3]  # the redo took a new nonce
    assert [r["undone"] for r in doc["resolutions"]] == [False, True, False, False]
    assert doc["resolutions"][0]["draws"] and doc["seeds"][0]["server_seed"]
    kept = [e for r in doc["resolutions"] if not r["undone"] for e in r["events"]]
    assert canonical(kept) == canonical([e for e in log if e["type"] != "undo"])  # the audit logged the log
    assert all(replay(ruleset, r) is None for r in doc["resolutions"])


def tampered_face(doc):
    die = next(d for r in doc["resolutions"] for d in r["draws"] if not d["supplied"] and d["sides"] > 1)
    die["face"] = die["face"] % die["sides"] + 1


def swapped_nonce(doc):
    first, second = doc["resolutions"][0], doc["resolutions"][2]
    first["nonce"], second["nonce"] = second["nonce"], first["nonce"]


def changed_client_seed(doc):
    doc["resolutions"][2]["client_seed"] = "someone else's seed"


def wrong_revealed_seed(doc):
    doc["seeds"][0]["server_seed"] = "ab" * 32


@pytest.mark.parametrize(("tamper", "named"), [(tampered_face, "tampered face"), (swapped_nonce, "nonce"),
                                               (changed_client_seed, "client seed"),
                                               (wrong_revealed_seed, "wrong revealed seed")])
def test_tampering_fails_and_names_what_is_wrong(audits, tamper, named):
    doc = copy.deepcopy(audits["smoting"][0])
    tamper(doc)
    report = verify(doc)
    assert not report.ok and any(named in problem for problem in report.problems), report.problems


def test_a_changed_event_fails_the_replay(audits):
    doc = copy.deepcopy(audits["war-and-combat"][0])
    doc["resolutions"][0]["events"][-1]["seq"] += 100
    assert any("replayed events differ" in p for p in verify(doc).problems)


def test_the_command_line_and_what_it_imports(audits, tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(audits["tactical"][0]))
    doc = copy.deepcopy(audits["tactical"][0])
    tampered_face(doc)
    bad.write_text(json.dumps(doc))
    run = [sys.executable, "-m", "service", "verify"]
    ok = subprocess.run([*run, str(good)], check=False, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert ok.returncode == 0 and ok.stdout.startswith("ok: 4 resolutions"), ok.stdout + ok.stderr
    failed = subprocess.run([*run, str(bad)], check=False, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert failed.returncode == 1 and "tampered face" in failed.stdout
    (tmp_path / "other.json").write_text('{"events": []}')
    other = subprocess.run([*run, str(tmp_path / "other.json")], check=False, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert other.returncode == 2 and "not an audit" in other.stderr
    probe = ("import json, sys; from service.verify import verify; assert verify(json.load(open(sys.argv[1]))).ok; "
             "print(sorted(m for m in sys.modules if m in ('service.rules.committed', 'service.sessions.commitments')))")
    imported = subprocess.run([sys.executable, "-c", probe, str(good)], check=False, capture_output=True, text=True, cwd=ROOT,
                              timeout=60)
    assert imported.stdout.strip() == "[]", imported.stdout + imported.stderr
