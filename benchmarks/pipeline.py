"""Pipeline benchmark: render time of the demo proposal, and a burst of 20 submissions.

    .venv/bin/python benchmarks/pipeline.py                    # render timing only (no services)
    DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… \\
        .venv/bin/python benchmarks/pipeline.py --burst 20      # plus the queued burst

Part 1 renders the built-in demo proposal ``--renders`` times in this process and prints the
median. Part 2 (only with PostgreSQL and Redis) migrates the given database, starts one Celery
worker (concurrency 1, as on our 2-core machine), submits ``--burst`` submissions back to back,
and prints the time from each submit to its proposal being ready, and for the whole burst.
Targets (issue 4): under 2 s per proposal; all 20 ready within 60 s. The rows it creates are
deleted afterwards.
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")  # a local measurement, not a deployment

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from pipeline.services import schedule_sizing  # noqa: E402
from questionnaire.models import Submission  # noqa: E402
from reports.demo import demo_answers, demo_data  # noqa: E402
from reports.document import render_data  # noqa: E402


def time_renders(count: int) -> list[float]:
    data = demo_data()
    render_data(data)  # warm-up: fonts, templates
    timings = []
    for _ in range(count):
        started = time.perf_counter()
        rendered = render_data(data)
        timings.append(time.perf_counter() - started)
    print(f"demo proposal: {rendered.page_count} pages, {len(rendered.pdf):,} bytes")
    return timings


def start_worker() -> subprocess.Popen:
    celery = Path(sys.executable).with_name("celery")
    process = subprocess.Popen(
        [
            str(celery),
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"bench-{os.getpid()}@%h",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    time.sleep(4)  # let it connect before the clock starts
    return process


def burst(count: int, timeout: float) -> None:
    call_command("migrate", verbosity=0)
    answers = demo_answers()
    worker = start_worker()
    ids: list[int] = []
    submitted_at: dict[int, float] = {}
    try:
        started = time.perf_counter()
        for number in range(count):
            with transaction.atomic():
                submission = Submission.objects.create(
                    reference=f"BENCH-{os.getpid()}-{number:03d}"[:20],
                    contact_name="Benchmark",
                    contact_email="bench@example.com",
                    company="Benchmark Ltd",
                    privacy_consent_at=timezone.now(),
                    answers=answers,
                )
                schedule_sizing(submission=submission)
            ids.append(submission.pk)
            submitted_at[submission.pk] = time.perf_counter()
        print(f"submitted {count} in {time.perf_counter() - started:.2f} s")
        ready_at: dict[int, float] = {}
        while len(ready_at) < count and time.perf_counter() - started < timeout:
            statuses = Submission.objects.filter(pk__in=ids).values_list("pk", "pipeline_status")
            for pk, status in statuses:
                if status in ("ready", "failed") and pk not in ready_at:
                    ready_at[pk] = time.perf_counter()
                    if status == "failed":
                        print(f"submission {pk} FAILED")
            time.sleep(0.1)
        total = max(ready_at.values(), default=started) - started
        latencies = [ready_at[pk] - submitted_at[pk] for pk in ready_at]
        print(
            f"ready: {len(ready_at)}/{count}; whole burst {total:.1f} s "
            f"(target: all {count} within 60 s)"
        )
        if latencies:
            print(
                f"submit→ready: median {statistics.median(latencies):.1f} s, "
                f"max {max(latencies):.1f} s; throughput {total / len(ready_at):.2f} s per "
                "proposal (sizing + render, one worker)"
            )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
        for submission in Submission.objects.filter(pk__in=ids):
            for proposal in submission.proposals.all():
                if proposal.pdf:
                    proposal.pdf.delete(save=False)
        Submission.objects.filter(pk__in=ids).delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=9)
    parser.add_argument("--burst", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=180.0)
    args = parser.parse_args()
    timings = time_renders(args.renders)
    print(
        f"render: median {statistics.median(timings):.2f} s over {len(timings)} renders "
        f"(min {min(timings):.2f}, max {max(timings):.2f}; target < 2 s)"
    )
    if args.burst:
        if not os.environ.get("CELERY_BROKER_URL") or not os.environ.get("DATABASE_URL"):
            sys.exit("--burst needs DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis)")
        burst(args.burst, args.timeout)


if __name__ == "__main__":
    main()
