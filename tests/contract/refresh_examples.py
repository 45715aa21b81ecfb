"""`python -m tests.contract.refresh_examples`: rewrite service/api/http/examples.json (the response examples
the spec shows) from what the app answers to every operation's request example, then `make spec`.

Run it after adding or changing an operation (and after merging new rulesets). Bodies are trimmed where
they are long (event lists, streams, metrics) so the spec stays readable.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from service.api.http.contract import EXAMPLES
from tests.contract.examples_walk import running_app, walk

MAX_ITEMS = 4
MAX_TEXT_LINES = 12


def trim(value: Any, depth: int = 0) -> Any:
    """Long lists cut to their first items, long texts to their first lines."""
    if isinstance(value, list):
        return [trim(item, depth + 1) for item in value[:MAX_ITEMS]]
    if isinstance(value, dict):
        return {key: trim(item, depth + 1) for key, item in value.items()}
    if isinstance(value, str) and value.count("\n") > MAX_TEXT_LINES:
        return "\n".join(value.split("\n")[:MAX_TEXT_LINES]) + "\n"
    return value


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp, running_app(Path(tmp)) as app:
        answers = walk(app)
    examples: dict[str, dict[str, Any]] = {}
    failed = [a for a in answers if a["status"] >= 400]
    for answer in answers:
        if answer["status"] < 300 and answer["body"] not in (None, "") and answer["mimetype"] != "image/svg+xml":
            examples.setdefault(answer["operationId"], {})[str(answer["status"])] = trim(answer["body"])
    EXAMPLES.write_text(json.dumps(examples, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(examples)} operations' examples to {EXAMPLES}; now run `make spec`")
    for answer in failed:
        print(f"example refused: {answer['method'].upper()} {answer['path']} -> {answer['status']} "
              f"{answer['body']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
