"""`make_celery(redis_url)`: the Celery app for simulation jobs (Redis broker and result backend).

JSON only; a task is acknowledged after it ran (`task_acks_late`) and given back to the queue when
its worker dies (`task_reject_on_worker_lost`), one message at a time per worker process. Redis
redelivers an unacknowledged message after `visibility_timeout` seconds.
"""
from __future__ import annotations

from celery import Celery

from service.jobs import tasks


def make_celery(redis_url: str, visibility_timeout: int = 3600, job_ttl: int = 24 * 3600) -> Celery:
    """A new Celery app with the simulation tasks registered; nothing connects until it is used."""
    app = Celery("referee", set_as_current=False)
    app.conf.update(
        broker_url=redis_url,
        result_backend=redis_url,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        broker_transport_options=_transport(visibility_timeout),
        result_expires=job_ttl,
        worker_hijack_root_logger=False,
        referee_redis_url=redis_url,
        referee_job_ttl=job_ttl,
    )
    tasks.register(app)
    return app


def _transport(visibility_timeout: int) -> dict[str, int]:
    """Sweep for abandoned messages often enough that a short visibility timeout means fast recovery."""
    quick = visibility_timeout < 60
    return {"visibility_timeout": visibility_timeout,
            "unacked_restore_interval": 1 if quick else 10, "unacked_restore_throttle": 1 if quick else 10}


def set_redis_url(app: Celery, redis_url: str) -> None:
    """Point a not-yet-used app at `redis_url` (the embedded server, known only once started)."""
    app.conf.update(broker_url=redis_url, result_backend=redis_url, referee_redis_url=redis_url)
