"""A real Celery worker process against Redis and the pytest-django test database.

Not eager mode: the worker is ``celery -A config worker`` in a subprocess, with DATABASE_URL
pointing at the test database this test run created, and CELERY_BROKER_URL at ``redis_url``
(TEST_REDIS_URL; its database is flushed before each test). The test process publishes through
the same broker. Every worker is killed in the fixture's teardown, whatever happens.
"""

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection
from kombu import pools

from config.celery import app

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


class Worker:
    def __init__(self, env: dict[str, str], log_path: Path, concurrency: int) -> None:
        self.log_path = log_path
        self.log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                str(CELERY),
                "-A",
                "config",
                "worker",
                "--pool=prefork",
                f"--concurrency={concurrency}",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"test-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so teardown can end the children
        )
        self.wait_for(lambda: b" ready." in self.log_path.read_bytes(), 60, "worker start")

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def child_pids(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def wait_for(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return
            if self.process.poll() is not None:
                pytest.fail(f"the worker exited while waiting for {what}:\n{self.output()[-4000:]}")
            time.sleep(0.2)
        pytest.fail(f"timed out after {timeout} s waiting for {what}:\n{self.output()[-4000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=10)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                pass
        # Whatever is left of the group (pool children of a killed main process).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.log.close()


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
