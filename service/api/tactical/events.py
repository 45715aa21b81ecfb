"""The events a tactical Combat Segment logs (service/rules/tactical/events.py), for typed clients."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.events import EventBaseSchema, described, shared
from service.api.kit.schemas import RollSchema


def _text(description: str, **kwargs) -> fields.String:
    return described(fields.String, description, required=True, **kwargs)


def _int(description: str, **kwargs) -> fields.Integer:
    return described(fields.Integer, description, required=True, **kwargs)


class SegmentBeganEventSchema(EventBaseSchema):
    """A new Combat Segment started."""


class SurpriseEventSchema(EventBaseSchema):
    """An aggressor's Surprise met a target's check (seed "Surprise!!")."""

    aggressor = _text("Combatant id springing the surprise.")
    target = _text("Combatant id surprised.")
    outcome = _text("Surprise outcome (e.g. overwhelmed, surprised, unsurprised).")
    duration_cs = _int("Combat Segments the target stays surprised.")
    penalty = _int("Penalty off the target's actions while surprised.")
    dice = shared("dice", required=True)
    trace = shared("trace", required=True)


class InitiativeRosterEntrySchema(Schema):
    """One combatant's place in the Initiative roster."""

    id = _text("Combatant id.")
    roll = _int("The d10 face.")
    initiative = _int("The Initiative score (higher acts first).")
    actions = _int("Actions this CS.")
    simultaneous = fields.Boolean(required=True, metadata={"description": "Tied with the previous combatant "
                                                                          "after every tie-break."})
    dice = fields.Nested(RollSchema, required=True, metadata={"description": "The Initiative die."})


class InitiativeEventSchema(EventBaseSchema):
    """The roster for this CS and its action passes (seed "Initiative", RULINGS 17)."""

    roster = fields.List(fields.Nested(InitiativeRosterEntrySchema), required=True,
                         metadata={"description": "Combatants in order of Initiative."})
    passes = fields.List(fields.List(fields.String()), required=True,
                         metadata={"description": "Each action pass: the ids acting in it, in order."})


class DeclaredEventSchema(EventBaseSchema):
    """A combatant committed to an action in the Declaration phase of a pass."""

    combatant = _text("Combatant id.")
    pass_number = _int("Action pass (from 1).")
    action = _text("The declared action.")
    target = fields.String(required=True, allow_none=True, metadata={"description": "Target id, if any."})
    weapon = fields.String(required=True, allow_none=True, metadata={"description": "Weapon name, if any."})


class MovedEventSchema(EventBaseSchema):
    """A combatant moved (pulse 0: the CS's movement without Pulse Move)."""

    combatant = _text("Combatant id.")
    pulse = _int("Pulse of the CS (0-10).")
    rate = fields.Float(required=True, metadata={"description": "Quarter rate used (0-1)."})
    feet = fields.Float(required=True, metadata={"description": "Feet moved."})
    to = fields.Dict(keys=fields.String(), values=fields.Float(), required=True,
                     metadata={"description": "New position, `x` and `y` in feet."})


class AttackEventSchema(EventBaseSchema):
    """An attack's d100 against TRT(AV, DV), with the defence the target offered."""

    attacker = _text("Attacker id.")
    defender = _text("Defender id.")
    mode = _text("melee or ranged.")
    weapon = _text("Weapon used.")
    av = _int("Attack value after adjustments.")
    dv = _int("Defence value after adjustments.")
    defence = _text("The defence offered (parry, dodge, none...).")
    chance = _int("Chance to hit in percent.")
    outcome = _text("heroic, success, failure or bumble.")
    dice = shared("dice", required=True)
    trace = shared("trace", required=True)


class ArmorAfterSchema(Schema):
    """One armor layer after the blow."""

    type = _text("Armor type.")
    dr = _int("Damage Reduction left.")
    durability = _int("Durability left.")


class BlowEventSchema(EventBaseSchema):
    """A hit's POT, knock-back and what came through the armor (seed "Getting Hit")."""

    attacker = _text("Attacker id.")
    defender = _text("Defender id.")
    pot = _int("Potence of the blow.")
    knockback_feet = _int("Knock-back in feet.")
    pot_through_armor = _int("POT left after the armor.")
    wounds_inflicted = _int("Wounds this blow dealt.")
    wounds_total = _int("The defender's wounds after it.")
    wound_level = _text("The defender's wound level after it.")
    armor_after = fields.List(fields.Nested(ArmorAfterSchema), required=True,
                              metadata={"description": "The defender's armor layers after the blow."})
    trace = shared("trace", required=True)


class BodyCheckEventSchema(EventBaseSchema):
    """A body check, side-swipe or tackle: the contested roll (F39) and who was bounced how far (F40)."""

    attacker = _text("Combatant id who made it.")
    defender = _text("Combatant id it was made on.")
    maneuver = _text("body-check, side-swipe or tackle.")
    defence = _text("How the target met it: stand or dodge.")
    av = _int("The attacker's value after the conditions (F39).")
    dv = _int("The target's value: his own F39 sum, or Dodge + the mSTA bonus.")
    attacker_chance = _int("The attacker's percent chance (TRT(AV, DV)).")
    defender_chance = _int("The target's percent chance (TRT(DV, AV)).")
    outcome = _text("defender-bounced, attacker-bounced, dodged, borne-down (a tackle won) or both-stop.")
    bounced = fields.String(required=True, allow_none=True,
                            metadata={"description": "Id of the combatant bounced off (null: nobody)."})
    bounce_feet = _int("Feet he was bounced (F40).")
    dice = shared("dice", required=True)
    trace = shared("trace", required=True)


class CheckEventSchema(EventBaseSchema):
    """A simple d100 check a combatant made (footing, P-RES, HRT, recovery)."""

    combatant = _text("Combatant id.")
    check = _text("Which check.")
    av = _int("The value checked.")
    dv = _int("The difficulty.")
    chance = _int("Chance of success in percent.")
    succeeded = fields.Boolean(required=True, metadata={"description": "Whether the check succeeded."})
    dice = shared("dice", required=True)


class StatusEventSchema(EventBaseSchema):
    """A combatant's standing changed (unconscious, collapsed, dead) or a penalty began."""

    combatant = _text("Combatant id.")
    status = _text("The new status.")
    reason = _text("Why.")
    stun_penalty = _int("Stun penalty now in force (0: none).")


class TaskEventSchema(EventBaseSchema):
    """One action spent on an `other` task."""

    combatant = _text("Combatant id.")
    task = _text("The task.")
    left = _int("Actions still needed (0: done).")


class ActionLostEventSchema(EventBaseSchema):
    """A declared action could not be carried out, and why."""

    combatant = _text("Combatant id.")
    reason = _text("Why the action was lost.")


class SegmentEndedEventSchema(EventBaseSchema):
    """The CS ended: who still stands, and the upkeep done (pain and surprise waning)."""

    standing = fields.List(fields.String(), required=True, metadata={"description": "Ids still standing."})
    trace = shared("trace", required=True)


EVENT_SCHEMAS = {"segment-began": SegmentBeganEventSchema, "surprise": SurpriseEventSchema,
                 "initiative": InitiativeEventSchema, "declared": DeclaredEventSchema, "moved": MovedEventSchema,
                 "attack": AttackEventSchema, "blow": BlowEventSchema, "body-check": BodyCheckEventSchema,
                 "check": CheckEventSchema,
                 "status": StatusEventSchema, "task": TaskEventSchema, "action-lost": ActionLostEventSchema,
                 "segment-ended": SegmentEndedEventSchema}
