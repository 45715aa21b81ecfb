"""`make_celery(redis_url)`: the Celery app for simulation jobs (Redis broker; no result backend: tasks
write what they found to the job store themselves, and nothing waits on a task's result).

The broker may be its own Redis (`broker_url`): its messages are turns that carry no job, so it needs little
memory, and a job store (or encounter store) filled to its bound cannot stop workers acknowledging them.

JSON only; a task is acknowledged after it ran (`task_acks_late`) and given back to the queue when
its worker process dies (`task_reject_on_worker_lost`), one message at a time per worker process.
When a whole worker dies its message waits in Redis for `visibility_timeout` seconds; long before that
the sweeper every worker runs (service.jobs.tasks.Sweeper, started when a worker starts) sends the
chunk again once its lease (`lease_seconds`) has lapsed. A worker told to stop does not make its running
chunk wait for that: the chunk goes back to the queue at its next step (service.jobs.shutdown).
"""
from __future__ import annotations

from typing import Any

from celery import Celery
from celery.signals import worker_init, worker_process_init, worker_shutdown, worker_shutting_down

from service.jobs import shutdown, tasks


def make_celery(redis_url: str, visibility_timeout: int = 3600, job_ttl: int = 24 * 3600,
                lease_seconds: int = 10, broker_url: str = "", redis_mode: str = "single") -> Celery:
    """A new Celery app with the simulation tasks registered, its job store on `redis_url` (a Redis Cluster
    in `redis_mode` "cluster") and its broker on `broker_url` (default: the same server; always a plain
    Redis or RabbitMQ); nothing connects until it is used."""
    app = Celery("referee", set_as_current=False)
    app.conf.update(
        broker_url=broker_url or redis_url,
        task_ignore_result=True,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        task_publish_retry_policy={"max_retries": 3, "interval_start": 0.2, "interval_step": 0.4,
                                   "interval_max": 1},  # a web request gives up on the broker within ~2 s
        broker_transport_options=_transport(visibility_timeout),
        worker_hijack_root_logger=False,
        referee_redis_url=redis_url,
        referee_redis_mode=redis_mode,
        referee_job_ttl=job_ttl,
        referee_job_lease=max(1, lease_seconds),
    )
    tasks.register(app)
    return app


def _transport(visibility_timeout: int) -> dict[str, int]:
    """Sweep for abandoned messages often enough that a short visibility timeout means fast recovery."""
    quick = visibility_timeout < 60
    return {"visibility_timeout": visibility_timeout,
            "unacked_restore_interval": 1 if quick else 10, "unacked_restore_throttle": 1 if quick else 10}


def set_redis_url(app: Celery, redis_url: str, broker_url: str = "") -> None:
    """Point a not-yet-used app at `redis_url` (the embedded server, known only once started)."""
    app.conf.update(broker_url=broker_url or redis_url, referee_redis_url=redis_url)


_sweepers: dict[int, tasks.Sweeper] = {}


@worker_init.connect(weak=False, dispatch_uid="referee.sweeper.start")
def _start_sweeper(sender: Any = None, **_: Any) -> None:
    """Every worker of a Referee app sweeps for chunks of dead workers, twice a lease."""
    app = getattr(sender, "app", None)
    if app is not None and app.conf.get("referee_redis_url"):
        _sweepers[id(sender)] = tasks.Sweeper(app, app.conf.referee_job_lease / 2).start()


@worker_shutdown.connect(weak=False, dispatch_uid="referee.sweeper.stop")
def _stop_sweeper(sender: Any = None, **_: Any) -> None:
    sweeper = _sweepers.pop(id(sender), None)
    if sweeper is not None:
        sweeper.stop()


worker_process_init.connect(shutdown.listen, weak=False, dispatch_uid="referee.shutdown.listen")
worker_shutting_down.connect(shutdown.begin, weak=False, dispatch_uid="referee.shutdown.begin")
