from unittest import mock

import pytest
from django.db import OperationalError


@pytest.mark.django_db
def test_healthz_reports_database_up(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "up"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_returns_503_when_database_is_down(client):
    with mock.patch("config.health.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "down"
