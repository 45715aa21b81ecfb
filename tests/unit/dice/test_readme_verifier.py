"""The README's standalone JavaScript verifier (issue 25, item 5), run with Node on the README's worked
example and on real audits of every ruleset: untouched they verify; each kind of tampering fails."""
from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from service.verify.dice import derive
from tests.unit.dice.played import played
from tests.unit.dice.test_verify import changed_client_seed, swapped_nonce, tampered_face, wrong_revealed_seed

README = (Path(__file__).parents[3] / "README.md").read_text()
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def block(marker: str) -> str:
    """The fenced block right after `<!-- marker -->` in the README."""
    found = re.search(rf"<!-- {re.escape(marker)} -->\n```\w+\n(.*?)\n```", README, re.DOTALL)
    assert found, marker
    return found.group(1)


def run_js(tmp_path: Path, audits: list[dict]) -> list[dict]:
    script = tmp_path / "verify.js"
    script.write_text(block("verify-dice.js") + "\nconst audits = JSON.parse(require('fs').readFileSync("
                      "process.argv[2], 'utf8'));\nconsole.log(JSON.stringify(audits.map(verifyDice)));\n")
    data = tmp_path / "audits.json"
    data.write_text(json.dumps(audits))
    done = subprocess.run([NODE, str(script), str(data)], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_worked_example_checks_by_hand_and_in_node(tmp_path):
    example = json.loads(block("worked-example.json"))
    seed = bytes.fromhex(example["seeds"][0]["server_seed"])
    derived = [d for d in example["resolutions"][0]["draws"] if not d["supplied"]]
    assert [d["face"] for d in derived] == [derive(seed, "table 7", example["encounter_id"], 0, n, d["sides"])
                                            for n, d in enumerate(derived)] == [18, 5, 56]
    wrong = copy.deepcopy(example)
    wrong["resolutions"][0]["draws"][0]["face"] = 17
    good, bad = run_js(tmp_path, [example, wrong])
    assert good == {"ok": True, "problems": []}
    assert bad["problems"] == ["nonce 0: die 0 (d20) shows 17, the seed gives 18"]
    assert "nonce 0: die 0 (d20) shows 17, the seed gives 18" in README


def test_real_audits_verify_in_node_and_tampering_fails(app, tmp_path):
    client = app.test_client()
    docs = {ruleset: played(client, ruleset)[0] for ruleset in ("smoting", "tactical")}
    tampered = []
    for tamper in (tampered_face, swapped_nonce, changed_client_seed, wrong_revealed_seed):
        doc = copy.deepcopy(docs["smoting"])
        tamper(doc)
        tampered.append(doc)
    results = run_js(tmp_path, [*docs.values(), *tampered])
    assert [r["ok"] for r in results] == [True, True, False, False, False, False], results
    named = ("shows", "nonces only go up", "client seed changed", "wrong revealed seed")
    assert all(any(word in p for p in r["problems"]) for word, r in zip(named, results[2:])), results[2:]
