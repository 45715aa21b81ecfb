"""Request bodies shown in the docs and sent by "Try it out" (the README's curl bodies); every one is
answered 2xx (tests/contract/test_examples.py)."""
from __future__ import annotations

TO_HIT = {"av": 60, "dv": 45, "seed": 42}
RANGE = {"weapon": "bow", "strength": 13, "distance": 85}
DAMAGE = {"attacker": {"strength": 16, "modified_sta": 14},
          "weapon": {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"},
          "target": {"modified_sta": 12, "condition": 12, "pain_resistance": 6, "armor": [{"type": "padded"}]}}
ARMOR_WEAR = {"armor": [{"type": "singlemail"}, {"type": "padded"}],
              "strikes": [{"db": 5}, {"db": 5}, {"attack": "slash", "db": 5, "pot": 25}]}
PULSES = {"items": [{"mph": 10, "scale": "10mm"}, {"mph": 0.5, "scale": "5mm"}]}
PULSE_RAMP = {"mph": 12, "rates": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}
FALLING = {"distance_feet": 150, "weight_pounds": 40,
           "catcher": {"modified_sta": 14, "str_mod": 2, "crd_mod": 1, "armor_dr": 10}}
INITIATIVE = {"seed": 3, "combatants": [
    {"id": "knight", "awa_mod": 1, "hrt_mod": 1, "agl": 12, "hrt": 14, "actions": 2},
    {"id": "bandit", "awa_mod": 2, "agl": 12, "hrt": 10, "actions": 2}]}
SURPRISE = {"aggressor": {"chance": 60}, "target": {"chance": 40, "dv": 30},
            "rolls": {"aggressor": 50, "target": 45}}
CONTEST = {"a": {"chance": 55}, "b": {"chance": 40}, "roll": True, "seed": 9}
BATCH = {"items": [{"id": "a", "op": "to-hit", "body": {"av": 60, "dv": 45}},
                   {"id": "b", "op": "range", "body": {"weapon": "sling", "distance": 50}},
                   {"id": "c", "op": "pulse", "body": {"mph": 12, "scale": "10mm"}}]}
