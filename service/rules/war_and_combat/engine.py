"""The `RoundEngine` of `war-and-combat` (rules document §8): encounter states in and out, declarations
checked against the state (rules §12.8), and one round resolved by `round` (*Combat Sequence*)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.interface import StepResult
from service.rules.options import whole
from service.rules.war_and_combat import hexes
from service.rules.war_and_combat import round as war_round
from service.rules.war_and_combat.option_specs import INTENTIONS, TACTICS
from service.rules.war_and_combat.round import NON_STRIKE, Events, Round, roll_expression, status_of
from service.rules.war_and_combat.state import State, read_state, write_state

__all__ = ["ACTIONS", "DICE_SIDES", "ENGINE", "MOVE_PACES", "NON_STRIKE", "Engine", "Events", "Round",
           "roll_expression", "status_of"]

ACTIONS = ("engage", "shoot", "move", "hold", "none")
MOVE_PACES = ("creep", "crawl", "walk", "jog", "run", "sprint", "swim")
DICE_SIDES = {"initiative": 6, "flurry_initiative": 6, "attack": 6, "location": 6, "side": 2, "impact": 6,
              "critical": 6, "check": 6, "stun": 1000, "coin": 6, "stray": 200}


class Engine:
    """The `RoundEngine` of `war-and-combat` (one step = one 5-second round)."""

    step = "round"

    def read_state(self, data: Mapping[str, Any], path: tuple = ()) -> State:
        """The encounter state from JSON (rules document §3)."""
        return read_state(data, path)

    def write_state(self, state: State) -> dict[str, Any]:
        """The canonical JSON of a state."""
        return write_state(state)

    def check_declarations(self, state: State, declarations: list[dict[str, Any]],
                           path: tuple = ("declarations",)) -> list[dict[str, Any]]:
        """Declarations checked against the state (unknown combatant or target, a friend as target, a
        shot without a missile weapon, a path that is not a chain of neighbouring hexes) (rules §12.8)."""
        people = {c["id"]: c for c in state.combatants}
        out, seen = [], set()
        if not isinstance(declarations, list) or len(declarations) > 200:
            raise RulesError("declarations are a list of at most 200", path)
        for i, raw in enumerate(declarations):
            where = (*path, i)
            if not isinstance(raw, Mapping):
                raise RulesError("a declaration is an object", where)
            extra = set(raw) - {"combatant", "action", "target", "intention", "tactic", "weapon", "pace", "path"}
            if extra:
                raise RulesError(f"unknown field {sorted(extra)[0]!r}", (*where, sorted(extra)[0]))
            ident = raw.get("combatant")
            if ident not in people:
                raise UnknownName(f"no combatant {ident!r}", (*where, "combatant"))
            if ident in seen:
                raise Contradiction(f"{ident!r} already has a declaration", (*where, "combatant"))
            seen.add(ident)
            me = people[ident]

            def pick(key: str, choices: tuple, default: str) -> str:
                value = raw.get(key, default)
                if value not in choices:
                    raise RulesError(f"must be one of {list(choices)}", (*where, key))
                return value
            action = pick("action", ACTIONS, "engage" if raw.get("target") else "hold")
            target = raw.get("target")
            if target is not None:
                if target not in people:
                    raise UnknownName(f"no combatant {target!r}", (*where, "target"))
                if target == ident or people[target]["side"] == me["side"]:
                    raise Contradiction("a fighter attacks only fighters of another side", (*where, "target"))
            if action in ("engage", "shoot") and target is None:
                raise Contradiction(f"`{action}` needs a target", (*where, "target"))
            weapon = raw.get("weapon", 0)
            if isinstance(weapon, str):
                names = [w["name"] for w in me["weapons"]]
                if weapon not in names:
                    raise UnknownName(f"no weapon {weapon!r}", (*where, "weapon"))
                weapon = names.index(weapon)
            else:
                weapon = whole(weapon, (*where, "weapon"), 0, 3)
                if weapon >= len(me["weapons"]):
                    raise Contradiction(f"{ident!r} has {len(me['weapons'])} weapon(s)", (*where, "weapon"))
            kind = me["weapons"][weapon]["kind"]
            if action == "shoot" and kind != "missile":
                raise Contradiction("a shot needs a missile weapon", (*where, "weapon"))
            if action == "engage" and kind == "missile":
                raise Contradiction("a missile weapon cannot engage", (*where, "weapon"))
            path_in = raw.get("path", [])
            if not isinstance(path_in, list) or len(path_in) > 50:
                raise RulesError("a path is a list of at most 50 hexes", (*where, "path"))
            hexes_out, at = [], (me["position"]["q"], me["position"]["r"])
            for j, h in enumerate(path_in):
                if not isinstance(h, Mapping) or set(h) - {"q", "r"}:
                    raise RulesError("a hex is {q, r}", (*where, "path", j))
                nxt = (whole(h.get("q"), (*where, "path", j, "q"), -10_000, 10_000),
                       whole(h.get("r"), (*where, "path", j, "r"), -10_000, 10_000))
                if hexes.distance(at, nxt) != 1:
                    raise Contradiction("each hex of a path neighbours the one before", (*where, "path", j))
                hexes_out.append({"q": nxt[0], "r": nxt[1]})
                at = nxt
            out.append({"combatant": ident, "action": action, "target": target,
                        "intention": pick("intention", INTENTIONS, "kill"), "tactic": pick("tactic", TACTICS, "hold"),
                        "weapon": weapon, "pace": pick("pace", MOVE_PACES, "walk"), "path": hexes_out})
        return out

    def resolve(self, state: State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
        """Resolve one round; every die comes from `dice` (rules document §8)."""
        dice.check_queues(DICE_SIDES, combatants=[c["id"] for c in state.combatants])
        return war_round.resolve(state, declarations, dice)


ENGINE = Engine()
