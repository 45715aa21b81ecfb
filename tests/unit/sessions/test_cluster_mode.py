"""Cluster mode without a cluster (issue 26): its configuration, seed parsing, the answers to a shard
switching over, the health /readyz reports, and the WAIT bookkeeping of durable writes. The same on a real
cluster: tests/integration/test_cluster.py."""
from __future__ import annotations

import logging

import pytest
from redis.cluster import RedisCluster
from redis.exceptions import (AskError, ClusterDownError, ConnectionError, MovedError, NoScriptError,
                              SlotNotCoveredError, TryAgainError)

from service.app import create_app
from service.config import Config
from service.sessions import cluster
from service.sessions.repository import COMMIT, _SharedClient
from tests.app_config import isolated_config


def test_cluster_mode_needs_a_url_and_a_broker_of_its_own():
    assert Config(redis_mode="cluster", redis_url="redis://a:7000").problems() == [
        "REFEREE_REDIS_MODE=cluster needs REFEREE_BROKER_URL: Celery's broker must be a plain Redis (or RabbitMQ), "
        "not the cluster"]
    assert Config(redis_mode="cluster", redis_url="redis://a:7000", broker_url="redis://b:6379").problems() == []
    assert Config(redis_mode="sharded").problems()[0].startswith("REFEREE_REDIS_MODE must be single or cluster")
    with pytest.raises(ValueError, match="needs REDIS_URL"):
        create_app(isolated_config(redis_mode="cluster", broker_url="redis://b:6379"))


def test_seed_nodes_are_one_url_or_several():
    nodes = cluster.seeds("redis://a:7000, redis://b:7001,c:7002,d")
    assert [(node.host, node.port) for node in nodes] == [("a", 7000), ("b", 7001), ("c", 7002), ("d", 6379)]


@pytest.mark.parametrize("error", [ClusterDownError("CLUSTERDOWN The cluster is down"),
                                   TryAgainError("TRYAGAIN"), SlotNotCoveredError("slot 5 is not covered"),
                                   ConnectionError("gone")])
def test_a_shard_switching_over_answers_503_with_retry_after(error):
    app = create_app(isolated_config())

    @app.get("/boom")
    def boom():
        raise error

    answer = app.test_client().get("/boom")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
    assert answer.headers["Content-Type"] == "application/problem+json"


class Primary:
    """A node's client as the health check sees it."""

    def __init__(self, info):
        self.info = info

    def execute_command(self, *args):
        if isinstance(self.info, Exception):
            raise self.info
        return self.info


class FakeCluster:
    def __init__(self, *infos):
        self.nodes = [Primary(info) for info in infos]

    def get_primaries(self):
        return list(range(len(self.nodes)))

    def get_redis_connection(self, index):
        return self.nodes[index]


def test_health_is_ok_only_with_every_slot_served():
    ok = {"cluster_state": "ok", "cluster_slots_ok": "16384"}
    assert cluster.health(FakeCluster(ConnectionError("down"), ok)) == "ok"
    assert cluster.health(FakeCluster(b"cluster_state:fail\r\ncluster_slots_ok:10923\r\n")) == \
        "cluster_state:fail, 10923 of 16384 slots served"
    with pytest.raises(ConnectionError):
        cluster.health(FakeCluster(ConnectionError("down")))


class Pipe:
    def __init__(self, node):
        self.node, self.commands = node, []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def execute_command(self, *args):
        self.commands.append(args)

    def evalsha(self, sha, numkeys, *args):
        self.commands.append(("EVALSHA", sha, numkeys, *args))

    def execute(self):
        self.node.sent.append(self.commands)
        if self.node.forgot and self.commands[0][0] == "EVALSHA":
            self.node.forgot = False
            raise NoScriptError("NOSCRIPT No matching script")
        answers = ["done" if command[0] == "EVALSHA" else command[0] for command in self.commands]
        return [self.node.acks if answer == "WAIT" else answer for answer in answers]


class Node:
    name = "127.0.0.1:7000"

    def __init__(self, acks):
        self.acks, self.sent, self.forgot, self.loaded = acks, [], False, []
        self.redis_connection = self

    def pipeline(self, transaction=False):
        return Pipe(self)

    def script_load(self, source):
        self.loaded.append(source)


class OneShard:
    def __init__(self, node):
        self.node = node

    def get_node_from_key(self, key):
        return self.node


class Script:
    sha, script = "f00", "return 1"


def test_a_write_waits_for_a_replica_and_a_lonely_primary_is_not_waited_on_for_a_while():
    now, counted = [0.0], []
    node = Node(acks=1)
    durable = cluster.Durable(OneShard(node), 1, 100, lambda: counted.append(1), clock=lambda: now[0])
    assert durable.run(Script, ["k"], [1]) == "done"
    assert node.sent[-1][-1] == ("WAIT", 1, 100) and counted == []
    node.acks = 0  # the replica is gone: the write stands on the primary, counted
    assert durable.run(Script, ["k"], [2]) == "done" and counted == [1]
    durable.run(Script, ["k"], [3])  # not waited on for LONELY_SECONDS: no WAIT, counted
    assert node.sent[-1] == [("EVALSHA", "f00", 1, "k", 3)] and counted == [1, 1]
    now[0] += cluster.LONELY_SECONDS
    node.acks = 1
    durable.run(Script, ["k"], [4])
    assert node.sent[-1][-1] == ("WAIT", 1, 100) and counted == [1, 1]


def test_a_node_that_never_saw_the_script_gets_it_loaded_and_the_write_sent_again():
    node = Node(acks=1)
    node.forgot = True
    assert cluster.Durable(OneShard(node), 1, 100).run(Script, ["k"], [1]) == "done"
    assert node.loaded == ["return 1"] and len(node.sent) == 2


class OldCluster(RedisCluster):
    """A cluster of Redis 6 as `sharded` sees it (no connection)."""

    def __init__(self, version):
        self.version = version

    def execute_command(self, *args, **kwargs):
        return {"redis_version": self.version}

    def get_primaries(self):
        return [1, 2, 3]


def test_streams_use_sharded_pub_sub_on_redis_7_and_classic_publish_before_and_say_so(caplog):
    caplog.set_level(logging.INFO, "referee.redis")
    assert cluster.sharded(OldCluster("7.0.15")) is True
    assert cluster.sharded(OldCluster("6.2.14")) is False
    assert cluster.sharded(object()) is False  # one Redis: classic pub/sub, nothing to say
    said = [record.getMessage() for record in caplog.records]
    assert "sharded pub/sub (SPUBLISH/SSUBSCRIBE)" in said[0] and "classic PUBLISH/SUBSCRIBE" in said[1]
    assert [record.levelname for record in caplog.records] == ["INFO", "WARNING"]


def test_the_write_script_publishes_with_spublish_only_where_streams_are_sharded():
    class Client:
        def __init__(self):
            self.registered = []

        def register_script(self, source):
            self.registered.append(source)
            return source

    for sharded, command in ((True, "SPUBLISH"), (False, "PUBLISH")):
        client = Client()
        shared = _SharedClient(client)
        shared._sharded = sharded
        shared.script(COMMIT)
        assert f"redis.call('{command}', KEYS[4]" in client.registered[0]


class Redirecting(Node):
    """A node that answers its first write with a redirection."""

    def __init__(self, error):
        super().__init__(acks=1)
        self.error = error

    def pipeline(self, transaction=False):
        pipe = Pipe(self)
        if self.error is not None:
            error, self.error = self.error, None
            pipe.execute = lambda: (_ for _ in ()).throw(error)
        return pipe


class TwoShards(OneShard):
    def __init__(self, node, other):
        super().__init__(node)
        self.other, self.refreshed = other, 0
        self.nodes_manager = self

    def get_node(self, host, port):
        return self.other

    def initialize(self):
        self.refreshed += 1
        self.node = self.other  # the slot's new owner, once the topology is read again


def test_moved_reads_the_topology_again_and_ask_sends_asking_first_on_the_target():
    other = Node(acks=1)
    moved = TwoShards(Redirecting(MovedError("3999 127.0.0.1:7001")), other)
    assert cluster.Durable(moved, 1, 100).run(Script, ["k"], [1]) == "done"
    assert moved.refreshed == 1 and other.sent[-1][0][0] == "EVALSHA"
    other = Node(acks=1)
    asked = TwoShards(Redirecting(AskError("3999 127.0.0.1:7001")), other)
    assert cluster.Durable(asked, 1, 100).run(Script, ["k"], [1]) == "done"
    assert asked.refreshed == 0 and [command[0] for command in other.sent[-1]] == ["ASKING", "EVALSHA", "WAIT"]
