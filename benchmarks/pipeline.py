"""Pipeline benchmark: render time of the demo proposal and where it goes, the time from one
submission to its PDF, and a burst of 20 submissions.

    .venv/bin/python benchmarks/pipeline.py                    # render timing only (no services)
    DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… \\
        .venv/bin/python benchmarks/pipeline.py --single 5     # plus submit → PDF, one at a time
    DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… \\
        .venv/bin/python benchmarks/pipeline.py --burst 20      # plus the queued burst

Part 1 renders the built-in demo proposal ``--renders`` times in this process, set up as a
worker's pool process is (its start-up objects frozen for the garbage collector), and prints the
median wall-clock and CPU time (CPU time is steadier on a shared machine), then the median of
each stage: the template context, the HTML, WeasyPrint's layout (styles, boxes, pages), the PDF
(drawing, fonts, compression) and the proposal checker. Part 2 (only with PostgreSQL and Redis)
migrates the given database and starts the workers as docker-compose.yml does: the render worker
(queues sizing and render) and the mail worker (mail and housekeeping, one process). The render
worker runs at ``--concurrency`` processes, by default once with 1 and once with 2 (the
deployment's setting: one process per core of a 2-core host), each figure printed under its own
name. The answers are sized first as the review page sizes them (without the other
accelerators: the pipeline sizes them in full, inside the clocks). ``--single`` sends one
submission at a time, committed and published as "Send my answers" does, and waits for its
proposal (polled every 10 ms); ``--burst`` sends back to back
and prints each send → ready and the whole burst. Both print where the time goes, from clocks the
worker records (``benchmarks/pipeline_probe.py``): the queue waits, each task, the engine, the
render and its CPU time, the storage write, and the polling. Targets (issue 29): a render under
1 s, a PDF within 1.5 s of sending, all 20 of a burst ready within 20 s. The rows it creates are
deleted afterwards.
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
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

from benchmarks.machine_speed import speed_line  # noqa: E402
from config.celery import freeze_start_up_objects, publish  # noqa: E402
from pipeline.models import Proposal, Recommendation  # noqa: E402
from pipeline.steps import RENDERING, SIZING  # noqa: E402
from questionnaire.models import Submission  # noqa: E402
from questionnaire.review import estimate_on_review  # noqa: E402
from questionnaire.services import START_PIPELINE_TASK  # noqa: E402
from reports.demo import demo_answers, demo_data  # noqa: E402
from reports.document import (  # noqa: E402
    PDF_OPTIONS,
    build_context,
    lay_out,
    render_data,
    render_html,
)
from reports.proposal_check import check_proposal  # noqa: E402

# The contact's country: the review page and the pipeline place the estimate by it.
COUNTRY = "Germany"


def time_renders(count: int) -> list[float]:
    # As a pool process of the worker starts (config/celery.py): start-up objects frozen.
    freeze_start_up_objects()
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


# The segments of "send" → PDF, in the order they happen (``segments``).
SEGMENTS = (
    ("submit", "the send's transaction: the submission row, commit, publish of the start"),
    ("wait start", "the start task waiting in the queue until the worker runs it"),
    ("start", "the start task: the first version's row, the emails to write"),
    ("wait sizing", "from the start's end to the sizing task running"),
    ("sizing", "the sizing task (of which the engine, or its cached sizing: 'engine')"),
    ("engine", "  the engine or the cached sizing, inside the sizing task"),
    ("wait render", "from the sizing's end to the render task running"),
    ("render task", "the render task (of which 'render' and 'store')"),
    ("render", "  reports.document.render_data inside the render task"),
    ("render CPU", "  its CPU time (the rest of 'render' is waiting for a core)"),
    ("store", "  writing the PDF and reading it back, inside the render task"),
    ("seen", "from the render task's end to the benchmark seeing 'ready'"),
    ("not render", "send → seen ready, less the render: what this benchmark's target leaves"),
)


def start_workers(concurrency: int, probe_file: Path) -> list[subprocess.Popen]:
    """The render worker as docker-compose.yml runs it (queues sizing and render, at
    ``concurrency``), with the clocks of ``benchmarks/pipeline_probe.py``, and the mail worker
    (mail and housekeeping, concurrency 1), so the emails of a send go out as deployed instead of
    waiting in a queue nobody reads. Returns when both answer a ping."""
    celery = Path(sys.executable).with_name("celery")
    # this checkout's code, whichever checkout the virtualenv was installed from
    env = {**os.environ, "PIPELINE_PROBE_FILE": str(probe_file), "PYTHONPATH": str(ROOT)}
    names = [f"bench-render-{os.getpid()}", f"bench-mail-{os.getpid()}"]
    workers = []
    for name, queues, processes in (
        (names[0], "sizing,render", concurrency),
        (names[1], "mail,housekeeping", 1),
    ):
        command = [str(celery), "-A", "benchmarks.pipeline_probe", "worker", "-Q", queues]
        command += [f"--concurrency={processes}", "--loglevel=WARNING", "-n", f"{name}@%h"]
        command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        workers.append(
            subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
    from config.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answered = app.control.ping(timeout=1.0) or []
        if all(any(name in reply for reply in map(str, answered)) for name in names):
            break
    else:
        sys.exit("the workers did not answer within 60 s")
    return workers


def submit(number: int, answers: dict) -> tuple[int, float]:
    """One submission, committed and published as "Send my answers" does it
    (``questionnaire.services.submit_answers``); its id, and when its start task was published."""
    published: list[float] = []

    def publish_start() -> None:
        publish(START_PIPELINE_TASK, submission_id)
        published.append(time.time())

    with transaction.atomic():
        submission = Submission.objects.create(
            reference=f"BENCH-{os.getpid()}-{number:03d}"[:20],
            contact_name="Benchmark",
            contact_email="bench@example.com",
            company="Benchmark Ltd",
            contact_role="Head of Machine Learning",
            country=COUNTRY,
            privacy_consent_at=timezone.now(),
            answers=answers,
            pipeline_status=Submission.PipelineStatus.PENDING,
        )
        submission_id = submission.pk
        transaction.on_commit(publish_start, robust=True)
    return submission_id, published[0]


def wait_ready(ids: list[int], started: float, timeout: float) -> dict[int, float]:
    """When each submission's proposal was seen ready (or failed), by id, on the wall clock.

    Polled every 10 ms (a cheap query by primary key); the render task's own end is in the
    segments, so what the polling adds is printed as "seen"."""
    ready_at: dict[int, float] = {}
    while len(ready_at) < len(ids) and time.time() - started < timeout:
        waiting = [pk for pk in ids if pk not in ready_at]
        statuses = Submission.objects.filter(pk__in=waiting).values_list("pk", "pipeline_status")
        for pk, status in statuses:
            if status in ("ready", "failed"):
                ready_at[pk] = time.time()
                if status == "failed":
                    print(f"submission {pk} FAILED")
        time.sleep(0.01)
    return ready_at


def delete_rows(ids: list[int]) -> None:
    for submission in Submission.objects.filter(pk__in=ids):
        for proposal in submission.proposals.all():
            if proposal.pdf:
                proposal.pdf.delete(save=False)
    Submission.objects.filter(pk__in=ids).delete()


def stop_workers(workers: list[subprocess.Popen]) -> None:
    for worker in workers:
        os.killpg(worker.pid, signal.SIGTERM)
    for worker in workers:
        try:
            worker.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def segments(
    probe_file: Path, submitted: dict[int, tuple[float, float]], ready_at: dict[int, float]
) -> dict[str, list[float]]:
    """Each submission's segments [s] from the probe's lines: ``submitted`` is each id's
    (clock started, start task published), ``ready_at`` when the benchmark saw it ready."""
    lines = [json.loads(line) for line in probe_file.read_text().splitlines() if line]
    by_task: dict[tuple[str, str, object], tuple[float, int]] = {}
    inner: list[dict] = []
    for line in lines:
        if line["event"] in ("published", "started", "ended"):
            by_task.setdefault((line["event"], line["task"], line["id"]), (line["at"], line["pid"]))
        else:
            inner.append(line)
    found: dict[str, list[float]] = {name: [] for name, _ in SEGMENTS}
    for pk, (started, published) in submitted.items():
        if pk not in ready_at:
            continue
        recommendation = Recommendation.objects.filter(submission_id=pk, version=1).first()
        proposal = Proposal.objects.filter(submission_id=pk, version=1).first()
        if recommendation is None or proposal is None:
            continue
        tasks = (
            (START_PIPELINE_TASK, pk),
            (SIZING.task_name, recommendation.pk),
            (RENDERING.task_name, proposal.pk),
        )
        runs = [(by_task.get(("started", *task)), by_task.get(("ended", *task))) for task in tasks]
        if any(began is None or ended is None for began, ended in runs):
            continue
        (start_began, _), (start_ended, _) = runs[0]
        (sizing_began, sizing_pid), (sizing_ended, _) = runs[1]
        (render_began, render_pid), (render_ended, _) = runs[2]

        def within(label: str, pid: int, began: float, ended: float, field: str = "seconds"):
            """The clock ``label`` of the task run by ``pid`` between ``began`` and ``ended``
            (another process's task at the same time is not counted)."""
            return sum(
                line[field]
                for line in inner
                if line["event"] == label
                and line["pid"] == pid
                and began <= line["at"] <= ended + 0.001
            )

        found["submit"].append(published - started)
        found["wait start"].append(start_began - published)
        found["start"].append(start_ended - start_began)
        found["wait sizing"].append(sizing_began - start_ended)
        found["sizing"].append(sizing_ended - sizing_began)
        found["engine"].append(within("engine", sizing_pid, sizing_began, sizing_ended))
        found["wait render"].append(render_began - sizing_ended)
        found["render task"].append(render_ended - render_began)
        found["render"].append(within("render", render_pid, render_began, render_ended))
        found["render CPU"].append(within("render", render_pid, render_began, render_ended, "cpu"))
        found["store"].append(within("store", render_pid, render_began, render_ended))
        found["seen"].append(ready_at[pk] - render_ended)
        found["not render"].append(ready_at[pk] - started - found["render"][-1])
    return found


def print_segments(found: dict[str, list[float]]) -> None:
    if not any(found.values()):
        print("(no segments: the probe recorded nothing)")
        return
    print("where send → PDF goes (median ms over the submissions):")
    for name, meaning in SEGMENTS:
        if found[name]:
            median = statistics.median(found[name]) * 1000
            print(f"  {name:<12} {median:8.1f}   max {max(found[name]) * 1000:8.1f}   {meaning}")


def size_as_the_review_did(answers: dict) -> None:
    """The review page sizes the answers before the customer sends them (without the other
    accelerators, so the pipeline sizes them again in full): do the same, before any clock
    starts."""
    estimate_on_review(answers, contact_country=COUNTRY)


@contextmanager
def pipeline_running(concurrency: int) -> Iterator[tuple[dict, Path, list[int]]]:
    """The demo's answers (sized as the review sizes them), the probe's file and the list to put
    each submission's id in, with the workers running; the workers stopped and the rows deleted
    afterwards."""
    answers = demo_answers()
    size_as_the_review_did(answers)
    with tempfile.TemporaryDirectory() as folder:
        probe_file = Path(folder) / "probe.jsonl"
        workers = start_workers(concurrency, probe_file)
        ids: list[int] = []
        try:
            yield answers, probe_file, ids
        finally:
            stop_workers(workers)
            delete_rows(ids)


def single(count: int, timeout: float, concurrency: int) -> None:
    """``count`` submissions one at a time, each awaited: send → finished PDF."""
    with pipeline_running(concurrency) as (answers, probe_file, ids):
        submitted: dict[int, tuple[float, float]] = {}
        ready_at: dict[int, float] = {}
        for number in range(count):
            started = time.time()
            pk, published = submit(number, answers)
            submitted[pk] = (started, published)
            ids.append(pk)
            ready_at.update(wait_ready([pk], started, timeout))
        latencies = [ready_at[pk] - submitted[pk][0] for pk in ready_at]
        if latencies:
            print(
                f"send → PDF, one at a time, concurrency {concurrency}: median "
                f"{statistics.median(latencies):.2f} s over {len(latencies)} (min "
                f"{min(latencies):.2f}, max {max(latencies):.2f}; target < 1.5 s)"
            )
        print_segments(segments(probe_file, submitted, ready_at))


def burst(count: int, timeout: float, concurrency: int) -> None:
    """``count`` submissions sent back to back: each one's send → ready, and the whole burst's."""
    with pipeline_running(concurrency) as (answers, probe_file, ids):
        submitted: dict[int, tuple[float, float]] = {}
        started = time.time()
        for number in range(count):
            sent = time.time()
            pk, published = submit(number, answers)
            ids.append(pk)
            submitted[pk] = (sent, published)
        print(f"submitted {count} in {time.time() - started:.2f} s")
        ready_at = wait_ready(ids, started, timeout)
        total = max(ready_at.values(), default=started) - started
        latencies = sorted(ready_at[pk] - submitted[pk][0] for pk in ready_at)
        print(
            f"burst, concurrency {concurrency}: ready {len(ready_at)}/{count}; whole burst "
            f"{total:.1f} s (target: all {count} within 20 s)"
        )
        if latencies:
            print(
                f"send → ready: first {latencies[0]:.1f} s, median "
                f"{statistics.median(latencies):.1f} s, last {latencies[-1]:.1f} s; "
                f"{total / len(ready_at):.2f} s per proposal"
            )
        # In a burst the waits are the queue; what each task costs is the telling part.
        print_segments(segments(probe_file, submitted, ready_at))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=9)
    parser.add_argument("--single", type=int, default=0)
    parser.add_argument("--burst", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument(
        "--concurrency",
        type=int,
        nargs="+",
        default=[1, 2],
        help="the render worker's processes; each value is run in turn (default: 1, then 2 as "
        "docker-compose.yml runs it)",
    )
    args = parser.parse_args()
    print(speed_line())  # a figure of a shared machine means little without its speed
    timings = time_renders(args.renders)
    print(
        f"render: median {statistics.median(timings):.2f} s over {len(timings)} renders "
        f"(min {min(timings):.2f}, max {max(timings):.2f}; target < 1 s)"
    )
    print(speed_line())
    services = os.environ.get("CELERY_BROKER_URL") and os.environ.get("DATABASE_URL")
    if (args.single or args.burst) and not services:
        sys.exit("--single and --burst need DATABASE_URL and CELERY_BROKER_URL (Redis)")
    if args.single or args.burst:
        call_command("migrate", verbosity=0)
    for concurrency in args.concurrency:
        if args.single:
            single(args.single, args.timeout, concurrency)
            print(speed_line())
        if args.burst:
            burst(args.burst, args.timeout, concurrency)
            print(speed_line())


if __name__ == "__main__":
    main()
