"""A contract per ruleset (issue 24, item 3): the whole OpenAPI document cut down to one ruleset's operations
and the shared ones (rulesets, the service's own), with only the components they reach, so a
client that supports one system generates a small client. Served at `/v1/{ruleset}/openapi.json` and
committed as `openapi/{ruleset}.yaml` beside the whole `openapi.yaml` (tests/contract checks both)."""
from __future__ import annotations

import re
from typing import Any, Iterator

from service.api.http.contract import SERVICE, tag_of

SHARED = ("rulesets", SERVICE)  # and no deprecated operation (the shared encounters' and simulations')
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
REF = re.compile(r"#/components/(\w+)/(.+)")


def ruleset_spec(whole: dict, ruleset_id: str) -> dict:
    """`whole` with the operations tagged `ruleset_id` or a shared tag (deprecated ones left out), and every
    component they reach."""
    keep = {ruleset_id, *SHARED}
    paths = {path: _current(item) for path, item in whole["paths"].items() if tag_of(path) in keep}
    paths = {path: item for path, item in paths.items() if item.keys() & METHODS}
    reached = _reached(whole["components"], paths)
    components = {kind: {name: body for name, body in found.items() if (kind, name) in reached}
                  for kind, found in whole["components"].items() if kind != "securitySchemes"}
    components["securitySchemes"] = whole["components"].get("securitySchemes", {})
    info = {**whole["info"], "title": f"{whole['info']['title']}: {ruleset_id}",
            "description": f"The `{ruleset_id}` ruleset's operations (its simulations included) and the shared "
                           "ones (rulesets, the service's probes and keys) of the Referee contract; the whole contract, every "
                           "ruleset's, is `/openapi.json`. " + whole["info"].get("description", "")}
    spec = {**whole, "info": info, "paths": paths, "components": {k: v for k, v in components.items() if v}}
    spec["tags"] = [tag for tag in whole.get("tags", []) if tag["name"] in keep]
    return spec


def _current(item: dict) -> dict:
    """A path item without its deprecated operations."""
    return {key: value for key, value in item.items()
            if key not in METHODS or not (isinstance(value, dict) and value.get("deprecated"))}


def _reached(components: dict, start: Any) -> set[tuple[str, str]]:
    """Every (kind, name) of a component `start` refers to, directly or through other components."""
    reached: set[tuple[str, str]] = set()
    todo = list(refs(start))
    while todo:
        key = todo.pop()
        if key in reached or key[1] not in components.get(key[0], {}):
            continue
        reached.add(key)
        todo.extend(refs(components[key[0]][key[1]]))
    return reached


def refs(value: Any) -> Iterator[tuple[str, str]]:
    """The components a piece of the document names: `$ref`s and discriminator mappings alike."""
    if isinstance(value, dict):
        for item in value.values():
            yield from refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from refs(item)
    elif isinstance(value, str) and value.startswith("#/components/"):
        found = REF.fullmatch(value)
        if found:
            yield found.group(1), found.group(2)
