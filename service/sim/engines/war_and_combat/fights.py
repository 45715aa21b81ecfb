"""The changing state of a chunk of `war-and-combat` fights as (fights, fighters) arrays: wounds as the worst
severity per specific location, stuns, falls, positions and facings, and what wounds add up to
(`service.rules.war_and_combat.wounds.condition`), with the hex geometry of `hexes` for whole arrays."""
from __future__ import annotations

from typing import Any

import numpy as np

from service.sim.engines.war_and_combat.figures import BELLY, CHEST, HEAD, LA, LL, RA, RL, SPECIFIC, Figures

PENALTY = np.array([0, -1, -3, -7, 0])
SEVERITY = {None: 0, "light": 1, "serious": 2, "critical": 3, "mortal": 4}
DIRECTIONS = np.array([(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)])
_AXES = np.stack([2 * DIRECTIONS[:, 0] + DIRECTIONS[:, 1], DIRECTIONS[:, 1]])  # (2, 6)


def distance(q1: Any, r1: Any, q2: Any, r2: Any) -> Any:
    """hexes.distance for arrays."""
    dq, dr = q2 - q1, r2 - r1
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) >> 1


def direction(dq: Any, dr: Any) -> Any:
    """hexes.direction_to for arrays of offsets: the side whose centre line is nearest, the first on ties
    (four times the dot product, in whole numbers)."""
    dq, dr = np.asarray(dq), np.asarray(dr)
    if dq.size and max(int(np.abs(dq).max()), int(np.abs(dr).max())) <= _NEAR:
        return _DIRECTION_OF[(dq + _NEAR) * _SPAN + dr + _NEAR]
    return _directions(dq, dr)


def _directions(dq: np.ndarray, dr: np.ndarray) -> np.ndarray:
    """`direction` computed for any offsets."""
    dots = (2 * dq + dr)[..., None] * _AXES[0] + 3 * dr[..., None] * _AXES[1]
    return dots.argmax(axis=-1)


_NEAR = 24  # offsets up to this many hexes each way are looked up in a table made once
_SPAN = 2 * _NEAR + 1
_DIRECTION_OF = _directions(np.arange(_SPAN * _SPAN) // _SPAN - _NEAR, np.arange(_SPAN * _SPAN) % _SPAN - _NEAR)


def front(facing: Any, dq: Any, dr: Any) -> tuple[Any, Any]:
    """hexes.side_of for arrays: (in front, in the rear) of a fighter facing `facing` at offset (dq, dr)."""
    turn = (direction(dq, dr) - facing) % 6
    return (turn == 0) | (turn == 1) | (turn == 5), turn == 3


def defeated_by(w: np.ndarray, unconscious: np.ndarray) -> np.ndarray:
    """wounds.Condition.defeated from the worst wounds (..., 7): mortal, unconscious, immobile, belly
    critical, three limbs disabled or no usable arm."""
    belly = w[..., BELLY] >= 3
    disabled = (w[..., LA] >= 3).astype(np.int64) + (w[..., RA] >= 3) + ((w[..., LL] >= 3) | belly) + (
        (w[..., RL] >= 3) | belly)
    no_arm = (w[..., LA] >= 2) & (w[..., RA] >= 2)
    return ((w >= 4).any(axis=-1) | unconscious | (w[..., HEAD] == 3) | (w[..., CHEST] == 3) | belly
            | (disabled >= 3) | no_arm)


def descending(key: np.ndarray) -> np.ndarray:
    """Each row's columns by falling key, the first on ties (a stable sort; two columns compared)."""
    if key.shape[1] == 2:
        second = (key[:, 1] > key[:, 0]).astype(np.int64)
        return np.stack([second, 1 - second], axis=1)
    return np.argsort(-key, axis=1, kind="stable")


def legs_of(w: np.ndarray) -> np.ndarray:
    """Legs impaired or disabled among worst wounds (..., 7) (a critical belly wound takes both)."""
    belly = w[..., BELLY] >= 3
    return ((w[..., LL] >= 2) | belly).astype(np.int64) + ((w[..., RL] >= 2) | belly)


class Fights:
    """(T, n) arrays of every fight of a chunk still in the arrays."""

    def __init__(self, f: Figures, state: Any, trials: int):
        cs, n = state.combatants, f.n
        self.f, self.size = f, trials
        start = np.zeros((n, 7), np.int64)
        for i, c in enumerate(cs):
            for wound in c["wounds"]:
                j = SPECIFIC.index(wound["location"])
                start[i, j] = max(start[i, j], SEVERITY.get(wound["severity"], 0))

        def each(values: list, dtype: Any = np.int64) -> np.ndarray:
            return np.repeat(np.array(values, dtype=dtype)[None, :], trials, axis=0)
        self.worst = np.repeat(start[None], trials, axis=0)
        self.unconscious = each([c["unconscious"] for c in cs], bool)
        self.fallen = each([c["fallen"] for c in cs], bool)
        self.disarmed = each([c["disarmed"] for c in cs], bool)
        self.stun = each([c["stunned_rounds"] for c in cs])
        self.lost = each([c["actions_lost"] for c in cs])
        self.surprised = each([c["surprised"] for c in cs], bool)
        self.q = each([c["position"]["q"] for c in cs])
        self.r = each([c["position"]["r"] for c in cs])
        self.facing = each([c["facing"] for c in cs])
        self.stunned = self.stun > 0
        self.actions = np.zeros((trials, n), np.int64)
        self.turned = np.zeros((trials, n), bool)
        self.out = defeated_by(self.worst, self.unconscious)

    def keep(self, rows: np.ndarray) -> None:
        """Only these fights stay in the arrays."""
        for name in ("worst", "unconscious", "fallen", "disarmed", "stun", "lost", "surprised", "q", "r", "facing",
                     "stunned", "actions", "turned", "out"):
            setattr(self, name, getattr(self, name)[rows])
        self.size = int(self.out.shape[0])

    def penalty(self, rows: Any, who: Any) -> np.ndarray:
        """wounds.Condition.action_penalty: the worst wound per location, locations added."""
        return PENALTY[self.worst[rows, who]].sum(axis=-1)

    def bad_legs(self, rows: Any, who: Any) -> np.ndarray:
        """Legs impaired or disabled (a critical belly wound takes both)."""
        return legs_of(self.worst[rows, who])

    def can_act(self, rows: Any, who: Any) -> np.ndarray:
        """Round.can_act: not out of the fight, not stunned."""
        return ~self.out[rows, who] & ~self.stunned[rows, who]

    def can_attack(self, rows: Any, who: Any) -> np.ndarray:
        """Round.can_attack: acts and holds a weapon (an out fighter has no usable arm or is out anyway)."""
        return self.can_act(rows, who) & ~self.disarmed[rows, who]

    def wounded(self, rows: np.ndarray, who: np.ndarray) -> None:
        """Refresh `out` after wounds changed."""
        self.out[rows, who] = defeated_by(self.worst[rows, who], self.unconscious[rows, who])

    def gap(self, rows: Any, a: Any, b: Any) -> np.ndarray:
        """Hexes between fighters a and b."""
        return distance(self.q[rows, a], self.r[rows, a], self.q[rows, b], self.r[rows, b])

    def gaps(self) -> np.ndarray:
        """(T, n, n) hexes between every two fighters."""
        return distance(self.q[:, :, None], self.r[:, :, None], self.q[:, None, :], self.r[:, None, :])

    def status(self, dying_option: bool) -> np.ndarray:
        """round.state.status_of as codes (T, n): 0 standing, 1 disabled, 2 immobile, 3 unconscious,
        4 incapacitated, 5 dying."""
        w = self.worst
        mortal = (w == 4).any(axis=-1)
        vital = (w[..., [HEAD, CHEST, BELLY]] == 4).any(axis=-1) & dying_option
        return np.select([vital, mortal, self.unconscious | (w[..., HEAD] == 3), w[..., CHEST] == 3, self.out],
                         [5, 4, 3, 2, 1], 0)


STATUS_NAMES = ("standing", "disabled", "immobile", "unconscious", "incapacitated", "dying")
