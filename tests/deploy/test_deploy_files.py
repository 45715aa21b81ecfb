"""The deploy files parse, validate and say what the house requires (Docker itself is not needed)."""
from __future__ import annotations

import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from yamllint import linter
from yamllint.config import YamlLintConfig

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = sorted((DEPLOY / "k8s").glob("*.yaml"))
YAMLS = [DEPLOY / "docker-compose.yml", *K8S]
KUBERNETES = "1.33"
RELAXED = YamlLintConfig("extends: relaxed\nrules:\n  line-length: {max: 160}\n")


def docs(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def by_kind(kind: str) -> list[dict]:
    return [doc for path in K8S for doc in docs(path) if doc["kind"] == kind]


def dockerfile() -> str:
    return (DEPLOY / "Dockerfile").read_text()


@pytest.mark.parametrize("path", YAMLS, ids=lambda p: p.name)
def test_yaml_lints_clean(path):
    problems = [p for p in linter.run(path.read_text(), RELAXED) if p.level == "error"]
    assert problems == []


@pytest.mark.parametrize("path", K8S, ids=lambda p: p.name)
def test_kubernetes_manifests_validate(path):
    for doc in docs(path):
        assert kubernetes_validate.validate(doc, KUBERNETES, strict=True) == KUBERNETES


def test_every_kind_the_deployment_needs_is_there():
    kinds = sorted(doc["kind"] for path in K8S for doc in docs(path))
    assert kinds == ["ConfigMap", "Deployment", "Deployment", "Deployment", "HorizontalPodAutoscaler", "Service",
                     "Service"]


def test_api_deployment_probes_resources_and_user():
    api = next(d for d in by_kind("Deployment") if d["metadata"]["name"] == "referee-api")
    pod = api["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert set(container["resources"]) == {"requests", "limits"}
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["command"] == ["gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"]
    assert api["spec"]["selector"]["matchLabels"].items() <= api["spec"]["template"]["metadata"]["labels"].items()


def test_hpa_scales_the_api_on_cpu():
    (hpa,) = by_kind("HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"]["name"] == "referee-api"
    assert hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    assert 1 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]


def test_worker_runs_celery_and_the_service_selects_the_api():
    worker = next(d for d in by_kind("Deployment") if d["metadata"]["name"] == "referee-worker")
    assert "celery -A service.worker worker" in " ".join(worker["spec"]["template"]["spec"]["containers"][0]["command"])
    services = {doc["metadata"]["name"]: doc for doc in by_kind("Service")}
    for name in ("referee-api", "referee-broker"):
        deployment = next(d for d in by_kind("Deployment") if d["metadata"]["name"] == name)
        assert services[name]["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
    (config_map,) = by_kind("ConfigMap")
    assert config_map["data"]["REFEREE_BROKER_URL"] == "redis://referee-broker:6379/0"


def test_configmap_sets_every_service_setting():
    from service.config import Config

    (config_map,) = by_kind("ConfigMap")
    wanted = {"REDIS_URL", "GUNICORN_WORKERS", "REFEREE_JOB_VISIBILITY_TIMEOUT"}
    wanted |= {f"REFEREE_{name.upper()}" for name in Config.__dataclass_fields__
               if name not in {"testing", "extra", "redis_url", "redislite_path", "limits_in_testing",
                                "redis_maxmemory", "redis_maxmemory_policy", "broker_maxmemory",
                                "worker_required_in_testing", "receipt_keys"}}  # receipt_keys: a secret
    assert wanted - set(config_map["data"]) == set()
    assert all(isinstance(value, str) for value in config_map["data"].values())


def test_images_are_pinned():
    images = [c["image"] for d in by_kind("Deployment") for c in d["spec"]["template"]["spec"]["containers"]]
    compose = docs(DEPLOY / "docker-compose.yml")[0]
    images += [s["image"] for s in compose["services"].values() if "image" in s]
    froms = re.findall(r"^FROM\s+(\S+)", dockerfile(), re.M)
    for image in images + froms:
        assert ":" in image and not image.endswith(":latest"), image


def test_compose_services_healthchecks_and_volume():
    compose = docs(DEPLOY / "docker-compose.yml")[0]
    services = compose["services"]
    assert set(services) == {"api", "worker", "redis", "broker"}
    assert all("healthcheck" in service for service in services.values())
    assert services["redis"]["image"].startswith("redis:7")
    assert "--appendonly" in services["redis"]["command"]
    command = services["redis"]["command"]
    assert command[command.index("--maxmemory") + 1] == "512mb"
    assert command[command.index("--maxmemory-policy") + 1] == "noeviction"
    assert "redis-data:/data" in services["redis"]["volumes"] and "redis-data" in compose["volumes"]
    assert services["api"]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert services["worker"]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert services["worker"]["command"][:4] == ["celery", "-A", "service.worker", "worker"]
    assert services["api"]["image"] == services["worker"]["image"]
    assert all(s["environment"]["REDIS_URL"] == "redis://redis:6379/0" for s in (services["api"], services["worker"]))
    broker = services["broker"]["command"]
    assert broker[broker.index("--maxmemory") + 1] == "64mb" and "--appendonly" in broker
    assert all(s["environment"]["REFEREE_BROKER_URL"] == "redis://broker:6379/0"
               and s["depends_on"]["broker"]["condition"] == "service_healthy"
               for s in (services["api"], services["worker"]))
    assert "/healthz" in " ".join(services["api"]["healthcheck"]["test"])


def test_dockerfile_is_multi_stage_non_root_with_a_healthcheck():
    text = dockerfile()
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\w+))?", text, re.M)
    assert [image for image, _ in stages] == ["python:3.11-slim", "python:3.11-slim"]
    runtime = text.split("AS runtime", 1)[1]
    assert "build-essential" not in runtime and "apt-get install" not in runtime
    assert "COPY --from=build /opt/venv /opt/venv" in runtime
    user = re.findall(r"^USER\s+(\S+)", runtime, re.M)
    assert user and user[-1].split(":")[0] not in {"root", "0"}
    assert re.search(r"^HEALTHCHECK .*\n?.*CMD \[\"python\".*/healthz", runtime, re.M)
    assert re.search(r"^EXPOSE 8000$", runtime, re.M)
    assert 'CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"]' in runtime
    assert "pip install ." in text


def test_dockerignore_keeps_the_context_small():
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text().split()
    assert {".git", ".venv", "tests", "var"} <= set(ignored)
    assert "service" not in ignored and "pyproject.toml" not in ignored
