"""Write a TypeScript program that calls every operation of the spec through openapi-fetch with only
the required fields (of each request example, and of each query/path parameter), typed by the
openapi-typescript output of the same spec. Run with the ids of resources made beforehand."""
from __future__ import annotations

import json
from typing import Any

from tests.contract.examples_walk import operations


def required_only(value: Any, schema: dict, spec: dict) -> Any:
    """`value` without the properties its schema does not require (recursively)."""
    schema = _resolve(schema, spec)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            choices = [_resolve(choice, spec) for choice in schema[key]]
            schema = next((c for c in choices if _fits(value, c)), choices[0])
    if isinstance(value, dict) and "properties" in schema:
        required = set(schema.get("required", []))
        return {k: required_only(v, schema["properties"].get(k, {}), spec) for k, v in value.items() if k in required}
    if isinstance(value, list) and "items" in schema:
        return [required_only(item, schema["items"], spec) for item in value]
    return value


def _fits(value: Any, schema: dict) -> bool:
    """Whether `value` looks like an instance of the object schema `schema` (its ruleset's shape)."""
    if not isinstance(value, dict) or "properties" not in schema:
        return False
    return set(schema.get("required", [])) <= value.keys() <= schema["properties"].keys()


def _resolve(schema: dict, spec: dict) -> dict:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def program(spec: dict, base_url: str, ids: dict[str, str], token: str) -> str:
    """The TypeScript source: one typed call per operation, then the statuses as JSON on stdout."""
    lines = ['import createClient from "openapi-fetch";', 'import type { paths } from "./schema.js";', "",
             f"const client = createClient<paths>({{ baseUrl: {json.dumps(base_url)} }});",
             f"const authed = createClient<paths>({{ baseUrl: {json.dumps(base_url)}, "
             f"headers: {{ Authorization: {json.dumps('Bearer ' + token)} }} }});",
             "const statuses: Record<string, number> = {};", ""]
    for method, path, op in operations(spec):
        params: dict[str, dict[str, Any]] = {}
        for parameter in op.get("parameters", []):
            if "$ref" in parameter or not parameter.get("required"):
                continue
            value = ids.get(parameter["name"]) or parameter.get("example") or parameter["schema"].get("example")
            params.setdefault(parameter["in"], {})[parameter["name"]] = value
        init: dict[str, Any] = {}
        if params:
            init["params"] = params
        body = op.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            init["body"] = required_only(body["example"], body["schema"], spec)
        caller = "authed" if any("bearerAuth" in r for r in op.get("security", [])) else "client"
        parse = ', parseAs: "text"' if not _json_answer(op) else ""
        args = json.dumps(init)[:-1] + parse + "}" if init else ("{" + parse[2:] + "}" if parse else "")
        call = f"{caller}.{method.upper()}({json.dumps(path)}{', ' + args if args else ''})"
        lines.append(f"statuses[{json.dumps(op['operationId'])}] = (await {call}).response.status;")
    lines += ["", "console.log(JSON.stringify(statuses));", "export {};"]
    return "\n".join(lines) + "\n"


def _json_answer(op: dict) -> bool:
    for status, response in op["responses"].items():
        if str(status).startswith("2"):
            return "application/json" in response.get("content", {}) or not response.get("content")
    return True
