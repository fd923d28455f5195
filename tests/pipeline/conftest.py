"""A real Celery worker process against Redis and the pytest-django test database.

Not eager mode: the worker is ``celery -A config worker`` in a subprocess, with DATABASE_URL
pointing at the test database this test run created, and CELERY_BROKER_URL at ``redis_url``
(TEST_REDIS_URL; its database is flushed before each test). The test process publishes through
the same broker. Every worker is killed in the fixture's teardown, whatever happens.
"""

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection
from kombu import pools

from config.celery import app
from tests.server_process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).with_name("celery")
DEAD_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1: "Redis is down"


def worker_database_url() -> str:
    s = connection.settings_dict
    auth = quote(s["USER"] or "")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or "5432"
    return f"postgres://{auth}@{host}:{port}/{s['NAME']}"


def use_broker(url: str) -> None:
    """Point this (test) process's Celery app at a broker, for real publishing (not eager)."""
    pools.reset()  # kombu's process-wide connection and producer pools
    app._pool = None
    app.amqp._producer_pool = None
    app.conf.broker_url = url
    app.conf.task_always_eager = False


class Worker(ServerProcess):
    """``celery -A config worker`` with the given environment, ready when this returns."""

    def __init__(self, env: dict[str, str], log_path: Path, concurrency: int) -> None:
        command = [
            str(CELERY), "-A", "config", "worker", "--pool=prefork",
            f"--concurrency={concurrency}", "--loglevel=INFO", "--without-gossip",
            "--without-mingle", "--without-heartbeat", "-n", f"test-{os.getpid()}@%h",
        ]  # fmt: skip
        super().__init__("the worker", command, env, log_path)
        self.wait_for(lambda: b" ready." in self.log_path.read_bytes(), 60, "worker start")


@pytest.fixture
def broker(redis_url, postgres_required, transactional_db) -> Iterator[str]:
    """The test process publishes to Redis (flushed first); restored to eager afterwards."""
    redis.Redis.from_url(redis_url).flushdb()
    previous = (app.conf.broker_url, app.conf.task_always_eager)
    use_broker(redis_url)
    yield redis_url
    use_broker(previous[0] or "")
    app.conf.task_always_eager = previous[1]


@pytest.fixture
def start_worker(broker, tmp_path) -> Iterator[Callable[..., Worker]]:
    workers: list[Worker] = []

    def start(*, concurrency: int = 1, **extra_env: str) -> Worker:
        env = {
            **os.environ,
            "DATABASE_URL": worker_database_url(),
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": broker,
            "CELERY_TASK_SOFT_TIME_LIMIT": "50",
            "CELERY_TASK_TIME_LIMIT": "60",
            "PYTHONUNBUFFERED": "1",
            **extra_env,
        }
        worker = Worker(env, tmp_path / f"worker-{len(workers)}.log", concurrency)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()
