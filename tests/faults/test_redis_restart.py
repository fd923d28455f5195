"""Redis restarts while work is queued and no worker has picked it up yet.

A real ``redis-server`` process of our own (so the machine's shared Redis is never touched),
a real Celery worker, PostgreSQL. With append-only persistence (as docker-compose.yml runs it)
the queued messages survive the restart; without persistence they are lost and the sweeper
that celery beat runs re-queues them from the rows, which are the outbox. Either way every
submission ends with exactly one proposal.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis

from config.celery import app
from pipeline import services as pipeline_services
from pipeline.models import Proposal
from tests.conftest import require
from tests.pipeline.conftest import Worker, use_broker, worker_database_url
from tests.pipeline.test_worker import assert_one_good_pdf, ready, submit

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    def __init__(self, directory: Path, *, append_only: bool) -> None:
        self.port = free_port()
        self.directory = directory
        self.append_only = append_only
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind", "127.0.0.1",
                "--port", str(self.port),
                "--dir", str(self.directory),
                "--save", "",
                "--appendonly", "yes" if self.append_only else "no",
                "--appendfsync", "always",
            ],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: Redis flushes its append-only file and exits
            self.process.wait(timeout=10)

    def queued(self) -> int:
        return redis.Redis.from_url(self.url).llen("sizing")


@pytest.fixture
def own_redis(tmp_path, postgres_required, transactional_db):
    require("redis-server", shutil.which("redis-server") is not None)
    servers: list[RedisServer] = []

    def make(*, append_only: bool) -> RedisServer:
        server = RedisServer(tmp_path, append_only=append_only)
        server.start()
        servers.append(server)
        use_broker(server.url)
        return server

    previous = (app.conf.broker_url, app.conf.task_always_eager)
    yield make
    for server in servers:
        server.stop()
    use_broker(previous[0] or "")
    app.conf.task_always_eager = previous[1]


@pytest.fixture
def start_worker_on(tmp_path):
    workers = []

    def start(broker_url: str):
        env = {
            **os.environ,
            "DATABASE_URL": worker_database_url(),
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": broker_url,
            "PYTHONUNBUFFERED": "1",
        }
        worker = Worker(env, tmp_path / f"worker-{len(workers)}.log", 1)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


@pytest.mark.parametrize("append_only", [True, False], ids=["append-only", "no-persistence"])
def test_work_queued_across_a_redis_restart_ends_in_one_proposal_each(
    own_redis, start_worker_on, append_only
):
    server = own_redis(append_only=append_only)
    submissions = [submit(company=f"Queued Co {n}")[0] for n in range(3)]
    assert server.queued() == 3

    restart_began = time.monotonic()
    server.stop()
    server.start()
    print(f"\nRedis back {time.monotonic() - restart_began:.2f} s after the restart began")
    assert server.queued() == (3 if append_only else 0)

    worker = start_worker_on(server.url)
    if not append_only:
        swept = pipeline_services.sweep_pipeline(older_than=timedelta(0))
        assert swept["start"] == 3  # the lost messages were the three submissions' starts
    for submission in submissions:
        worker.wait_for(lambda s=submission: ready(s), 90, f"{submission.reference}'s proposal")
        assert submission.pipeline_status == "ready", submission.pipeline_error
        assert_one_good_pdf(Proposal.objects.get(submission=submission))
