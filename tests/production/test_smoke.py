"""The documented production start, end to end (issue 25): static files built as the
Dockerfile builds them, gunicorn, a Celery worker and beat with production settings behind
Debian's nginx with TLS, the repository's own nginx configuration (tests/production/stack.py).

A customer walks one questionnaire over HTTPS, CSRF and all, and sends it; the worker sizes and
renders it; an engineer made with ``createsuperuser`` signs in to the admin and downloads the
PDF. It needs nginx, PostgreSQL (DATABASE_URL) and Redis (TEST_REDIS_URL): it skips without
them on a developer's machine and fails in CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import base64
import json
import os
import re
import secrets
import shutil
import time
from io import BytesIO
from urllib.parse import urlencode

import pytest
from django.db import connection
from django_otp.oath import totp
from pypdf import PdfReader

from questionnaire.questions import QUESTIONS
from tests.conftest import require
from tests.pipeline.conftest import worker_database_url
from tests.production.stack import COLLECTSTATIC, NGINX, ROOT, ProductionStack
from tests.questionnaire.conftest import CONTACT
from tests.security.proxy import LoopbackBrowser

CUSTOMER, ENGINEER = "127.0.0.2", "127.0.0.3"
MANAGEMENT_RE = re.compile(r'name="(questionnaire_[0-9a-f]{32}-current_step)" value="([^"]*)"')
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
STATIC_RE = re.compile(r'(?:href|src)="(/static/[^"]+)"')
HASHED_NAME_RE = re.compile(r"\.[0-9a-f]{12}\.\w+$")
PDF_LINK_RE = re.compile(r'href="(/proposals/[0-9a-f-]{36}/v1\.pdf)"')
# The discovery page is posted empty: the detailed path, every question asked.
STEPS = ["welcome", "discovery", *(q.slug for q in QUESTIONS), "contact", "review"]
RENDER_DEADLINE_S = 90
pytestmark = pytest.mark.worker  # a real Celery worker (and beat) on Redis


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    require("nginx (apt-get install nginx)", shutil.which(NGINX) is not None)
    require("PostgreSQL (DATABASE_URL)", connection.vendor == "postgresql")
    redis_url = os.environ.get("TEST_REDIS_URL", "")
    require("Redis (TEST_REDIS_URL)", bool(redis_url))
    with ProductionStack(
        # The server of the test run's database; the stack makes a database of its own there.
        database_url=worker_database_url(),
        redis_url=redis_url,
        work_dir=tmp_path_factory.mktemp("production"),
    ) as running:
        yield running


def browser(stack: ProductionStack, source: str) -> LoopbackBrowser:
    return LoopbackBrowser(stack.tls_port, source, context=stack.ssl_context())


def form_body(page: str, fields: dict[str, str | list[str]]) -> str:
    """The form post of ``page`` (its CSRF token) with ``fields``; a list is a multi-select."""
    token = CSRF_RE.search(page)
    assert token, page[:2000]
    return urlencode({"csrfmiddlewaretoken": token.group(1), **fields}, doseq=True)


def send_questionnaire(customer: LoopbackBrowser) -> str:
    """Walk the wizard with the registry's example answers and send it; the confirmation path."""
    home = customer.request("GET", "/")
    assert home.status == 200
    started = customer.request("POST", "/q/start/", form_body(home.text, {}))
    assert started.status == 302, started.text[:2000]
    path = started.headers["Location"]
    for step in STEPS:
        page = customer.request("GET", path)
        assert page.status == 200, (step, page.status, page.text[:500])
        management = MANAGEMENT_RE.search(page.text)
        assert management, (step, page.text[:2000])
        answers: dict[str, str | list[str]] = {}
        if step == "contact":
            answers = CONTACT
        elif step not in ("welcome", "discovery", "review"):
            answers = next(q for q in QUESTIONS if q.slug == step).example.data
        fields = {management.group(1): step}
        fields.update({f"{step}-{key}": value for key, value in answers.items()})
        sent = customer.request("POST", path, form_body(page.text, fields))
        assert sent.status == 302, (step, sent.status, sent.text[:3000])
        path = sent.headers["Location"]
    assert path.endswith("/confirmation/"), path
    return path


def staff_sign_in(staff: LoopbackBrowser, username: str, password: str, secret: str) -> None:
    """Sign in to the admin as a person would: the password, then a code from the
    authenticator app that holds ``secret`` (``manage.py set_up_second_factor``)."""
    page = staff.request("GET", "/admin/login/")
    assert page.status == 200
    fields = {"username": username, "password": password}
    signed_in = staff.request("POST", "/admin/login/?next=/admin/", form_body(page.text, fields))
    assert signed_in.status == 302, (signed_in.status, signed_in.text[:2000])
    code_page = signed_in.headers["Location"]
    assert code_page.startswith("/admin/second-factor/"), code_page
    page = staff.request("GET", code_page)
    assert page.status == 200
    code = totp(base64.b32decode(secret))
    accepted = staff.request("POST", code_page, form_body(page.text, {"code": f"{code:06d}"}))
    assert accepted.status == 302 and accepted.headers["Location"] == "/admin/", (
        accepted.status,
        accepted.text[:2000],
    )


def wait_for_pdf_link(staff: LoopbackBrowser, reference: str) -> str:
    """Poll the admin, as an engineer waiting for the proposal would, until the submission's
    page links to its first PDF."""
    listing = staff.request("GET", f"/admin/questionnaire/submission/?q={reference}")
    assert listing.status == 200 and reference in listing.text, listing.text[:2000]
    change = re.search(r'href="(/admin/questionnaire/submission/\d+/change/)[^"]*"', listing.text)
    assert change, listing.text[:3000]
    deadline = time.monotonic() + RENDER_DEADLINE_S
    while time.monotonic() < deadline:
        page = staff.request("GET", change.group(1))
        assert page.status == 200
        link = PDF_LINK_RE.search(page.text)
        if link:
            return link.group(1)
        time.sleep(0.5)
    pytest.fail(f"no proposal PDF after {RENDER_DEADLINE_S} s:\n{page.text[:3000]}")


def test_the_dockerfile_builds_the_static_files_as_the_stack_does():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert f"STATIC_MANIFEST=1 python {' '.join(COLLECTSTATIC)}" in dockerfile


def test_a_questionnaire_sent_over_tls_becomes_a_pdf_an_engineer_downloads(stack):
    customer = browser(stack, CUSTOMER)
    confirmation = send_questionnaire(customer)
    page = customer.request("GET", confirmation)
    assert page.status == 200
    reference = re.search(r"TQ-\d{4}-\d{5}", page.text).group(0)

    password = secrets.token_urlsafe(24)
    stack.manage(
        "createsuperuser", "--noinput", "--username", "engineer",
        "--email", "engineer@example.com", env={"DJANGO_SUPERUSER_PASSWORD": password},
    )  # fmt: skip
    secret = stack.manage("set_up_second_factor", "engineer", "--secret-only").strip()
    engineer = browser(stack, ENGINEER)
    staff_sign_in(engineer, "engineer", password, secret)
    pdf_path = wait_for_pdf_link(engineer, reference)
    download = engineer.request("GET", pdf_path)
    assert download.status == 200
    assert download.headers["Content-Type"] == "application/pdf"
    pdf = download.body
    assert pdf.startswith(b"%PDF-")
    reader = PdfReader(BytesIO(pdf))
    assert len(reader.pages) > 1
    assert reference in "".join(page.extract_text() for page in reader.pages[:2])

    for name in ("gunicorn", "worker", "beat", "nginx"):
        assert stack.processes[name].process.poll() is None, stack.processes[name].output()


def test_healthz_answers_through_the_proxies(stack):
    answer = browser(stack, CUSTOMER).request("GET", "/healthz")
    assert answer.status == 200
    assert json.loads(answer.text) == {
        "status": "ok",
        "database": "up",
        "cache": "up",
        "broker": "up",
        "storage": "up",
    }
    live = browser(stack, CUSTOMER).request("GET", "/livez")
    assert (live.status, json.loads(live.text)) == (200, {"status": "ok"})


def test_pages_are_https_only_with_secure_cookies(stack):
    home = browser(stack, CUSTOMER).request("GET", "/")
    assert home.status == 200
    assert "max-age=31536000" in home.headers["Strict-Transport-Security"]
    assert all("Secure" in c for c in home.headers.get_all("Set-Cookie") or [])
    # Plain HTTP to the inner proxy (no TLS proxy in front): redirected to https.
    plain = LoopbackBrowser(stack.inner_port, CUSTOMER).request("GET", "/glossary/")
    assert plain.status == 301 and plain.headers["Location"].startswith("https://")


def test_static_files_are_served_under_hashed_names(stack):
    client = browser(stack, CUSTOMER)
    home = client.request("GET", "/")
    paths = STATIC_RE.findall(home.text)
    assert any("bootstrap" in path for path in paths), paths
    for path in paths:
        assert HASHED_NAME_RE.search(path), path
        answer = client.request("GET", path)
        assert answer.status == 200, path
        assert "immutable" in answer.headers["Cache-Control"], (path, answer.headers)


class SharedLinkVisitor(LoopbackBrowser):
    """Arrives from a page whose address holds a share link (the referrer)."""

    def _connect(self):
        connection, headers = super()._connect()
        headers["Referer"] = f"https://localhost:{self.port}/proposals/shared/{LOGGED_TOKEN}/"
        return connection, headers


LOGGED_TOKEN = "NDJhNTU0ZTUtOTg2ZC00ZDg0LWE3NzMtY2ZlZTFhNWM0ODFk:1wSmok:c2lnbmF0dXJl"


def test_the_access_logs_hold_no_share_or_resume_token(stack):
    visitor = SharedLinkVisitor(stack.tls_port, CUSTOMER, context=stack.ssl_context())
    for path in (
        f"/proposals/shared/{LOGGED_TOKEN}/",
        f"/proposals/shared/{LOGGED_TOKEN}/proposal.pdf",
        f"/q/resume/{LOGGED_TOKEN}/",
    ):
        assert visitor.request("GET", path).status == 404
    for name in ("nginx", "gunicorn"):
        # An access-log line is written once the answer has gone out: wait for the last one.
        process = stack.processes[name]
        process.wait_for(lambda p=process: "GET /q/resume/[token]/ " in p.output(), 10, "log")
        log = process.output()
        assert LOGGED_TOKEN not in log, name
        assert "GET /proposals/shared/[token]/proposal.pdf " in log, name
        assert f'"https://localhost:{stack.tls_port}/proposals/shared/[token]/"' in log, name


def test_a_large_form_post_passes_both_proxies(stack):
    """nginx buffers a body over 16 kB to disk: its workers must be able to."""
    customer = browser(stack, CUSTOMER)
    home = customer.request("GET", "/")
    started = customer.request("POST", "/q/start/", form_body(home.text, {"pad": "x" * 60_000}))
    assert started.status == 302, started.text[:2000]


def test_no_server_error_was_logged(stack):
    """Last in this module: nothing the tests above did was a 5xx or a traceback."""
    nginx = stack.processes["nginx"].output()
    assert not re.search(r'" 5\d\d ', nginx), nginx[-3000:]
    for name in ("gunicorn", "worker"):
        assert "Traceback" not in stack.processes[name].output(), name
