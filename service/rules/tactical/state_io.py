"""Reading and writing an encounter state as JSON, checking every value with the path to it.

Seed: the sheet numbers named in "Initiative", "Getting Hit: The POT of Blows", "Getting Hit: The
Virtue of Armor" and "Getting Hit: Wound Thresholds". Defaults follow docs/RULINGS.md; a value that is
missing takes its default, a value of the wrong kind or out of bounds is refused (RulesError).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any, Mapping

from service.rules.errors import Contradiction, RulesError
from service.rules.tactical import combat_values as cs
from service.rules.tactical.catalog import armor_layer

MAX_COMBATANTS = 200
BIG = 10_000


def read_state(data: Mapping[str, Any], path: tuple = ()) -> tuple[tuple[cs.Combatant, ...], cs.Options, int]:
    """An encounter's combatants, options and segment from its JSON form: {"combatants": [...], "options":
    {...}, "segment": n} (`EncounterState.from_dict` builds the state from them)."""
    data = _mapping(data, path)
    raw = data.get("combatants")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_COMBATANTS:
        raise RulesError(f"combatants must be a list of 1..{MAX_COMBATANTS}", (*path, "combatants"))
    combatants = tuple(read_combatant(c, (*path, "combatants", i)) for i, c in enumerate(raw))
    seen: set[str] = set()
    for i, combatant in enumerate(combatants):
        if combatant.id in seen:
            raise Contradiction(f"combatant id {combatant.id!r} is used twice", (*path, "combatants", i, "id"))
        seen.add(combatant.id)
    options = read_options(data.get("options") or {}, (*path, "options"))
    segment = _int(data, "segment", path, 0, 0, 1_000_000)
    return combatants, options, segment


def read_options(data: Mapping[str, Any], path: tuple) -> cs.Options:
    """Encounter options; unknown names are refused so a typo never passes silently."""
    data = _mapping(data, path)
    known = cs.Options.__dataclass_fields__
    for key in data:
        if key not in known:
            raise RulesError(f"unknown option {key!r}", (*path, key))
    values: dict[str, Any] = {}
    for name, spec in known.items():
        if name not in data:
            continue
        default = spec.default
        if isinstance(default, bool):
            values[name] = _bool(data, name, path, default)
        else:
            values[name] = _choice(data, name, path, default, _OPTION_CHOICES[name])
    return cs.Options(**values)


_OPTION_CHOICES = {"task_resolution": ("ratio", "linear"), "progression": ("triangular", "linear"),
                   "tie_break": ("alphabetical", "coin")}


def read_combatant(data: Mapping[str, Any], path: tuple) -> cs.Combatant:
    """One combatant (the simulator's combatant shape, plus position, status and the fight so far)."""
    data = _mapping(data, path)
    ident = data.get("id")
    if not isinstance(ident, str) or not 1 <= len(ident) <= 64:
        raise RulesError("id must be a string of 1..64 characters", (*path, "id"))
    attrs_raw = _mapping(data.get("attributes") or {}, (*path, "attributes"))
    attributes = {k: _int(attrs_raw, k, (*path, "attributes"), d, 0, 1000) for k, d in cs.ATTRIBUTES.items()}
    attributes["mSTA"] = max(1, attributes["mSTA"])
    mods_raw = _mapping(data.get("mods") or {}, (*path, "mods"))
    mods = {k: _int(mods_raw, k, (*path, "mods"), 0, -100, 100) for k in cs.MODS}
    weapons_raw = data.get("weapons") or []
    if not isinstance(weapons_raw, list) or not 1 <= len(weapons_raw) <= 4:
        raise RulesError("weapons must be a list of 1..4 weapons", (*path, "weapons"))
    armor_raw = data.get("armor") or []
    if not isinstance(armor_raw, list) or len(armor_raw) > 8:
        raise RulesError("armor must be a list of at most 8 layers", (*path, "armor"))
    position = _mapping(data.get("position") or {}, (*path, "position"))
    surprise = _mapping(data.get("surprise") or {}, (*path, "surprise"))
    pain = _mapping(data.get("pain") or {}, (*path, "pain"))
    initial_pain = _int(data, "stun_penalty", path, 0, 0, BIG)
    return cs.Combatant(
        id=ident, side=str(data.get("side", ""))[:64], attributes=attributes, mods=mods,
        dodge_dv=_int(data, "dodge_dv", path, 0, 0, BIG), free_dodges=_int(data, "free_dodges", path, 1, 1, 20),
        actions=_int(data, "actions", path, 1, 0, 10),
        weapons=tuple(read_weapon(w, (*path, "weapons", i)) for i, w in enumerate(weapons_raw)),
        armor=tuple(read_layer(a, (*path, "armor", i)) for i, a in enumerate(armor_raw)),
        x=_num(position, "x", (*path, "position"), 0.0), y=_num(position, "y", (*path, "position"), 0.0),
        facing=_int(data, "facing", path, 0, 0, 359), speed_mph=_num(data, "speed_mph", path, 10.0, 0, 100),
        status=_choice(data, "status", path, "standing", cs.STATUSES),
        wounds=_int(data, "wounds", path, 0, 0, 11),
        pain_initial=_int(pain, "initial", (*path, "pain"), initial_pain, 0, BIG),
        pain_age=_int(pain, "age", (*path, "pain"), 0, 0, 1000),
        surprise=cs.Surprise(_choice(surprise, "state", (*path, "surprise"), "none", cs.SURPRISE_STATES),
                             _int(surprise, "cs_left", (*path, "surprise"), 0, 0, 100),
                             _int(surprise, "penalty", (*path, "surprise"), 0, 0, BIG),
                             _int(surprise, "failed_dv", (*path, "surprise"), 0, 0, BIG)),
        aware=_bool(data, "aware", path, True),
        clothing_layers=_int(data, "clothing_layers", path, 0, 0, 10),
        edged_blow_taken=_bool(data, "edged_blow_taken", path, False),
        full_pulses=_int(data, "full_pulses", path, 0, 0, 1000),
        task=str(data.get("task", ""))[:200], task_left=_int(data, "task_left", path, 0, 0, 1000),
        **_guard_down(data.get("guard_down"), (*path, "guard_down")),
    )


def _guard_down(value: Any, path: tuple) -> dict[str, Any]:
    """F41's lowered guard: {"segment": n, "against": {attacker: DV lost}}."""
    if value is None:
        return {}
    value = _mapping(value, path)
    against = _mapping(value.get("against") or {}, (*path, "against"))
    drops = tuple((str(k)[:64], _int(against, k, (*path, "against"), 0, 0, BIG)) for k in sorted(against))
    return {"guard_down": drops, "guard_down_segment": _int(value, "segment", path, 0, 0, 1_000_000)}


def read_weapon(data: Mapping[str, Any], path: tuple) -> cs.Weapon:
    """A weapon: AV, Parry DV, size and weight class (DB from table 6-5 unless `db` is given)."""
    data = _mapping(data, path)
    size = _int(data, "size", path, 0, 0, 20)
    weight = data.get("weight_class", 0)
    if isinstance(weight, str) and weight in cs.WEIGHT_CLASSES:
        weight = cs.WEIGHT_CLASSES.index(weight)
    if isinstance(weight, bool) or not isinstance(weight, int) or not 0 <= weight <= 5:
        raise RulesError(f"weight_class must be 0..5 or one of {cs.WEIGHT_CLASSES}", (*path, "weight_class"))
    default_db = (size + 1) // 2 + weight
    ranged = data.get("ranged")
    if ranged is not None and ranged not in cs.RANGED:
        raise RulesError(f"ranged must be one of {cs.RANGED}", (*path, "ranged"))
    edge = data.get("edge")
    if edge is None:
        edge = "edged" if data.get("edged", True) else "blunt"
    fixed = data.get("fixed_pot")
    return cs.Weapon(
        name=str(data.get("name", "weapon"))[:64], av=_int(data, "av", path, None, 0, BIG),
        parry=_int(data, "parry", path, 0, 0, BIG), size=size, weight_class=weight,
        db=_table_db(data, path, default_db),
        grip=_choice(data, "grip", path, "one-handed", cs.GRIPS),
        edge=_choice({"edge": edge}, "edge", path, "edged", cs.EDGES),
        attack=_choice(data, "attack", path, "common", cs.ATTACKS), ranged=ranged,
        fixed_pot=None if fixed is None else _int(data, "fixed_pot", path, None, 0, BIG),
        arrowhead_db=_int(data, "arrowhead_db", path, 0, 0, 100),
    )


def _table_db(data: Mapping[str, Any], path: tuple, table: int) -> int:
    """A weapon's DB is table 6-5's; a `db` sent along must agree (the rules compute POT from the table)."""
    given = _int(data, "db", path, table, 0, 100)
    if given != table:
        raise Contradiction(f"db {given} disagrees with table 6-5 ({table} for this size and weight class)",
                         (*path, "db"))
    return given


def read_layer(data: Mapping[str, Any], path: tuple) -> cs.Layer:
    """An armor layer by catalog type, with its current DR and wear number (RULINGS 12)."""
    data = _mapping(data, path)
    kind = data.get("type")
    left, right = armor_layer(kind, (*path, "type"))
    dr = None if data.get("dr") is None else _int(data, "dr", path, None, 0, 100)
    fallback = dr if dr is not None and dr < left else right
    durability = _int(data, "durability", path, fallback, 0, 100)
    if durability > right:
        raise Contradiction(f"{kind} wears from {right}; durability {durability} is above it", (*path, "durability"))
    if dr is not None and dr != min(left, durability):
        raise Contradiction(f"dr {dr} disagrees with durability {durability} (dr is min({left}, durability))",
                         (*path, "dr"))
    return cs.Layer(str(kind), min(left, durability), durability)


def write_state(state: Any) -> dict[str, Any]:
    """The canonical JSON form of an encounter (an `EncounterState`)."""
    return {"ruleset": state.ruleset, "segment": state.segment, "options": asdict(state.options),
            "combatants": [write_combatant(c) for c in state.combatants]}


def write_combatant(c: cs.Combatant) -> dict[str, Any]:
    """The canonical JSON form of one combatant."""
    return {"id": c.id, "side": c.side, "attributes": dict(c.attributes), "mods": dict(c.mods),
            "dodge_dv": c.dodge_dv, "free_dodges": c.free_dodges, "actions": c.actions,
            "weapons": [asdict(w) for w in c.weapons], "armor": [asdict(a) for a in c.armor],
            "position": {"x": c.x, "y": c.y}, "facing": c.facing, "speed_mph": c.speed_mph,
            "status": c.status, "wounds": c.wounds,
            "pain": {"initial": c.pain_initial, "age": c.pain_age}, "surprise": asdict(c.surprise),
            "aware": c.aware, "clothing_layers": c.clothing_layers, "edged_blow_taken": c.edged_blow_taken,
            "full_pulses": c.full_pulses, "task": c.task, "task_left": c.task_left,
            **({"guard_down": {"segment": c.guard_down_segment, "against": dict(c.guard_down)}}
               if c.guard_down else {})}


def _mapping(value: Any, path: tuple) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesError("must be an object", path or ("body",))
    return value


def _int(data: Mapping[str, Any], key: str, path: tuple, default: int | None, low: int, high: int) -> int:
    value = data.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{key} must be an integer in {low}..{high}", (*path, key))
    return value


def _num(data: Mapping[str, Any], key: str, path: tuple, default: float, low: float = -1e6,
         high: float = 1e6) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise RulesError(f"{key} must be a number in {low}..{high}", (*path, key))
    return float(value)


def _bool(data: Mapping[str, Any], key: str, path: tuple, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RulesError(f"{key} must be true or false", (*path, key))
    return value


def _choice(data: Mapping[str, Any], key: str, path: tuple, default: str, choices: tuple[str, ...]) -> str:
    value = data.get(key, default)
    if value not in choices:
        raise RulesError(f"{key} must be one of {list(choices)}", (*path, key))
    return str(value)
