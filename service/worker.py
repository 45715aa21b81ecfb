"""Celery worker entry point: `celery -A service.worker worker`.

The only module that builds something at import time: the worker's Celery app, from the
environment (REDIS_URL is required here; the embedded development server is for the web process).
"""
from __future__ import annotations

from service.config import Config
from service.jobs.celery_app import make_celery
from service.rules import memo
from service.sessions.cluster import refuse_cluster_broker

config = Config.from_env()
if not config.redis_url:
    raise SystemExit("REDIS_URL must point at the Redis the web process uses")
if config.problems():
    raise SystemExit("; ".join(config.problems()))
refuse_cluster_broker(config.broker_url)  # Celery's Redis transport cannot use a cluster: say so at start
app = celery = make_celery(config.redis_url, config.job_visibility_timeout, config.encounter_ttl_seconds,
                          config.job_lease_seconds, config.broker_url, config.redis_mode)
memo.configure(config.memo_bytes)  # the rules' remembered answers in each worker process, in bytes
app.conf.broker_connection_max_retries = None  # a worker waits out a Redis outage instead of exiting
