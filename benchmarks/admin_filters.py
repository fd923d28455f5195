"""The staff list with many submissions: how long a fact filter and the model search take.

Usage (from the repository root; PostgreSQL from DATABASE_URL's server)::

    python benchmarks/admin_filters.py                 # 10,000 submissions, 5 timed runs each
    python benchmarks/admin_filters.py --count 2000 --runs 3

It creates a database of its own (``admin_filters_bench``, dropped afterwards), migrates it,
writes ``--count`` submissions whose answers are the four demo customers' in turn (each
submitted through the real service, then copied in bulk), signs an account manager in with
the second factor, and times the admin's submission list as the browser asks for it: no
filter, each fact filter (method, dense or MoE, model size, deployment), and a search by
model name. It prints the median and the slowest of the runs per request, in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATABASE = "admin_filters_bench"
REQUESTS = {
    "no filter": "",
    "method = LoRA": "?method=lora",
    "dense or MoE = MoE": "?architecture=moe",
    "model size = 10B to 100B": "?size=10-100b",
    "deployment = cloud": "?deployment=cloud",
    "search 'llama'": "?q=llama",
}


def _database_url(name: str) -> str:
    base = os.environ.get("DATABASE_URL") or "postgres://root@127.0.0.1:5432/postgres"
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(_database_url("postgres"), autocommit=True) as connection:
        connection.execute(sql)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    _admin_sql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    _admin_sql(f"CREATE DATABASE {DATABASE}")
    os.environ.update(
        DATABASE_URL=_database_url(DATABASE),
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_SECRET_KEY="benchmark-only-secret-" + "Tq7Wm3Zr" * 6,
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_EMBEDDED_SERVICES="cache,broker,storage",
        SITE_URL="http://testserver",
    )
    try:
        return _measure(args.count, args.runs)
    finally:
        from django.db import connections

        connections.close_all()
        _admin_sql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def _measure(count: int, runs: int) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from questionnaire.demo import SCENARIOS
    from questionnaire.management.commands.load_demo import load_scenario
    from questionnaire.models import Submission
    from tests.staff.factories import make_user, sign_in

    setup_test_environment()
    call_command("migrate", verbosity=0)
    started = time.monotonic()
    templates = [load_scenario(s)[0] for s in SCENARIOS]
    copies = []
    for i in range(count - len(templates)):
        t = templates[i % len(templates)]
        copies.append(
            Submission(
                reference=f"B{i:07d}",
                company=f"{t.company} {i}",
                contact_name=t.contact_name,
                contact_email=f"bench{i}@example.com",
                answers=t.answers,
                country=t.country,
                privacy_consent_at=t.privacy_consent_at,
            )
        )
    Submission.objects.bulk_create(copies, batch_size=1000)
    _after_bulk_create(copies)
    print(
        f"{Submission.objects.count():,} submissions written in {time.monotonic() - started:.0f} s"
    )

    client = Client()
    sign_in(client, make_user("Account managers"))
    print(f"{'request':<28}{'median ms':>10}{'max ms':>10}{'rows':>8}")
    for label, query in REQUESTS.items():
        timings = []
        for _ in range(runs):
            began = time.perf_counter()
            response = client.get(f"/admin/questionnaire/submission/{query}")
            timings.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, response.status_code
        rows = response.context["cl"].result_count
        print(f"{label:<28}{statistics.median(timings):>10.0f}{max(timings):>10.0f}{rows:>8,}")
    return 0


def _after_bulk_create(submissions: list) -> None:
    """What saving each submission does besides the row: store what its answers say."""
    try:
        from pipeline.facts import record_facts_of_many
    except ImportError:  # before the facts were stored (the "before" figures)
        return
    record_facts_of_many(submissions)


if __name__ == "__main__":
    sys.exit(main())
