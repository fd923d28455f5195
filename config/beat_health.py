"""Health check of celery beat: exit 0 while the sweeper was scheduled lately, 1 otherwise.

Beat sends ``pipeline.sweep_pipeline`` every minute (config/celery.py) and celery-redbeat records
when in Redis, shared by every beat host. A beat that hangs, lost Redis or never took the lock
leaves that time to age; after three missed minutes docker compose marks the beat unhealthy.
Run as ``python -m config.beat_health`` (docker-compose.yml).
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta

SWEEP_ENTRY = "sweep-pipeline"
STALE_AFTER = timedelta(minutes=3)


def last_sweep_scheduled() -> datetime | None:
    from redbeat.schedulers import RedBeatSchedulerEntry

    from config.celery import app

    key = app.conf.redbeat_key_prefix + SWEEP_ENTRY
    last = RedBeatSchedulerEntry.load_meta(key, app=app)["last_run_at"]
    return last if last is None or last.tzinfo else last.replace(tzinfo=UTC)


def main() -> int:
    try:
        last = last_sweep_scheduled()
    except Exception as problem:  # Redis unreachable, settings broken: unhealthy, and why
        print(f"beat unhealthy: cannot read its schedule: {problem}", file=sys.stderr)
        return 1
    if last is None:
        print("beat unhealthy: the sweeper was never scheduled", file=sys.stderr)
        return 1
    age = datetime.now(UTC) - last
    if age > STALE_AFTER:
        print(f"beat unhealthy: the sweeper was last scheduled {age} ago", file=sys.stderr)
        return 1
    print(f"beat healthy: the sweeper was scheduled {int(age.total_seconds())} s ago")
    return 0


if __name__ == "__main__":
    sys.exit(main())
