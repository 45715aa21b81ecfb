"""Typed events of a smoting round (smoting.md section 12.8), for the spec: event type -> schema."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.events import event_schema, pascal, shared
from service.api.kit.schemas import JsonBoolean, JsonInteger

TEXT = {"combatant": "Who the event is about.", "target": "The other combatant.", "die": "An action die.",
        "faces": "Faces rolled.", "successes": "Successes.", "dice": "Dice rolled.", "net": "Successes after parry.",
        "extra_successes": "Net successes beyond the first.", "damage": "Damage.", "soaked": "Points soaked.",
        "defence": "dodge, parry or block.", "by": "How the stun went.", "domain": "physical or mental.",
        "cause": "What caused it.", "killing_blow": "A killing blow.", "location": "Injury location.",
        "shift": "Areas the attacker may shift it.", "effect_roll": "Effect row.", "effect": "Injury effect.",
        "kind": "zone, battle, trivial or withdraw.", "to": "Zone or combatant moved to.", "result": "Outcome.",
        "after": "Countdown entries before it.", "closed_by": "What closed the round.",
        "closing_die": "The closing die.", "held": "A held die."}
INTS = {"die", "successes", "dice", "net", "extra_successes", "damage", "soaked", "shift", "effect_roll", "after",
        "closing_die", "held"}
SHAPES = {
    "action_dice_rolled": ("combatant", "faces", "held"), "called": ("combatant", "die", "held"),
    "defence_rolled": ("combatant", "defence", "faces", "successes"),
    "attack_rolled": ("combatant", "target", "dice", "faces", "successes", "net"),
    "hit": ("combatant", "target", "extra_successes"),
    "damage_rolled": ("combatant", "target", "dice", "faces", "damage"),
    "soaked": ("combatant", "dice", "faces", "soaked"), "tie_broken": ("combatant", "tied", "die"), "stunned": ("combatant",), "stun_removed": ("combatant", "by"),
    "rank_lost": ("combatant", "domain", "cause"), "crossover": ("combatant", "domain"),
    "trauma": ("combatant", "damage", "killing_blow"),
    "injury": ("combatant", "faces", "location", "shift", "effect_roll", "effect"),
    "out_of_action": ("combatant", "cause"), "killed": ("combatant", "cause", "damage"),
    "moved": ("combatant", "kind", "to", "result", "successes"),
    "opportunity_attack": ("combatant", "target", "die"), "out_of_reach": ("combatant", "target"),
    "closing_called": ("after", "die"), "round_closed": ("closed_by", "closing_die"),
}


def _field(name: str) -> fields.Field:
    meta = {"description": TEXT.get(name, name)}
    if name == "faces":
        return fields.List(JsonInteger(), metadata=meta)
    if name == "tied":
        return fields.List(fields.String(), metadata={"description": "The combatants tied, in state order; the "
                                                                     "`tie_break` die picks one."})
    if name in INTS:
        return JsonInteger(allow_none=True, metadata=meta)
    if name == "killing_blow":
        return JsonBoolean(metadata=meta)
    return fields.String(allow_none=True, metadata=meta)


def _schema(kind: str, names: tuple[str, ...]) -> type[Schema]:
    base = {"seq": shared("seq", required=True), "type": shared("type", required=True)}
    return event_schema("Smoting" + pascal(kind) + "EventSchema", f"Event `{kind}` of a smoting round.",
                        {**base, **{n: _field(n) for n in names}})


EVENT_SCHEMAS = {kind: _schema(kind, names) for kind, names in SHAPES.items()}
