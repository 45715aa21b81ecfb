"""Referee: a REST rules engine for tabletop-RPG combat."""
