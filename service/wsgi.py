"""The WSGI entry point for gunicorn: `gunicorn service.wsgi:app`.

In cluster mode the broker is checked here, once, before gunicorn forks (the connections are closed again):
a broker URL naming a Redis Cluster node stops the server at start with a clear message; and the log says
whether streams use sharded pub/sub (Redis 7+) or classic PUBLISH.
"""
from service.app import create_app
from service.config import Config
from service.sessions.cluster import announce, refuse_cluster_broker

config = Config.from_env()
if config.redis_mode == "cluster":
    refuse_cluster_broker(config.broker_url)
    announce(config.redis_url)
app = create_app(config)
