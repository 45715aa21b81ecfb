"""Schemas of /v1/encounters: shapes only. Combatants, options, declarations and states are the
encounter's ruleset's own (`ruleset_http.PayloadSchema`, documented as a `oneOf` of every ruleset's
shape); the view loads them through the ruleset's schema and its engine checks the rest."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ruleset_http import RulesetIds, payload
from service.api.schemas import round_rolls_field, seed_field

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


def combatants_field(**kwargs) -> fields.List:
    return fields.List(fields.Nested(CombatantPayload),
                       metadata={"description": "Combatants in the ruleset's encounter format.",
                                 "example": [EXAMPLE_COMBATANT]}, **kwargs)


def declarations_field(**kwargs) -> fields.List:
    return fields.List(fields.Nested(DeclarationPayload), validate=validate.Length(max=MAX_DECLARATIONS),
                       metadata={"description": "What each combatant does in the next segment (checked by the "
                                                "ruleset's engine).", "example": [EXAMPLE_DECLARATION]}, **kwargs)


def state_field(**kwargs) -> fields.Dict:
    return fields.Nested(StatePayload,
                         metadata={"description": "The encounter state in its ruleset's format: `combatants`, "
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
    combatants = combatants_field(required=True, validate=validate.Length(1, 1000))
    state = fields.Nested(SetupPayload, load_default=dict,
                          metadata={"description": "The rest of the ruleset's first state, beyond combatants and "
                                                   "options (e.g. smoting's `zones` and `surprise`); checked by "
                                                   "the ruleset's engine.",
                                    "example": {"zones": [{"id": "field", "adjacent": []}], "surprise": []}})


EncounterCombatantSchema = CombatantPayload


class EncounterDeclarationsSchema(Schema):
    declarations = declarations_field(required=True)


class EncounterSegmentRequestSchema(Schema):
    seed = seed_field()
    declarations = declarations_field(load_default=None, allow_none=True)
    rolls = round_rolls_field()


class EncounterEventsQuerySchema(Schema):
    offset = fields.Integer(load_default=0, validate=validate.Range(0, 10**9))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 500))


class EncounterStreamQuerySchema(Schema):
    since = fields.Integer(validate=validate.Range(0, 10**15),
                           metadata={"description": "Replay the events after this `seq` first "
                                                    "(like `Last-Event-ID`); default: only new events."})
    token = fields.String(validate=validate.Length(1, 200),
                          metadata={"description": "The encounter token, for EventSource clients that cannot "
                                                   "send an Authorization header."})


class EncounterLinksSchema(Schema):
    self = fields.String(required=True)
    combatants = fields.String(required=True)
    declarations = fields.String(required=True)
    segments = fields.String(required=True)
    events = fields.String(required=True)
    undo = fields.String(required=True)
    stream = fields.String(required=True)


class EncounterSchema(Schema):
    """An encounter: its state, pending declarations and version (also its ETag)."""

    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    version = fields.Integer(required=True)
    segment = fields.Integer(required=True, metadata={"description": "Segments resolved so far."})
    state = state_field(required=True)
    declarations = declarations_field(required=True)
    links = fields.Nested(EncounterLinksSchema, required=True)


class EncounterCreatedSchema(EncounterSchema):
    token = fields.String(required=True, metadata={"description": "Send as `Authorization: Bearer <token>` on "
                                                                  "every later call; shown only once."})


class EncounterCombatantListSchema(Schema):
    version = fields.Integer(required=True)
    combatants = combatants_field(required=True)


class EncounterCombatantOutSchema(Schema):
    version = fields.Integer(required=True)
    combatant = fields.Dict(required=True, metadata={"example": EXAMPLE_COMBATANT})


class EncounterDeclarationsOutSchema(Schema):
    version = fields.Integer(required=True)
    declarations = declarations_field(required=True)


class EncounterSegmentSchema(Schema):
    """One resolved segment: its number, the seed used, its events and the state after it."""

    segment = fields.Integer(required=True, metadata={"description": "Steps resolved so far (Combat Segments "
                                                                    "for tactical, rounds elsewhere)."})
    round = fields.Integer(metadata={"description": "Round-based rulesets: the round just resolved."})
    summary = fields.Dict(metadata={"description": "Round-based rulesets: the round resolver's summary fields "
                                                   "(initiative order, countdown, strike order, ...)."})
    seed = fields.Integer(required=True)
    events = fields.List(fields.Dict(), required=True,
                         metadata={"description": "Events in order; each has `segment` and `seq`."})
    state = state_field(required=True)
    version = fields.Integer(required=True)
    links = fields.Nested(EncounterLinksSchema, required=True)


class EncounterEventPageSchema(Schema):
    items = fields.List(fields.Dict(), required=True)
    offset = fields.Integer(required=True)
    limit = fields.Integer(required=True)
    total = fields.Integer(required=True)
    next = fields.String(required=True, allow_none=True)
