"""A half-configured production fails loudly; a previous key is read; mail gives up in time.

Issue 31: with DEBUG off and no DATABASE_URL, CACHE_URL, CELERY_BROKER_URL or S3_BUCKET the
service used to start on SQLite, a per-process cache, Celery inside the request and the local
disk, and `check --deploy` was green.
"""

import smtplib
import socket
import threading
import time

import pytest
from django.core.mail import get_connection, send_mail

from config import embedded_services
from tests.config.test_settings import PRODUCTION_SERVICES, run_manage

KEY = "a-long-random-production-secret-" + "x7Qp2Lm9" * 6
OLD_KEY = "the-previous-production-secret-" + "Hn4Tq8Zc" * 6
PRODUCTION = {"DJANGO_SECRET_KEY": KEY, "DJANGO_ALLOWED_HOSTS": "sizing.example.com"}


def test_production_without_its_services_does_not_start_and_names_each(tmp_path):
    result = run_manage(
        "check", DJANGO_VAR_DIR=str(tmp_path), DJANGO_EMBEDDED_SERVICES="", **PRODUCTION
    )
    assert result.returncode != 0
    for variable in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "S3_BUCKET"):
        assert f"{variable} is not set" in result.stderr
    assert "DJANGO_EMBEDDED_SERVICES=database,cache,broker,storage" in result.stderr


def test_only_the_missing_service_is_named(tmp_path):
    services = {**PRODUCTION_SERVICES, "S3_BUCKET": ""}
    result = run_manage("check", DJANGO_VAR_DIR=str(tmp_path), **PRODUCTION, **services)
    assert result.returncode != 0
    assert "S3_BUCKET is not set: proposal PDFs on this host's disk" in result.stderr
    assert "CACHE_URL" not in result.stderr and "DATABASE_URL" not in result.stderr


def test_fallbacks_named_on_purpose_start_but_the_deploy_check_warns_about_each(tmp_path):
    started = run_manage("check", DJANGO_VAR_DIR=str(tmp_path), **PRODUCTION)  # "all" by default
    assert started.returncode == 0, started.stderr
    deploy = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", DJANGO_VAR_DIR=str(tmp_path), **PRODUCTION
    )
    assert deploy.returncode != 0
    output = deploy.stdout + deploy.stderr
    for check_id in ("config.W001", "config.W002", "config.W003", "config.W004"):
        assert check_id in output
    assert "Celery inside the web request" in output


def test_debug_on_keeps_the_fallbacks_of_a_developer_machine(tmp_path):
    result = run_manage(
        "check", DJANGO_DEBUG="1", DJANGO_VAR_DIR=str(tmp_path), DJANGO_EMBEDDED_SERVICES=""
    )
    assert result.returncode == 0, result.stderr


def test_an_unknown_service_name_is_refused(tmp_path):
    result = run_manage(
        "check", DJANGO_VAR_DIR=str(tmp_path), DJANGO_EMBEDDED_SERVICES="databse", **PRODUCTION
    )
    assert result.returncode != 0
    assert "DJANGO_EMBEDDED_SERVICES names databse" in result.stderr


def test_missing_counts_an_empty_variable_as_unset():
    environment = {"DATABASE_URL": " ", "CACHE_URL": "redis://r:6379/1", "S3_BUCKET": "b"}
    names = [s.name for s in embedded_services.missing(environment)]
    assert names == ["database", "broker"]


# --- rotating the secret key -------------------------------------------------------------------


def test_previous_keys_come_from_the_environment_and_a_weak_one_is_refused(tmp_path):
    shown = run_manage(
        "shell",
        "-c",
        f"from django.conf import settings; print(settings.SECRET_KEY_FALLBACKS == ['{OLD_KEY}'])",
        DJANGO_VAR_DIR=str(tmp_path),
        DJANGO_SECRET_KEY_FALLBACKS=OLD_KEY,
        **PRODUCTION,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == "True"
    weak = run_manage(
        "check", DJANGO_VAR_DIR=str(tmp_path), DJANGO_SECRET_KEY_FALLBACKS="short", **PRODUCTION
    )
    assert weak.returncode != 0 and "DJANGO_SECRET_KEY must be at least" in weak.stderr


# --- a mail server that never answers ----------------------------------------------------------


def test_an_unanswering_mail_server_is_given_up_on_within_the_timeout(settings):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    # Accepts the connection and never says a word, as a hung SMTP server does.
    threading.Thread(target=lambda: accepted.append(listener.accept()[0]), daemon=True).start()
    assert settings.EMAIL_TIMEOUT == 10  # the default every deployment gets
    settings.EMAIL_TIMEOUT = 1
    connection = get_connection(
        "django.core.mail.backends.smtp.EmailBackend",
        host="127.0.0.1",
        port=listener.getsockname()[1],
        use_tls=False,
    )
    started = time.monotonic()
    try:
        with pytest.raises((TimeoutError, smtplib.SMTPServerDisconnected), match="timed out"):
            send_mail("s", "b", "from@example.com", ["to@example.com"], connection=connection)
        assert time.monotonic() - started < 5
    finally:
        for s in accepted:
            s.close()
        listener.close()
