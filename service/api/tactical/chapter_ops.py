"""The chapter calculators as batch operations: name -> (request schema, view, response schema)."""
from __future__ import annotations

from service.api.tactical import aftermath, maneuvers
from service.api.tactical import aftermath_schemas as af, maneuvers_schemas as mn

CHAPTER_OPS = {
    "combination": (mn.CombinationRequestSchema, maneuvers.post_combination, mn.CombinationSchema),
    "body-check": (mn.BodyCheckRequestSchema, maneuvers.post_body_check, mn.BodyCheckSchema),
    "intimidation": (mn.IntimidationRequestSchema, maneuvers.post_intimidation, mn.IntimidationSchema),
    "stray-fire": (mn.StrayFireRequestSchema, maneuvers.post_stray_fire, mn.StrayFireSchema),
    "missile-flight": (mn.MissileFlightRequestSchema, maneuvers.post_missile_flight, mn.MissileFlightSchema),
    "knock-back": (mn.KnockBackRequestSchema, maneuvers.post_knock_back, mn.KnockBackSchema),
    "melee-spacing": (mn.MeleeSpacingRequestSchema, maneuvers.post_melee_spacing, mn.MeleeSpacingSchema),
    "dodge": (mn.DodgeRequestSchema, maneuvers.post_dodge, mn.DodgeSchema),
    "task": (af.TaskRequestSchema, aftermath.post_task, af.TaskSchema),
    "catch": (af.CatchRequestSchema, aftermath.post_catch, af.CatchSchema),
    "surprise-check": (af.SurpriseCheckRequestSchema, aftermath.post_surprise_check, af.SurpriseCheckSchema),
    "mortal-wound": (af.MortalWoundRequestSchema, aftermath.post_mortal_wound, af.MortalWoundSchema),
    "after-battle": (af.AfterBattleRequestSchema, aftermath.post_after_battle, af.AfterBattleSchema),
    "healing": (af.HealingRequestSchema, aftermath.post_healing, af.HealingSchema),
}
