"""Liveness touches nothing; readiness checks the database, cache, broker and storage.

A database blip used to fail the only probe, ``/healthz``, and so restart every web container.
Now the containers ask ``/livez``, which answers with every service down, and a load balancer
asks ``/readyz`` (``/healthz`` still answers as readiness), which names what is down.
"""

from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError

from config import health
from tests.config.test_deployment_files import load_compose
from tests.pipeline.conftest import use_broker

ROOT = Path(__file__).resolve().parents[2]
DEAD_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def everything_down():
    """The database, cache, broker and storage all refusing."""
    refused = OperationalError("connection refused")
    return [
        mock.patch("config.health.connection.cursor", side_effect=refused),
        mock.patch("config.health.cache.set", side_effect=ConnectionError("cache down")),
        mock.patch("config.health.app.connection_for_read", side_effect=ConnectionError("down")),
        mock.patch(
            "config.health.storages",
            {"proposals": mock.Mock(exists=mock.Mock(side_effect=OSError))},
        ),
    ]


def test_liveness_answers_with_every_service_down_and_without_a_query(client, settings):
    """No django_db mark: pytest-django refuses any database access in this test."""
    settings.CELERY_BROKER_URL = DEAD_BROKER
    settings.SECURE_SSL_REDIRECT = True  # the probe asks over plain HTTP
    patches = everything_down()
    for patch in patches:
        patch.start()
    try:
        response = client.get("/livez", HTTP_HOST="10.0.0.7:8000")  # a container's address
    finally:
        for patch in patches:
            patch.stop()
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/readyz", "/healthz"])
def test_readiness_reports_each_service_up(client, path):
    response = client.get(path, HTTP_HOST="10.0.0.7:8000")
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "status": "ok",
        "database": "up",
        "cache": "up",
        "broker": "embedded",  # no broker here: tasks run in-process
        "storage": "up",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("service", ["database", "cache", "broker", "storage"])
def test_readiness_is_503_and_names_the_one_service_down(client, settings, service):
    settings.CELERY_BROKER_URL = DEAD_BROKER if service == "broker" else ""
    [patch] = [
        p for p, name in zip(everything_down(), health.CHECKS, strict=True) if name == service
    ]
    with patch:
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body[service] == "down"
    assert [name for name in health.CHECKS if body[name] == "down"] == [service]


@pytest.fixture
def broker_at(settings):
    """Point the settings and Celery's app at a broker; back to in-process afterwards."""
    previous = (health.app.conf.broker_url, health.app.conf.task_always_eager)

    def point(url: str) -> None:
        settings.CELERY_BROKER_URL = url
        use_broker(url)

    yield point
    use_broker(previous[0] or "")
    health.app.conf.task_always_eager = previous[1]


@pytest.mark.django_db
def test_readiness_reaches_a_real_broker_and_a_dead_one_is_down(client, broker_at, redis_url):
    broker_at(redis_url)
    assert client.get("/readyz").json()["broker"] == "up"
    broker_at(DEAD_BROKER)
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["broker"] == "down"


def test_the_container_probes_ask_liveness():
    web = load_compose()["services"]["web"]
    assert "/livez" in " ".join(web["healthcheck"]["test"])
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "HEALTHCHECK" in dockerfile and "/livez" in dockerfile.split("HEALTHCHECK", 1)[1]
