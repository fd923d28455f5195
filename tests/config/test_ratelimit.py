import pytest
from django.core.cache import cache
from django.test import RequestFactory

from config.ratelimit import RateLimit, hit, too_many_requests

LIMIT = RateLimit(scope="test-submit", max_requests=3, window_seconds=3600)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def request_from(address: str, forwarded_for: str | None = None):
    extra = {"REMOTE_ADDR": address}
    if forwarded_for:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return RequestFactory().post("/q/", **extra)


def test_requests_beyond_the_limit_are_refused_until_the_window_ends():
    now = 7200.0 + 600  # ten minutes into a window
    decisions = [hit(LIMIT, request_from("203.0.113.5"), now=now) for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert decisions[-1].retry_after_seconds == 3000
    assert hit(LIMIT, request_from("203.0.113.5"), now=now + 3000).allowed


def test_a_spoofed_forwarded_for_header_does_not_reset_the_count():
    now = 1000.0
    for _ in range(3):
        hit(LIMIT, request_from("203.0.113.5"), now=now)
    spoofed = request_from("203.0.113.5", forwarded_for="198.51.100.77")
    assert not hit(LIMIT, spoofed, now=now).allowed


def test_other_clients_keep_their_own_allowance():
    now = 1000.0
    for _ in range(4):
        hit(LIMIT, request_from("203.0.113.5"), now=now)
    assert hit(LIMIT, request_from("203.0.113.6"), now=now).allowed


@pytest.mark.django_db
def test_refusal_is_a_429_with_retry_after():
    now = 1000.0
    for _ in range(3):
        hit(LIMIT, request_from("203.0.113.5"), now=now)
    request = request_from("203.0.113.5")
    decision = hit(LIMIT, request, now=now)
    response = too_many_requests(request, decision)
    assert response.status_code == 429
    assert response["Retry-After"] == str(decision.retry_after_seconds)
    assert b"Your answers so far are saved" in response.content
