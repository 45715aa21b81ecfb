"""Typed events of an ars-magica round: none published yet, so its events are documented as `OtherEvent`
(issue 24 gives every event type of every ruleset a schema)."""

EVENT_SCHEMAS = None
