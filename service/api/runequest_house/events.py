"""Schemas of the events a runequest-house round emits (rules document §12.12), by event type."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.events import RulesetEventSchema, described, event_schema, pascal, shared
from service.api.kit.events import described as _d
from service.api.kit.schemas import JsonBoolean, JsonInteger


def _text(description: str, **kw) -> fields.String:
    return described(fields.String, description, **kw)


def _int(description: str, **kw) -> JsonInteger:
    return described(JsonInteger, description, **kw)


def _flag(description: str) -> JsonBoolean:
    return described(JsonBoolean, description)


class EventBase(RulesetEventSchema):
    """Every event: its place in the answer and its type."""

    seq = shared("seq", "1-based position within the answer.", required=True)
    type = shared("type", "The event type.", required=True)
    combatant = shared("combatant", "Whom it concerns.")


def _event(kind: str, doc: str, **shape: fields.Field) -> type[Schema]:
    """The schema of event `kind`: the base's `seq`, `type` and `combatant`, then `shape`."""
    return event_schema(pascal(kind) + "Event", doc, shape, base=EventBase)


EVENT_SCHEMAS = {
    "intent_declared": _event("intent_declared", "A combatant's Statement of Intent (lowest INT first).",
                              actions=_d(fields.List, "The two actions {type, target, weapon, mode}.",
                                         fields.Dict()),
                              braced=_flag("Braced against knockback."),
                              abort=_text("The declared abort.", allow_none=True)),
    "moved": _event("moved", "A move in the Move or Post-Melee Move phase.",
                    phase=_text("move or post_melee."), metres=_int("Metres moved."),
                    position=_d(fields.Dict, "The hex reached.", allow_none=True),
                    stood_up=_flag("A prone figure stood up instead.")),
    "engaged": _event("engaged", "Two figures became engaged.", opponent=_text("The other figure.")),
    "maneuver_contest": _event("maneuver_contest", "A contest of Maneuver to move while engaged.",
                               opponent=_text("The other figure."), roll=_int("The mover's d100."),
                               degree=_text("Its degree."), opponent_roll=_int("The other's d100."),
                               opponent_degree=_text("Its degree."),
                               winner=_text("Who won (null: equal degrees).", allow_none=True)),
    "attack_rolled": _event("attack_rolled", "An attack roll on its SR.", target=_text("The target."),
                            sr=_int("The strike rank (null for a grapple follow-up at DEX SR).",
                                    allow_none=True),
                            weapon=_text("The weapon (null for a grapple follow-up).", allow_none=True),
                            mode=_text("normal, grapple, or a follow-up: immobilise, throw, damage, escape."),
                            roll=_int("The d100 (null: out of reach).", allow_none=True),
                            effective=_int("The attack %.", allow_none=True),
                            degree=_text("fumble, failure, success, special or critical.", allow_none=True),
                            out_of_reach=_flag("The target was beyond the weapon's reach.")),
    "defence_rolled": _event("defence_rolled", "A dodge or parry roll against one attack.",
                             attacker=_text("The attacker."), defence=_text("dodge or parry."),
                             roll=_int("The d100."), effective=_int("The defence %.", allow_none=True),
                             degree=_text("Its degree.")),
    "dodged": _event("dodged", "A successful dodge and what was left of the attack.",
                     attacker=_text("The attacker."), degree=_text("The dodge's degree."),
                     outcome=_text("The attack's result after the dodge.")),
    "parried": _event("parried", "A successful parry.", attacker=_text("The attacker."),
                      degree=_text("The parry's degree."), item=_text("What parried.", allow_none=True)),
    "damage_rolled": _event("damage_rolled", "The damage of a blow.", target=_text("The target."),
                            expression=_text("What was rolled."), damage=_int("The total."),
                            degree=_text("The blow's degree."), location=_text("The hit location.")),
    "armor_absorbed": _event("armor_absorbed", "Points stopped by armor.", location=_text("The location."),
                             absorbed=_int("Points stopped."), ap=_int("The location's layered AP.")),
    "location_damaged": _event("location_damaged", "Damage reaching a location's HP.",
                               location=_text("The location."), damage=_int("Points."),
                               location_hp=_int("The location's HP after."), hp=_int("Total HP after."),
                               location_state=_text("ok, useless, severed, unconscious, incapacitated or "
                                                    "dying.")),
    "knockback": _event("knockback", "Knockback of a blow.", attacker=_text("The attacker."),
                        metres=_int("Metres."), dex_multiplier=_int("The DEX multiple to stay up."),
                        roll=_int("The DEX roll (null: none needed).", allow_none=True),
                        fell=_flag("Knocked down.")),
    "fell": _event("fell", "A figure fell.", cause=_text("wound, knockback or thrown."),
                   location=_text("The wounded location (wound).")),
    "grappled": _event("grappled", "A grapple seized a location or caught a parrying item, a hold was "
                                   "released, or a follow-up's resistance roll was made.",
                       target=_text("The target.", allow_none=True),
                       location=_text("The seized location.", allow_none=True),
                       caught=_text("The caught item.", allow_none=True),
                       released=_flag("The hold was released (failed follow-up)."),
                       mode=_text("The follow-up of a resistance roll."),
                       resistance=_int("The resistance-table chance %."), roll=_int("The resistance d100."),
                       success=_flag("The resistance roll succeeded.")),
    "weapon_damaged": _event("weapon_damaged", "A weapon or shield lost AP.", item=_text("The item."),
                             ap_loss=_int("AP lost."), ap=_int("AP left."),
                             parrying=_flag("It lost them parrying.")),
    "disabled": _event("disabled", "A figure can no longer fight.",
                       status=_text("dying, unconscious, incapacitated or disarmed.")),
    "killed": _event("killed", "A figure's total HP reached 0."),
    "round_ended": _event("round_ended", "The round is over.", round=_int("The round just resolved.")),
}
