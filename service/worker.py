"""Celery worker entry point: `celery -A service.worker worker`.

The only module that builds something at import time: the worker's Celery app, from the
environment (REDIS_URL is required here; the embedded development server is for the web process).
"""
from __future__ import annotations

import os

from service.config import Config
from service.jobs.celery_app import make_celery

config = Config.from_env()
if not config.redis_url:
    raise SystemExit("REDIS_URL must point at the Redis the web process uses")
_visibility = getattr(config, "job_visibility_timeout", None) or int(
    os.environ.get("REFEREE_JOB_VISIBILITY_TIMEOUT", "3600"))
app = celery = make_celery(config.redis_url, _visibility, config.encounter_ttl_seconds)
