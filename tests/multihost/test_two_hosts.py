"""Two web hosts and two worker hosts that share only PostgreSQL, Redis and S3 (issue 16).

Each host is a real process (gunicorn or ``celery -A config worker``) with its own empty
``var/``; the proposal storage is a bucket of a real SeaweedFS, the cache, the sessions and the
broker one Redis database, the rows the test run's PostgreSQL database. A customer's pages go to
web A and web B in turn and the questionnaire is sent through A; a worker sizes it and starts
rendering, and that worker's host is killed mid-render; the other worker finishes the work
after the sweeper re-queues it (as celery beat would, with the clock moved on instead of
waited for). Staff then find the submission listed on web B and download the PDF there: one
proposal, one object in the bucket, and no file written on any host.
"""

from __future__ import annotations

import hashlib
import os
import re
from datetime import timedelta
from io import BytesIO
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.utils import timezone
from pypdf import PdfReader

from config.celery import app, registered_task
from pipeline.models import Proposal
from pipeline.services import SWEEP_TASK
from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS
from tests.multihost.hosts import Browser, web_command, worker_command
from tests.pipeline.conftest import use_broker, worker_database_url
from tests.questionnaire.conftest import CONTACT
from tests.s3 import free_ports
from tests.server_process import ServerProcess
from tests.staff.factories import (
    PASSWORD,
    authenticator,
    make_user,
    unused_authenticator_code,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# A Redis database of its own, so the worker tests' flush of the shared one cannot touch it.
REDIS_DB = 11
MANAGEMENT_RE = re.compile(r'name="(questionnaire_[0-9a-f]{32}-current_step)" value="([^"]*)"')
# The discovery page is posted empty: the detailed path, every question asked.
STEPS = ["welcome", "discovery", *(q.slug for q in QUESTIONS), "contact", "review"]
RENDER_SECONDS = 6  # each render sleeps this long first (test hook), so a host can die mid-way


def redis_database(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{db}"))


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


@pytest.fixture
def cluster(redis_url, postgres_required, s3_service, s3_bucket, tmp_path, live_env):
    """Start the four hosts; yields them by name with the shared Redis client."""
    shared_redis = redis_database(redis_url, REDIS_DB)
    client = redis.Redis.from_url(shared_redis)
    client.flushdb()
    previous = (app.conf.broker_url, app.conf.task_always_eager)
    use_broker(shared_redis)
    hosts: dict[str, ServerProcess] = {}
    web_ports = free_ports(2)
    try:
        for name in ("web-a", "web-b", "worker-1", "worker-2"):
            var = tmp_path / name / "var"
            var.mkdir(parents=True)
            env = live_env(
                DJANGO_VAR_DIR=str(var),
                DATABASE_URL=worker_database_url(),
                DATABASE_CONN_MAX_AGE="0",
                CACHE_URL=shared_redis,
                CELERY_BROKER_URL=shared_redis,
                PIPELINE_TEST_FAULTS=f"sleep:render:*:{RENDER_SECONDS}",
                **s3_service.settings_env(s3_bucket),
            )
            if name.startswith("web"):
                port = web_ports[0] if name == "web-a" else web_ports[1]
                command = web_command(port)
            else:
                command = worker_command(f"{name}-{tmp_path.name}")
            hosts[name] = ServerProcess(name, command, env, tmp_path / f"{name}.log")
        for name, port in (("web-a", web_ports[0]), ("web-b", web_ports[1])):
            hosts[name].url = f"http://127.0.0.1:{port}"
            hosts[name].wait_for(
                lambda url=hosts[name].url: Browser().answers(f"{url}/healthz") == 200,
                60,
                "gunicorn to answer",
            )
        for name in ("worker-1", "worker-2"):
            hosts[name].wait_for(lambda h=hosts[name]: " ready." in h.output(), 60, "the worker")
        yield hosts, client
    finally:
        for host in hosts.values():
            host.stop()
        use_broker(previous[0] or "")
        app.conf.task_always_eager = previous[1]
        client.flushdb()


@pytest.fixture
def live_env():
    """The environment of a host: production settings over plain HTTP on 127.0.0.1."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "S3_", "CELERY_", "PIPELINE_"))
    }

    def make(**extra: str) -> dict[str, str]:
        return {
            **base,
            # Every host signs cookies and links with the same key: the one secret they share.
            "DJANGO_SECRET_KEY": "multi-host-test-secret-" + "Zq8vL3pX" * 6,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SECURE_COOKIES": "0",
            # Each host names the services it shares through **extra; the rest fall back.
            "DJANGO_EMBEDDED_SERVICES": "all",
            "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
            "CELERY_TASK_SOFT_TIME_LIMIT": "50",
            "CELERY_TASK_TIME_LIMIT": "60",
            "PYTHONUNBUFFERED": "1",
            **extra,
        }

    return make


def send_questionnaire(browser: Browser, web: list[str]) -> str:
    """Walk the wizard with the registry's example answers, each page on the next web host in
    turn, and send it from the first; returns the draft's path."""
    status, _, page = browser.get(f"{web[0]}/")
    assert status == 200
    status, headers, _ = browser.post(
        f"{web[0]}/q/start/", {"csrfmiddlewaretoken": browser.csrf(page)}
    )
    assert status == 302, status
    path = headers["Location"]
    for number, step in enumerate(STEPS):
        host = web[number % 2] if step != "review" else web[0]
        status, _, page = browser.get(f"{host}{path}")
        assert status == 200, (step, status, page[:500])
        management = MANAGEMENT_RE.search(page.decode())
        data = {"csrfmiddlewaretoken": browser.csrf(page), management.group(1): step}
        answers = {}
        if step == "contact":
            answers = CONTACT
        elif step not in ("welcome", "discovery", "review"):
            answers = next(q for q in QUESTIONS if q.slug == step).example.data
        data.update({f"{step}-{key}": value for key, value in answers.items()})
        status, headers, page = browser.post(f"{host}{path}", data)
        assert status == 302, (step, status, page.decode()[:3000])
        path = headers["Location"]
    assert path.endswith("/confirmation/"), path
    return path


def staff_sign_in(browser: Browser, web: str, user) -> None:
    """The password, then a code from the user's authenticator app (set up for them)."""
    device = authenticator(user)
    status, _, page = browser.get(f"{web}/admin/login/")
    assert status == 200
    status, headers, _ = browser.post(
        f"{web}/admin/login/?next=/admin/",
        {
            "csrfmiddlewaretoken": browser.csrf(page),
            "username": user.username,
            "password": PASSWORD,
        },
    )
    assert status == 302 and headers["Location"].startswith("/admin/second-factor/"), headers
    code_page = f"{web}{headers['Location']}"
    status, _, page = browser.get(code_page)
    assert status == 200
    status, headers, _ = browser.post(
        code_page,
        {"csrfmiddlewaretoken": browser.csrf(page), "code": unused_authenticator_code(device)},
    )
    assert status == 302 and headers["Location"] == "/admin/", (status, headers)


def rendering_worker(hosts: dict[str, ServerProcess], proposal_id: int) -> ServerProcess:
    """The worker host that received the render of this proposal."""
    needle = re.compile(r"Task pipeline\.render_proposal\[[^\]]+\] received")
    found = [hosts[n] for n in ("worker-1", "worker-2") if needle.search(hosts[n].output())]
    assert len(found) == 1, [h.name for h in found]
    return found[0]


def test_a_questionnaire_sent_on_web_a_is_rendered_by_a_worker_and_downloaded_on_web_b(
    cluster, s3_service, s3_bucket, tmp_path
):
    hosts, shared = cluster
    web = [hosts["web-a"].url, hosts["web-b"].url]
    customer = Browser()
    confirmation = send_questionnaire(customer, web)
    submission = Submission.objects.get()

    # A worker sizes it and starts rendering; its host dies mid-render.
    waiter = hosts["worker-1"]
    waiter.wait_for(
        lambda: Proposal.objects.filter(submission=submission, status="rendering").exists(),
        90,
        "a worker to start rendering",
    )
    proposal = Proposal.objects.get(submission=submission)
    doomed = rendering_worker(hosts, proposal.pk)
    survivor = hosts["worker-2" if doomed.name == "worker-1" else "worker-1"]
    doomed.kill()
    assert Proposal.objects.get(pk=proposal.pk).status == "rendering"

    # Celery beat's sweeper re-queues work stuck past the time limit: move the clock on rather
    # than wait, then send what beat sends. The surviving host renders the proposal.
    Proposal.objects.filter(pk=proposal.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    registered_task(SWEEP_TASK).apply_async()
    survivor.wait_for(
        lambda: Proposal.objects.get(pk=proposal.pk).status == "done", 120, "the re-queued render"
    )
    proposal.refresh_from_db()
    submission.refresh_from_db()
    assert submission.pipeline_status == "ready"
    assert proposal.attempts == 2
    assert Proposal.objects.filter(submission=submission).count() == 1
    prefix = f"proposals/{submission.public_id}/"
    assert s3_service.keys(s3_bucket, prefix) == [f"{prefix}v1-proposal.pdf"]
    stored = (
        s3_service.client()
        .get_object(Bucket=s3_bucket, Key=f"{prefix}v1-proposal.pdf")["Body"]
        .read()
    )
    assert hashlib.sha256(stored).hexdigest() == proposal.sha256
    assert len(PdfReader(BytesIO(stored)).pages) == proposal.page_count

    # The customer's confirmation page on web B shows the reference.
    status, _, page = customer.get(f"{web[1]}{confirmation}")
    assert status == 200 and submission.reference in page.decode()

    # Staff sign in on web B, find the submission listed and download the PDF there.
    engineer = make_user("Engineers", username="engineer-b")
    staff = Browser()
    staff_sign_in(staff, web[1], engineer)
    status, _, page = staff.get(f"{web[1]}/admin/questionnaire/submission/")
    assert status == 200 and submission.reference in page.decode()
    status, headers, body = staff.get(f"{web[1]}/proposals/{submission.public_id}/v1.pdf")
    assert status == 200 and headers["Content-Type"] == "application/pdf"
    assert body == stored

    # Nothing host-local: sessions, rate-limit counters and the review's sizing are in Redis,
    # and no host wrote a file of its own.
    keys = {key.decode() for key in shared.keys("*")}
    assert any("django.contrib.sessions.cache" in key for key in keys), sorted(keys)[:20]
    assert any(":ratelimit:" in key for key in keys), sorted(keys)[:20]
    assert any(":sizing:" in key for key in keys), sorted(keys)[:20]
    for name in hosts:
        assert files_under(tmp_path / name / "var") == [], name
