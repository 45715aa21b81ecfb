"""What every operation of the contract carries, added in one place as each path is documented:

- `security`: the document-wide default is the optional `X-API-Key` (`[{apiKeyAuth: []}, {}]`: required only
  when the deployment turns keys on), which a /v1 operation without a scheme of its own inherits, so
  docs and generated clients show it as callable without credentials; an operation with its own scheme
  (the encounters' bearer token) lists it with and without the key; probes and docs say `[]` (public);
- `tags`: one per operation, named by its path: the first segment after `/v1/` (a ruleset's id, or the
  shared `rulesets`, `encounters`, `simulations`), `service` for everything outside /v1 (`TAGS` lists them);
- response headers the service sends on every answer (`X-Request-ID`; `RateLimit-*` on /v1), and a
  documented 429 with `Retry-After` on every /v1 operation;
- response examples: `examples.json` beside this module maps operationId -> status -> a body the app
  really answered, written by `python -m tests.contract.refresh_examples` (rerun it after adding or
  changing an operation; request examples live with the blueprints).

Operation ids, descriptions and request examples stay explicit in each blueprint;
tests/contract/test_operations.py fails when one is missing, and tests/contract/test_naming.py when an
operationId breaks the naming rule (README, "Integrating").
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Callable

from apispec import BasePlugin

from service.api.http import headers

EXAMPLES = Path(__file__).with_name("examples.json")
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}
OPTIONAL_KEY = [{"apiKeyAuth": []}, {}]
SERVICE = "service"
SHARED_TAGS = {
    SERVICE: "The service itself: liveness, readiness, Prometheus metrics and the public keys that check "
             "signed rolls.",
    "rulesets": "Rulesets and their tables, as data.",
    "encounters": "Deprecated: encounters of every ruleset on one set of paths, their payloads an untagged "
                  "union of every ruleset's shapes. Each ruleset's tag has the same operations typed for it "
                  "(`/v1/{ruleset}/encounters`).",
    "simulations": "Deprecated: simulations of every ruleset on one set of paths, their combatants and options "
                   "untyped and their result an open map. Each ruleset's tag has the same operations typed for "
                   "it (`/v1/{ruleset}/simulations`).",
}


def tag_of(path: str) -> str:
    """The one tag of the operations on `path`: the first segment after `/v1/` (a ruleset's id or a shared
    resource), `service` outside /v1."""
    parts = path.split("/")
    return parts[2] if path.startswith("/v1/") and len(parts) > 2 else SERVICE


def list_tags(spec: Any, rulesets: dict[str, str]) -> None:
    """Replace the tags flask-smorest listed (one per blueprint) by the shared ones, then one per ruleset
    (`rulesets`: id -> description), the only tags operations carry."""
    spec._tags[:] = [{"name": name, "description": text} for name, text in {**SHARED_TAGS, **rulesets}.items()]


@cache
def response_examples() -> dict[str, dict[str, Any]]:
    """operationId -> status -> example body, as last written by the refresh command."""
    if not EXAMPLES.exists():
        return {}
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))


class ContractPlugin(BasePlugin):
    """apispec plugin: security, common headers and response examples on every operation; `fillers` maps a
    placeholder of operation and response descriptions to what lists the names it stands for (the event
    types) or gives the text itself (the fight policies)."""

    def __init__(self, fillers: dict[str, Callable[[], list[str] | str]] | None = None) -> None:
        self.fillers = fillers or {}

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            if method not in METHODS:
                continue
            operation.setdefault("parameters", []).extend(operation.pop(headers.EXTRA, []))
            versioned = (path or "").startswith("/v1/")
            operation["tags"] = [tag_of(path or "")]
            _fill(operation, self.fillers)
            security = _security(operation.get("security"), versioned)
            if security is None:
                operation.pop("security", None)  # the document's optional key
            else:
                operation["security"] = security
            responses = operation.setdefault("responses", {})
            if versioned:
                responses.setdefault("429", _too_many_requests())
            for status, response in responses.items():
                if isinstance(response, dict) and "$ref" not in response:
                    _common_headers(response, versioned and str(status) != "429")
                    _fill(response, self.fillers)
            _add_examples(operation.get("operationId"), responses)


def _fill(doc: dict, fillers: dict[str, Callable[[], list[str] | str]]) -> None:
    """Each placeholder in `doc`'s description replaced: a list of names as `a`, `b`; a text as it is."""
    for placeholder, filler in fillers.items():
        if placeholder in doc.get("description", ""):
            found = filler()
            text = found if isinstance(found, str) else ", ".join(f"`{name}`" for name in found)
            doc["description"] = doc["description"].replace(placeholder, text)


def _security(own: list | None, versioned: bool) -> list | None:
    if not versioned:
        return own or []
    if not own:
        return None
    return [{**requirement, "apiKeyAuth": []} for requirement in own] + list(own)


def _too_many_requests() -> dict:
    return {"description": "Too Many Requests: this key (or client address) used up its rate limit; retry "
                           "after `Retry-After` seconds.",
            "headers": headers.headers("Retry-After", *headers.RATE_LIMIT, "X-Request-ID"),
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}


def _common_headers(response: dict, rate_limited: bool) -> None:
    sent = response.setdefault("headers", {})
    names = ("X-Request-ID", *headers.RATE_LIMIT) if rate_limited else ("X-Request-ID",)
    for name in names:
        sent.setdefault(name, headers.header(name))


def _add_examples(operation_id: str | None, responses: dict) -> None:
    known = response_examples().get(operation_id or "", {})
    for status, example in known.items():
        response = responses.get(status, responses.get(_int(status)))
        if not isinstance(response, dict):
            continue
        for media in response.get("content", {}).values():
            media["example"] = example  # what the service really answered wins over a hand-written one
            media.pop("examples", None)
            break


def _int(status: str) -> int | str:
    return int(status) if status.isdigit() else status
