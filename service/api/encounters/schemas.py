"""Schemas of /v1/encounters: shapes only. Combatants, options, declarations and states are the
encounter's ruleset's own (`ruleset_http.PayloadSchema`, documented as a `oneOf` of every ruleset's
shape); the view loads them through the ruleset's schema and its engine checks the rest."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.encounters.dice_schemas import ClientSeedSchema, CommittedDiceSchema, StepDiceSchema
from service.api.kit.events import event_field
from service.api.kit.payloads import RulesetIds, payload
from service.api.kit.schemas import round_rolls_field, seed_field

CombatantPayload = payload("combatant", "One combatant, in the encounter's ruleset's format.")
DeclarationPayload = payload("declaration", "One declaration, in the encounter's ruleset's format.")
OptionsPayload = payload("options", "Rule options, in the encounter's ruleset's format.")
StatePayload = payload("state", "An encounter state, in its ruleset's format.")
SetupPayload = payload("setup", "The rest of a first state (beyond combatants and options), in the ruleset's "
                                "format.")

MAX_DECLARATIONS = 400
EXAMPLE_COMBATANT = {
    "id": "knight", "side": "red",
    "attributes": {"STR": 16, "mSTA": 14, "CND": 15, "AGL": 12, "HRT": 14, "P-RES": 11},
    "mods": {"AWA": 1, "HRT": 0},
    "weapons": [{"name": "sword", "av": 70, "parry": 45, "size": 6, "weight_class": 2}],
    "dodge_dv": 20, "armor": [{"type": "doublemail", "dr": 20, "durability": 40}, {"type": "padded"}],
    "position": {"x": 0, "y": 0}, "facing": 0,
}
EXAMPLE_DECLARATION = {"combatant": "knight", "action": "attack", "target": "bandit-1", "weapon": 0}
EXAMPLE_BANDIT = {**EXAMPLE_COMBATANT, "id": "bandit-1", "side": "blue", "position": {"x": 1, "y": 0}, "facing": 180,
                  "weapons": [{"name": "axe", "av": 45, "parry": 25, "size": 5, "weight_class": 3}],
                  "dodge_dv": 15, "armor": [{"type": "padded"}]}
EXAMPLE_CREATE = {"ruleset": "tactical", "options": {"bumble": False},
                  "combatants": [EXAMPLE_COMBATANT, EXAMPLE_BANDIT]}
EXAMPLE_ADDED = {**EXAMPLE_BANDIT, "id": "bandit-2", "position": {"x": 0, "y": 1}, "facing": 270}
EXAMPLE_REPLACED = {**EXAMPLE_BANDIT, "dodge_dv": 25}
EXAMPLE_DECLARATIONS = {"declarations": [EXAMPLE_DECLARATION,
                                         {"combatant": "bandit-1", "action": "attack", "target": "knight"}]}
EXAMPLE_SEGMENT = {"seed": 7}
STEPS = ("Where the encounter stands: steps resolved so far, in its ruleset's own step (Combat Segments for "
         "`tactical`, rounds for the round-based rulesets; the state's `segment` or `round`). Resolving a step "
         "adds one, an undo takes one back; the name is `segment` whatever the ruleset.")


def combatants_field(**kwargs) -> fields.List:
    return fields.List(fields.Nested(CombatantPayload),
                       metadata={"description": "Combatants in the ruleset's encounter format.",
                                 "example": [EXAMPLE_COMBATANT]}, **kwargs)


def declarations_field(**kwargs) -> fields.List:
    return fields.List(fields.Nested(DeclarationPayload), validate=validate.Length(max=MAX_DECLARATIONS),
                       metadata={"description": "What each combatant does in the next segment (checked by "
                                                "the "
                                                "ruleset's engine).", "example": [EXAMPLE_DECLARATION]}, **kwargs)


def state_field(**kwargs) -> fields.Dict:
    return fields.Nested(StatePayload,
                         metadata={"description": "The encounter state in its ruleset's format: "
                                                  "`combatants`, "
                                                  "`options`, and `segment` (tactical) or `round`.",
                                 "example": {"segment": 0, "options": {}, "combatants": [EXAMPLE_COMBATANT]}},
                       **kwargs)


class EncounterCreateSchema(Schema):
    """A new encounter: its ruleset, rule options and combatants."""

    ruleset = fields.String(load_default="tactical", validate=RulesetIds(),
                            metadata={"description": "Ruleset id: its rules resolve the encounter, and its "
                                                     "formats hold the combatants, options and declarations."})
    options = fields.Nested(OptionsPayload, load_default=dict,
                            metadata={"description": "Rule options of the encounter.",
                                      "example": {"task_resolution": "ratio"}})
    combatants = combatants_field(required=True, validate=validate.Length(1, 200))  # = max_combatants' default
    state = fields.Nested(SetupPayload, load_default=dict,
                          metadata={"description": "The rest of the ruleset's first state, beyond combatants and "
                                                   "options (e.g. smoting's `zones` and `surprise`); checked by "
                                                   "the ruleset's engine.",
                                    "example": {"zones": [{"id": "field", "adjacent": []}], "surprise": []}})
    dice = fields.Nested(ClientSeedSchema, load_default=dict,
                         metadata={"description": "The players' part of the committed dice: `client_seed` (a "
                                                  "random one when left out)."})


EncounterCombatantSchema = CombatantPayload


class EncounterDeclarationsSchema(Schema):
    """The declarations for the next segment (replacing any pending ones)."""

    declarations = declarations_field(required=True)


class EncounterSegmentRequestSchema(Schema):
    """Resolve the next step: with its seed, and optionally new declarations and table-rolled faces."""

    seed = seed_field()
    declarations = declarations_field(load_default=None, allow_none=True)
    rolls = round_rolls_field()


class EncounterEventsQuerySchema(Schema):
    """Which page of the event log."""

    offset = fields.Integer(load_default=0, validate=validate.Range(0, 10**9),
                            metadata={"description": "Index of the first event of the page in the log "
                                                     "(0-based)."})
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 500),
                           metadata={"description": "Events per page (1-500)."})


class EncounterStreamQuerySchema(Schema):
    since = fields.Integer(validate=validate.Range(0, 10**15),
                           metadata={"description": "Start after this `seq` (like `Last-Event-ID`, "
                                                    "which wins when both are sent). Default 0: the whole "
                                                    "log from its first event, then every new one.",
                                     "example": 0})
    token = fields.String(validate=validate.Length(1, 200),
                          metadata={"description": "The encounter token, for EventSource clients that cannot "
                                                   "send an Authorization header."})


class EncounterLinksSchema(Schema):
    """URLs of the encounter and of its sub-resources."""

    self = fields.String(required=True, metadata={"description": "The encounter."})
    combatants = fields.String(required=True, metadata={"description": "Its combatants."})
    declarations = fields.String(required=True, metadata={"description": "Its pending declarations."})
    segments = fields.String(required=True, metadata={"description": "Where to resolve the next step."})
    events = fields.String(required=True, metadata={"description": "Its event log, page by page."})
    undo = fields.String(required=True, metadata={"description": "Where to undo the last step."})
    stream = fields.String(required=True,
                           metadata={"description": "Its live event stream (server-sent events)."})
    audit = fields.String(required=True, metadata={"description": "Its audit: every die rolled, undo or not."})
    dice = fields.String(required=True, metadata={"description": "Its committed dice (PUT a client seed; POST "
                                                                 "`/reveal` to publish the server seed)."})


class EncounterSchema(Schema):
    """An encounter: its state, pending declarations and version (also its ETag)."""

    id = fields.String(required=True, metadata={"description": "The encounter's id."})
    ruleset = fields.String(required=True, metadata={"description": "The ruleset id that resolves it."})
    version = fields.Integer(required=True,
                             metadata={"description": "Increases by one with every write; also the ETag "
                                                      "(`\"<version>\"`) for If-Match."})
    segment = fields.Integer(required=True, metadata={"description": STEPS})
    state = state_field(required=True)
    declarations = declarations_field(required=True)
    dice = fields.Nested(CommittedDiceSchema, required=True,
                         metadata={"description": "The committed dice: what is published before any roll."})
    links = fields.Nested(EncounterLinksSchema, required=True,
                          metadata={"description": "URLs of the encounter's sub-resources."})


class EncounterCreatedSchema(EncounterSchema):
    """A new encounter, with the token every later call needs."""

    token = fields.String(required=True, metadata={"description": "Send as `Authorization: Bearer <token>` "
                                                                  "on "
                                                                  "every later call; shown only once."})


class EncounterCombatantListSchema(Schema):
    """An encounter's combatants and its version."""

    version = fields.Integer(required=True,
                             metadata={"description": "The encounter's version (also the ETag)."})
    combatants = combatants_field(required=True)


class EncounterCombatantOutSchema(Schema):
    """One combatant of an encounter, and the encounter's version."""

    version = fields.Integer(required=True,
                             metadata={"description": "The encounter's version after this call (also the "
                                                      "ETag)."})
    combatant = fields.Dict(required=True, metadata={"description": "The combatant in its canonical form (defaults filled in).", "example": EXAMPLE_COMBATANT})


class EncounterDeclarationsOutSchema(Schema):
    """The pending declarations, as stored."""

    version = fields.Integer(required=True,
                             metadata={"description": "The encounter's version after this call (also the "
                                                      "ETag)."})
    declarations = declarations_field(required=True)


class EncounterSegmentSchema(Schema):
    """One resolved segment: its number, the seed used, its events and the state after it."""

    segment = fields.Integer(required=True, metadata={"description": f"{STEPS} Here: the step just resolved."})
    round = fields.Integer(metadata={"description": "Round-based rulesets: the round just resolved "
                                                   "(the same number as `segment`)."})
    summary = fields.Dict(metadata={"description": "Round-based rulesets: the round resolver's summary "
                                                   "fields "
                                                   "(initiative order, countdown, strike order, ...)."})
    seed = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "The seed the caller sent (resolving again from the same state "
                                                   "with it replays the same dice); null when the step rolled "
                                                   "the encounter's committed dice (see `dice`)."})
    dice = fields.Nested(StepDiceSchema, required=True,
                         metadata={"description": "The step's dice as the audit keeps them."})
    events = event_field(required=True, metadata={"description": "Events in order; each has `segment` and "
                                                                 "`seq`."})
    state = state_field(required=True)
    version = fields.Integer(required=True,
                             metadata={"description": "The encounter's version after the step (also the "
                                                      "ETag)."})
    links = fields.Nested(EncounterLinksSchema, required=True,
                          metadata={"description": "URLs of the encounter's sub-resources."})


class EncounterEventPageSchema(Schema):
    """A page of the encounter's event log. The log keeps at most `REFEREE_MAX_LOG_BYTES` of events (8 MiB
    by default); past that the oldest are dropped and one `truncated` event stands first in their place
    (its `seq` is the last dropped event's, `dropped` counts them all)."""

    events = event_field(required=True, metadata={"description": "The events of this page, by `seq` (the "
                                                                 "first may be a `truncated` event)."})
    offset = fields.Integer(required=True,
                            metadata={"description": "Index of the page's first event in the log."})
    limit = fields.Integer(required=True, metadata={"description": "The page size asked for."})
    total = fields.Integer(required=True,
                           metadata={"description": "Events in the log (an undo removes the undone step's "
                                                    "events; the byte cap replaces the oldest with one "
                                                    "`truncated` event)."})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "URL of the next page; null on the last one."})
