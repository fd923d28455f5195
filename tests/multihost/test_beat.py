"""Celery beat on two hosts: one schedules, the other waits on the lock in Redis and takes over
when the first host dies. The schedule lives in Redis, not in a file (celery-redbeat)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
import redis

from tests.multihost.hosts import BIN, ROOT
from tests.multihost.test_two_hosts import redis_database
from tests.server_process import ServerProcess

pytestmark = pytest.mark.worker

REDIS_DB = 12
LOCK_TIMEOUT_S = 6  # CELERY_BEAT_LOCK_TIMEOUT: a standby takes over this long after a death
ACQUIRED = re.compile(r"beat: Acquired lock")


def start_beat(name: str, broker: str, tmp_path: Path) -> ServerProcess:
    cwd = tmp_path / name
    (cwd / "var").mkdir(parents=True)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))},
        "PYTHONPATH": str(ROOT),
        "DJANGO_SECRET_KEY": "beat-test-secret-Rt5wK8mQ-h3Vn9cXz-Lp2Yd7Fs-Jq4Wb6Gu-Mk8Ta1Ee",
        "DJANGO_VAR_DIR": str(cwd / "var"),
        "DJANGO_EMBEDDED_SERVICES": "all",  # beat needs only the broker
        "CELERY_BROKER_URL": broker,
        "CELERY_BEAT_LOCK_TIMEOUT": str(LOCK_TIMEOUT_S),
        "PYTHONUNBUFFERED": "1",
    }
    command = [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO"]
    return ServerProcess(name, command, env, tmp_path / f"{name}.log")


def test_one_beat_schedules_and_a_standby_takes_over_when_it_dies(redis_url, tmp_path):
    broker = redis_database(redis_url, REDIS_DB)
    client = redis.Redis.from_url(broker)
    client.flushdb()
    first = start_beat("beat-1", broker, tmp_path)
    beats = [first]
    try:
        first.wait_for(lambda: ACQUIRED.search(first.output()), 30, "the first beat's lock")
        second = start_beat("beat-2", broker, tmp_path)
        beats.append(second)
        time.sleep(LOCK_TIMEOUT_S + 2)  # long enough to have taken a free lock several times
        assert second.process.poll() is None
        assert not ACQUIRED.search(second.output()), second.output()[-2000:]
        assert client.exists("redbeat::lock")
        schedule = {key.decode() for key in client.zrange("redbeat::schedule", 0, -1)}
        assert {"redbeat:sweep-pipeline", "redbeat:purge-closed-submissions"} <= schedule

        first.kill()  # the host dies: no lock release
        second.wait_for(
            lambda: ACQUIRED.search(second.output()), 4 * LOCK_TIMEOUT_S, "the standby to take over"
        )
        # Neither host keeps a schedule file: Redis is the only place it lives.
        for name in ("beat-1", "beat-2"):
            assert [p.name for p in (tmp_path / name).rglob("*") if p.is_file()] == []
    finally:
        for beat in beats:
            beat.stop()
        client.flushdb()
