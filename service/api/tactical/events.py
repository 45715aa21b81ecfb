"""The events a tactical Combat Segment logs (service/rules/tactical/events.py), for typed clients."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.events import EventBaseSchema, described, event_schema, pascal, shared
from service.api.kit.events import described as _d
from service.api.kit.schemas import RollSchema


def _text(description: str, **kwargs) -> fields.String:
    return described(fields.String, description, required=True, **kwargs)


def _int(description: str, **kwargs) -> fields.Integer:
    return described(fields.Integer, description, required=True, **kwargs)


def _event(kind: str, doc: str, **shape: fields.Field) -> type[Schema]:
    """The schema of event `kind`: the base's `type`, `segment` and `seq`, then `shape`."""
    return event_schema(pascal(kind) + "EventSchema", doc, shape, base=EventBaseSchema)


_ID, _DICE, _TRACE = _text("Combatant id."), shared("dice", required=True), shared("trace", required=True)


class InitiativeRosterEntrySchema(Schema):
    """One combatant's place in the Initiative roster."""

    id = _text("Combatant id.")
    roll = _int("The d10 face.")
    initiative = _int("The Initiative score (higher acts first).")
    actions = _int("Actions this CS.")
    simultaneous = fields.Boolean(required=True, metadata={"description": "Tied with the previous combatant "
                                                                          "after every tie-break."})
    dice = fields.Nested(RollSchema, required=True, metadata={"description": "The Initiative die."})


class ArmorAfterSchema(Schema):
    """One armor layer after the blow."""

    type = _text("Armor type.")
    dr = _int("Damage Reduction left.")
    durability = _int("Durability left.")


EVENT_SCHEMAS = {
    "segment_began": _event("segment_began", "A new Combat Segment started."),
    "surprise": _event("surprise", "An aggressor's Surprise met a target's check (seed \"Surprise!!\").",
                       aggressor=_text("Combatant id springing the surprise."),
                       target=_text("Combatant id surprised."),
                       outcome=_text("Surprise outcome (e.g. overwhelmed, surprised, unsurprised)."),
                       duration_cs=_int("Combat Segments the target stays surprised."),
                       penalty=_int("Penalty off the target's actions while surprised."), dice=_DICE,
                       trace=_TRACE),
    "initiative": _event("initiative", 'The roster for this CS and its action passes (seed "Initiative", '
                                       'RULINGS 17).',
                         roster=_d(fields.List, "Combatants in order of Initiative.",
                                   fields.Nested(InitiativeRosterEntrySchema), required=True),
                         passes=_d(fields.List, "Each action pass: the ids acting in it, in order.",
                                   fields.List(fields.String()), required=True)),
    "declared": _event("declared", "A combatant committed to an action in the Declaration phase of a pass.",
                       combatant=_ID, pass_number=_int("Action pass (from 1)."),
                       action=_text("The declared action."),
                       target=_d(fields.String, "Target id, if any.", required=True, allow_none=True),
                       weapon=_d(fields.String, "Weapon name, if any.", required=True, allow_none=True)),
    "moved": _event("moved", "A combatant moved (pulse 0: the CS's movement without Pulse Move).",
                    combatant=_ID, pulse=_int("Pulse of the CS (0-10)."),
                    rate=_d(fields.Float, "Quarter rate used (0-1).", required=True),
                    feet=_d(fields.Float, "Feet moved.", required=True),
                    to=_d(fields.Dict, "New position, `x` and `y` in feet.", keys=fields.String(),
                          values=fields.Float(), required=True)),
    "attack": _event("attack", "An attack's d100 against TRT(AV, DV), with the defence the target offered.",
                     attacker=_text("Attacker id."), defender=_text("Defender id."),
                     mode=_text("melee or ranged."), weapon=_text("Weapon used."),
                     av=_int("Attack value after adjustments."), dv=_int("Defence value after adjustments."),
                     defence=_text("The defence offered (parry, dodge, none...)."),
                     chance=_int("Chance to hit in percent."),
                     outcome=_text("heroic, success, failure or bumble."), dice=_DICE, trace=_TRACE),
    "blow": _event("blow", "A hit's POT, knock-back and what came through the armor (seed \"Getting Hit\").",
                   attacker=_text("Attacker id."), defender=_text("Defender id."),
                   pot=_int("Potence of the blow."), knockback_feet=_int("Knock-back in feet."),
                   pot_through_armor=_int("POT left after the armor."),
                   wounds_inflicted=_int("Wounds this blow dealt."),
                   wounds_total=_int("The defender's wounds after it."),
                   wound_level=_text("The defender's wound level after it."),
                   armor_after=_d(fields.List, "The defender's armor layers after the blow.",
                                  fields.Nested(ArmorAfterSchema), required=True),
                   trace=_TRACE),
    "body_check": _event("body_check", "A body check, side-swipe or tackle: the contested roll (F39) and who was "
                                       "bounced how far (F40).",
                         attacker=_text("Combatant id who made it."),
                         defender=_text("Combatant id it was made on."),
                         maneuver=_text("body-check, side-swipe or tackle."),
                         defence=_text("How the target met it: stand or dodge."),
                         av=_int("The attacker's value after the conditions (F39)."),
                         dv=_int("The target's value: his own F39 sum, or Dodge + the mSTA bonus."),
                         attacker_chance=_int("The attacker's percent chance (TRT(AV, DV))."),
                         defender_chance=_int("The target's percent chance (TRT(DV, AV))."),
                         outcome=_text("defender-bounced, attacker-bounced, dodged, borne-down (a tackle won) or "
                                       "both-stop."),
                         bounced=_d(fields.String, "Id of the combatant bounced off (null: nobody).", required=True,
                                    allow_none=True),
                         bounce_feet=_int("Feet he was bounced (F40)."), dice=_DICE, trace=_TRACE),
    "check": _event("check", "A simple d100 check a combatant made (footing, P-RES, HRT, recovery).",
                    combatant=_ID, check=_text("Which check."), av=_int("The value checked."),
                    dv=_int("The difficulty."), chance=_int("Chance of success in percent."),
                    succeeded=_d(fields.Boolean, "Whether the check succeeded.", required=True), dice=_DICE),
    "status": _event("status", "A combatant's standing changed (unconscious, collapsed, dead) or a penalty "
                               "began.",
                     combatant=_ID, status=_text("The new status."), reason=_text("Why."),
                     stun_penalty=_int("Stun penalty now in force (0: none).")),
    "task": _event("task", "One action spent on an `other` task.", combatant=_ID, task=_text("The task."),
                   left=_int("Actions still needed (0: done).")),
    "action_lost": _event("action_lost", "A declared action could not be carried out, and why.",
                          combatant=_ID, reason=_text("Why the action was lost.")),
    "segment_ended": _event("segment_ended", "The CS ended: who still stands, and the upkeep done (pain and "
                                             "surprise waning).",
                            standing=_d(fields.List, "Ids still standing.", fields.String(), required=True),
                            trace=_TRACE),
}
