"""Loaded by pytest before Django is configured (``-p tests.environment`` in pyproject.toml).

The tests run the production settings (DEBUG off) with a throwaway secret and plain-HTTP
cookies, so the test client and the browser can talk to the live server over http.
"""

import os
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-used-anywhere-else-0123456789")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_COOKIES", "0")
# The suite runs on the development fallbacks where a test brings no service of its own
# (config/embedded_services.py); the tests of that guard set their own value.
os.environ.setdefault("DJANGO_EMBEDDED_SERVICES", "all")
# The address links in emails use (required when DEBUG is off); the tests' own server's.
os.environ.setdefault("SITE_URL", "http://127.0.0.1:8000")
os.environ.setdefault("DJANGO_VAR_DIR", tempfile.mkdtemp(prefix="sizing-test-var-"))
os.makedirs(os.path.join(os.environ["DJANGO_VAR_DIR"], "staticfiles"), exist_ok=True)
# Tests opt in to a real broker explicitly (TEST_REDIS_URL); everything else runs tasks in-process.
os.environ.pop("CELERY_BROKER_URL", None)
