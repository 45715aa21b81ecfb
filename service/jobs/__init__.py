"""Background simulation jobs: a Celery app on Redis, thin JSON tasks, job records in Redis."""
