"""The events a war-and-combat round emits, one schema each (rules document §12.8), for typed docs."""
from __future__ import annotations

from marshmallow import Schema, fields


def _event(name: str, doc: str, **extra: fields.Field) -> type[Schema]:
    base = {"seq": fields.Integer(required=True, metadata={"description": "1-based within the answer."}),
            "type": fields.String(required=True, metadata={"description": f"`{name}`."}),
            "combatant": fields.String(metadata={"description": "Who it happened to (or who acted)."})}
    cls = Schema.from_dict({**base, **extra}, name="WarAndCombat" + "".join(p.title() for p in name.split("_"))
                           + "Event")
    cls.__doc__ = doc
    return cls


_S, _I, _B = fields.String, fields.Integer, fields.Boolean
EVENT_SCHEMAS = {
    "initiative_rolled": _event("initiative_rolled", "3d6 + FR for the round.", dice=fields.List(_I()), total=_I()),
    "moved": _event("moved", "A step, a stand-up or a maneuver's hex.", kind=_S(), to=fields.Dict(), cost=_I(),
                    phase=_S()),
    "engaged": _event("engaged", "Two fighters engage.", target=_S()),
    "flurry_started": _event("flurry_started", "A flurry begins.", combatants=fields.List(_S()),
                             actions=fields.Dict(keys=_S(), values=_I())),
    "attack_rolled": _event("attack_rolled", "An attack roll.", target=_S(), total=_I(), tl=_I(), state=_S(),
                            outcome=_S(), indefensible=_B()),
    "glanced": _event("glanced", "The blow slid off armor.", target=_S(), location=_S()),
    "blow_landed": _event("blow_landed", "A blow's impact.", target=_S(), location=_S(), critical=_B(), impact=_I(),
                          effective_impact=_I(), penetrating=_B(), severity=_S()),
    "wound_taken": _event("wound_taken", "A wound recorded.", location=_S(), severity=_S(), penetrating=_B(),
                          wound_type=_S(allow_none=True), effects=fields.List(_S())),
    "check_rolled": _event("check_rolled", "A Fumble?/Stumble? or resistance check.", kind=_S(), tl=_I(),
                           total=_I(), outcome=_S()),
    "action_lost": _event("action_lost", "An action lost this round.", reason=_S()),
    "stunned": _event("stunned", "Stunned for some rounds.", rounds=_I()),
    "fell": _event("fell", "The fighter falls."),
    "knocked_out": _event("knocked_out", "Knocked unconscious."),
    "out_of_fight": _event("out_of_fight", "Out of the fight.", status=_S()),
    "shot": _event("shot", "An arrow loosed (`stray`: a missed shot into a melee striking a bystander).",
                   target=_S(), band=_S(), total=_I(), tl=_I(), outcome=_S(), stray=_B()),
    "flurry_ended": _event("flurry_ended", "A flurry ends.", combatants=fields.List(_S()),
                           hits=fields.Dict(keys=_S(), values=_I())),
    "round_ended": _event("round_ended", "The round is over.", round=_I()),
}
