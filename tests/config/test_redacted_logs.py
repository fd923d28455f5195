"""Share-link and resume tokens stay out of the logs (issue 25, Low): gunicorn's access log and
Django's own log write "[token]". nginx's log is checked against the running proxy in
tests/production/test_smoke.py."""

import logging
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.urls import reverse
from gunicorn.config import Config

from config.redacted_logs import TokenRedactingFilter, TokenRedactingLogger, without_tokens

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MmE2ZjAxNjQtYjYwOS00OTk2LWIzNDctNTc4NGFlNDJmYTU0:1wSxyz:Q2hlY2tTaWduYXR1cmU"


@pytest.mark.parametrize(
    "url_name", ["proposals:shared_proposal", "proposals:shared_pdf", "questionnaire:resume_legacy"]
)
def test_every_url_that_carries_a_token_is_written_without_it(url_name):
    path = reverse(url_name, args=[TOKEN])
    redacted = without_tokens(f'"GET {path} HTTP/1.1" 200 "https://example.com{path}"')
    assert TOKEN not in redacted
    assert redacted.count("[token]") == 2


def test_other_paths_are_written_as_they_are():
    line = "GET /q/resume/ /q/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0/model/ /proposals/ab/v1.pdf"
    assert without_tokens(line) == line


def test_gunicorn_access_log_values_hold_no_token():
    path = reverse("proposals:shared_proposal", args=[TOKEN])
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": f"https://sizing.example.com{path}",
        "REMOTE_ADDR": "127.0.0.1",
    }
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    response = SimpleNamespace(status="200 OK", headers=[], sent=10)
    atoms = TokenRedactingLogger(Config()).atoms(response, request, environ, timedelta(0))
    line = Config().access_log_format % atoms
    assert TOKEN not in line and TOKEN not in str(atoms)
    assert "/proposals/shared/[token]/" in line


def test_gunicorn_reads_the_redacting_logger_from_its_config_file():
    printed = subprocess.run(
        [Path(sys.executable).with_name("gunicorn"), "--print-config", "config.wsgi:application"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "config.redacted_logs.TokenRedactingLogger" in printed


def test_djangos_not_found_warning_holds_no_token(client, caplog):
    caplog.handler.addFilter(TokenRedactingFilter())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get(reverse("proposals:shared_proposal", args=[TOKEN])).status_code == 404
    assert "Not Found: /proposals/shared/[token]/" in caplog.text
    assert TOKEN not in caplog.text


def test_the_console_handler_of_the_settings_applies_the_filter(settings):
    console = settings.LOGGING["handlers"]["console"]
    assert "without_tokens" in console["filters"]
    assert settings.LOGGING["filters"]["without_tokens"]["()"].endswith("TokenRedactingFilter")
