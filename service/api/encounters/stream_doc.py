"""The documented answer of an encounter's event stream (server-sent events), on the shared paths and on
each ruleset's own."""
from __future__ import annotations

from service.api.encounters.shapes import Shapes
from service.api.kit.events import COMMON_EVENT_SCHEMAS, EVENT_NAMES
from service.api.kit.packages import declared
from service.rules import registry

TEXT = ("Server-sent events: `id: <seq>`, `event: <type>`, `data: <json>` for every logged event, the log from its "
        "start (or after `Last-Event-ID` / `since`) and then each new one live (the JSON is {union}; an undo is "
        "an `undo` event naming the events it removed); a comment heartbeat; `event: end` when the encounter "
        "ends. The stream closes after `sse_max_seconds` (reconnect with Last-Event-ID). A step of any size is "
        "sent whole, read from the log a page at a time as the client takes it; a client that takes nothing for "
        "`sse_stall_seconds` gets `event: closed` (the reason and the `seq` to resume after) and is closed; "
        "events the log's byte cap dropped before a resuming client read them arrive as one `truncated` event. "
        "Event names: {names}.")


def stream_description(sh: Shapes) -> dict:
    """The stream's 200 answer: the shared one lists every ruleset's event names (filled in by the contract
    plugin), a ruleset's own lists its own and names its event union."""
    if sh.ruleset is None:
        text = TEXT.format(union="an `Event`", names=EVENT_NAMES)
    else:
        package = registry.get(sh.ruleset).package
        names = sorted({*COMMON_EVENT_SCHEMAS, *(declared(package, "EVENT_SCHEMAS") or {})})
        union = "".join(part.title() for part in package.split("_")) + "Event"
        text = TEXT.format(union=f"a `{union}`", names=", ".join(f"`{name}`" for name in names))
    return {"description": text, "content": {"text/event-stream": {"schema": {"type": "string"}}}}
