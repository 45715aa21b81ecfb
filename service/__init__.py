"""Referee: a REST rules engine for tabletop-RPG combat.

Layers, highest first (a module imports from its own layer or the ones below it, never above):
    service.__main__, service.wsgi, service.worker, service.devserver, service.spec
    service.app
    service.api
    service.streams, service.jobs, service.verify
    service.sessions, service.sim
    service.rules, service.config

`rules` is the pure domain (one package per ruleset behind rules/interface.py); `sessions` keeps encounters
in Redis, `sim` simulates fights with numpy, `jobs` runs simulations on Celery, `streams` serves event
streams, `verify` checks an encounter's audit; `api` is HTTP, `app` wires it all; the top row are the ways in.
tests/test_architecture.py holds every package to the layers written here and in service/api/__init__.py.
"""
