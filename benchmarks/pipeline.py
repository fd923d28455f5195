"""Pipeline benchmark: render time of the demo proposal and where it goes, the time from one
submission to its PDF, and a burst of 20 submissions.

    .venv/bin/python benchmarks/pipeline.py                    # render timing only (no services)
    DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… \\
        .venv/bin/python benchmarks/pipeline.py --single 5     # plus submit → PDF, one at a time
    DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… \\
        .venv/bin/python benchmarks/pipeline.py --burst 20      # plus the queued burst

Part 1 renders the built-in demo proposal ``--renders`` times in this process and prints the
median wall-clock and CPU time (CPU time is steadier on a shared machine), then the median of
each stage: the template context, the HTML, WeasyPrint's layout (styles, boxes, pages), the PDF
(drawing, fonts, compression) and the proposal checker. Part 2 (only with PostgreSQL and Redis)
migrates the given database and starts one Celery worker (concurrency 1, as on our 2-core
machine); ``--single`` submits one submission at a time and waits for its proposal (the
customer's "Send my answers" to a finished PDF), ``--burst`` submits back to back and prints
each submit → ready and the whole burst. Targets (issue 29): a render under 1 s, a PDF within
1.5 s of sending, all 20 of a burst ready within 20 s. The rows it creates are deleted
afterwards.
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
from reports.document import (  # noqa: E402
    PDF_OPTIONS,
    build_context,
    lay_out,
    render_data,
    render_html,
)
from reports.proposal_check import check_proposal  # noqa: E402


def time_renders(count: int) -> list[float]:
    data = demo_data()
    render_data(data)  # warm-up: fonts, templates
    timings, cpu = [], []
    for _ in range(count):
        started, started_cpu = time.perf_counter(), time.process_time()
        rendered = render_data(data)
        timings.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    layouts = "one layout" if rendered.layouts == 1 else f"{rendered.layouts} layouts"
    print(f"demo proposal: {rendered.page_count} pages, {len(rendered.pdf):,} bytes; {layouts}")
    print(f"render CPU time: median {statistics.median(cpu):.2f} s (min {min(cpu):.2f})")
    stages: dict[str, list[float]] = {}
    for _ in range(count):
        for stage, seconds in time_stages(data).items():
            stages.setdefault(stage, []).append(seconds)
    print(
        "where it goes (median): "
        + ", ".join(f"{stage} {statistics.median(s) * 1000:.0f} ms" for stage, s in stages.items())
    )
    return timings


def time_stages(data) -> dict[str, float]:
    """One layout, stage by stage, as ``reports.document.render_data`` runs them [s]. A proposal whose first layout ends on an almost
    empty page or past 14 pages is laid out a second time with tighter appendices (its context
    reused): the render then costs a second "html" and "layout", and one "pdf" and "checker"."""
    marks = [time.perf_counter()]
    build_context(data)
    marks.append(time.perf_counter())
    html = render_html(data)  # the context again, and the template twice (the glossary)
    marks.append(time.perf_counter())
    document = lay_out(html)
    marks.append(time.perf_counter())
    document.write_pdf(**PDF_OPTIONS)
    marks.append(time.perf_counter())
    check_proposal(html=html, pages=document.pages)
    marks.append(time.perf_counter())
    names = ("context", "html", "layout", "pdf", "checker")
    return {name: marks[i + 1] - marks[i] for i, name in enumerate(names)}


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


def submit(number: int, answers: dict) -> int:
    """One submission, queued as "Send my answers" queues it (after commit); its id."""
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
    return submission.pk


def wait_ready(ids: list[int], started: float, timeout: float) -> dict[int, float]:
    """When each submission's proposal was ready (or failed), by id."""
    ready_at: dict[int, float] = {}
    while len(ready_at) < len(ids) and time.perf_counter() - started < timeout:
        statuses = Submission.objects.filter(pk__in=ids).values_list("pk", "pipeline_status")
        for pk, status in statuses:
            if status in ("ready", "failed") and pk not in ready_at:
                ready_at[pk] = time.perf_counter()
                if status == "failed":
                    print(f"submission {pk} FAILED")
        time.sleep(0.05)
    return ready_at


def delete_rows(ids: list[int]) -> None:
    for submission in Submission.objects.filter(pk__in=ids):
        for proposal in submission.proposals.all():
            if proposal.pdf:
                proposal.pdf.delete(save=False)
    Submission.objects.filter(pk__in=ids).delete()


def stop_worker(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()


def single(count: int, timeout: float) -> None:
    """``count`` submissions one at a time, each awaited: send → finished PDF."""
    call_command("migrate", verbosity=0)
    answers = demo_answers()
    worker = start_worker()
    ids: list[int] = []
    latencies = []
    try:
        for number in range(count):
            started = time.perf_counter()
            pk = submit(number, answers)
            ids.append(pk)
            ready = wait_ready([pk], started, timeout)
            if pk in ready:
                latencies.append(ready[pk] - started)
        if latencies:
            print(
                f"send → PDF, one at a time: median {statistics.median(latencies):.2f} s over "
                f"{len(latencies)} (min {min(latencies):.2f}, max {max(latencies):.2f}; "
                "target < 1.5 s)"
            )
    finally:
        stop_worker(worker)
        delete_rows(ids)


def burst(count: int, timeout: float) -> None:
    call_command("migrate", verbosity=0)
    answers = demo_answers()
    worker = start_worker()
    ids: list[int] = []
    submitted_at: dict[int, float] = {}
    try:
        started = time.perf_counter()
        for number in range(count):
            pk = submit(number, answers)
            ids.append(pk)
            submitted_at[pk] = time.perf_counter()
        print(f"submitted {count} in {time.perf_counter() - started:.2f} s")
        ready_at = wait_ready(ids, started, timeout)
        total = max(ready_at.values(), default=started) - started
        latencies = [ready_at[pk] - submitted_at[pk] for pk in ready_at]
        print(
            f"ready: {len(ready_at)}/{count}; whole burst {total:.1f} s "
            f"(target: all {count} within 20 s)"
        )
        if latencies:
            print(
                f"submit→ready: median {statistics.median(latencies):.1f} s, "
                f"max {max(latencies):.1f} s; throughput {total / len(ready_at):.2f} s per "
                "proposal (sizing + render, one worker)"
            )
    finally:
        stop_worker(worker)
        delete_rows(ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=9)
    parser.add_argument("--single", type=int, default=0)
    parser.add_argument("--burst", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=180.0)
    args = parser.parse_args()
    timings = time_renders(args.renders)
    print(
        f"render: median {statistics.median(timings):.2f} s over {len(timings)} renders "
        f"(min {min(timings):.2f}, max {max(timings):.2f}; target < 1 s)"
    )
    # a shared machine's figures mean little without its load (1, 5, 15 minutes)
    print("load average: " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))
    services = os.environ.get("CELERY_BROKER_URL") and os.environ.get("DATABASE_URL")
    if (args.single or args.burst) and not services:
        sys.exit("--single and --burst need DATABASE_URL and CELERY_BROKER_URL (Redis)")
    if args.single:
        single(args.single, args.timeout)
    if args.burst:
        burst(args.burst, args.timeout)


if __name__ == "__main__":
    main()
