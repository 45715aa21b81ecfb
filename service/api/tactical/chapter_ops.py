"""The chapter calculators as batch operations: name -> (request schema, view, response schema)."""
from __future__ import annotations

from service.api.tactical import aftermath, maneuvers
from service.api.tactical import aftermath_schemas as af
from service.api.tactical import melee_maneuver_schemas as melee
from service.api.tactical import missile_maneuver_schemas as missile
from service.api.tactical import spacing_schemas as spacing

CHAPTER_OPS = {
    "combination": (melee.CombinationRequestSchema, maneuvers.post_combination, melee.CombinationSchema),
    "body-check": (melee.BodyCheckRequestSchema, maneuvers.post_body_check, melee.BodyCheckSchema),
    "intimidation": (melee.IntimidationRequestSchema, maneuvers.post_intimidation, melee.IntimidationSchema),
    "stray-fire": (missile.StrayFireRequestSchema, maneuvers.post_stray_fire, missile.StrayFireSchema),
    "missile-flight": (missile.MissileFlightRequestSchema, maneuvers.post_missile_flight, missile.MissileFlightSchema),
    "knock-back": (spacing.KnockBackRequestSchema, maneuvers.post_knock_back, spacing.KnockBackSchema),
    "melee-spacing": (spacing.MeleeSpacingRequestSchema, maneuvers.post_melee_spacing, spacing.MeleeSpacingSchema),
    "dodge": (spacing.DodgeRequestSchema, maneuvers.post_dodge, spacing.DodgeSchema),
    "task": (af.TaskRequestSchema, aftermath.post_task, af.TaskSchema),
    "catch": (af.CatchRequestSchema, aftermath.post_catch, af.CatchSchema),
    "surprise-check": (af.SurpriseCheckRequestSchema, aftermath.post_surprise_check, af.SurpriseCheckSchema),
    "mortal-wound": (af.MortalWoundRequestSchema, aftermath.post_mortal_wound, af.MortalWoundSchema),
    "after-battle": (af.AfterBattleRequestSchema, aftermath.post_after_battle, af.AfterBattleSchema),
    "healing": (af.HealingRequestSchema, aftermath.post_healing, af.HealingSchema),
}
