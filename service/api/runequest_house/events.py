"""Schemas of the events a runequest-house round emits (rules document §12.12), by event type."""
from __future__ import annotations

from marshmallow import fields

from service.api.kit.events import RulesetEventSchema, described, shared
from service.api.kit.schemas import JsonBoolean, JsonInteger


def _text(description: str, **kw) -> fields.String:
    return described(fields.String, description, **kw)


def _int(description: str, **kw) -> JsonInteger:
    return described(JsonInteger, description, **kw)


class EventBase(RulesetEventSchema):
    """Every event: its place in the answer and its type."""

    seq = shared("seq", "1-based position within the answer.", required=True)
    type = shared("type", "The event type.", required=True)
    combatant = shared("combatant", "Whom it concerns.")


class IntentDeclaredEvent(EventBase):
    """A combatant's Statement of Intent (lowest INT first)."""

    actions = fields.List(fields.Dict(), metadata={"description": "The two actions {type, target, weapon, mode}."})
    braced = JsonBoolean(metadata={"description": "Braced against knockback."})
    abort = _text("The declared abort.", allow_none=True)


class MovedEvent(EventBase):
    """A move in the Move or Post-Melee Move phase."""

    phase = _text("move or post_melee.")
    metres = _int("Metres moved.")
    position = fields.Dict(allow_none=True, metadata={"description": "The hex reached."})
    stood_up = JsonBoolean(metadata={"description": "A prone figure stood up instead."})


class EngagedEvent(EventBase):
    """Two figures became engaged."""

    opponent = _text("The other figure.")


class ManeuverContestEvent(EventBase):
    """A contest of Maneuver to move while engaged."""

    opponent = _text("The other figure.")
    roll = _int("The mover's d100.")
    degree = _text("Its degree.")
    opponent_roll = _int("The other's d100.")
    opponent_degree = _text("Its degree.")
    winner = _text("Who won (null: equal degrees).", allow_none=True)


class AttackRolledEvent(EventBase):
    """An attack roll on its SR."""

    target = _text("The target.")
    sr = _int("The strike rank (null for a grapple follow-up at DEX SR).", allow_none=True)
    weapon = _text("The weapon (null for a grapple follow-up).", allow_none=True)
    mode = _text("normal, grapple, or a follow-up: immobilise, throw, damage, escape.")
    roll = _int("The d100 (null: out of reach).", allow_none=True)
    effective = _int("The attack %.", allow_none=True)
    degree = _text("fumble, failure, success, special or critical.", allow_none=True)
    out_of_reach = JsonBoolean(metadata={"description": "The target was beyond the weapon's reach."})


class DefenceRolledEvent(EventBase):
    """A dodge or parry roll against one attack."""

    attacker = _text("The attacker.")
    defence = _text("dodge or parry.")
    roll = _int("The d100.")
    effective = _int("The defence %.", allow_none=True)
    degree = _text("Its degree.")


class DodgedEvent(EventBase):
    """A successful dodge and what was left of the attack."""

    attacker = _text("The attacker.")
    degree = _text("The dodge's degree.")
    outcome = _text("The attack's result after the dodge.")


class ParriedEvent(EventBase):
    """A successful parry."""

    attacker = _text("The attacker.")
    degree = _text("The parry's degree.")
    item = _text("What parried.", allow_none=True)


class DamageRolledEvent(EventBase):
    """The damage of a blow."""

    target = _text("The target.")
    expression = _text("What was rolled.")
    damage = _int("The total.")
    degree = _text("The blow's degree.")
    location = _text("The hit location.")


class ArmorAbsorbedEvent(EventBase):
    """Points stopped by armor."""

    location = _text("The location.")
    absorbed = _int("Points stopped.")
    ap = _int("The location's layered AP.")


class LocationDamagedEvent(EventBase):
    """Damage reaching a location's HP."""

    location = _text("The location.")
    damage = _int("Points.")
    location_hp = _int("The location's HP after.")
    hp = _int("Total HP after.")
    location_state = _text("ok, useless, severed, unconscious, incapacitated or dying.")


class KnockbackEvent(EventBase):
    """Knockback of a blow."""

    attacker = _text("The attacker.")
    metres = _int("Metres.")
    dex_multiplier = _int("The DEX multiple to stay up.")
    roll = _int("The DEX roll (null: none needed).", allow_none=True)
    fell = JsonBoolean(metadata={"description": "Knocked down."})


class FellEvent(EventBase):
    """A figure fell."""

    cause = _text("wound, knockback or thrown.")
    location = _text("The wounded location (wound).")


class GrappledEvent(EventBase):
    """A grapple seized a location or caught a parrying item, a hold was released, or a follow-up's
    resistance roll was made."""

    target = _text("The target.", allow_none=True)
    location = _text("The seized location.", allow_none=True)
    caught = _text("The caught item.", allow_none=True)
    released = JsonBoolean(metadata={"description": "The hold was released (failed follow-up)."})
    mode = _text("The follow-up of a resistance roll.")
    resistance = _int("The resistance-table chance %.")
    roll = _int("The resistance d100.")
    success = JsonBoolean(metadata={"description": "The resistance roll succeeded."})


class WeaponDamagedEvent(EventBase):
    """A weapon or shield lost AP."""

    item = _text("The item.")
    ap_loss = _int("AP lost.")
    ap = _int("AP left.")
    parrying = JsonBoolean(metadata={"description": "It lost them parrying."})


class DisabledEvent(EventBase):
    """A figure can no longer fight."""

    status = _text("dying, unconscious, incapacitated or disarmed.")


class KilledEvent(EventBase):
    """A figure's total HP reached 0."""


class RoundEndedEvent(EventBase):
    """The round is over."""

    round = _int("The round just resolved.")


EVENT_SCHEMAS = {
    "intent_declared": IntentDeclaredEvent, "moved": MovedEvent, "engaged": EngagedEvent,
    "maneuver_contest": ManeuverContestEvent, "attack_rolled": AttackRolledEvent,
    "defence_rolled": DefenceRolledEvent, "dodged": DodgedEvent, "parried": ParriedEvent,
    "damage_rolled": DamageRolledEvent, "armor_absorbed": ArmorAbsorbedEvent, "location_damaged": LocationDamagedEvent,
    "knockback": KnockbackEvent, "fell": FellEvent, "grappled": GrappledEvent, "weapon_damaged": WeaponDamagedEvent,
    "disabled": DisabledEvent, "killed": KilledEvent, "round_ended": RoundEndedEvent,
}
