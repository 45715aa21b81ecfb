"""The hand-built worst inputs `tests/perf/worst_inputs.py` sends beside the ones it draws from the schema:
where an operation's cost grows with a list, a count or a table, the largest the spec allows.

Big states are the spec's own request examples scaled up: each example's two combatants cloned into pairs
(ids renamed in every reference, positions spread out), every one declaring what the example declares, up to
the most combatants the ruleset's state takes.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

STEPS = {"tactical": "/v1/tactical/segments/resolve", "ars-magica": "/v1/ars-magica/rounds/resolve",
         "runequest-house": "/v1/runequest-house/rounds/resolve", "smoting": "/v1/smoting/rounds/resolve",
         "war-and-combat": "/v1/war-and-combat/rounds/resolve"}
LOG_STEPS = 10  # steps of the biggest tactical state: about 1 MB of events each, past the log's 8 MiB cap
SIZES = (200, 100, 50, 20)  # tried in turn: the first the ruleset's state accepts is its largest


@dataclass
class Call:
    """One request: what `Setup.sender` sends."""

    method: str
    url: str
    json: Any = None
    query: dict | None = None
    headers: dict = field(default_factory=dict)


def _rename(value: Any, names: dict[str, str]) -> Any:
    text = json.dumps(value)
    for old, new in names.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    return json.loads(text)


def _spread(combatant: dict, pair: int) -> dict:
    """Pair `pair`'s copy of a combatant, moved away from the other pairs (tactical feet, war-and-combat hexes)."""
    moved = copy.deepcopy(combatant)
    position = moved.get("position")
    if isinstance(position, dict) and "y" in position:
        position["y"] = position["y"] + 10 * pair
    elif isinstance(position, dict) and "r" in position:
        position["r"] = position["r"] + 3 * pair
    moved.pop("engaged_with", None) if not moved.get("engaged_with") else None
    return moved


def scaled(example: dict, pairs: int, ruleset: str) -> dict:
    """The example's body with its two combatants cloned into `pairs` pairs, each declaring as in the example."""
    state = example["state"]
    ids = [c["id"] for c in state["combatants"]]
    combatants, declarations = [], []
    for pair in range(pairs):
        names = {ident: f"{ident}-{pair}" for ident in ids}
        for combatant in state["combatants"]:
            clone = _rename(_spread(combatant, pair), names)
            if ruleset == "tactical":
                clone["actions"] = 3
            combatants.append(clone)
        declarations += _rename(example.get("declarations", []), names)
    body = {**{k: v for k, v in example.items() if k != "rolls"}, "declarations": declarations}
    body["state"] = {**state, "combatants": combatants}
    return body


class Setup:
    """Encounters, a job and tokens the operations with path parameters need, made once, outside the timing."""

    def __init__(self, client, spec: dict, timer):
        self.client, self.spec, self.timer = client, spec, timer
        self._bodies: dict[str, dict] = {}
        self._encounters: dict[str, tuple[str, str]] = {}
        self._job: str | None = None
        self.sizes: dict[str, int] = {}  # ruleset -> combatants of its biggest step

    def example(self, path: str, method: str = "post") -> Any:
        body = self.spec["paths"][path][method].get("requestBody", {}).get("content", {})
        return copy.deepcopy(body.get("application/json", {}).get("example"))

    def biggest_step(self, ruleset: str) -> dict:
        """The largest valid step body of `ruleset` (state and declarations), tried down `SIZES`."""
        if ruleset not in self._bodies:
            example = self.example(STEPS[ruleset])
            for size in SIZES:
                body = scaled(example, size // 2, ruleset)
                if self.client.post(STEPS[ruleset], json=body).status_code == 200:
                    self._bodies[ruleset] = body
                    self.sizes[ruleset] = size
                    break
            else:
                raise RuntimeError(f"no scaled {ruleset} step was accepted")
        return copy.deepcopy(self._bodies[ruleset])

    def new_encounter(self, ruleset: str) -> tuple[str, str]:
        """A fresh encounter of the ruleset's biggest step state, declared: (id, token)."""
        step = self.biggest_step(ruleset)
        state = dict(step["state"])
        body = {"ruleset": ruleset, "combatants": state.pop("combatants"), "options": state.pop("options", {})}
        rest = {k: v for k, v in state.items() if k not in ("ruleset", "round", "segment")}
        if rest:
            body["state"] = rest
        answer = self.client.post("/v1/encounters", json=body)
        assert answer.status_code == 201, answer.get_json()
        made = answer.get_json()
        ident, token = made["id"], made["token"]
        put = self.client.put(f"/v1/encounters/{ident}/declarations", json={"declarations": step["declarations"]},
                              headers={"Authorization": f"Bearer {token}"})
        assert put.status_code == 200, put.get_json()
        return ident, token

    def encounter(self, ruleset: str = "tactical") -> tuple[str, str]:
        """The shared encounter the drawn requests use: the biggest state, stepped until its log is at its
        byte cap (8 MiB by default), so pages, the audit and reads see the longest log there can be."""
        if ruleset not in self._encounters:
            ident, token = self.new_encounter(ruleset)
            auth = {"Authorization": f"Bearer {token}"}
            for _ in range(LOG_STEPS):
                answer = self.client.post(f"/v1/encounters/{ident}/segments", json={}, headers=auth)
                assert answer.status_code == 201, answer.get_json()
            self._encounters[ruleset] = ident, token
        return self._encounters[ruleset]

    def job(self) -> str:
        if self._job is None:
            answer = self.client.post("/v1/simulations", json=self.example("/v1/simulations"))
            assert answer.status_code == 202, answer.get_json()
            self._job = answer.get_json()["id"]
        return self._job

    def path_parameters(self, path: str) -> dict:
        found: dict[str, str] = {}
        if "{encounter_id}" in path:
            found["encounter_id"] = self.encounter()[0]
            found["combatant_id"] = "knight-0"
        if "{job_id}" in path:
            found["job_id"] = self.job()
        if "{ruleset_id}" in path:
            found["ruleset_id"] = "tactical"
        return {name: value for name, value in found.items() if "{" + name + "}" in path}

    def headers(self, path: str) -> dict:
        if "{encounter_id}" not in path:
            return {}
        return {"Authorization": f"Bearer {self.encounter()[1]}"}

    def sender(self, client, operation, prepare: Callable[[Setup], Call]) -> Callable[[], Any]:
        """A function sending a freshly prepared call; the preparing (fresh encounters...) is not timed."""
        def send():
            call = prepare(self)
            timer = self.timer
            with timer:
                return client.open(call.url, method=call.method, json=call.json, query_string=call.query,
                                   headers=call.headers)
        return send


def _step(ruleset: str) -> Callable[[Setup], Call]:
    return lambda setup: Call("POST", STEPS[ruleset], setup.biggest_step(ruleset))


def _on_new_encounter(ruleset: str, method: str, tail: str, body: Any = None,
                      stepped: bool = False) -> Callable[[Setup], Call]:
    def prepare(setup: Setup) -> Call:
        ident, token = setup.new_encounter(ruleset)
        if stepped:
            answer = setup.client.post(f"/v1/encounters/{ident}/segments", json={},
                                       headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 201, answer.get_json()
        return Call(method, f"/v1/encounters/{ident}{tail}", body, headers={"Authorization": f"Bearer {token}"})
    return prepare


def _create(ruleset: str) -> Callable[[Setup], Call]:
    def prepare(setup: Setup) -> Call:
        step = setup.biggest_step(ruleset)
        state = dict(step["state"])
        body = {"ruleset": ruleset, "combatants": state.pop("combatants"), "options": state.pop("options", {})}
        rest = {k: v for k, v in state.items() if k not in ("ruleset", "round", "segment")}
        return Call("POST", "/v1/encounters", {**body, **({"state": rest} if rest else {})})
    return prepare


def _new_job(setup: Setup) -> Call:
    answer = setup.client.post("/v1/simulations", json=setup.example("/v1/simulations"))
    assert answer.status_code == 202, answer.get_json()
    return Call("DELETE", f"/v1/simulations/{answer.get_json()['id']}")


RULESETS = tuple(STEPS)
WORST: dict[str, list[tuple[str, Callable[[Setup], Call]]]] = {
    **{f"POST {path}": [(f"{ruleset}: the spec example scaled to its most combatants (N), every one acting", _step(ruleset))]
       for ruleset, path in STEPS.items()},
    "POST /v1/encounters": [(f"{r}: the most combatants (N)", _create(r)) for r in RULESETS],
    "POST /v1/encounters/{encounter_id}/segments": [
        (f"{r}: a step of the most combatants (N), every one acting", _on_new_encounter(r, "POST", "/segments", {}))
        for r in RULESETS],
    "POST /v1/encounters/{encounter_id}/undo": [
        (f"{r}: undo of a step of the most combatants (N)", _on_new_encounter(r, "POST", "/undo", stepped=True))
        for r in RULESETS],
    "GET /v1/encounters/{encounter_id}": [
        (f"{r}: the most combatants (N)", _on_new_encounter(r, "GET", "")) for r in RULESETS],
    "DELETE /v1/encounters/{encounter_id}/combatants/{combatant_id}": [
        ("tactical: one of the most combatants (N)", _on_new_encounter("tactical", "DELETE", "/combatants/knight-0"))],
    "DELETE /v1/simulations/{job_id}": [("a queued job of the request example", _new_job)],
    "DELETE /v1/encounters/{encounter_id}": [
        (f"{r}: the most combatants (N)", _on_new_encounter(r, "DELETE", "")) for r in RULESETS],
}


def _resolve(schema: dict, spec: dict) -> dict:
    """A schema with its `$ref` followed and, for a union, its first object or array branch."""
    for _ in range(10):
        if "$ref" in schema:
            schema = spec["components"]["schemas"][schema["$ref"].split("/")[-1]]
        elif "anyOf" in schema or "oneOf" in schema:
            branches = schema.get("anyOf") or schema.get("oneOf")
            schema = next((b for b in branches if "$ref" in b or b.get("type") in ("object", "array")), branches[0])
        else:
            return schema
    return schema


DICE_WORDS = ("dice", "pool")


def maximized(value: Any, schema: dict, spec: dict, name: str = "") -> Any:
    """The example `value` grown to the spec's limits: every list repeated up to its `maxItems` (an item's `id`
    renamed per copy) and every dice count or pool at its `maximum`."""
    schema = _resolve(schema, spec)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        return {key: maximized(item, properties.get(key, {}), spec, key) for key, item in value.items()}
    if isinstance(value, list):
        items = [maximized(item, schema.get("items", {}), spec, name) for item in value]
        top = schema.get("maxItems")
        if items and top and top > len(items):
            items = [_copy_with_id(items[i % len(items)], i) for i in range(top)]
        return items
    if isinstance(value, int) and not isinstance(value, bool) and any(w in name for w in DICE_WORDS):
        return schema.get("maximum", value)
    return value


def _copy_with_id(item: Any, index: int) -> Any:
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        return {**copy.deepcopy(item), "id": f"{item['id'][:50]}-{index}"}
    return copy.deepcopy(item)


def grown(path: str, method: str = "post") -> Callable[[Setup], Call]:
    """The operation's request example maximized (`maximized`), sent as is."""
    def prepare(setup: Setup) -> Call:
        body = setup.spec["paths"][path][method]["requestBody"]["content"]["application/json"]
        return Call(method.upper(), path, maximized(setup.example(path, method), body["schema"], setup.spec))
    return prepare
