"""Finding (high): behind the TLS proxy every customer shared one rate-limit bucket and every
staff login one lockout key, since the client address was always the proxy's.

The client address now comes from ``X-Forwarded-For`` only when the request arrives from a
configured trusted proxy (config/client_address.py); the rate limits and django-axes use it.
These tests drive the app as it runs behind the proxy: the test client with the proxy's
``REMOTE_ADDR``, and a real reverse proxy on 127.0.0.1 in front of the live server.
"""

from urllib.parse import urlparse

import pytest
from django.test import Client

from questionnaire.models import Submission
from tests.questionnaire.conftest import post_step, walk_to_review
from tests.security.proxy import LoopbackBrowser, start_proxy
from tests.staff.factories import PASSWORD, make_user

PROXY = "127.0.0.1"


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    settings.TRUSTED_PROXY_COUNT = 1


@pytest.mark.django_db
def test_customers_behind_the_proxy_have_separate_submission_buckets(settings, behind_proxy):
    settings.SUBMISSIONS_PER_HOUR = 1
    for n in range(1, 4):
        client = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        draft_id = walk_to_review(client)
        assert post_step(client, draft_id, "review", {}).status_code == 302
    assert Submission.objects.count() == 3
    # The same customer again, with a spoofed header of its own in front: same bucket.
    client = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.99, 203.0.113.1")
    draft_id = walk_to_review(client)
    assert post_step(client, draft_id, "review", {}).status_code == 429


@pytest.mark.django_db
def test_a_locked_staff_login_behind_the_proxy_locks_only_that_client(settings, behind_proxy):
    user = make_user("Engineers")
    attacker = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.66")
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        attacker.post("/admin/login/", {"username": user.username, "password": "wrong"})
    locked = attacker.post("/admin/login/", {"username": user.username, "password": PASSWORD})
    assert "_auth_user_id" not in attacker.session and locked.status_code in (403, 429)

    colleague = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.20")
    response = colleague.post(
        "/admin/login/", {"username": user.username, "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302
    assert colleague.session["_auth_user_id"] == str(user.pk)


@pytest.mark.django_db(transaction=True)
def test_through_a_real_reverse_proxy_each_client_has_its_own_draft_allowance(
    settings, live_server, behind_proxy
):
    settings.DRAFTS_PER_HOUR = 2
    server, port = start_proxy(live_server.url)
    try:
        first = LoopbackBrowser(port, "127.0.0.2")
        assert [first.start_questionnaire() for _ in range(3)] == [302, 302, 429]
        # A header of its own does not give the same client a fresh bucket ...
        spoofing = LoopbackBrowser(port, "127.0.0.2", forwarded_for="198.51.100.1")
        assert spoofing.start_questionnaire() == 429
        # ... nor one ending in an unclosed quote (issue 25: it swallowed the proxy's entry).
        quoting = LoopbackBrowser(port, "127.0.0.2", forwarded_for='198.51.100.2, "')
        assert quoting.start_questionnaire() == 429
        # ... while other clients behind the same proxy keep theirs.
        for source in ("127.0.0.3", "127.0.0.4"):
            other = LoopbackBrowser(port, source)
            assert [other.start_questionnaire() for _ in range(2)] == [302, 302]
        # Straight to the app (not through the proxy), a spoofed header counts for nothing:
        app_port = urlparse(live_server.url).port
        direct = LoopbackBrowser(app_port, "127.0.0.5", forwarded_for="203.0.113.77")
        assert [direct.start_questionnaire() for _ in range(3)] == [302, 302, 429]
    finally:
        server.shutdown()
