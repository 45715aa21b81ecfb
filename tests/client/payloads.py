"""Every example payload a client developer meets, with the schema the contract gives it: the spec's own
request and response examples, the JSON bodies of the README's curl commands and the files of docs/examples/
they send. `round_trip` pushes one through a generated Python client (openapi-python-client) the way the
client itself would: a request body through its model's `from_dict`/`to_dict`, an answer through the
operation's own `_parse_response`; `differences` lists what came back changed or missing."""
from __future__ import annotations

import importlib
import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from openapi_python_client.strings import pascal_case, snake_case

from tests.docs.readme_blocks import SHELLS, blocks

ROOT = Path(__file__).resolve().parents[2]
METHODS = ("get", "put", "post", "delete", "patch")


@dataclass(frozen=True)
class Payload:
    """One example: where it comes from, the operation it goes to, and whether it is sent or answered."""

    source: str
    method: str
    path: str
    status: str | None  # None: a request body
    body: Any


def spec_payloads(spec: dict) -> Iterator[Payload]:
    """The spec's request examples and 2xx JSON response examples."""
    for path, item in spec["paths"].items():
        for method in METHODS:
            op = item.get(method)
            if not op:
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            for example in _examples(body):
                yield Payload(f"spec {op['operationId']} request", method, path, None, example)
            for status, response in op["responses"].items():
                content = response.get("content", {}).get("application/json", {}) if isinstance(response, dict) else {}
                if str(status).startswith("2"):
                    for example in _examples(content):
                        yield Payload(f"spec {op['operationId']} {status}", method, path, str(status), example)


def _examples(media: dict) -> list:
    if "example" in media:
        return [media["example"]]
    return [example["value"] for example in media.get("examples", {}).values() if "value" in example]


def readme_payloads(spec: dict, readme: Path = ROOT / "README.md") -> Iterator[Payload]:
    """The JSON bodies the README's shell blocks send with curl (inline or `-d @docs/examples/...`)."""
    for block in blocks(readme):
        if block.language not in SHELLS or block.skip is not None:
            continue
        names: dict[str, str] = {}
        for line in _commands(block.text):
            assigned = re.match(r"^\s*([A-Z_][A-Z0-9_]*)=([^$`(\s]\S*)\s*$", line)
            if assigned:
                names[assigned.group(1)] = assigned.group(2).strip("'\"")
            found = _curl(line, names, spec)
            if found is not None:
                method, path, body = found
                yield Payload(f"README.md line {block.line}", method, path, None, body)


def _commands(text: str) -> Iterator[str]:
    """The block's commands, each on one line: continuations joined, quotes open across lines kept whole."""
    pending = ""
    for line in text.replace("\\\n", " ").splitlines():
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending, comments=True)
        except ValueError:
            continue  # a quote still open: the command goes on
        yield pending.replace("\n", " ")
        pending = ""


def _curl(line: str, names: dict[str, str], spec: dict) -> tuple[str, str, Any] | None:
    """(method, spec path, JSON body) of a curl command that sends a literal or file JSON body."""
    if "curl" not in line:
        return None
    try:
        words = shlex.split(line[line.index("curl"):].split(")")[0] if "$(curl" in line else
                            line[line.index("curl"):], comments=True)
    except ValueError:
        return None
    method, url, data = None, None, None
    for i, word in enumerate(words):
        if word == "-X" and i + 1 < len(words):
            method = words[i + 1].lower()
        elif word in ("-d", "--data", "--json") and i + 1 < len(words):
            data = words[i + 1]
        elif "localhost:8000" in _expand(word, names) and url is None:
            url = _expand(word, names)
    if url is None or data is None:
        return None
    body = _body(_expand(data, names))
    path = _spec_path(url.split("localhost:8000", 1)[1].split("?")[0], method or "post", spec)
    return None if body is None or path is None else (method or "post", path, body)


def _expand(text: str, names: dict[str, str]) -> str:
    return re.sub(r"\$\{?([A-Z_][A-Z0-9_]*)\}?", lambda m: names.get(m.group(1), m.group(0)), text)


def _body(data: str) -> Any:
    if data.startswith("@"):
        file = ROOT / data[1:]
        return json.loads(file.read_text(encoding="utf-8")) if file.is_file() else None
    try:
        return json.loads(data)
    except ValueError:
        return None  # built by the shell ($(...), $VAR): not a literal example


def _spec_path(path: str, method: str, spec: dict) -> str | None:
    for template, item in spec["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method in item:
            return template
    return None


def docs_example_payloads(spec: dict) -> Iterator[Payload]:
    """Each file of docs/examples/, with the operation the README sends it to."""
    sent = {}
    for payload in readme_payloads(spec):
        for file in (ROOT / "docs" / "examples").glob("*.json"):
            if json.loads(file.read_text(encoding="utf-8")) == payload.body:
                sent[file.name] = payload
    for file in sorted((ROOT / "docs" / "examples").glob("*.json")):
        use = sent.get(file.name)
        assert use is not None, f"docs/examples/{file.name} is sent by no curl command of the README"
        yield Payload(f"docs/examples/{file.name}", use.method, use.path, None, use.body)


def operation(spec: dict, payload: Payload) -> dict:
    return spec["paths"][payload.path][payload.method]


def round_trip(package: Any, spec: dict, payload: Payload) -> tuple[Any, Any]:
    """(the parsed object, what the client makes of it again as JSON), or (None, why it cannot read it)."""
    op = operation(spec, payload)
    if payload.status is not None:
        module = importlib.import_module(f"{package.__name__}.api.{snake_case(op['tags'][0])}."
                                         f"{snake_case(op['operationId'])}")
        client = package.Client(base_url="http://example.invalid", raise_on_unexpected_status=True)
        try:
            parsed = module._parse_response(client=client, response=httpx.Response(int(payload.status),
                                                                                     json=payload.body))
        except (KeyError, TypeError, ValueError) as error:
            return None, f"{type(error).__name__}: {error}"
        return parsed, _as_json(parsed)
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    best: tuple[Any, Any] | None = None
    for cls in request_classes(package, spec, schema, payload.body):
        try:
            parsed = cls.from_dict(payload.body)
        except (KeyError, TypeError, ValueError):
            continue
        again = _as_json(parsed)
        if again == payload.body:
            return parsed, again
        best = best or (parsed, again)
    return best if best is not None else (None, None)


def request_classes(package: Any, spec: dict, schema: dict, body: Any) -> list[type]:
    """The model classes a developer may build the body with: the schema's own, or one per member of a
    union (the discriminator's choice only, when the union has one)."""
    models = importlib.import_module(f"{package.__name__}.models")
    name = schema["$ref"].rsplit("/", 1)[1]
    component = spec["components"]["schemas"][name]
    members = component.get("oneOf") or component.get("anyOf")
    if not members:
        return [getattr(models, pascal_case(name))]
    discriminator = component.get("discriminator")
    if discriminator and isinstance(body, dict) and body.get(discriminator["propertyName"]) in \
            discriminator.get("mapping", {}):
        members = [{"$ref": discriminator["mapping"][body[discriminator["propertyName"]]]}]
    return [getattr(models, pascal_case(m["$ref"].rsplit("/", 1)[1])) for m in members if "$ref" in m]


def _as_json(parsed: Any) -> Any:
    if hasattr(parsed, "to_dict"):
        return json.loads(json.dumps(parsed.to_dict()))
    if isinstance(parsed, list):
        return [_as_json(item) for item in parsed]
    return parsed


def differences(sent: Any, back: Any, at: str = "") -> list[str]:
    """Every place where `back` lost or changed a value of `sent` (or added one)."""
    if isinstance(sent, dict) and isinstance(back, dict):
        out = [f"{at}.{k}: dropped" for k in sent if k not in back]
        out += [f"{at}.{k}: added" for k in back if k not in sent]
        for key in sent.keys() & back.keys():
            out += differences(sent[key], back[key], f"{at}.{key}")
        return out
    if isinstance(sent, list) and isinstance(back, list) and len(sent) == len(back):
        return [d for i, (a, b) in enumerate(zip(sent, back)) for d in differences(a, b, f"{at}[{i}]")]
    same = sent == back and type(sent) is type(back) or (isinstance(sent, (int, float)) and not isinstance(
        sent, bool) and isinstance(back, (int, float)) and not isinstance(back, bool) and sent == back)
    return [] if same else [f"{at or '.'}: {json.dumps(sent)[:80]} became {json.dumps(back)[:80]}"]


def events_in(parsed: Any) -> Iterator[Any]:
    """Every parsed object whose class is an event (its name ends in `Event`), however deep."""
    import attrs

    if isinstance(parsed, list):
        for item in parsed:
            yield from events_in(item)
    elif attrs.has(type(parsed)):
        if type(parsed).__name__.endswith("Event"):
            yield parsed
        for field in attrs.fields(type(parsed)):
            yield from events_in(getattr(parsed, field.name))
    elif isinstance(parsed, dict):
        for value in parsed.values():
            yield from events_in(value)


def _members(schemas: dict, union: dict) -> list[str]:
    """The component names of a union's members, nested unions opened."""
    names = []
    for member in union.get("oneOf") or union.get("anyOf") or []:
        name = member["$ref"].rsplit("/", 1)[1]
        nested = "oneOf" in schemas[name] or "anyOf" in schemas[name]
        names += _members(schemas, schemas[name]) if nested else [name]
    return names


def ruleset_of(payload: Payload, rulesets: list[str]) -> str | None:
    """The ruleset an example belongs to: its path's, else the one its body names."""
    head = payload.path.split("/")[2] if payload.path.startswith("/v1/") else ""
    if head in rulesets:
        return head
    body = payload.body if isinstance(payload.body, dict) else {}
    state = body.get("state") if isinstance(body.get("state"), dict) else {}
    for found in (body.get("ruleset"), state.get("ruleset")):
        if found in rulesets:
            return found
    return None


def event_classes(spec: dict, ruleset: str, rulesets: list[str]) -> set[str]:
    """Class names of the members of a ruleset's event union (`<Ruleset>Event`); without one, the members
    of the union of every ruleset's events (`Event`) named for no other ruleset (tactical's names predate
    the prefixes)."""
    schemas = spec["components"]["schemas"]
    own = schemas.get(pascal_case(ruleset) + "Event")
    members = _members(schemas, own or schemas["Event"])
    if own is None:
        others = tuple(pascal_case(r) for r in rulesets if r != ruleset)
        members = [name for name in members if not name.startswith(others)]
    return {pascal_case(name) for name in members}
