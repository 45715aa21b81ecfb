"""Remembered answers: odds depend only on the request's fields and the resolved options (both are in
the key: a caller may pass options that are not in the body), so a calculator asked the same question again answers from memory
(seed-independent; rolls are never remembered)."""
from __future__ import annotations

import json
from collections import OrderedDict
from functools import wraps
from typing import Any, Callable, Mapping

LIMIT = 4096


def remembered(function: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]) -> Callable:
    """Wrap a pure `(body, options) -> answer` whose options are read from `body["options"]` (the odds
    of a smoting calculator, smoting.md section 12)."""
    memory: OrderedDict[str, Any] = OrderedDict()

    @wraps(function)
    def recall(body: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        key = json.dumps([{k: v for k, v in body.items() if k not in ("seed", "rolls")}, options],
                         sort_keys=True, default=str)
        if key in memory:
            memory.move_to_end(key)
            return memory[key]
        memory[key] = found = function(body, options)
        if len(memory) > LIMIT:
            memory.popitem(last=False)
        return found
    return recall
