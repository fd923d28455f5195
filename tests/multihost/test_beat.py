"""Celery beat on two hosts: one schedules, the other waits on the lock in Redis and takes over
when the first host dies. The schedule lives in Redis, not in a file (celery-redbeat)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
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


def beat_env(broker: str, cwd: Path) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))},
        "PYTHONPATH": str(ROOT),
        "DJANGO_SECRET_KEY": "beat-test-secret-Rt5wK8mQ-h3Vn9cXz-Lp2Yd7Fs-Jq4Wb6Gu-Mk8Ta1Ee",
        "DJANGO_VAR_DIR": str(cwd / "var"),
        "DJANGO_EMBEDDED_SERVICES": "all",  # beat needs only the broker
        "CELERY_BROKER_URL": broker,
        "CELERY_BEAT_LOCK_TIMEOUT": str(LOCK_TIMEOUT_S),
        "PYTHONUNBUFFERED": "1",
    }


def start_beat(name: str, broker: str, tmp_path: Path) -> ServerProcess:
    cwd = tmp_path / name
    (cwd / "var").mkdir(parents=True)
    env = beat_env(broker, cwd)
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


def beat_health(broker: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """docker-compose.yml's health check of beat, as the container runs it."""
    (tmp_path / "probe" / "var").mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "config.beat_health"],
        cwd=ROOT,
        env=beat_env(broker, tmp_path / "probe"),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_beat_health_check_follows_the_sweepers_schedule(redis_url, tmp_path):
    broker = redis_database(redis_url, REDIS_DB)
    client = redis.Redis.from_url(broker)
    client.flushdb()
    try:
        before = beat_health(broker, tmp_path)
        assert before.returncode == 1 and "never scheduled" in before.stderr

        beat = start_beat("beat", broker, tmp_path)
        try:
            beat.wait_for(
                lambda: client.hget("redbeat:sweep-pipeline", "meta"), 30, "the first sweep"
            )
            running = beat_health(broker, tmp_path)
            assert running.returncode == 0, running.stderr
        finally:
            beat.stop()

        # A beat that stopped scheduling: the last sweep ages past three minutes.
        meta = json.loads(client.hget("redbeat:sweep-pipeline", "meta"))
        meta["last_run_at"]["year"] -= 1
        client.hset("redbeat:sweep-pipeline", "meta", json.dumps(meta))
        stale = beat_health(broker, tmp_path)
        assert stale.returncode == 1 and "last scheduled" in stale.stderr
    finally:
        client.flushdb()
