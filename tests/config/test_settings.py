"""The settings fail closed: production is the default and a missing secret stops start-up."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


# What a production deployment configures (nothing is reached by `check`): no development fallback.
PRODUCTION_SERVICES = {
    "DJANGO_EMBEDDED_SERVICES": "",
    "DATABASE_URL": "postgres://sizing@db.example.com:5432/sizing",
    "CACHE_URL": "redis://redis.example.com:6379/1",
    "CELERY_BROKER_URL": "redis://redis.example.com:6379/0",
    "S3_BUCKET": "proposals",
}


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.pop("DATABASE_URL", None)
    # A test of the fallback guard sets its own; the others run on the fallbacks knowingly.
    clean["DJANGO_EMBEDDED_SERVICES"] = "all"
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_secret_key_stops_startup_when_debug_is_off(tmp_path):
    result = run_manage("check", DJANGO_VAR_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr
    # The README's handy commands outside bin/run (issue 25): the message says what to do.
    assert "On a development machine set DJANGO_DEBUG=1, as bin/run does" in result.stderr


def test_a_misspelt_boolean_is_refused(tmp_path):
    result = run_manage("check", DJANGO_DEBUG="ture", DJANGO_VAR_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be one of" in result.stderr


@pytest.mark.parametrize(
    "proxy",
    [{}, {"DJANGO_BEHIND_TLS_PROXY": "1", "DJANGO_TRUSTED_PROXIES": "127.0.0.1,10.0.0.0/8"}],
    ids=["direct", "behind-tls-proxy"],
)
def test_check_deploy_is_clean_with_production_settings(tmp_path, proxy):
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
        DJANGO_ALLOWED_HOSTS="sizing.example.com",
        DJANGO_VAR_DIR=str(tmp_path),
        **PRODUCTION_SERVICES,
        **proxy,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_debug_is_off_unless_asked_for():
    from django.conf import settings

    assert settings.DEBUG is False
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


def test_production_cookies_are_secure_and_http_only(tmp_path):
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY, s.CSRF_COOKIE_HTTPONLY, "
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS)",
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
        DJANGO_ALLOWED_HOSTS="sizing.example.com",
        DJANGO_VAR_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-6:] == ["True", "True", "True", "True", "True", "31536000"]


def test_a_malformed_trusted_proxy_stops_startup(tmp_path):
    result = run_manage(
        "check",
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
        DJANGO_TRUSTED_PROXIES="127.0.0.1,nginx",
        DJANGO_VAR_DIR=str(tmp_path),
    )
    assert result.returncode != 0 and "DJANGO_TRUSTED_PROXIES" in result.stderr


def test_emails_never_link_to_localhost_in_production_a_missing_site_url_stops_startup(
    tmp_path, monkeypatch
):
    """Issue 28: the proposal email's links read http://127.0.0.1:8000, the fallback used when
    SITE_URL was not set. With DEBUG off the address must be configured."""
    monkeypatch.delenv("SITE_URL", raising=False)
    result = run_manage(
        "check",
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
        DJANGO_ALLOWED_HOSTS="sizing.example.com",
        DJANGO_VAR_DIR=str(tmp_path),
    )
    assert result.returncode != 0
    assert "SITE_URL must be set when DJANGO_DEBUG is off" in result.stderr
    configured = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.SITE_URL)",
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
        DJANGO_ALLOWED_HOSTS="sizing.example.com",
        DJANGO_VAR_DIR=str(tmp_path),
        SITE_URL="https://sizing.example.com/",
    )
    assert configured.stdout.strip().splitlines()[-1] == "https://sizing.example.com"
    debug = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.SITE_URL)",
        DJANGO_DEBUG="1",
        DJANGO_VAR_DIR=str(tmp_path),
    )
    assert debug.stdout.strip().splitlines()[-1] == "http://127.0.0.1:8000"
