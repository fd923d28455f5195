"""What each questionnaire page costs, by its position: time, queries, and the bytes it reads and
writes (the session, the draft), in-process with Django's test client.

    DATABASE_URL=postgres://root@127.0.0.1:5432/wizard_bench CACHE_URL=redis://127.0.0.1:6379/8 \\
        .venv/bin/python benchmarks/wizard_steps.py --walks 20
    … --profile "18 GET review"        # plus cProfile of that request, the slowest functions

Walks ``--walks`` questionnaires the way the load test's customers do
(``benchmarks/load/locustfile.py``: the registry's examples or "not sure yet", a marker in every
notes box), GET then POST on every page, with production settings (debug off; sessions and cache
in Redis with ``CACHE_URL``, as in the load test). Prints per request the median time (and the
CPU time of this process, steadier on a shared machine, and its least over the walks), the queries, the session's size after it and the draft's size. The service time of one page is what
the load test's saturated scenario b multiplies by the queue in front of it: a page whose cost
grows with its position shows here first. The database is migrated; the drafts and submissions
made are deleted afterwards.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# As the load test's server runs (benchmarks/load/run.py): production settings over plain HTTP.
os.environ.setdefault(
    "DJANGO_SECRET_KEY", "wizard-bench-only-0123456789-abcdefghijklmnopqrstuvwxyz"
)
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_COOKIES", "0")
os.environ.setdefault("SITE_URL", "http://testserver")
os.environ.setdefault("EMAIL_BACKEND", "django.core.mail.backends.dummy.EmailBackend")
os.environ.setdefault("DJANGO_VAR_DIR", str(ROOT / "var" / "wizard-bench"))
os.environ.setdefault("DJANGO_EMBEDDED_SERVICES", "storage,cache,broker")
if os.environ.get("CACHE_URL"):
    # Sending queues the pipeline in Redis, as the load test's server does (no worker runs);
    # without a broker Celery would size and render inside the request.
    os.environ.setdefault("CELERY_BROKER_URL", os.environ["CACHE_URL"])
for limit in ("SUBMISSIONS_PER_HOUR", "DRAFTS_PER_HOUR", "RESUME_EMAILS_PER_HOUR"):
    os.environ.setdefault(limit, "1000000")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from benchmarks.machine_speed import speed_line  # noqa: E402
from questionnaire.models import Draft, Submission  # noqa: E402
from questionnaire.questions import DISCOVERY, QUESTIONS  # noqa: E402

WELCOME, CONTACT, REVIEW = "welcome", "contact", "review"
STEPS = [WELCOME, DISCOVERY.slug, *(q.slug for q in QUESTIONS), CONTACT, REVIEW]


def answers_for(marker: str) -> dict[str, dict[str, Any]]:
    """The load test's answers (locustfile.answers_for, mode "mixed")."""
    rng = random.Random(marker)  # noqa: S311 - test data
    posted: dict[str, dict[str, Any]] = {}
    for question in QUESTIONS:
        data = dict(question.example.data) if rng.random() < 0.7 else {"not_sure": "on"}
        data["notes"] = f"{marker} q{question.number}: the ‘anything else’ box, <b>markup</b>"
        posted[question.slug] = data
    posted[CONTACT] = {
        "name": "Bench Customer",
        "email": f"{marker.lower()}@bench.example",
        "company": "Bench Ltd",
        "role": f"Capacity planner {marker}",
        "country": "Germany",
        "consent": "on",
    }
    posted[WELCOME] = posted[DISCOVERY.slug] = posted[REVIEW] = {}
    return posted


class Walk:
    """One customer's questionnaire; every request timed and measured."""

    def __init__(self, profile: str, profiler: cProfile.Profile) -> None:
        self.client = Client()
        self.profile = profile
        self.profiler = profiler

    def request(self, name: str, method: str, url: str, data: dict | None = None) -> Any:
        call = self.client.get if method == "GET" else self.client.post
        profiled = bool(self.profile) and self.profile in name
        with CaptureQueriesContext(connection) as queries:
            started, started_cpu = time.perf_counter(), time.process_time()
            if profiled:
                self.profiler.enable()
            response = call(url, data or {})
            if profiled:
                self.profiler.disable()
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - started_cpu
        if response.status_code not in (200, 302):
            raise SystemExit(f"{name}: status {response.status_code}")
        return response, elapsed, cpu, len(queries)

    def session_bytes(self) -> int:
        session = self.client.session
        return len(json.dumps(dict(session.items()), default=str))


def walk(
    profile: str, profiler: cProfile.Profile, figures: dict[str, dict[str, list[float]]]
) -> uuid.UUID:
    customer = Walk(profile, profiler)
    marker = f"BENCH-{uuid.uuid4().hex[:16]}"
    posted = answers_for(marker)
    draft_id = None

    def measure(name: str, method: str, url: str, data: dict | None = None) -> Any:
        response, elapsed, cpu, queries = customer.request(name, method, url, data)
        row = figures[name]
        row["ms"].append(elapsed * 1000)
        row["cpu"].append(cpu * 1000)
        row["queries"].append(queries)
        row["session"].append(customer.session_bytes())
        step_data = Draft.objects.filter(pk=draft_id).values_list("step_data", flat=True)
        row["draft"].append(len(json.dumps(step_data.first() or {})) if draft_id else 0)
        return response

    # As a load-test customer: the home page, start, every page GET then POST, the confirmation.
    measure("00 GET home", "GET", reverse("questionnaire:home"))
    response = measure("00 POST start", "POST", reverse("questionnaire:start"))
    url = response["Location"]
    draft_id = uuid.UUID(url.split("/")[2])
    management = f"questionnaire_{draft_id.hex}-current_step"
    for number, step in enumerate(STEPS, start=1):
        for method in ("GET", "POST"):
            name = f"{number:02d} {method} {step}"
            data = None
            if method == "POST":
                data = {management: step, **{f"{step}-{k}": v for k, v in posted[step].items()}}
            response = measure(name, method, url, data)
            if method == "POST":
                url = response["Location"]
    measure(f"{len(STEPS) + 1:02d} GET confirmation", "GET", url)
    return draft_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walks", type=int, default=10)
    parser.add_argument(
        "--profile",
        default="",
        help='profile every request whose name contains this, in every walk: "19 GET review", '
        '" GET " for every GET; one cProfile summed over them',
    )
    parser.add_argument(
        "--sort", default="cumulative", help="cProfile order: cumulative, tottime, ..."
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL database of your own")
    call_command("migrate", verbosity=0)
    print(speed_line())  # a figure of a shared machine means little without its speed
    print(
        f"sessions: {settings.SESSION_ENGINE.rsplit('.', 1)[-1]}, "
        f"cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, {args.walks} walks"
    )
    figures: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    drafts = []
    profiler = cProfile.Profile()
    try:
        drafts.append(walk("", profiler, figures))  # warm-up: imports, templates, connections
        figures.clear()
        for _ in range(args.walks):
            drafts.append(walk(args.profile, profiler, figures))
    finally:
        Submission.objects.filter(draft_id__in=drafts).delete()
        Draft.objects.filter(pk__in=drafts).delete()
    print(
        f"{'request':<26}{'median ms':>10}{'CPU ms':>8}{'min CPU':>8}{'max ms':>8}{'queries':>8}"
        f"{'session B':>10}{'draft B':>9}"
    )
    totals, cpu, least = [], [], []
    for name, row in figures.items():
        totals.append(statistics.median(row["ms"]))
        cpu.append(statistics.median(row["cpu"]))
        least.append(min(row["cpu"]))
        print(
            f"{name:<26}{statistics.median(row['ms']):>10.1f}{statistics.median(row['cpu']):>8.1f}"
            f"{min(row['cpu']):>8.1f}"
            f"{max(row['ms']):>8.1f}{statistics.median(row['queries']):>8.0f}"
            f"{statistics.median(row['session']):>10.0f}{statistics.median(row['draft']):>9.0f}"
        )
    print(
        f"one questionnaire: {sum(totals):.0f} ms of service time ({sum(cpu):.0f} ms CPU in this "
        f"process; {sum(least):.0f} ms summing each request's least) over {len(totals)} requests"
    )
    print(speed_line())
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(60)
        print(out.getvalue())


if __name__ == "__main__":
    main()
