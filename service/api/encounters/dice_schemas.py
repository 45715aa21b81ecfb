"""Schemas of an encounter's committed dice (issue 25): the client seed, the published commitment, a step's
dice, a reveal and the audit. Shapes only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.events import event_field

CLIENT_SEED = r"^[^\x00-\x1f\x7f\ud800-\udfff]{1,128}$"  # UTF-8-encodable text, no control characters


class ClientSeedSchema(Schema):
    """The client seed every committed die of the encounter mixes in (README, "Dice nobody has to take on
    trust")."""

    client_seed = fields.String(validate=validate.Regexp(CLIENT_SEED),
                                metadata={"description": "1-128 characters, no control characters; any text the "
                                                         "players pick (a phrase, a die roll of their own).",
                                          "example": "table-7 on friday"})


class CommittedDiceSchema(Schema):
    """An encounter's committed dice as published: never the server seed until it is revealed."""

    commitment = fields.String(required=True, metadata={"description": "Hex SHA-256 of the secret 32-byte server "
                                                                       "seed the next steps roll from."})
    client_seed = fields.String(required=True, metadata={"description": "The client seed mixed into every die."})
    next_nonce = fields.Integer(required=True, metadata={"description": "The nonce the next step will take (the "
                                                                        "counter never goes back, not even on "
                                                                        "undo)."})
    steps = fields.Integer(required=True, metadata={"description": "Steps rolled under this commitment (the "
                                                                   "client seed can change only while 0)."})


class DrawSchema(Schema):
    """One die of a step, in the order rolled."""

    sides = fields.Integer(required=True, metadata={"description": "Its faces (a choice among k options is a "
                                                                   "k-sided die)."})
    face = fields.Integer(required=True, metadata={"description": "The face, 1..sides."})
    supplied = fields.Boolean(required=True, metadata={"description": "True when the caller sent it in `rolls` "
                                                                      "(not derived; does not count in n)."})


class StepDiceSchema(Schema):
    """Which committed dice a step rolled: its nonce under a commitment and client seed, and every die."""

    nonce = fields.Integer(required=True, metadata={"description": "The step's nonce (unique in the encounter)."})
    commitment = fields.String(required=True, metadata={"description": "The commitment its dice derive from."})
    client_seed = fields.String(required=True, metadata={"description": "The client seed mixed in."})
    draws = fields.List(fields.Nested(DrawSchema), required=True,
                        metadata={"description": "Every die, in the order rolled."})


class EncounterClientSeedSchema(Schema):
    """A new client seed (only before the first step of the current commitment)."""

    client_seed = fields.String(required=True, validate=validate.Regexp(CLIENT_SEED),
                                metadata={"description": "1-128 characters, no control characters.",
                                          "example": "table-7 on friday"})


class EncounterDiceOutSchema(Schema):
    """The encounter's committed dice after a change, and its version."""

    version = fields.Integer(required=True, metadata={"description": "The encounter's version (also the ETag)."})
    dice = fields.Nested(CommittedDiceSchema, required=True, metadata={"description": "The committed dice now."})


class RevealedSchema(Schema):
    """A commitment and the server seed that hashes to it."""

    commitment = fields.String(required=True, metadata={"description": "Hex SHA-256 published before the rolls."})
    server_seed = fields.String(required=True, allow_none=True,
                                metadata={"description": "The 32-byte seed in hex (null: not revealed yet)."})


class EncounterRevealSchema(EncounterDiceOutSchema):
    """The revealed seed, and the new commitment the next steps roll under."""

    revealed = fields.Nested(RevealedSchema, required=True,
                             metadata={"description": "The seed of the commitment just closed."})


class AuditResolutionSchema(Schema):
    """One resolved step as audited: enough to recompute its dice and replay it."""

    nonce = fields.Integer(required=True, metadata={"description": "Its nonce."})
    commitment = fields.String(required=True, metadata={"description": "The commitment its dice derive from."})
    client_seed = fields.String(required=True, metadata={"description": "The client seed mixed in."})
    seed = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "The caller's seed when one was sent (its dice are then not "
                                                   "committed); null for committed dice."})
    segment = fields.Integer(required=True, metadata={"description": "The step's number."})
    undone = fields.Boolean(required=True, metadata={"description": "True when an undo took the step back (its "
                                                                    "dice stay in the audit)."})
    state = fields.Dict(required=True, metadata={"description": "The state it was resolved from."})
    declarations = fields.List(fields.Dict(), required=True,
                               metadata={"description": "The declarations it resolved (the ruleset's form)."})
    rolls = fields.List(fields.Dict(), required=True, metadata={"description": "Faces the caller supplied."})
    draws = fields.List(fields.Nested(DrawSchema), required=True,
                        metadata={"description": "Every die, in the order rolled."})
    events = event_field(required=True, metadata={"description": "The events it logged, as logged."})
    type = fields.String(required=True, metadata={"description": "Always `resolution`."})


class AuditUndoSchema(Schema):
    """An undo, as audited."""

    type = fields.String(required=True, metadata={"description": "Always `undo`."})
    nonce = fields.Integer(required=True, allow_none=True, metadata={"description": "The nonce it took back."})
    seq = fields.Integer(required=True, metadata={"description": "The `seq` of its `undo` event."})


class AuditTruncatedSchema(Schema):
    """What the audit's byte cap dropped from its head."""

    dropped = fields.Integer(required=True, metadata={"description": "Entries dropped (resolutions and undos)."})
    through_nonce = fields.Integer(required=True,
                                   metadata={"description": "The highest nonce among them (-1: none had one); "
                                                            "every resolution kept has a higher nonce."})


class EncounterAuditSchema(Schema):
    """Everything needed to check an encounter's dice without trusting the server (`python -m service verify`
    reads this very document)."""

    encounter_id = fields.String(required=True, metadata={"description": "The encounter."})
    ruleset = fields.String(required=True, metadata={"description": "Its ruleset (the replay's resolver)."})
    derivation = fields.String(required=True, metadata={"description": "How each die derives from the seeds."})
    seeds = fields.List(fields.Nested(RevealedSchema), required=True,
                        metadata={"description": "Every commitment in order, with its seed once revealed."})
    client_seed = fields.String(required=True, metadata={"description": "The current client seed."})
    next_nonce = fields.Integer(required=True, metadata={"description": "The nonce the next step will take."})
    resolutions = fields.List(fields.Nested(AuditResolutionSchema), required=True,
                              metadata={"description": "Every resolved step, undone or not, in order."})
    undos = fields.List(fields.Nested(AuditUndoSchema), required=True,
                        metadata={"description": "Every undo, in order."})
    truncated = fields.Nested(AuditTruncatedSchema, required=True, allow_none=True,
                              metadata={"description": "null, unless the audit outgrew its byte cap "
                                                       "(`REFEREE_MAX_AUDIT_BYTES`, 16 MiB by default): then its "
                                                       "oldest entries were dropped, and this says how many. What "
                                                       "is kept still verifies (each resolution carries the state "
                                                       "it started from)."})
