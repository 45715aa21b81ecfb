"""Write a strict TypeScript program (openapi-fetch over openapi-typescript's types, default flags) that walks
every ruleset's encounter as a VTT would: create, add a combatant, declare, open the stream, two steps with
If-Match, read the log, undo; then runs one simulation to the end. Every body is the spec's own example; the
program holds no cast (`as`, `<T>`, `!`), and each step's events go through a `switch (ev.type)` whose
cases read a field only that event type has and whose default is `never`, so it compiles only if the
ruleset's event union is closed and narrows. It prints a JSON summary on its last line."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

COMMON = {"type", "seq", "segment", "round"}


@dataclass(frozen=True)
class Walk:
    """The paths one ruleset's encounter is walked through, and the union its events come as."""

    ruleset: str
    base: str  # the encounters collection, e.g. /v1/smoting/encounters
    step: str  # segments or rounds
    union: str  # the component of the step answer's events


def walks(spec: dict, rulesets: dict[str, str]) -> tuple[list[Walk], list[str]]:
    """A walk per ruleset with its own encounter resource (`rulesets`: id -> its steps' word); tactical may
    use the shared /v1/encounters while it has none. Also the rulesets left out."""
    found, missing = [], []
    for ruleset, steps in rulesets.items():
        base = f"/v1/{ruleset}/encounters"
        if base not in spec["paths"] and ruleset == "tactical" and "/v1/encounters" in spec["paths"]:
            base = "/v1/encounters"
        step_path = f"{base}/{{encounter_id}}/{steps}"
        if base not in spec["paths"] or step_path not in spec["paths"]:
            missing.append(ruleset)
            continue
        answer = _success(spec["paths"][step_path]["post"])
        union = _ref(_resolve(spec, answer)["properties"]["events"]["items"])
        found.append(Walk(ruleset, base, steps, union))
    return found, missing


def program(spec: dict, base_url: str, plan: list[Walk], simulation: dict) -> str:
    """The TypeScript source."""
    lines = ['import createClient from "openapi-fetch";', 'import type { components, paths } from "./schema.js";',
             "", f"const client = createClient<paths>({{ baseUrl: {json.dumps(base_url)} }});",
             "const summary: Record<string, Record<string, number>> = {};",
             "function fail(what: string, error: unknown): never {",
             "  throw new Error(`${what}: ${JSON.stringify(error)}`);", "}", ""]
    for union in sorted({walk.union for walk in plan}):
        lines += _describe(spec, union)
    for walk in plan:
        lines += _walk(spec, walk)
    lines += _simulate(simulation)
    calls = ", ".join(f"walk_{_ident(walk.ruleset)}()" for walk in plan)
    lines += [f"await Promise.all([{calls}]);", "await simulate();", "console.log(JSON.stringify(summary));",
              "export {};"]
    return "\n".join(lines) + "\n"


def casts(source: str) -> list[str]:
    """The casts a TypeScript source holds: `as T`, `<T>value` assertions, non-null `!`."""
    code = re.sub(r"(`[^`]*`|\"(?:[^\"\\]|\\.)*\")", '""', source)
    found = re.findall(r"\bas\s+[A-Za-z{(\[]", code)
    found += re.findall(r"[\w)\]]!(?!=)", code)
    found += re.findall(r"(?<![\w.])<[A-Z]\w*>\s*[\w(]", code)
    return found


def _describe(spec: dict, union: str) -> list[str]:
    """`describe_<union>(ev)`: a switch over every member's `type`, reading a field of that member only."""
    schemas = spec["components"]["schemas"]
    mapping = schemas[union]["discriminator"]["mapping"]
    out = [f'function describe_{_ident(union)}(ev: components["schemas"][{json.dumps(union)}]): string {{',
           "  switch (ev.type) {"]
    for kind, ref in sorted(mapping.items()):
        member = _resolve(spec, {"$ref": ref})
        own = [p for p in member.get("required", []) if p not in COMMON]
        read = f"String(ev[{json.dumps(own[0])}])" if own else '""'
        out.append(f"    case {json.dumps(kind)}: return `{kind}:${{{read}}}`;")
    out += ["    default: {", "      const unreachable: never = ev;",
            '      return fail("an event outside the union", unreachable);', "    }", "  }", "}", ""]
    return out


def _walk(spec: dict, walk: Walk) -> list[str]:
    paths, base, name = spec["paths"], walk.base, _ident(walk.ruleset)
    item = f"{base}/{{encounter_id}}"
    create = _example(paths[base]["post"])
    add = dict(_example(paths[f"{item}/combatants"]["post"]))
    taken = {c.get("id") for c in create.get("combatants", []) if isinstance(c, dict)}
    if add.get("id") in taken:
        add["id"] = f"{add['id']}-late"
    declare = _example(paths[f"{item}/declarations"]["put"])
    step = _example(paths[f"{item}/{walk.step}"]["post"])
    at = "{ path: { encounter_id: id }"
    js = json.dumps
    return [
        f"async function walk_{name}(): Promise<void> {{",
        f"  const created = await client.POST({js(base)}, {{ body: {js(create)} }});",
        f"  if (created.data === undefined) return fail({js(walk.ruleset + ' create')}, created.error);",
        "  const { id, token } = created.data;",
        "  const auth = { Authorization: `Bearer ${token}` };",
        f"  const added = await client.POST({js(item + '/combatants')}, {{ params: {at} }}, headers: auth,",
        f"    body: {js(add)} }});",
        f"  if (added.data === undefined) return fail({js(walk.ruleset + ' add')}, added.error);",
        f"  const declared = await client.PUT({js(item + '/declarations')}, {{ params: {at} }}, headers: auth,",
        f"    body: {js(declare)} }});",
        f"  if (declared.data === undefined) return fail({js(walk.ruleset + ' declare')}, declared.error);",
        "  let etag = declared.response.headers.get(\"ETag\");",
        f"  const stream = client.GET({js(item + '/stream')}, {{ params: {at} }}, headers: auth, parseAs: \"text\" }});",
        "  const stepped: string[] = [];",
        "  for (let i = 0; i < 2; i++) {",
        f"    if (etag === null) return fail({js(walk.ruleset + ' etag')}, i);",
        f"    const step = await client.POST({js(item + '/' + walk.step)}, {{",
        f"      params: {{ path: {{ encounter_id: id }}, header: {{ \"If-Match\": etag }} }}, headers: auth, body: {js(step)} }});",
        f"    if (step.data === undefined) return fail({js(walk.ruleset + ' step')}, step.error);",
        "    etag = step.response.headers.get(\"ETag\");",
        f"    for (const ev of step.data.events) stepped.push(describe_{_ident(walk.union)}(ev));",
        "  }",
        (f"  const log = await client.GET({js(item + '/events')}, {{ params: {{ path: {{ encounter_id: id }}, "
         "query: { limit: 500 } }, headers: auth });"),
        f"  if (log.data === undefined) return fail({js(walk.ruleset + ' log')}, log.error);",
        f"  const logged = log.data.events.map((ev) => describe_{_ident(walk.union)}(ev));",
        f"  if (etag === null) return fail({js(walk.ruleset + ' etag')}, 2);",
        f"  const undone = await client.POST({js(item + '/undo')}, {{",
        "    params: { path: { encounter_id: id }, header: { \"If-Match\": etag } }, headers: auth });",
        f"  if (undone.data === undefined) return fail({js(walk.ruleset + ' undo')}, undone.error);",
        "  const streamed = await stream;",
        f"  if (streamed.data === undefined) return fail({js(walk.ruleset + ' stream')}, streamed.error);",
        "  const sent = streamed.data.split(\"\\n\").filter((line) => line.startsWith(\"id: \")).length;",
        (f"  summary[{js(walk.ruleset)}] = {{ stepped: stepped.length, logged: logged.length, streamed: sent, "
         "version: undone.data.version };"),
        "}", ""]


def _simulate(simulation: dict) -> list[str]:
    js = json.dumps
    return [
        "async function simulate(): Promise<void> {",
        f"  const started = await client.POST(\"/v1/simulations\", {{ body: {js(simulation)} }});",
        "  if (started.data === undefined) return fail(\"simulation\", started.error);",
        "  let job = started.data;",
        "  for (let i = 0; i < 300 && job.state !== \"done\" && job.state !== \"failed\"; i++) {",
        "    await new Promise((done) => setTimeout(done, 200));",
        "    const polled = await client.GET(\"/v1/simulations/{job_id}\", { params: { path: { job_id: job.id } } });",
        "    if (polled.data === undefined) return fail(\"simulation poll\", polled.error);",
        "    job = polled.data;",
        "  }",
        "  if (job.result === null || job.result === undefined) return fail(\"simulation result\", job);",
        "  summary[\"simulation\"] = { trials: job.trials, done: job.state === \"done\" ? 1 : 0 };",
        "}", ""]


def _example(op: dict) -> Any:
    return op["requestBody"]["content"]["application/json"]["example"] if "requestBody" in op else {}


def _success(op: dict) -> dict:
    for status, response in op["responses"].items():
        if str(status).startswith("2"):
            return response["content"]["application/json"]["schema"]
    raise LookupError(op["operationId"])


def _resolve(spec: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][_ref(schema)]
    return schema


def _ref(schema: dict) -> str:
    return schema["$ref"].rsplit("/", 1)[1]


def _ident(name: str) -> str:
    return re.sub(r"\W", "_", name)
