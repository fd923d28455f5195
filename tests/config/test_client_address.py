"""The client address from a configured trust boundary (config/client_address.py)."""

import pytest
from django.test import RequestFactory

from config.client_address import client_address, client_ip

PROXY = "127.0.0.1"


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    settings.TRUSTED_PROXY_COUNT = 1


def address(remote: str, forwarded_for: str | None = None) -> str:
    extra = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client_address(RequestFactory().get("/", **extra))


def test_without_a_trusted_proxy_the_socket_address_is_the_client(settings):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = [], 0
    assert address("203.0.113.5", "198.51.100.7") == "203.0.113.5"


def test_from_the_trusted_proxy_the_address_it_appended_is_the_client(behind_proxy):
    assert address(PROXY, "203.0.113.5") == "203.0.113.5"
    # Whatever the client sent itself stands to the left of what the proxy appended.
    assert address(PROXY, "198.51.100.7, 10.0.0.1, 203.0.113.5") == "203.0.113.5"
    assert address(PROXY, "::ffff:203.0.113.5") == "203.0.113.5"
    assert address(PROXY) == PROXY  # no header: the proxy itself


def test_a_forwarded_for_header_from_an_untrusted_address_is_ignored(behind_proxy):
    assert address("203.0.113.9", "198.51.100.7") == "203.0.113.9"


def test_two_proxies_by_count_take_the_entry_the_outer_one_appended(settings):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = ["10.0.0.0/8"], 2
    assert address("10.0.0.2", "198.51.100.7, 203.0.113.5, 10.0.0.1") == "203.0.113.5"


def test_a_request_without_an_address_gives_none_to_django_axes_and_unknown_to_the_limits():
    request = RequestFactory().get("/")
    del request.META["REMOTE_ADDR"]
    assert client_ip(request) is None
    assert client_address(request) == "unknown"
