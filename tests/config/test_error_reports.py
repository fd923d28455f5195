"""Errors reach a person (issue 31): a failing view and a failing task each reach ADMINS by
email, or Sentry when SENTRY_DSN is set; no token and no answer travels in a report."""

import json
import threading
import zlib
from http.server import BaseHTTPRequestHandler, HTTPServer

import brotli
import pytest
from django.test import Client

from config.error_reports import parse_admins
from tests.config.failing import task_on_fire
from tests.config.test_settings import run_manage

ADMINS = [("Ops", "ops@example.com")]
SECRET_TOKEN = "Zr8QmT2vXk9pLw4s"  # stands for a share-link token in the failing URL


def test_admins_are_read_from_one_line():
    assert parse_admins("Ada Ops <ada@example.com>, ops@example.com, not-an-address") == [
        ("Ada Ops", "ada@example.com"),
        ("ops@example.com", "ops@example.com"),
    ]


@pytest.mark.urls("tests.config.failing")
def test_a_failing_view_emails_the_admins_without_the_token_or_the_answers(settings, mailoutbox):
    settings.ADMINS = ADMINS
    client = Client(raise_request_exception=False)
    response = client.post(
        f"/proposals/shared/{SECRET_TOKEN}/fire/", {"answer": "our secret model"}
    )
    assert response.status_code == 500
    (email,) = mailoutbox
    assert email.to == ["ops@example.com"]
    assert "view on fire" in email.body
    assert "/proposals/shared/[token]/" in email.subject + email.body
    assert SECRET_TOKEN not in email.subject + email.body
    assert "our secret model" not in email.body  # the POST values are hidden, the names kept


def test_a_task_that_fails_for_good_emails_the_admins(settings, mailoutbox):
    settings.ADMINS = ADMINS
    task_on_fire.apply()
    (email,) = mailoutbox
    assert "tests.task_on_fire" in email.subject + email.body
    assert "task on fire" in email.body


class _Ingest(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self):  # noqa: N802 - the standard library's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        encoding = self.headers.get("Content-Encoding")
        if encoding == "gzip":
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        elif encoding == "br":
            body = brotli.decompress(body)
        _Ingest.received.append(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"id": "0" * 32}).encode())

    def log_message(self, *args):
        pass


def test_with_a_dsn_the_failing_view_and_task_reach_sentry_and_no_email_is_sent(tmp_path):
    server = HTTPServer(("127.0.0.1", 0), _Ingest)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Ingest.received.clear()
    script = (
        "import sentry_sdk\n"
        "from django.core import mail\n"
        "from django.test import Client, override_settings\n"
        "from django.test.utils import setup_test_environment\n"
        "setup_test_environment()\n"
        "from tests.config.failing import task_on_fire\n"
        f"SECRET_TOKEN = {SECRET_TOKEN!r}\n"
        "with override_settings(ROOT_URLCONF='tests.config.failing'):\n"
        "    r = Client(raise_request_exception=False).post(\n"
        "        f'/proposals/shared/{SECRET_TOKEN}/fire/', {'answer': 'our secret model'})\n"
        "assert r.status_code == 500, r.status_code\n"
        "task_on_fire.apply()\n"
        "sentry_sdk.flush(10)\n"
        "print('emails', len(mail.outbox))\n"
    )
    try:
        # From a file: Sentry sends the process's arguments, and the script names the token.
        (tmp_path / "fail.py").write_text(script)
        result = run_manage(
            "shell",
            "-c",
            f"exec(open({str(tmp_path / 'fail.py')!r}).read())",
            DJANGO_SECRET_KEY="a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
            DJANGO_ALLOWED_HOSTS="testserver",
            DJANGO_SECURE_SSL_REDIRECT="0",
            DJANGO_VAR_DIR=str(tmp_path),
            DJANGO_ADMINS="Ops <ops@example.com>",
            SENTRY_DSN=f"http://publickey@127.0.0.1:{server.server_port}/1",
        )
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == "emails 0"
    sent = b"\n".join(_Ingest.received).decode()
    assert "view on fire" in sent and "task on fire" in sent
    assert SECRET_TOKEN not in sent and "our secret model" not in sent
