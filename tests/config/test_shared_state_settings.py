"""With the shared services configured, the settings keep nothing in one process or on one host;
without them, the embedded defaults of `bin/run` stay."""

import json

from tests.config.test_settings import run_manage

PRODUCTION = {"DJANGO_SECRET_KEY": "a-long-random-production-secret-" + "x7Qp2Lm9" * 6}
SHOW = (
    "import json; from django.conf import settings as s; print(json.dumps({"
    "'session': s.SESSION_ENGINE, 'cache': s.CACHES['default']['BACKEND'], "
    "'proposals': s.STORAGES['proposals'], 'beat': s.CELERY_BEAT_SCHEDULER, "
    "'beat_redis': s.CELERY_REDBEAT_REDIS_URL, 'lock': s.CELERY_REDBEAT_LOCK_TIMEOUT, "
    "'loop': s.CELERY_BEAT_MAX_LOOP_INTERVAL}, default=str))"
)


def settings_with(tmp_path, **env: str) -> dict:
    result = run_manage("shell", "-c", SHOW, DJANGO_VAR_DIR=str(tmp_path), **PRODUCTION, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_with_shared_services_sessions_cache_pdfs_and_beat_leave_the_host(tmp_path):
    shown = settings_with(
        tmp_path,
        CACHE_URL="redis://redis:6379/1",
        CELERY_BROKER_URL="redis://redis:6379/0",
        S3_BUCKET="proposals",
        S3_ENDPOINT_URL="http://seaweedfs:8333",
        CELERY_BEAT_LOCK_TIMEOUT="30",
    )
    assert shown["session"] == "django.contrib.sessions.backends.cache"
    assert shown["cache"] == "config.redis_cache.KeptClientRedisCache"
    assert shown["proposals"]["BACKEND"] == "reports.storage.PrivateS3Storage"
    options = shown["proposals"]["OPTIONS"]
    assert (options["bucket_name"], options["endpoint_url"]) == (
        "proposals",
        "http://seaweedfs:8333",
    )
    assert options["addressing_style"] == "path" and options["default_acl"] is None
    assert (options["access_key"], options["secret_key"]) == (None, None)  # boto3's own chain
    assert shown["beat"] == "redbeat.RedBeatScheduler"
    assert shown["beat_redis"] == "redis://redis:6379/0"
    assert (shown["lock"], shown["loop"]) == (30, 5)


def test_without_them_the_embedded_defaults_stay_on_this_host(tmp_path):
    shown = settings_with(tmp_path)
    assert shown["session"] == "django.contrib.sessions.backends.db"
    assert shown["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert shown["proposals"]["BACKEND"] == "reports.storage.PrivateFileSystemStorage"
    assert shown["proposals"]["OPTIONS"]["location"] == str(tmp_path / "private")
